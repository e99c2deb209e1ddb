import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { LetterDeadline } from '../../../server/contract/mail.ts'
import { LETTER_DEADLINES_FAILED, letterDeadlinesMachine } from '../../../src/machines/mail/letterDeadlines.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const deadline = (documentId: number, date: string): LetterDeadline => ({
  documentId,
  orderId: 2,
  sender: 'URSSAF Île-de-France',
  kind: 'administratif',
  receivedAt: '2027-01-04T09:00:00.000Z',
  date,
  amountCents: 32000,
})
const list = [deadline(12, '2027-02-15')]

function start(orderId: number | null) {
  const deferreds = new Deferreds()
  const machine = letterDeadlinesMachine.provide({ actors: { loadDeadlines: deferreds.actor() } })
  return { actor: createActor(machine, { input: { orderId } }), deferreds }
}

const events = [
  { type: 'deadlines.retry' },
  { type: 'xstate.done.actor.loadDeadlines', output: list },
  { type: 'xstate.error.actor.loadDeadlines', error: new Error('') },
  { type: 'xstate.error.actor.loadDeadlines', error: new Error('Le service est momentanément indisponible.') },
] as const

const ModelBased = suite('letterDeadlines: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(letterDeadlinesMachine, { events, input: { orderId: 2 } })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'loaded', 'loading'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start(2)
    await replay(actor, deferreds, path)
    const { deadlines, error } = actor.getSnapshot().context
    // Every load is for the order shown; a retry comes only after a failure.
    assert.ok(deferreds.started.every((s) => (s.input as { orderId: number }).orderId === 2))
    assert.is(deferreds.started.length, 1 + path.steps.filter((s) => s.event.type === 'deadlines.retry').length)
    assert.is(error !== null, actor.getSnapshot().matches('failed'))
    if (actor.getSnapshot().matches('loaded')) assert.equal(deadlines, list)
    // What failed, then the server's reason when it gave one.
    const failure = path.steps.at(-1)!.event as { error?: Error }
    if (error !== null)
      assert.is(error, failure.error?.message ? `${LETTER_DEADLINES_FAILED} ${failure.error.message}` : LETTER_DEADLINES_FAILED)
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('letterDeadlines: examples')

Examples("'Tous' loads every order's deadlines", async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await flush()
  assert.equal(deferreds.started[0]!.input, { orderId: null })
})

Examples.run()
