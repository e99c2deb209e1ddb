// /operateur/messages: the customers' conversations, open ones first, the one waiting longest first (or the closed
// ones); one opened with its messages, each saying who wrote it; an answer, « Clore », « Rouvrir » (conversations machine).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { Alert, BusyButton, Button, ErrorState, Field, Spinner } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { Actions, Badge, CardBox, Cards } from '../mail/mail.styles.ts'
import { formatDateTime, Inline, Muted, Panel } from '../operators/admin.styles.ts'
import { MESSAGES_PATH } from './paths.ts'
import { conversationsMachine } from '../../../machines/notifications/conversations.machine.ts'

type Conversations = ReturnType<typeof useConversations>
const useConversations = (openId: number | null) =>
  useActorRef(useBackOffice().flows.conversations(conversationsMachine), { input: { openId } })

function Conversation({ conversations }: { conversations: Conversations }) {
  const current = useSelector(conversations, (s) => s.context.current)!
  const problem = useSelector(conversations, (s) => s.context.problem)
  const sendError = useSelector(conversations, (s) => s.context.sendError)
  const draft = useSelector(conversations, (s) => s.context.draft)
  const busy = useSelector(conversations, (s) => s.hasTag('busy'))
  const [message, setMessage] = useState(draft)
  // An answer sent is emptied by the machine; a refused one stays as typed.
  useEffect(() => setMessage(draft), [draft])
  function submit(event: FormEvent) {
    event.preventDefault()
    conversations.send({ type: 'reply.send', message })
  }
  return (
    <Panel aria-labelledby="conversation">
      <h2 id="conversation">
        {current.subject} — {current.raisonSociale} <Muted>(n° {current.orderId})</Muted>
      </h2>
      <p>
        {current.status === 'open' ? <Badge $kind="info">Ouverte</Badge> : <Badge $kind="ok">Close</Badge>}{' '}
        {current.closedBy && current.closedAt && (
          <Muted>
            par {current.closedBy}, le {formatDateTime(current.closedAt)}
          </Muted>
        )}
      </p>
      <ol aria-label="Messages de la conversation">
        {current.messages.map((m) => (
          <li key={m.id}>
            <p>
              <strong>{m.author.kind === 'operator' ? `${m.author.name} (équipe)` : m.author.name}</strong>{' '}
              <Muted>le {formatDateTime(m.createdAt)}</Muted>
            </p>
            <p style={{ whiteSpace: 'pre-line' }}>{m.body}</p>
          </li>
        ))}
      </ol>
      {sendError && (
        <Alert $kind="error" role="alert">
          {sendError}
        </Alert>
      )}
      {current.status === 'open' ? (
        <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Répondre">
          <Field id="reponse" label="Votre réponse (le client la lira et en sera averti par e-mail)" error={problem ?? undefined}>
            <textarea
              id="reponse"
              value={message}
              rows={5}
              maxLength={5000}
              aria-invalid={!!problem}
              aria-describedby={problem ? 'reponse-error' : undefined}
              onChange={(e) => setMessage(e.target.value)}
            />
          </Field>
          <Actions>
            <BusyButton type="submit" busy={busy}>
              Envoyer la réponse
            </BusyButton>
            <Button type="button" $variant="secondary" disabled={busy} onClick={() => conversations.send({ type: 'conversation.close' })}>
              Clore
            </Button>
          </Actions>
        </form>
      ) : (
        <Actions>
          <BusyButton type="button" busy={busy} onClick={() => conversations.send({ type: 'conversation.reopen' })}>
            Rouvrir
          </BusyButton>
        </Actions>
      )}
      <Button type="button" $variant="ghost" disabled={busy} onClick={() => conversations.send({ type: 'conversation.back' })}>
        ← Retour aux conversations
      </Button>
    </Panel>
  )
}

/** /operateur/messages, or /operateur/messages/:id (« Contacter le client » leads there): that conversation opened. */
export default function MessagesPage() {
  const [path] = useLocation()
  const id = /^\/(\d{1,9})\/?$/.exec(path.slice(MESSAGES_PATH.length))?.[1]
  return <Messages key={id ?? ''} openId={id ? Number(id) : null} />
}

function Messages({ openId }: { openId: number | null }) {
  const conversations = useConversations(openId)
  const list = useSelector(conversations, (s) => s.context.conversations)
  const shown = useSelector(conversations, (s) => s.context.shown)
  const failed = useSelector(conversations, (s) => s.matches('failed'))
  const loading = useSelector(conversations, (s) => s.hasTag('loading'))
  const error = useSelector(conversations, (s) => s.context.error)
  const openError = useSelector(conversations, (s) => s.context.openError)
  const opening = useSelector(conversations, (s) => s.hasTag('opening'))
  const reading = useSelector(conversations, (s) => s.context.current !== null)
  if (reading) return <Conversation conversations={conversations} />
  return (
    <Panel aria-labelledby="conversations">
      <h2 id="conversations">{shown === 'open' ? 'Conversations ouvertes' : 'Conversations closes'}</h2>
      <Inline>
        <Button
          type="button"
          $variant={shown === 'open' ? 'primary' : 'secondary'}
          aria-pressed={shown === 'open'}
          onClick={() => conversations.send({ type: 'list.show', shown: 'open' })}
        >
          Ouvertes
        </Button>
        <Button
          type="button"
          $variant={shown === 'closed' ? 'primary' : 'secondary'}
          aria-pressed={shown === 'closed'}
          onClick={() => conversations.send({ type: 'list.show', shown: 'closed' })}
        >
          Closes
        </Button>
      </Inline>
      {failed && <ErrorState message={error!} onRetry={() => conversations.send({ type: 'list.retry' })} />}
      {loading && <Spinner label="Chargement des conversations…" />}
      {openError && (
        <Alert $kind="error" role="alert">
          {openError}
        </Alert>
      )}
      {opening && <Spinner label="Ouverture de la conversation…" />}
      {list && !loading && (
        <p role="status">
          {list.length === 0
            ? shown === 'open'
              ? 'Aucune conversation ouverte.'
              : 'Aucune conversation close.'
            : `${list.length} conversation${list.length > 1 ? 's' : ''}${shown === 'open' ? ', celle qui attend depuis le plus longtemps en premier' : ''}.`}
        </p>
      )}
      {list && !loading && list.length > 0 && (
        <Cards>
          {list.map((c) => (
            <CardBox key={c.id} $flag={c.waitingSince !== null} aria-labelledby={`conversation-${c.id}`}>
              <h3 id={`conversation-${c.id}`}>
                {c.raisonSociale} <Muted>(n° {c.orderId})</Muted>
              </h3>
              <p>
                {c.subject} — {c.messageCount} message{c.messageCount > 1 ? 's' : ''}
                {c.waitingSince ? (
                  <>
                    {' '}
                    <Badge $kind="danger">Attend une réponse depuis le {formatDateTime(c.waitingSince)}</Badge>
                  </>
                ) : null}
              </p>
              <p>
                <Muted>{c.lastMessage}</Muted>
              </p>
              <Actions>
                <Button
                  type="button"
                  disabled={opening}
                  aria-label={`Ouvrir la conversation de ${c.raisonSociale} : ${c.subject}`}
                  onClick={() => conversations.send({ type: 'conversation.open', id: c.id })}
                >
                  Ouvrir
                </Button>
              </Actions>
            </CardBox>
          ))}
        </Cards>
      )}
    </Panel>
  )
}
