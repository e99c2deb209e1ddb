import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  MY_CONVERSATION_MESSAGES,
  type MyConversationsInput,
  myConversationsMachine,
} from '../../../src/machines/notifications/myConversations.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { answeredByCustomer, myConversation, myConversationSummary } from '../../util/my-conversations.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const unknown = failure(404, 'Conversation introuvable.')
const answer = 'Merci, je l’attends.'
const closed = myConversation(3, { status: 'closed', closedAt: '2026-11-20T10:30:00.000Z' })

function start(input: MyConversationsInput) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = myConversationsMachine.provide({
    actors: { loadConversations: deferreds.actor(), loadConversation: deferreds.actor(), answer: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine, { input }), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.loadConversations', output: [myConversationSummary(3), myConversationSummary(5, { status: 'closed' })] },
  { type: 'xstate.error.actor.loadConversations', error: down },
  { type: 'xstate.done.actor.loadConversation', output: closed },
  { type: 'xstate.error.actor.loadConversation', error: unknown },
  { type: 'xstate.error.actor.loadConversation', error: down },
  { type: 'xstate.done.actor.reloadConversation', output: myConversation(3) },
  { type: 'xstate.error.actor.reloadConversation', error: down },
  { type: 'conversations.retry' },
  { type: 'conversations.refresh' },
  { type: 'answer.send', message: answer },
  { type: 'answer.send', message: ' \n ' },
  { type: 'xstate.done.actor.answer', output: answeredByCustomer(3, answer) },
  { type: 'xstate.error.actor.answer', error: down },
] as const

const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.conversations?.length ?? null,
    s.context.current?.status ?? null,
    s.context.current?.messages.length ?? null,
    s.context.problem,
    s.context.sendError,
    s.context.loadError,
  ])

for (const input of [
  { orderId: null, conversationId: null },
  { orderId: 12, conversationId: 3 },
  // /mes-echanges/abc: an address that names no conversation.
  { orderId: 12, conversationId: 0 },
] satisfies MyConversationsInput[]) {
  const where = input.conversationId === null ? '/mes-echanges' : input.conversationId === 0 ? '/mes-echanges/abc' : '/mes-echanges/3'
  const ModelBased = suite(`« Mes échanges » from ${where}: shortest paths covering every state and transition, replayed`)
  const paths = shortestPaths(myConversationsMachine, { events, input, serializeState })
  ModelBased('the model reaches every state of its address', () => {
    const states = [...new Set(paths.map((p) => JSON.stringify(p.state.value)))].sort()
    assert.equal(
      states,
      input.conversationId === null
        ? ['{"list":"failed"}', '{"list":"loading"}', '{"list":"shown"}']
        : input.conversationId === 0
          ? ['{"conversation":"missing"}']
          : [
              '{"conversation":"answering"}',
              '{"conversation":"failed"}',
              '{"conversation":"loading"}',
              '{"conversation":"missing"}',
              '{"conversation":"reading"}',
              '{"conversation":"refreshing"}',
            ],
    )
  })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(describePath(path), async () => {
      const { actor, deferreds, notices } = start(input)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const last = path.steps.at(-1)?.event as { type: string; error?: Error; message?: string } | undefined
      // The list asked is the selected order's; the conversation read is the address's.
      for (const s of deferreds.started.filter((x) => x.id === 'loadConversations')) assert.equal(s.input, { orderId: null })
      for (const s of deferreds.started.filter((x) => x.id === 'loadConversation' || x.id === 'reloadConversation'))
        assert.equal(s.input, { id: 3 })
      // A blank answer is never sent; an answer is sent as typed.
      for (const s of deferreds.started.filter((x) => x.id === 'answer')) assert.equal(s.input, { id: 3, message: answer })
      if (last?.type === 'answer.send' && last.message !== answer)
        assert.equal([snapshot.context.problem, snapshot.context.draft], [MY_CONVERSATION_MESSAGES.empty, last.message])
      // Answered: the conversation shows it (open again), the field is emptied, the person told.
      if (last?.type === 'xstate.done.actor.answer') {
        assert.equal([snapshot.context.current!.status, snapshot.context.current!.messages.length], ['open', 3])
        assert.is(snapshot.context.draft, '')
        assert.equal(notices.at(-1), { kind: 'success', message: MY_CONVERSATION_MESSAGES.sent })
      }
      // Refused: still reading, the answer kept as typed, the reason shown.
      if (last?.type === 'xstate.error.actor.answer')
        assert.equal(
          [snapshot.value, snapshot.context.sendError, snapshot.context.draft],
          [{ conversation: 'reading' }, down.message, answer],
        )
      // Read again: the conversation stays on screen meanwhile; a failure keeps it and says so.
      if (snapshot.matches({ conversation: 'refreshing' })) assert.ok(snapshot.context.current)
      if (last?.type === 'xstate.error.actor.reloadConversation') {
        assert.ok(snapshot.context.current)
        assert.equal(notices.at(-1), { kind: 'error', message: MY_CONVERSATION_MESSAGES.notRefreshed })
      }
      // An address that names no conversation asks the server nothing.
      if (input.conversationId === 0) assert.equal(deferreds.started, [])
      // A conversation the server does not know for this person is « introuvable » for good: no « Réessayer »; a
      // service unavailable can be retried, its reason shown.
      if (last?.type === 'xstate.error.actor.loadConversation')
        assert.equal(
          [snapshot.value, snapshot.context.loadError],
          last.error === unknown ? [{ conversation: 'missing' }, null] : [{ conversation: 'failed' }, down.message],
        )
      if (snapshot.matches({ conversation: 'missing' })) assert.not.ok(snapshot.can({ type: 'conversations.retry' }))
      if (last?.type === 'xstate.error.actor.loadConversations') assert.is(snapshot.context.loadError, down.message)
      assert.is(snapshot.hasTag('busy'), snapshot.matches({ conversation: 'answering' }))
      actor.stop()
    })
  }
  ModelBased.run()
}
