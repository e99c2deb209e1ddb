import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, createMachine, setup } from 'xstate'
import { PORTAL_UNAVAILABLE, SESSION_EXPIRED, sessionMachine } from '../../../src/machines/session/session.machine.ts'
import type { AuthUser } from '../../../server/contract/session.ts'
import * as F from '../../util/fixtures.ts'
import { applyEvent, Deferreds, describePath, flush, pathsToReplay, shortestPaths } from '../../util/paths.ts'

const wrongCredentials = new Error('Identifiants incorrects')
const offline = new Error('Failed to fetch dynamically imported module')
/** The default order the browser keeps for the user signed in, as loadPortal reads it. */
const KEPT = 2

/**
 * A stand-in for the startup machine, at its first step (the current-user fetch, 'account') or past it ('ready'); it
 * ends when that fetch fails ('user.failed'). It keeps its input.
 */
function startupStandIn(at: 'account' | 'ready') {
  return setup({
    types: { input: {} as { storedChoice: unknown }, context: {} as { storedChoice: unknown }, events: {} as { type: 'user.failed' } },
  }).createMachine({
    context: ({ input }) => ({ storedChoice: input.storedChoice }),
    initial: at,
    states: { account: {}, ready: {}, signedOut: { type: 'final' } },
    on: { 'user.failed': '.signedOut' },
    output: { reason: 'unauthorized' },
  })
}

function start(storedUser: AuthUser | null, at: 'account' | 'ready' = 'ready') {
  const deferreds = new Deferreds()
  const startupLogic = startupStandIn(at)
  const storage = {
    user: storedUser as AuthUser | null,
    writes: 0,
    removals: 0,
    ended: [] as string[],
    early: [] as { apiToken: string; landing: string | null }[],
  }
  const machine = sessionMachine.provide({
    actors: { login: deferreds.actor(), loadPortal: deferreds.actor() },
    actions: {
      persistUser: (_, params) => {
        storage.user = params.user
        storage.writes++
      },
      endSession: (_, { apiToken }) => void storage.ended.push(apiToken),
      startEarly: (_, params) => void storage.early.push(params),
      // As the browser's storage: an entry another sign-in wrote since is left alone.
      removeUser: (_, { apiToken }) => {
        if (storage.user && storage.user.apiToken !== apiToken) return
        storage.user = null
        storage.removals++
      },
    },
  })
  return {
    actor: createActor(machine, { input: { storedUser } }),
    deferreds,
    storage,
    startupLogic,
    portal: { startup: startupLogic, storedChoice: KEPT },
  }
}

const ModelBased = suite('session: shortest paths covering every state and transition, replayed')

