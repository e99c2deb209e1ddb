// « Mes échanges »: /mes-echanges lists the conversations with the provider of the selected order (or of all), open ones
// first; /mes-echanges/:id reads one, each message with who wrote it and when, and answers it (an answer reopens a
// closed conversation). The bell and the e-mails of an answer lead to /mes-echanges/:id (myConversations machine).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, useEffect, useState } from 'react'
import { Link, useParams } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { frenchDateFormat } from '../../../../server/contract/rules/french-date.ts'
import type { myConversationsMachine } from '../../../machines/notifications/myConversations.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, ErrorState, Field, Spinner } from '../../components/ui.tsx'
import { Badge, Muted, PageCard, Row, Rows, Toolbar, useNews, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { color, radius } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { MY_CONVERSATIONS_PATH } from './paths.ts'

type MyConversationsRef = ActorRefFrom<typeof myConversationsMachine>

const when = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })
const stamp = (iso: string) => when.format(new Date(iso))

const Messages = styled('ol')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
`

const Message = styled('li')<{ $team: boolean }>`
  padding: 0.75rem 1rem;
  border-radius: ${radius};
  border: 1px solid ${color.border};
  background: ${(p) => (p.$team ? color.primarySoft : color.surface)};
  overflow-wrap: anywhere;
  p { margin: 0.25rem 0 0; white-space: pre-line; }
`

const Answer = styled('textarea')`
  width: 100%;
  box-sizing: border-box;
  font: inherit;
`

export default function MyConversationsPage(_: PageProps) {
  const params = useParams<{ id?: string }>()
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  const id = params.id === undefined ? null : /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0
  // A new address or another order chosen: a new flow.
  return <MyConversations key={`${order?.id ?? 'tous'}:${id}`} orderId={order?.id ?? null} conversationId={id} />
}

function MyConversations({ orderId, conversationId }: { orderId: number | null; conversationId: number | null }) {
  const flows = useFlows('notifications')
  const actor = useActorRef(flows.myConversations, { input: { orderId, conversationId } })
  // An answer of the provider's rings the bell: read again.
  useNews('message', () => actor.send({ type: 'conversations.refresh' }))
  return conversationId === null ? <ConversationList actor={actor} /> : <Conversation actor={actor} />
}

function ConversationList({ actor }: { actor: MyConversationsRef }) {
  const conversations = useSelector(actor, (s) => s.context.conversations)
  const failed = useSelector(actor, (s) => s.matches({ list: 'failed' }))
  const loadError = useSelector(actor, (s) => s.context.loadError)
  return (
    <PageCard aria-labelledby="my-conversations-title">
      <h2 id="my-conversations-title" tabIndex={-1}>
        Mes échanges
      </h2>
      <Muted>Vos échanges avec notre équipe : chaque « Signaler un problème » et nos réponses. Les conversations ouvertes d’abord.</Muted>
      {failed && <ErrorState message={loadError!} onRetry={() => actor.send({ type: 'conversations.retry' })} />}
      {!failed && conversations === null && <Spinner label="Chargement : vos échanges…" />}
      {!failed &&
        conversations !== null &&
        (conversations.length === 0 ? (
          <p>Aucun échange pour le moment. « Signaler un problème », dans le menu, en commence un.</p>
        ) : (
          <Rows aria-label="Conversations">
            {conversations.map((c) => (
              <Row key={c.id}>
                <div>
                  <Link href={`${MY_CONVERSATIONS_PATH}/${c.id}`}>
                    <strong>{c.subject}</strong> — {c.raisonSociale}
                  </Link>{' '}
                  {c.status === 'open' ? <Badge $tone="warning">Ouverte</Badge> : <Badge $tone="neutral">Close</Badge>}{' '}
                  {c.lastAuthor === 'operator' && <Badge $tone="success">Réponse de notre équipe</Badge>}
                  <div>
                    <Muted>
                      Dernier message le {stamp(c.lastMessageAt)} : {c.lastMessage}
                    </Muted>
                  </div>
                </div>
              </Row>
            ))}
          </Rows>
        ))}
    </PageCard>
  )
}

function Conversation({ actor }: { actor: MyConversationsRef }) {
  const current = useSelector(actor, (s) => s.context.current)
  const failed = useSelector(actor, (s) => s.matches({ conversation: 'failed' }))
  const missing = useSelector(actor, (s) => s.matches({ conversation: 'missing' }))
  const loading = useSelector(actor, (s) => s.matches({ conversation: 'loading' }))
  const loadError = useSelector(actor, (s) => s.context.loadError)
  return (
    <PageCard aria-labelledby="conversation-title">
      <Toolbar>
        <h2 id="conversation-title" tabIndex={-1}>
          {current ? `${current.subject} — ${current.raisonSociale}` : 'Conversation'}
        </h2>
        <Link href={MY_CONVERSATIONS_PATH}>← Tous mes échanges</Link>
      </Toolbar>
      {failed && <ErrorState message={loadError!} onRetry={() => actor.send({ type: 'conversations.retry' })} />}
      {missing && (
        <>
          <p role="alert">Conversation introuvable.</p>
          <Muted>Elle n’existe pas, ou elle concerne une domiciliation qui ne vous est pas accessible.</Muted>
        </>
      )}
      {loading && <Spinner label="Chargement : la conversation…" />}
      {current && !loading && !failed && (
        <>
          <p>
            {current.status === 'open' ? (
              <Badge $tone="warning">Ouverte</Badge>
            ) : (
              <>
                <Badge $tone="neutral">Close</Badge> <Muted>Votre réponse la rouvrira.</Muted>
              </>
            )}
          </p>
          <Messages aria-label="Messages">
            {current.messages.map((m) => (
              <Message key={m.id} $team={m.author.kind === 'operator'}>
                <strong>{m.author.kind === 'operator' ? `${m.author.name}, de notre équipe` : m.author.name}</strong>{' '}
                <Muted>le {stamp(m.createdAt)}</Muted>
                <p>{m.body}</p>
              </Message>
            ))}
          </Messages>
          <AnswerForm actor={actor} />
        </>
      )}
    </PageCard>
  )
}

function AnswerForm({ actor }: { actor: MyConversationsRef }) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const problem = useSelector(actor, (s) => s.context.problem)
  const sendError = useSelector(actor, (s) => s.context.sendError)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const canSend = useSelector(actor, (s) => s.can({ type: 'answer.send', message: 'x' }))
  const [message, setMessage] = useState(draft)
  // An answer sent is emptied by the machine; a refused one stays as typed.
  useEffect(() => setMessage(draft), [draft])
  function submit(event: FormEvent) {
    event.preventDefault()
    if (canSend) actor.send({ type: 'answer.send', message })
  }
  const described = [problem && 'answer-error', 'answer-hint'].filter(Boolean).join(' ')
  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Répondre">
      {sendError && (
        <Alert $kind="error" role="alert">
          Votre message n’a pas été envoyé. {sendError}
        </Alert>
      )}
      <Field id="answer" label="Votre message" hint="Notre équipe le lira et vous répondra ici et par e-mail." error={problem}>
        <Answer
          id="answer"
          value={message}
          rows={5}
          maxLength={5000}
          aria-invalid={!!problem}
          aria-describedby={described}
          onChange={(e) => setMessage(e.target.value)}
        />
      </Field>
      <BusyButton type="submit" busy={busy}>
        Envoyer
      </BusyButton>
    </form>
  )
}
