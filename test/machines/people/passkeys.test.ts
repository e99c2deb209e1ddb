import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Passkey } from '../../../server/contract/people.ts'
import {
  PASSKEY_ADDED,
  PASSKEY_NAME_EMPTY,
  PASSKEY_REMOVED,
  PASSKEY_RENAMED,
  passkeysMachine,
} from '../../../src/machines/people/passkeys.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const laptop: Passkey = { id: 1, name: 'Chrome sur Linux', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null }
const phone: Passkey = { id: 2, name: 'Safari sur iOS', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null }
const cancelled = new Error('Ajout de la clé d’accès annulé.')
const offline = new Error('Impossible de joindre le serveur.')

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = passkeysMachine.provide({
    actors: {
      loadPasskeys: deferreds.actor(),
      createPasskey: deferreds.actor(),
      renamePasskey: deferreds.actor(),
      deletePasskey: deferreds.actor(),
    },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.loadPasskeys', output: [laptop] },
  { type: 'xstate.error.actor.loadPasskeys', error: offline },
  { type: 'passkeys.retry' },
  { type: 'passkey.add' },
  { type: 'xstate.done.actor.createPasskey', output: phone },
  { type: 'xstate.error.actor.createPasskey', error: cancelled },
  { type: 'passkey.rename', passkey: laptop },
  { type: 'passkey.change', name: ' ' },
  { type: 'passkey.change', name: 'Ordinateur du bureau' },
  { type: 'passkey.submit' },
  { type: 'xstate.done.actor.renamePasskey', output: { ...laptop, name: 'Ordinateur du bureau' } },
  { type: 'xstate.error.actor.renamePasskey', error: offline },
  { type: 'passkey.remove', passkey: laptop },
  { type: 'passkey.confirm' },
  { type: 'passkey.cancel' },
  { type: 'xstate.done.actor.deletePasskey', output: { message: 'ok' } },
  { type: 'xstate.error.actor.deletePasskey', error: offline },
] as const

const ModelBased = suite('passkeys: shortest paths covering every state and transition, replayed')
// The state as far as behaviour goes: where, which passkeys, which one is selected, whether an error shows.
const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.passkeys.map((k: Passkey) => `${k.id}:${k.name}`),
    s.context.selected?.id,
    s.context.draftName,
    s.context.error !== null,
  ])
const paths = shortestPaths(passkeysMachine, { events, serializeState, limit: 20_000 })
ModelBased('the model reaches a passkey added, an addition cancelled, a passkey removed', () => {
  assert.ok(
    paths.some((p) => p.state.context.passkeys.some((k) => k.id === phone.id)),
    'added',
  )
  assert.ok(
    paths.some((p) => p.state.context.error === cancelled.message),
    'cancelled',
  )
  assert.ok(
    paths.some((p) => p.steps.some((s) => s.event.type === 'xstate.done.actor.deletePasskey')),
    'removed',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const { context } = actor.getSnapshot()
    // A passkey is removed only after a confirmation, and renamed only to a name.
    for (const { id, input } of deferreds.started) {
      if (id === 'deletePasskey') assert.ok(path.steps.some((s) => s.event.type === 'passkey.confirm'))
      if (id === 'renamePasskey') assert.equal(input, { id: laptop.id, name: 'Ordinateur du bureau' })
    }
    // The list changes only as the server answered; a cancelled ceremony leaves it as it was.
    const added = path.steps.some((s) => s.event.type === 'xstate.done.actor.createPasskey')
    const removed = path.steps.some((s) => s.event.type === 'xstate.done.actor.deletePasskey')
    assert.is(
      context.passkeys.some((k) => k.id === phone.id),
      added,
    )
    if (path.steps.some((s) => s.event.type === 'xstate.done.actor.loadPasskeys'))
      assert.is(
        context.passkeys.some((k) => k.id === laptop.id),
        !removed,
      )
    assert.is(
      notices.length,
      path.steps.filter((s) => s.event.type.startsWith('xstate.done.actor.') && s.event.type !== 'xstate.done.actor.loadPasskeys').length,
    )
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('passkeys: examples')

Examples('add, rename (a name is required), remove after confirmation', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  deferreds.settle('loadPasskeys', { output: [laptop] })
  await flush()
  actor.send({ type: 'passkey.add' })
  await flush()
  deferreds.settle('createPasskey', { error: cancelled })
  await flush()
  assert.equal([actor.getSnapshot().context.passkeys.length, actor.getSnapshot().context.error], [1, cancelled.message])
  actor.send({ type: 'passkey.add' })
  await flush()
  deferreds.settle('createPasskey', { output: phone })
  await flush()
  actor.send({ type: 'passkey.rename', passkey: phone })
  actor.send({ type: 'passkey.change', name: '' })
  actor.send({ type: 'passkey.submit' })
  assert.is(actor.getSnapshot().context.error, PASSKEY_NAME_EMPTY)
  actor.send({ type: 'passkey.change', name: 'iPhone de Camille' })
  actor.send({ type: 'passkey.submit' })
  await flush()
  deferreds.settle('renamePasskey', { output: { ...phone, name: 'iPhone de Camille' } })
  await flush()
  actor.send({ type: 'passkey.remove', passkey: laptop })
  assert.ok(actor.getSnapshot().hasTag('confirm'))
  actor.send({ type: 'passkey.confirm' })
  await flush()
  deferreds.settle('deletePasskey', { output: { message: 'ok' } })
  await flush()
  assert.equal(
    actor.getSnapshot().context.passkeys.map((k) => k.name),
    ['iPhone de Camille'],
  )
  assert.equal(
    notices.map((n) => n.message),
    [PASSKEY_ADDED, PASSKEY_RENAMED, PASSKEY_REMOVED],
  )
})

Examples.run()
