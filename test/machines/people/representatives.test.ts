import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Mandataire } from '../../../server/contract/people.ts'
import { ApiError } from '../../../src/api/errors.ts'
import {
  REPRESENTATIVE_ADDED,
  REPRESENTATIVE_REMOVED,
  representativeProblems,
  representativesMachine,
} from '../../../src/machines/people/representatives.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const lea: Mandataire = {
  id: 3,
  firstname: 'Léa',
  lastname: 'Fontaine',
  email: 'lea.fontaine@example.com',
  phone: '06 45 23 17 89',
  createdAt: '2025-01-01T10:00:00.000Z',
}
const paul: Mandataire = {
  id: 9,
  firstname: 'Paul',
  lastname: 'Durand',
  email: 'paul@example.com',
  phone: '06 11 22 33 44',
  createdAt: '2026-11-22T10:00:00.000Z',
}
const offline = new Error('Impossible de joindre le serveur.')

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = representativesMachine.provide({
    actors: { loadRepresentatives: deferreds.actor(), addRepresentative: deferreds.actor(), removeRepresentative: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: { orderId: 2 } }), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.loadRepresentatives', output: [lea] },
  { type: 'xstate.error.actor.loadRepresentatives', error: offline },
  { type: 'representatives.retry' },
  { type: 'representative.new' },
  { type: 'representative.change', draft: { firstname: 'Paul', lastname: 'Durand', email: 'paul@example.com', phone: '12 34' } },
  { type: 'representative.change', draft: { phone: '+33 (0)6 11 22 33 44' } },
  { type: 'representative.submit' },
  { type: 'representative.cancel' },
  { type: 'xstate.done.actor.addRepresentative', output: paul },
  { type: 'xstate.error.actor.addRepresentative', error: offline },
  { type: 'representative.remove', representative: lea },
  { type: 'representative.confirm' },
  { type: 'xstate.done.actor.removeRepresentative', output: { message: 'ok' } },
  { type: 'xstate.error.actor.removeRepresentative', error: offline },
] as const

const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.representatives.map((r: Mandataire) => r.id),
    s.context.selected?.id,
    s.context.draft,
    Object.keys(s.context.problems),
    s.context.error,
  ])
const ModelBased = suite('representatives: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(representativesMachine, { events, input: { orderId: 2 }, serializeState, limit: 20_000 })
ModelBased('the model reaches a representative added, an invalid one refused, one removed', () => {
  assert.ok(
    paths.some((p) => p.state.context.representatives.some((r) => r.id === paul.id)),
    'added',
  )
  assert.ok(
    paths.some((p) => p.state.context.problems.phone !== undefined),
    'invalid',
  )
  assert.ok(
    paths.some((p) => p.steps.some((s) => s.event.type === 'xstate.done.actor.removeRepresentative')),
    'removed',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    for (const { id, input } of deferreds.started) {
      // All four fields, the phone normalised; a removal only after a confirmation.
      if (id === 'addRepresentative')
        assert.equal(input, {
          orderId: 2,
          representative: { firstname: 'Paul', lastname: 'Durand', email: 'paul@example.com', phone: '06 11 22 33 44' },
        })
      if (id === 'removeRepresentative') assert.ok(path.steps.some((s) => s.event.type === 'representative.confirm'))
    }
    const { context } = actor.getSnapshot()
    if (actor.getSnapshot().matches({ ready: 'adding' }) && context.error)
      assert.is(context.draft.firstname, 'Paul', 'what was typed stays')
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('representatives: examples')
Examples('every field is required and checked', () => {
  assert.equal(Object.keys(representativeProblems({ firstname: ' ', lastname: '', email: 'x', phone: '+44 20 7946 0958' })), [
    'firstname',
    'lastname',
    'email',
    'phone',
  ])
  assert.equal(representativeProblems({ firstname: 'A', lastname: 'B', email: 'a@b.fr', phone: '0033 6 12 34 56 78' }), {})
})
Examples('added and removed, each told', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  deferreds.settle('loadRepresentatives', { output: [lea] })
  await flush()
  actor.send({ type: 'representative.new' })
  actor.send({
    type: 'representative.change',
    draft: { firstname: 'Paul', lastname: 'Durand', email: 'paul@example.com', phone: '06.11.22.33.44' },
  })
  actor.send({ type: 'representative.submit' })
  await flush()
  deferreds.settle('addRepresentative', { output: paul })
  await flush()
  actor.send({ type: 'representative.remove', representative: lea })
  actor.send({ type: 'representative.confirm' })
  await flush()
  deferreds.settle('removeRepresentative', { output: { message: 'ok' } })
  await flush()
  assert.equal(actor.getSnapshot().context.representatives, [paul])
  assert.equal(
    notices.map((n) => n.message),
    [REPRESENTATIVE_ADDED, REPRESENTATIVE_REMOVED],
  )
})
Examples(
  "the same person already on the order (the server's 409): its French message shown, what was typed kept, nothing added",
  async () => {
    const { actor, deferreds, notices } = start()
    actor.start()
    deferreds.settle('loadRepresentatives', { output: [lea] })
    await flush()
    actor.send({ type: 'representative.new' })
    const typed = { firstname: 'Léa', lastname: 'Fontaine', email: 'lea.autre@example.com', phone: '07 00 00 00 00' }
    actor.send({ type: 'representative.change', draft: typed })
    actor.send({ type: 'representative.submit' })
    await flush()
    const message =
      'Ce représentant est déjà enregistré : pour changer son adresse e-mail ou son téléphone, retirez-le puis ajoutez-le à nouveau.'
    deferreds.settle('addRepresentative', { error: new ApiError(message, 409, 'CONFLICT') })
    await flush()
    const snapshot = actor.getSnapshot()
    assert.ok(snapshot.matches({ ready: 'adding' }), 'the form stays open')
    assert.is(snapshot.context.error, message)
    assert.equal(snapshot.context.draft, typed)
    assert.equal(snapshot.context.representatives, [lea])
    assert.equal(notices, [])
  },
)
Examples.run()
