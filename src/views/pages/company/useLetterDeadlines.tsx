// The deadlines found in an order's letters, as entries of the fiscal calendar's list,
// with what to show while they load or when they cannot be loaded ('Réessayer').
import { useActorRef, useSelector } from '@xstate/react'
import { useFlows } from '../../app-context.tsx'
import { Muted } from '../../components/page.tsx'
import { ErrorState, formatDate, formatEuros } from '../../components/ui.tsx'
import type { DatedEntry } from './DeadlineList.tsx'
import { letterPath } from '../../../../server/contract/rules/mail.ts'

export function useLetterDeadlines(orderId: number) {
  const flows = useFlows('firstScreen')
  const actor = useActorRef(flows.letterDeadlines, { input: { orderId } })
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const error = useSelector(actor, (s) => s.context.error)
  const deadlines = useSelector(actor, (s) => s.context.deadlines)
  const entries: DatedEntry[] = deadlines.map((d) => ({
    id: `courrier-${d.documentId}`,
    date: d.date,
    title: `À traiter : courrier de ${d.sender}`,
    detail: `Échéance lue dans le courrier reçu le ${formatDate(d.receivedAt)}${d.amountCents !== null ? ` ; montant : ${formatEuros(d.amountCents)}` : ''}.`,
    letter: { href: letterPath(d.orderId, d.documentId), label: 'Voir le courrier' },
  }))
  const state = error ? (
    <ErrorState message={error} onRetry={() => actor.send({ type: 'deadlines.retry' })} />
  ) : loading ? (
    <p>
      <Muted role="status">Chargement des échéances de vos courriers…</Muted>
    </p>
  ) : null
  return { entries, state }
}
