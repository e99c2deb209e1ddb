import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, createMachine } from 'xstate'
import { sessionMachine } from '../../src/machines/session.machine.ts'
import type { AuthUser } from '../../server/contract/schemas.ts'
import * as F from '../util/fixtures.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const wrongCredentials = new Error('Identifiants incorrects')
const events = [
  { type: 'session.login', username: 'demo@example.com', password: 'Demo1234!' },
  { type: 'xstate.done.actor.login', output: F.authUser },
  { type: 'xstate.error.actor.login', error: wrongCredentials },
  { type: 'session.logout' },
  { type: 'session.expired' },
  { type: 'xstate.done.actor.startup', output: { reason: 'unauthorized' } },
] as const

/** A fake browser storage: what the composition root's actions would write. */
function start(storedUser: AuthUser | null) {
  const deferreds = new Deferreds()
  const storage = { user: storedUser as AuthUser | null, writes: 0, removals: 0 }
  // The startup child ends only when the current-user fetch failed: a deferred stands for it.
  const machine = sessionMachine.provide({
    actors: { login: deferreds.actor(), startup: deferreds.actor() as any },
    actions: {
      persistUser: (_, params) => { storage.user = params.user; storage.writes++ },
      removeUser: () => { storage.user = null; storage.removals++ },
    },
  })
  return { actor: createActor(machine, { input: { storedUser, storedChoice: null } }), deferreds, storage }
}

const ModelBased = suite('session: every shortest path, replayed')

for (const storedUser of [null, F.authUser]) {
  const paths = shortestPaths(sessionMachine, { events, input: { storedUser, storedChoice: null } })
  ModelBased(`stored user ${storedUser ? 'present' : 'absent'}: both sides of the session are reached`, () => {
    const reached = new Set<unknown>(paths.map((p) => p.state.value))
    for (const state of ['signedOut', 'signingIn', 'signedIn']) assert.ok(reached.has(state), `no path reaches ${state}`)
  })
  for (const path of paths) {
    ModelBased(`${storedUser ? 'stored' : 'none'}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const { actor, deferreds, storage } = start(storedUser)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      // The machine and the browser storage always agree: signed in exactly when an entry is stored.
      if (snapshot.matches('signedIn')) {
        assert.ok(storage.user, 'signed in with a stored user')
        assert.equal(snapshot.context.user, storage.user)
      } else {
        assert.is(storage.user, null, 'no stored user once signed out')
        assert.is(snapshot.context.user, null)
      }
      if (snapshot.matches('signingIn')) assert.ok(snapshot.hasTag('loading'))
      actor.stop()
    })
  }
}
ModelBased.run()

const Session = suite('session: spec §4')

Session('no stored entry → signed out (the guard sends the visitor to /login)', () => {
  const { actor } = start(null)
  actor.start()
  assert.ok(actor.getSnapshot().matches('signedOut'))
})

Session('a stored entry → signed in, and the startup sequence runs', async () => {
  const { actor, deferreds } = start(F.authUser)
  actor.start()
  await flush()
  assert.ok(actor.getSnapshot().matches('signedIn'))
  assert.equal(deferreds.started.map((s) => s.id), ['startup'])
})

Session('login stores the returned user object, apiToken included', async () => {
  const { actor, deferreds, storage } = start(null)
  actor.start()
  actor.send({ type: 'session.login', username: 'demo@example.com', password: 'Demo1234!' })
  await flush()
  assert.equal(deferreds.started[0], { id: 'login', input: { username: 'demo@example.com', password: 'Demo1234!' } })
  deferreds.settle('login', { output: F.authUser })
  await flush()
  assert.ok(actor.getSnapshot().matches('signedIn'))
  assert.is(storage.user?.apiToken, 'tok_demo')
  assert.is(storage.writes, 1)
})

Session('wrong credentials keep the visitor signed out with the French message', async () => {
  const { actor, deferreds, storage } = start(null)
  actor.start()
  actor.send({ type: 'session.login', username: 'demo@example.com', password: 'non' })
  await flush()
  deferreds.settle('login', { error: wrongCredentials })
  await flush()
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(actor.getSnapshot().context.error, 'Identifiants incorrects')
  assert.is(storage.writes, 0)
})

Session('a failed current-user fetch removes the stored user silently', async () => {
  const startup = createMachine({ initial: 'fetching', states: { fetching: { on: { fail: 'done' } }, done: { type: 'final' } }, output: { reason: 'unauthorized' } })
  const storage = { user: F.authUser as AuthUser | null }
  const actor = createActor(sessionMachine.provide({ actors: { startup: startup as any }, actions: { removeUser: () => { storage.user = null } } }), {
    input: { storedUser: F.authUser, storedChoice: null },
  })
  actor.start()
  actor.getSnapshot().children.startup!.send({ type: 'fail' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.is(actor.getSnapshot().context.error, null, 'silently: no message')
})

Session('logout removes the stored user and stops the startup child', async () => {
  const { actor, storage } = start(F.authUser)
  actor.start()
  await flush()
  const child = actor.getSnapshot().children.startup!
  actor.send({ type: 'session.logout' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.is(child.getSnapshot().status, 'stopped')
})

Session.run()
