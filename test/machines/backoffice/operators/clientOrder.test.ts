import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { clientOrderMachine } from '../../../../src/backoffice/machines/operators/clientOrder.machine.ts'
import { order, timelinePage } from '../../../util/backoffice-clients.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const unknown = failure(404, 'Domiciliation introuvable.')
const page1 = timelinePage(50, { total: 60 })
const page2 = timelinePage(10, { total: 60, page: 2 })

function start() {
  const deferreds = new Deferreds()
  const machine = clientOrderMachine.provide({ actors: { loadOrder: deferreds.actor(), loadTimeline: deferreds.actor() } })
  return { actor: createActor(machine, { input: { orderId: 12 } }), deferreds }
}

const events = [
  { type: 'xstate.done.actor.loadOrder', output: order },
  { type: 'xstate.error.actor.loadOrder', error: unknown },
  { type: 'order.retry' },
  { type: 'xstate.done.actor.loadTimeline', output: page1 },
  { type: 'xstate.done.actor.loadTimeline', output: page2 },
  { type: 'xstate.error.actor.loadTimeline', error: down },
  { type: 'timeline.retry' },
  { type: 'timeline.page', page: 2 },
] as const

const ModelBased = suite('back office, clientOrder: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(clientOrderMachine, {
  events,
  input: { orderId: 12 },
  serializeState: (s: any) =>
    JSON.stringify([
      s.value,
      s.context.order?.id ?? null,
      s.context.page,
      s.context.timeline?.page ?? null,
      s.context.error,
      s.context.timelineError,
    ]),
})
ModelBased('the model reaches every state of both halves', () => {
  const values = paths.map((p) => p.state.value as { order: string; timeline: string })
  assert.equal([...new Set(values.map((v) => v.order))].sort(), ['failed', 'loading', 'shown'])
  assert.equal([...new Set(values.map((v) => v.timeline))].sort(), ['failed', 'loading', 'shown'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string })
    // The order is read once, then once per « Réessayer »: the timeline's pages never read it again.
    const orderReads = deferreds.started.filter((s) => s.id === 'loadOrder')
    assert.is(orderReads.length, 1 + steps.filter((e) => e.type === 'order.retry').length)
    assert.ok(orderReads.every((s) => JSON.stringify(s.input) === '{"orderId":12}'))
    const timelineReads = deferreds.started.filter((s) => s.id === 'loadTimeline')
    assert.is(timelineReads.length, 1 + steps.filter((e) => e.type === 'timeline.retry' || e.type === 'timeline.page').length)
    assert.equal(timelineReads.at(-1)!.input, { orderId: 12, page: snapshot.context.page })
    assert.is(snapshot.context.page, steps.some((e) => e.type === 'timeline.page') ? 2 : 1)
    // Each half fails on its own: the other keeps what it shows.
    assert.is(snapshot.context.error, snapshot.matches({ order: 'failed' }) ? unknown.message : null)
    assert.is(snapshot.context.timelineError, snapshot.matches({ timeline: 'failed' }) ? down.message : null)
    if (snapshot.matches({ order: 'shown' })) assert.equal(snapshot.context.order, order)
    assert.is(snapshot.hasTag('timelineLoading'), snapshot.matches({ timeline: 'loading' }))
    actor.stop()
  })
}
ModelBased.run()
