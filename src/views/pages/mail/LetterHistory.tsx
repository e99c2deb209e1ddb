// notifications: "Historique" under the open letter: received, scanned, opened by whom, sent
// by e-mail to whom, filed, forwarded, each with its date; read again after an action on the letter.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useEffect, useRef } from 'react'
import type { LetterEvent, MailDocument } from '../../../../server/contract/mail.ts'
import { useFlows } from '../../app-context.tsx'
import { ErrorState, Spinner } from '../../components/ui.tsx'
import { color } from '../../theme.ts'
import { frenchDateFormat } from '../../../../server/contract/rules/french-date.ts'

const Section = styled('section')`
  h4 { margin: 0 0 0.4rem; font-size: 1rem; }
  ol { margin: 0; padding: 0; list-style: none; }
  li { display: flex; flex-wrap: wrap; gap: 0 0.5rem; padding: 0.3rem 0; border-top: 1px solid ${color.border}; overflow-wrap: anywhere; }
  li > * { min-width: 0; }
  time { color: ${color.muted}; font-size: 0.875rem; }
`

const stamp = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })

/** The French line of one event: "Ouvert par vous", "Envoyé par e-mail à x@y.fr par Julien Moreau"… */
export function historyLabel(event: LetterEvent): string {
  const by = event.actor ? ` par ${event.actor}` : ''
  switch (event.kind) {
    case 'received':
      return 'Reçu'
    case 'scanned':
      return 'Numérisé'
    case 'opened':
      return `Ouvert${by}`
    case 'emailed':
      return `Envoyé par e-mail${event.detail ? ` à ${event.detail}` : ''}${by}`
    case 'moved':
      return event.detail ? `Classé dans « ${event.detail} »${by}` : `Retiré de son dossier${by}`
    case 'forwarded':
      return `Réexpédié${event.detail ? ` à ${event.detail}` : ''}`
  }
}

export function LetterHistory({ letter, refresh }: { letter: MailDocument; refresh: string }) {
  const flows = useFlows('notifications')
  const history = useActorRef(flows.letterHistory, { input: { documentId: letter.id } })
  const events = useSelector(history, (s) => s.context.events)
  const error = useSelector(history, (s) => s.context.error)
  const loading = useSelector(history, (s) => s.matches('loading'))
  const last = useRef(refresh)
  useEffect(() => {
    if (last.current === refresh) return
    last.current = refresh
    history.send({ type: 'history.reload' })
  }, [history, refresh])

  return (
    <Section aria-labelledby={`history-${letter.id}`}>
      <h4 id={`history-${letter.id}`}>Historique</h4>
      {error ? (
        <ErrorState message={error} onRetry={() => history.send({ type: 'history.retry' })} />
      ) : loading && events.length === 0 ? (
        <Spinner size={24} label="Chargement de l’historique…" />
      ) : events.length === 0 ? (
        <p>Aucun événement pour ce courrier.</p>
      ) : (
        <ol>
          {events.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a history's lines in order, without state
            <li key={i}>
              <span>{historyLabel(e)}</span>
              <time dateTime={e.at}>{stamp.format(new Date(e.at))}</time>
            </li>
          ))}
        </ol>
      )}
    </Section>
  )
}
