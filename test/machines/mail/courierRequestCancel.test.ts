import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { CourierRequest } from '../../../server/contract/mail.ts'
import {
  courierRequestCancelMachine,
  REQUEST_CANCELLED,
  REQUEST_NOT_PENDING,
} from '../../../src/machines/mail/courierRequestCancel.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const pending: CourierRequest = {
  id: 5,
  orderId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  createdAt: '2026-11-01T14:15:00.000Z',
  kind: 'réexpédition',
  status: 'en attente',
  letterCount: 4,
  outcome: null,
}
const done: CourierRequest = { ...pending, id: 6, status: 'traitée' }
/** The server's refusals: processed meanwhile (409), gone (404); and a failure that says nothing of the list. */
const processed = Object.assign(new Error(REQUEST_NOT_PENDING), { status: 409 })
const gone = Object.assign(new Error('Demande introuvable.'), { status: 404 })
const unreachable = Object.assign(new Error('Impossible de joindre le serveur.'), { status: 0 })

function start() {
  const deferreds = new Deferreds()
  const removed: number[] = []
  const notices: Notice[] = []
  const rereads: string[] = []
  const machine = courierRequestCancelMachine.provide({
    actors: { removeRequest: deferreds.actor() },
    actions: {
      removed: (_, { id }) => void removed.push(id),
      notify: (_, n) => void notices.push(n),
      listOutdated: () => void rereads.push('courierRequests'),
    },
  })
  return { actor: createActor(machine), deferreds, removed, notices, rereads }
}

const events = [
  { type: 'request.cancel', request: pending },
  { type: 'request.cancel', request: done },
  { type: 'request.confirm' },
  { type: 'request.keep' },
  { type: 'xstate.done.actor.removeRequest', output: { message: 'ok' } },
  { type: 'xstate.error.actor.removeRequest', error: gone },
  { type: 'xstate.error.actor.removeRequest', error: processed },
  { type: 'xstate.error.actor.removeRequest', error: unreachable },
] as const

const ModelBased = suite('courierRequestCancel: shortest paths covering every state and transition, replayed')
for (const path of pathsToReplay(shortestPaths(courierRequestCancelMachine, { events }), ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, removed, rereads } = start()
    await replay(actor, deferreds, path)
    // Only a pending request, and only once confirmed, is removed; the list follows only on success.
    for (const { input } of deferreds.started) assert.equal(input, { orderId: 2, id: 5 })
    if (deferreds.started.length) assert.ok(path.steps.some((s) => s.event.type === 'request.confirm'))
    assert.equal(removed, path.steps.some((s) => s.event.type === 'xstate.done.actor.removeRequest') ? [5] : [])
    // The list is read again exactly after a refusal saying it is out of date (409, 404).
    const refusals = path.steps.filter(
      (s) => s.event.type === 'xstate.error.actor.removeRequest' && [409, 404].includes(s.event.error.status),
    )
    assert.is(rereads.length, refusals.length)
    actor.stop()
  })
}
ModelBased.run()

const Cancel = suite('courierRequestCancel')

Cancel('asks, calls remove, then drops it from the list', async () => {
  const { actor, deferreds, removed, notices } = start()
  actor.start()
  actor.send({ type: 'request.cancel', request: pending })
  assert.ok(actor.getSnapshot().hasTag('confirm'))
  actor.send({ type: 'request.confirm' })
  await flush()
  deferreds.settle('removeRequest', { output: { message: 'La demande a été annulée.' } })
  await flush()
  assert.equal(removed, [5])
  assert.equal(notices, [{ kind: 'success', message: REQUEST_CANCELLED }])
})

Cancel('a processed request cannot be cancelled', () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'request.cancel', request: done })
  assert.ok(actor.getSnapshot().matches('idle'))
  assert.equal(notices, [{ kind: 'error', message: REQUEST_NOT_PENDING }])
  assert.equal(deferreds.started, [])
})

Cancel('processed meanwhile (409): the dialog says why, and the list is read again rather than left saying "En attente"', async () => {
  const { actor, deferreds, removed, rereads } = start()
  actor.start()
  actor.send({ type: 'request.cancel', request: pending })
  actor.send({ type: 'request.confirm' })
  await flush()
  deferreds.settle('removeRequest', { error: processed })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirming'))
  assert.is(actor.getSnapshot().context.error, 'Seule une demande en attente peut être annulée.')
  assert.equal(removed, [])
  assert.equal(rereads, ['courierRequests'])
  // Gone (404): the same.
  actor.send({ type: 'request.confirm' })
  await flush()
  deferreds.settle('removeRequest', { error: gone })
  await flush()
  assert.is(actor.getSnapshot().context.error, 'Demande introuvable.')
  assert.equal(rereads, ['courierRequests', 'courierRequests'])
})

Cancel('a failure that says nothing of the list (the network) stays in the dialog, says why, and keeps the list as it is', async () => {
  const { actor, deferreds, removed, rereads } = start()
  actor.start()
  actor.send({ type: 'request.cancel', request: pending })
  actor.send({ type: 'request.confirm' })
  await flush()
  deferreds.settle('removeRequest', { error: unreachable })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirming'))
  assert.is(actor.getSnapshot().context.error, 'Impossible de joindre le serveur.')
  assert.equal([removed, rereads], [[], []])
})

Cancel.run()
