import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { OperatorPasskey } from '../../../../server/contract/operators.ts'
import { myPasskeysMachine, passkeyAdded, passkeyRemoved } from '../../../../src/backoffice/machines/operators/myPasskeys.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string, code?: string) => Object.assign(new Error(message), { status, code })
const offline = failure(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')
const cancelled = new Error('L’ajout de la clé d’accès a été annulé.')
const already = failure(409, 'Cette clé d’accès est déjà enregistrée.', 'CONFLICT')
const gone = failure(404, 'Clé d’accès introuvable.', 'NOT_FOUND')

const usb: OperatorPasskey = { id: 1, name: 'Clé USB', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null }
const phone: OperatorPasskey = { id: 2, name: 'Téléphone', createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = myPasskeysMachine.provide({
    actors: { load: deferreds.actor(), add: deferreds.actor(), remove: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [usb] },
  { type: 'xstate.error.actor.load', error: offline },
  { type: 'list.retry' },
  { type: 'passkey.add' },
  { type: 'xstate.done.actor.add', output: phone },
  { type: 'xstate.error.actor.add', error: cancelled },
  { type: 'xstate.error.actor.add', error: already },
  { type: 'removal.ask', id: 1 },
  { type: 'removal.cancel' },
  { type: 'removal.confirm' },
  { type: 'xstate.done.actor.remove', output: { message: 'La clé d’accès a été supprimée.' } },
  { type: 'xstate.error.actor.remove', error: gone },
] as const

const ModelBased = suite('back office, myPasskeys: shortest paths covering every state and transition, replayed')
// The keys by id, as a set: a second « Ajouter » answering the same key is no new state (the model stays finite).
const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    [...new Set(s.context.passkeys.map((p: OperatorPasskey) => p.id))].sort(),
    s.context.selectedId,
    s.context.error,
    s.context.changeError,
  ])
const paths = shortestPaths(myPasskeysMachine, { events, serializeState })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'adding',
    'confirmingRemoval',
    'failed',
    'list',
    'loading',
    'removing',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; output?: unknown })
    const started = (id: string) => deferreds.started.filter((s) => s.id === id)
    // One load per opening and per « Réessayer »; one prompt per « Ajouter »; a removal only once confirmed, of the key asked.
    assert.is(started('load').length, 1 + steps.filter((e) => e.type === 'list.retry').length)
    assert.is(started('add').length, steps.filter((e) => e.type === 'passkey.add').length)
    assert.is(started('remove').length, steps.filter((e) => e.type === 'removal.confirm').length)
    assert.ok(started('remove').every((s) => JSON.stringify(s.input) === JSON.stringify({ id: 1 })))
    // The list: the keys loaded, the one added after them, the one removed gone; a refusal changes nothing.
    const added = steps.some((e) => e.type === 'xstate.done.actor.add')
    const removed = steps.some((e) => e.type === 'xstate.done.actor.remove')
    if (steps.some((e) => e.type === 'xstate.done.actor.load')) {
      const expected = [...(removed ? [] : [usb]), ...(added ? [phone] : [])]
      assert.equal(snapshot.context.passkeys, expected)
    }
    // A success is told once; the last failure of a change is shown until the next change.
    assert.equal(notices, [
      ...steps
        .filter((e) => e.type === 'xstate.done.actor.add' || e.type === 'xstate.done.actor.remove')
        .map((e) => ({
          kind: 'success',
          message: e.type === 'xstate.done.actor.add' ? passkeyAdded('Téléphone') : passkeyRemoved('Clé USB'),
        })),
    ])
    const last = steps.at(-1)
    if (last?.type === 'xstate.error.actor.add' || last?.type === 'xstate.error.actor.remove')
      assert.is(snapshot.context.changeError, last.error!.message)
    if (last?.type === 'xstate.error.actor.load') assert.is(snapshot.context.error, offline.message)
    assert.is(snapshot.hasTag('busy'), snapshot.matches('adding') || snapshot.matches('removing'))
    if (!snapshot.matches('confirmingRemoval') && !snapshot.matches('removing')) assert.is(snapshot.context.selectedId, null)
    actor.stop()
  })
}
ModelBased.run()