for (const [storedUser, at] of [
  [null, 'ready'],
  [F.authUser, 'ready'],
  [F.authUser, 'account'],
] as const) {
  // The portal's code, once loaded, is the startup logic; here the stand-in above.
  const startupLogic = startupStandIn(at)
  const events = [
    { type: 'session.login', username: 'demo@example.com', password: 'Demo1234!' },
    { type: 'xstate.done.actor.login', output: F.authUser },
    { type: 'xstate.error.actor.login', error: wrongCredentials },
    { type: 'xstate.done.actor.loadPortal', output: { startup: startupLogic, storedChoice: KEPT } },
    { type: 'xstate.error.actor.loadPortal', error: offline },
    { type: 'session.retry' },
    { type: 'session.logout' },
    { type: 'session.logout', elsewhere: true },
    { type: 'session.expired', path: '/factures' },
    { type: 'xstate.done.actor.startup', output: { reason: 'unauthorized' } },
    { type: 'session.signedIn', user: F.authUser, orderId: 3 },
  ]
  const serializeState = (s: any) => JSON.stringify([s.value, !!s.context.user, !!s.context.startup, s.context.error, s.context.returnTo])
  const paths = shortestPaths(sessionMachine, { events, input: { storedUser }, serializeState })
  const name = `${storedUser ? 'stored' : 'none'}, startup at ${at}`
  ModelBased(`${name}: every state is reached`, () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)))
    for (const state of [
      '"signedOut"',
      '"signingIn"',
      '{"signedIn":"loadingPortal"}',
      '{"signedIn":"portal"}',
      '{"signedIn":"portalUnavailable"}',
    ]) {
      assert.ok(reached.has(state), `no path reaches ${state}`)
    }
  })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`${name}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const run = start(storedUser, at)
      run.actor.start()
      await flush()
      for (const [i, step] of path.steps.entries()) {
        // The startup ends by itself: its current-user fetch failed.
        if (step.event.type === 'xstate.done.actor.startup') run.actor.getSnapshot().context.startup!.send({ type: 'user.failed' } as never)
        await applyEvent(run.actor, run.deferreds, step.event.type === 'xstate.done.actor.startup' ? { type: 'xstate.init' } : step.event)
        assert.equal(run.actor.getSnapshot().value, step.state.value, `step ${i + 1} of ${describePath(path)}`)
      }
      const snapshot = run.actor.getSnapshot()
      // Signed out silently, but for a 401 once the startup is past its current-user fetch (spec §8): then /login says why,
      // and signing in again goes back to the page shown.
      const last = path.steps.at(-1)
      const before = path.steps.at(-2)?.state
      if (snapshot.matches('signedOut') && last?.event.type === 'session.expired') {
        const duringWork = at === 'ready' || !before?.context.startup
        assert.equal([snapshot.context.error, snapshot.context.returnTo], duringWork ? [SESSION_EXPIRED, '/factures'] : [null, null])
      } else if (snapshot.matches('signedOut') && last && /^(session\.logout|xstate\.done\.actor\.startup)$/.test(last.event.type)) {
        assert.equal(
          [snapshot.context.error, snapshot.context.returnTo],
          [null, null],
          'a logout or a failed current-user fetch says nothing',
        )
      }
      // The machine and the browser storage always agree: signed in exactly when an entry is stored.
      if (snapshot.matches('signedIn')) {
        assert.ok(run.storage.user, 'signed in with a stored user')
        assert.equal(snapshot.context.user, run.storage.user)
      } else {
        assert.is(run.storage.user, null, 'no stored user once signed out')
        assert.is(snapshot.context.user, null)
        assert.is(snapshot.context.startup, null, 'nothing keeps running once signed out')
      }
      // The stored user is removed once per sign-out and never otherwise: each removal signs every other tab out.
      const signOuts = path.steps.filter(
        (step, i) => !step.state.matches('signedIn') && (i === 0 ? storedUser !== null : path.steps[i - 1]!.state.matches('signedIn')),
      )
      assert.is(run.storage.removals, signOuts.length, 'removals of the stored user')
      // « Se déconnecter » ends the session on the server, with its token; a sign-out in another tab, an expiry or a
      // failed current-user fetch does not call (the session is over there already).
      const chosen = path.steps.filter(
        (step, i) =>
          step.event.type === 'session.logout' &&
          !(step.event as { elsewhere?: boolean }).elsewhere &&
          (i === 0 ? storedUser !== null : path.steps[i - 1]!.state.matches('signedIn')),
      )
      assert.equal(
        run.storage.ended,
        chosen.map(() => F.authUser.apiToken),
        'sessions ended on the server',
      )
      // Each sign-in (a login, or another way while signed out) sends the startup's first calls at once with its token,
      // for the page it leads to (none with an order just shared: the dashboard); restoring a stored user does not (the
      // page's head did).
      const signedInNow = path.steps.filter(
        (step, i) =>
          step.event.type === 'xstate.done.actor.login' ||
          (step.event.type === 'session.signedIn' && (i === 0 ? storedUser === null : path.steps[i - 1]!.state.matches('signedOut'))),
      )
      assert.equal(
        run.storage.early,
        signedInNow.map((step) => ({
          apiToken: F.authUser.apiToken,
          landing: step.event.type === 'session.signedIn' ? null : step.state.context.returnTo,
        })),
        'the startup’s first calls sent early, once per sign-in',
      )
      // The portal starts on the order just shared (an invitation), else on the default order kept for the user signed in:
      // loadPortal reads it for their id, whoever signed in before (it outlives a sign-out, and is never another person's).
      for (const started of run.deferreds.started.filter((s) => s.id === 'loadPortal'))
        assert.equal(started.input, { userId: F.authUser.id })
      if (snapshot.context.startup) {
        const signIns = path.steps.filter(
          (step, i) =>
            i > 0 &&
            (step.event.type === 'xstate.done.actor.login' ||
              (step.event.type === 'session.signedIn' && !path.steps[i - 1]!.state.matches('signingIn'))),
        )
        const last = signIns.at(-1)?.event as { orderId?: number } | undefined
        assert.equal(
          snapshot.context.startup.getSnapshot().context,
          { storedChoice: last?.orderId ?? KEPT },
          'the order the portal starts on',
        )
      }
      // The startup child runs exactly while the portal is shown.
      assert.is(!!snapshot.context.startup, snapshot.matches({ signedIn: 'portal' }))
      if (snapshot.context.startup) assert.is(snapshot.children.startup, snapshot.context.startup)
      if (snapshot.matches('signingIn') || snapshot.matches({ signedIn: 'loadingPortal' })) assert.ok(snapshot.hasTag('loading'))
      if (snapshot.matches({ signedIn: 'portalUnavailable' })) assert.is(snapshot.context.error, PORTAL_UNAVAILABLE)
      run.actor.stop()
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

Session('a stored entry → signed in: the portal loads, then the startup sequence runs with the kept default order', async () => {
  const { actor, deferreds, portal, storage } = start(F.authUser)
  actor.start()
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'loadingPortal' }))
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'portal' }))
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadPortal'],
  )
  assert.equal(storage.early, [], 'the page’s head sent them for a stored user, not the session')
  assert.equal(actor.getSnapshot().context.startup!.getSnapshot().context, { storedChoice: 2 })
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
  assert.equal(deferreds.started[1], { id: 'loadPortal', input: { userId: F.authUser.id } }, 'the default order kept for this user is read')
  assert.equal(storage.early, [{ apiToken: 'tok_demo', landing: null }], 'the startup’s first calls leave at once, for the dashboard')
})

Session('signed out, then in again: the portal starts on the default order the browser keeps for whoever signs in now', async () => {
  const { actor, deferreds, startupLogic, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  actor.send({ type: 'session.logout' })
  for (const [user, kept] of [
    [F.authUser, 3],
    [{ ...F.authUser, id: 8, apiToken: 'tok_other' }, null],
  ] as const) {
    actor.send({ type: 'session.login', username: user.email, password: 'Demo1234!' })
    await flush()
    deferreds.settle('login', { output: user })
    await flush()
    assert.equal(deferreds.started.at(-1), { id: 'loadPortal', input: { userId: user.id } })
    deferreds.settle('loadPortal', { output: { startup: startupLogic, storedChoice: kept } })
    await flush()
    assert.equal(actor.getSnapshot().context.startup!.getSnapshot().context, { storedChoice: kept })
    actor.send({ type: 'session.expired', path: '/factures' })
  }
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
  const startup = createMachine({
    initial: 'fetching',
    states: { fetching: { on: { fail: 'done' } }, done: { type: 'final' } },
    output: { reason: 'unauthorized' },
  })
  const storage = { user: F.authUser as AuthUser | null }
  const deferreds = new Deferreds()
  const actor = createActor(
    sessionMachine.provide({
      actors: { loadPortal: deferreds.actor() },
      actions: {
        removeUser: () => {
          storage.user = null
        },
      },
    }),
    {
      input: { storedUser: F.authUser },
    },
  )
  actor.start()
  deferreds.settle('loadPortal', { output: { startup, storedChoice: null } })
  await flush()
  ;(actor.getSnapshot().context.startup as unknown as { send: (e: { type: string }) => void }).send({ type: 'fail' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.is(actor.getSnapshot().context.error, null, 'silently: no message')
})

Session('the current-user fetch answered 401 (the client tells the session before the startup ends): signed out silently', async () => {
  const { actor, deferreds, storage } = start(F.authUser, 'account')
  actor.start()
  deferreds.settle('loadPortal', { output: { startup: startupStandIn('account'), storedChoice: KEPT } })
  await flush()
  actor.send({ type: 'session.expired', path: '/factures' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.equal([actor.getSnapshot().context.error, actor.getSnapshot().context.returnTo], [null, null], 'silently (spec §8)')
})

Session('a 401 during work: signed out, the reason for /login, and the page to come back to once signed in again', async () => {
  const { actor, deferreds, storage, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  actor.send({ type: 'session.expired', path: '/factures?annee=2025' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.equal([actor.getSnapshot().context.error, actor.getSnapshot().context.returnTo], [SESSION_EXPIRED, '/factures?annee=2025'])
  actor.send({ type: 'session.login', username: 'demo@example.com', password: 'Demo1234!' })
  assert.is(actor.getSnapshot().context.error, null, 'the message goes with the new attempt')
  await flush()
  deferreds.settle('login', { output: F.authUser })
  await flush()
  assert.ok(actor.getSnapshot().matches('signedIn'))
  assert.is(actor.getSnapshot().context.returnTo, '/factures?annee=2025', 'kept for the redirect of /login')
  assert.equal(storage.early, [{ apiToken: 'tok_demo', landing: '/factures?annee=2025' }], 'sent early for the page it leads back to')
  actor.send({ type: 'session.logout' })
  assert.equal(
    [actor.getSnapshot().context.error, actor.getSnapshot().context.returnTo],
    [null, null],
    'a logout says nothing and goes nowhere back',
  )
})

Session('a 401 during work, then another person signs in on this browser: they are not sent to the page of the first', async () => {
  const { actor, deferreds, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  actor.send({ type: 'session.expired', path: '/mes-courriers/courriers?document=21' })
  assert.is(actor.getSnapshot().context.returnTo, '/mes-courriers/courriers?document=21')
  actor.send({ type: 'session.login', username: 'associe@example.com', password: 'Demo1234!' })
  await flush()
  deferreds.settle('login', { output: { ...F.authUser, id: F.authUser.id + 1, email: 'associe@example.com', apiToken: 'tok_other' } })
  await flush()
  assert.ok(actor.getSnapshot().matches('signedIn'))
  assert.is(actor.getSnapshot().context.returnTo, null, 'the dashboard, not the first person’s letter')
})

Session('logout removes the stored user and stops the startup child', async () => {
  const { actor, storage, deferreds, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  const child = actor.getSnapshot().context.startup!
  actor.send({ type: 'session.logout' })
  assert.ok(actor.getSnapshot().matches('signedOut'))
  assert.is(storage.user, null)
  assert.is(child.getSnapshot().status, 'stopped')
})

Session('signed in another way (a passkey, an invitation): the user is kept as after a login', async () => {
  const { actor, deferreds, storage } = start(null)
  actor.start()
  actor.send({ type: 'session.signedIn', user: F.authUser })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'loadingPortal' }))
  assert.equal(storage.user, F.authUser)
  assert.equal(storage.early, [{ apiToken: 'tok_demo', landing: null }], 'the startup’s first calls leave at once')
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadPortal'],
    'no password login',
  )
})

Session('an order just shared: the running portal stops and starts again on that order', async () => {
  const { actor, deferreds, storage, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  const before = actor.getSnapshot().context.startup!
  actor.send({ type: 'session.signedIn', user: F.authUser, orderId: 7 })
  await flush()
  assert.is(before.getSnapshot().status, 'stopped')
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'portal' }))
  assert.equal(actor.getSnapshot().context.startup!.getSnapshot().context, { storedChoice: 7 })
  assert.equal(storage.user, F.authUser, 'still signed in')
  assert.is(storage.removals, 0, 'never removed on the way: the other tabs stay signed in')
})

Session('an order shared while the portal code loads: the load starts again, the user never removed', async () => {
  const { actor, deferreds, storage, portal } = start(F.authUser)
  actor.start()
  await flush()
  actor.send({ type: 'session.signedIn', user: F.authUser, orderId: 7 })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadPortal', 'loadPortal'],
  )
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'portal' }))
  assert.equal(actor.getSnapshot().context.startup!.getSnapshot().context, { storedChoice: 7 })
  assert.is(storage.removals, 0)
})

Session('the portal code cannot load (offline): a French message and a retry', async () => {
  const { actor, deferreds, portal } = start(F.authUser)
  actor.start()
  deferreds.settle('loadPortal', { error: offline })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'portalUnavailable' }))
  assert.is(actor.getSnapshot().context.error, PORTAL_UNAVAILABLE)
  actor.send({ type: 'session.retry' })
  await flush()
  deferreds.settle('loadPortal', { output: portal })
  await flush()
  assert.ok(actor.getSnapshot().matches({ signedIn: 'portal' }))
})

Session.run()
