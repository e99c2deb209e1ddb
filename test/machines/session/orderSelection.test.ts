import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { orderSelectionMachine } from '../../../src/machines/session/orderSelection.machine.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const orders = [F.atelier, F.boulangerie, F.studio, F.conseil]
const events = [
  { type: 'order.choose', orderId: F.boulangerie.id },
  { type: 'order.choose', orderId: null },
  { type: 'order.choose', orderId: 999 },
  { type: 'selection.cancel' },
] as const

const ModelBased = suite('orderSelection: shortest paths covering every state and transition, replayed')
for (const canCancel of [false, true]) {
  const paths = shortestPaths(orderSelectionMachine, { events, input: { orders, canCancel } })
  ModelBased(`canCancel ${canCancel}: paths reach ${canCancel ? 'chosen and cancelled' : 'chosen only'}`, () => {
    const reached = new Set(paths.map((p) => p.state.value))
    assert.ok(reached.has('chosen'))
    assert.is(reached.has('cancelled'), canCancel)
  })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`canCancel ${canCancel}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const actor = createActor(orderSelectionMachine, { input: { orders, canCancel } })
      await replay(actor, new Deferreds(), path)
      const snapshot = actor.getSnapshot()
      if (snapshot.matches('chosen')) {
        const last = path.steps.at(-1)!.event as { orderId: number | null }
        assert.equal(snapshot.output, { orderId: last.orderId })
        assert.ok(last.orderId === null || orders.some((o) => o.id === last.orderId))
      }
      if (snapshot.matches('cancelled')) assert.equal(snapshot.output, { cancelled: true })
    })
  }
}
ModelBased.run()
