// The dashboard's "Prochaines échéances": the next three deadlines found in the letters of the
// selected order (of every order with 'Tous'), each opening its letter, and the way to the fiscal
// calendar (the company's tax deadlines, computed in its page).
import { useActorRef, useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { localIsoDate } from '../../../domain/today.ts'
import { upcomingDeadlines } from '../../../domain/deadline.ts'
import { useFlows } from '../../app-context.tsx'
import { formatDay } from '../../components/letterDeadline.tsx'
import { Muted, Rows } from '../../components/page.tsx'
import { Card, ErrorState, formatEuros, Spinner, touchLink } from '../../components/ui.tsx'
import { letterPath } from '../../../../server/contract/rules/mail.ts'

export function NextLetterDeadlines({ orderId }: { orderId: number | null }) {
  const flows = useFlows('firstScreen')
  const actor = useActorRef(flows.letterDeadlines, { input: { orderId } })
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const error = useSelector(actor, (s) => s.context.error)
  const all = useSelector(actor, (s) => s.context.deadlines)
  const next = upcomingDeadlines(all, localIsoDate()).slice(0, 3)
  return (
    <Card aria-labelledby="letter-deadlines-title">
      <h3 id="letter-deadlines-title">Prochaines échéances</h3>
      {error ? (
        <ErrorState message={error} onRetry={() => actor.send({ type: 'deadlines.retry' })} />
      ) : loading ? (
        <Spinner label="Chargement : les échéances de vos courriers…" />
      ) : // The card knows the letters' deadlines only: it does not say that nothing is due (the CFE may be), it sends to
      // the fiscal calendar, which lists the company's tax deadlines with these.
      next.length === 0 ? (
        <p>Aucune échéance relevée dans vos courriers.</p>
      ) : (
        <Rows aria-label="Prochaines échéances de vos courriers">
          {next.map((d) => (
            <li key={d.documentId}>
              <Link className={touchLink()} href={letterPath(d.orderId, d.documentId)}>
                À traiter avant le {formatDay(d.date)}
              </Link>
              <div>
                <Muted>
                  {d.sender}
                  {d.amountCents !== null ? ` · ${formatEuros(d.amountCents)}` : ''}
                </Muted>
              </div>
            </li>
          ))}
        </Rows>
      )}
      <p>
        <Link className={touchLink()} href="/suivi-comptable/calendrier-fiscal">
          Voir le calendrier fiscal
        </Link>
      </p>
    </Card>
  )
}
