import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { CONVERSATION_MESSAGES, conversationsMachine } from '../../../../src/backoffice/machines/notifications/conversations.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { answered, closedConversation, conversation, conversationSummary } from '../../../util/backoffice-conversations.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const closedMeanwhile = failure(409, 'Cette conversation est close : rouvrez-la avant d’y répondre.')
const reply = 'Bonjour, nous la numérisons à nouveau.'
const other = conversationSummary(5, { raisonSociale: 'Studio Nuage SAS', orderId: 14 })

function start(input: { openId?: number } = {}) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = conversationsMachine.provide({
    actors: { load: deferreds.actor(), open: deferreds.actor(), reply: deferreds.actor(), setStatus: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine, { input }), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [conversationSummary(3), other] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'list.show', shown: 'closed' },
  { type: 'conversation.open', id: 3 },
  { type: 'xstate.done.actor.open', output: conversation(3) },
  { type: 'xstate.error.actor.open', error: down },
  { type: 'conversation.back' },
  { type: 'reply.send', message: reply },
  { type: 'reply.send', message: ' \n ' },
  { type: 'xstate.done.actor.reply', output: answered(3, reply) },
  { type: 'xstate.error.actor.reply', error: closedMeanwhile },
  { type: 'conversation.close' },
  { type: 'conversation.reopen' },
  { type: 'xstate.done.actor.setStatus', output: closedConversation(3) },
  { type: 'xstate.error.actor.setStatus', error: down },
] as const

const ModelBased = suite('back office, Messages: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(conversationsMachine, {
  events,
  input: {},
  serializeState: (s: any) =>
    JSON.stringify([
      s.value,
      s.context.shown,
      s.context.conversations?.length ?? null,
      s.context.current?.id ?? null,
      s.context.current?.status ?? null,
      s.context.current?.messages.length ?? null,
      s.context.problem,
      s.context.sendError,
      s.context.openError,
    ]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'changing',
    'failed',
    'list',
    'loading',
    'opening',
    'reading',
    'replying',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; message?: string; shown?: string })
    const last = steps.at(-1)
    // A blank answer is never sent; an answer is sent as typed.
    for (const s of deferreds.started.filter((x) => x.id === 'reply')) assert.equal(s.input, { id: 3, message: reply })
    if (last?.type === 'reply.send' && last.message !== reply)
      assert.equal([snapshot.value, snapshot.context.problem], ['reading', CONVERSATION_MESSAGES.empty])
    // « Clore » only an open one, « Rouvrir » only a closed one.
    for (const s of deferreds.started.filter((x) => x.id === 'setStatus')) {
      const { status } = s.input as { status: string }
      assert.ok(status === 'closed' || status === 'open')
    }
    // The list asked is the one shown.
    const loads = deferreds.started.filter((x) => x.id === 'load').map((x) => (x.input as { status: string }).status)
    assert.is(loads.at(-1), snapshot.context.shown)
    // Answered: the conversation and its line show the answer, the field is emptied, the operator told.
    if (last?.type === 'xstate.done.actor.reply') {
      assert.is(snapshot.context.current!.messages.length, 2)
      assert.is(snapshot.context.draft, '')
      const line = snapshot.context.conversations?.find((c) => c.id === 3)
      if (line) assert.equal([line.waitingSince, line.messageCount], [null, 2])
      assert.equal(notices.at(-1), { kind: 'success', message: CONVERSATION_MESSAGES.replied('Boulangerie des Lilas SAS') })
    }
    // Refused: still reading, the answer kept as typed, the reason shown.
    if (last?.error === closedMeanwhile)
      assert.equal([snapshot.value, snapshot.context.sendError, snapshot.context.draft], ['reading', closedMeanwhile.message, reply])
    if (last?.type === 'xstate.done.actor.setStatus') assert.is(snapshot.context.current!.status, 'closed')
    if (last?.type === 'xstate.error.actor.open') assert.equal([snapshot.value, snapshot.context.openError], ['list', down.message])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('replying') || snapshot.matches('changing'))
    actor.stop()
  })
}
ModelBased.run()

const Address = suite('back office, Messages at /operateur/messages/3 (« Contacter le client » leads there): opened once the list is read')
Address(
  'the list read, the conversation of the address opens; a failure says why over the list; the list shown again opens nothing',
  async () => {
    const { actor, deferreds } = start({ openId: 3 })
    actor.start()
    deferreds.settle('load', { output: [conversationSummary(3)] })
    await new Promise((r) => setImmediate(r))
    assert.ok(actor.getSnapshot().matches('opening'))
    assert.equal(deferreds.started.at(-1), { id: 'open', input: { id: 3 } })
    deferreds.settle('open', { output: conversation(3) })
    await new Promise((r) => setImmediate(r))
    assert.equal([actor.getSnapshot().value, actor.getSnapshot().context.current?.id], ['reading', 3])
    actor.send({ type: 'list.show', shown: 'open' })
    deferreds.settle('load', { output: [conversationSummary(3)] })
    await new Promise((r) => setImmediate(r))
    assert.is(actor.getSnapshot().value, 'list')
    actor.stop()

    const failed = start({ openId: 99 })
    failed.actor.start()
    failed.deferreds.settle('load', { output: [] })
    await new Promise((r) => setImmediate(r))
    failed.deferreds.settle('open', { error: failure(404, 'Conversation introuvable.') })
    await new Promise((r) => setImmediate(r))
    assert.equal([failed.actor.getSnapshot().value, failed.actor.getSnapshot().context.openError], ['list', 'Conversation introuvable.'])
    failed.actor.stop()
  },
)
Address.run()
