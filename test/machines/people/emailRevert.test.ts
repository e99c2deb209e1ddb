// « Ce n’était pas vous ? » (/retablir-adresse/:token): the shortest paths covering every state and transition of the
// machine, replayed; then what the paths cannot say on their own (no second send while one is under way, no retry of a
// dead link).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { emailRevertMachine, REVERT_LINK_UNUSABLE } from '../../../src/machines/people/emailRevert.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const TOKEN = 'AbC-12_x'
const DONE =
  'Votre adresse demo@example.com est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.'
const status = (n: number, message: string) => Object.assign(new Error(message), { status: n })
const USED = 'Ce lien a déjà servi : l’adresse a déjà été rétablie.'

function start() {
  const deferreds = new Deferreds()
  const machine = emailRevertMachine.provide({ actors: { revertEmailChange: deferreds.actor() } })
  return { actor: createActor(machine, { input: { token: TOKEN } }), deferreds }
}

const events = [
  { type: 'revert.send' },
  { type: 'xstate.done.actor.revertEmailChange', output: { message: DONE } },
  { type: 'xstate.error.actor.revertEmailChange', error: status(404, 'Ce lien de rétablissement d’adresse est inconnu.') },
  { type: 'xstate.error.actor.revertEmailChange', error: status(410, USED) },
  {
    type: 'xstate.error.actor.revertEmailChange',
    error: status(429, 'Trop de tentatives : veuillez patienter une minute avant de réessayer.'),
  },
  { type: 'xstate.error.actor.revertEmailChange', error: status(409, 'L’adresse demo@example.com est désormais celle d’un autre compte.') },
] as const

const ModelBased = suite('emailRevert: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(emailRevertMachine, { events, input: { token: TOKEN } })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['done', 'failed', 'idle', 'sending', 'unusable'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    // Only what the server says: its message once done, its refusal otherwise; the link's token on every send.
    assert.is(snapshot.context.message, snapshot.matches('done') ? DONE : null)
    assert.is(snapshot.context.error !== null, snapshot.matches('failed') || snapshot.matches('unusable'))
    for (const { id, input } of deferreds.started) assert.equal([id, input], ['revertEmailChange', { token: TOKEN }])
    // A send leaves only from idle or after an ordinary failure.
    assert.is(snapshot.can({ type: 'revert.send' }), snapshot.matches('idle') || snapshot.matches('failed'))
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('emailRevert: examples')

Examples('a double click sends once', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'revert.send' })
  actor.send({ type: 'revert.send' })
  await flush()
  assert.is(deferreds.started.length, 1)
  assert.ok(actor.getSnapshot().hasTag('busy'))
  deferreds.settle('revertEmailChange', { output: { message: DONE } })
  await flush()
  assert.ok(actor.getSnapshot().matches('done'))
  assert.is(actor.getSnapshot().context.message, DONE)
})

Examples('a used link: the server’s message, and no retry; a 429: « Réessayer » sends again', async () => {
  const used = start()
  used.actor.start()
  used.actor.send({ type: 'revert.send' })
  await flush()
  used.deferreds.settle('revertEmailChange', { error: status(410, USED) })
  await flush()
  assert.ok(used.actor.getSnapshot().matches('unusable'))
  assert.is(used.actor.getSnapshot().context.error, USED)
  used.actor.send({ type: 'revert.send' })
  await flush()
  assert.is(used.deferreds.started.length, 1)

  const busy = start()
  busy.actor.start()
  busy.actor.send({ type: 'revert.send' })
  await flush()
  busy.deferreds.settle('revertEmailChange', { error: status(429, 'Trop de tentatives.') })
  await flush()
  assert.ok(busy.actor.getSnapshot().matches('failed'))
  busy.actor.send({ type: 'revert.send' })
  await flush()
  assert.is(busy.deferreds.started.length, 2)
  assert.is(busy.actor.getSnapshot().context.error, null)
})

Examples('the address now another account’s (409): the server’s message, and no « Réessayer »', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'revert.send' })
  await flush()
  deferreds.settle('revertEmailChange', { error: status(409, 'L’adresse demo@example.com est désormais celle d’un autre compte.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('unusable'))
  assert.is(actor.getSnapshot().context.error, 'L’adresse demo@example.com est désormais celle d’un autre compte.')
  assert.not.ok(actor.getSnapshot().can({ type: 'revert.send' }))
})

Examples('a dead link without a message of its own gets the page’s', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'revert.send' })
  await flush()
  deferreds.settle('revertEmailChange', { error: Object.assign(new Error(''), { status: 404 }) })
  await flush()
  assert.is(actor.getSnapshot().context.error, REVERT_LINK_UNUSABLE)
})

Examples.run()
