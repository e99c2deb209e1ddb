import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { AuthUser } from '../../../server/contract/session.ts'
import { passkeyLoginMachine } from '../../../src/machines/session/passkeyLogin.machine.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const unknown = new Error('Cette clé d’accès n’est pas enregistrée dans votre espace.')

function start() {
  const deferreds = new Deferreds()
  const signedIn: AuthUser[] = []
  const machine = passkeyLoginMachine.provide({
    actors: { signIn: deferreds.actor() },
    actions: { signedIn: (_, { user }) => void signedIn.push(user) },
  })
  return { actor: createActor(machine), deferreds, signedIn }
}

const events = [
  { type: 'passkey.login' },
  { type: 'xstate.done.actor.signIn', output: F.authUser },
  { type: 'xstate.error.actor.signIn', error: unknown },
] as const

const ModelBased = suite('passkeyLogin: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(passkeyLoginMachine, { events })
ModelBased('the model reaches signed in, and an unknown passkey', () => {
  assert.ok(paths.some((p) => p.state.value === 'signedIn'))
  assert.ok(paths.some((p) => p.state.context.error === unknown.message))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, signedIn } = start()
    await replay(actor, deferreds, path)
    // The session gets a user exactly when the server signed one in.
    assert.equal(signedIn, actor.getSnapshot().matches('signedIn') ? [F.authUser] : [])
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('passkeyLogin: examples')
Examples('an unknown passkey says so; trying again works', async () => {
  const { actor, deferreds, signedIn } = start()
  actor.start()
  actor.send({ type: 'passkey.login' })
  assert.ok(actor.getSnapshot().hasTag('busy'))
  await flush()
  deferreds.settle('signIn', { error: unknown })
  await flush()
  assert.is(actor.getSnapshot().context.error, unknown.message)
  actor.send({ type: 'passkey.login' })
  assert.is(actor.getSnapshot().context.error, null)
  await flush()
  deferreds.settle('signIn', { output: F.authUser })
  await flush()
  assert.equal(signedIn, [F.authUser])
})
Examples.run()
