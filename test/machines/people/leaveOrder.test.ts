import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { ApiError } from '../../../src/api/errors.ts'
import { leaveOrderMachine } from '../../../src/machines/people/leaveOrder.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const studio = { id: 3, raisonSociale: 'Studio Nuage SAS' }
const LEFT = 'Vous n’avez plus accès au courrier de Studio Nuage SAS.'
const offline = new ApiError('Impossible de joindre le serveur.', 0)

function start() {
  const deferreds = new Deferreds()
  const left: { orderId: number; message: string }[] = []
  const machine = leaveOrderMachine.provide({
    actors: { leaveOrder: deferreds.actor() },
    actions: { left: (_, params) => void left.push(params) },
  })
  return { actor: createActor(machine), deferreds, left }
}

const events = [
  { type: 'leave.open', order: studio },
  { type: 'leave.confirm' },
  { type: 'leave.cancel' },
  { type: 'xstate.done.actor.leaveOrder', output: { message: LEFT } },
  { type: 'xstate.error.actor.leaveOrder', error: offline },
] as const

const ModelBased = suite('leaveOrder: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(leaveOrderMachine, { events })
ModelBased('the model leaves, and keeps the confirmation on a failure', () => {
  assert.ok(paths.some((p) => p.state.value === 'left'))
  assert.ok(paths.some((p) => p.state.value === 'confirming' && p.state.context.error === offline.message))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, left } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const done = path.steps.some((s) => s.event.type === 'xstate.done.actor.leaveOrder')
    assert.equal(left, done ? [{ orderId: studio.id, message: LEFT }] : [])
    assert.ok(deferreds.started.every((s) => (s.input as { orderId: number }).orderId === studio.id))
    assert.is(snapshot.status === 'done', done)
    // The dialog is open while an order is chosen, until it is left.
    assert.is(snapshot.hasTag('dialog'), snapshot.context.selected !== null && !done)
    actor.stop()
  })
}
ModelBased.run()
