import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { LetterEvent } from '../../../server/contract/mail.ts'
import { HISTORY_FAILED, letterHistoryMachine } from '../../../src/machines/mail/letterHistory.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const received: LetterEvent = { kind: 'received', at: '2027-01-04T09:00:00.000Z', detail: null, actor: null }
const opened: LetterEvent = { kind: 'opened', at: '2027-01-05T10:00:00.000Z', detail: null, actor: 'vous' }
const history = { events: [received, opened] }

function start() {
  const deferreds = new Deferreds()
  const machine = letterHistoryMachine.provide({ actors: { loadHistory: deferreds.actor() } })
  return { actor: createActor(machine, { input: { documentId: 21 } }), deferreds }
}

const events = [
  { type: 'history.retry' },
  { type: 'history.reload' },
  { type: 'xstate.done.actor.loadHistory', output: history },
  { type: 'xstate.error.actor.loadHistory', error: new Error('') },
  { type: 'xstate.error.actor.loadHistory', error: new Error('Le service est momentanément indisponible.') },
] as const

const ModelBased = suite('letterHistory: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(letterHistoryMachine, { events, input: { documentId: 21 } })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'loaded', 'loading'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const { events: shown, error } = actor.getSnapshot().context
    // Every read is of this letter; one more for each retry after a failure and each reload asked for.
    assert.ok(deferreds.started.every((s) => (s.input as { documentId: number }).documentId === 21))
    assert.is(
      deferreds.started.length,
      1 + path.steps.filter((s) => s.event.type === 'history.retry' || s.event.type === 'history.reload').length,
    )
    assert.is(error !== null, actor.getSnapshot().matches('failed'))
    if (actor.getSnapshot().matches('loaded')) assert.equal(shown, history.events)
    // What failed, then the server's reason when it gave one.
    const failure = path.steps.at(-1)!.event as { error?: Error }
    if (error !== null) assert.is(error, failure.error?.message ? `${HISTORY_FAILED} ${failure.error.message}` : HISTORY_FAILED)
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('letterHistory: examples')

Examples('opened while its history is read: read again, and the older answer (without "Ouvert") is not shown', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  actor.send({ type: 'history.reload' })
  await flush()
  assert.is(deferreds.count('loadHistory'), 2)
  deferreds.settleAt('loadHistory', 0, { output: { events: [received] } })
  await flush()
  assert.ok(actor.getSnapshot().matches('loading'), 'the older read is dropped')
  deferreds.settle('loadHistory', { output: history })
  await flush()
  assert.ok(actor.getSnapshot().matches('loaded'))
  assert.equal(actor.getSnapshot().context.events, history.events)
})

Examples.run()
