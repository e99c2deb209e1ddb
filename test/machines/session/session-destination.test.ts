// An e-mail's link opened signed out: the next sign-in leads there (whoever signs in: the startup checks the page is
// theirs), and hands it to the startup as its page to land on; a sign-out forgets it, an expiry's page comes first.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, setup } from 'xstate'
import { letterPath } from '../../../server/contract/rules/mail.ts'
import { sessionMachine } from '../../../src/machines/session/session.machine.ts'
import * as F from '../../util/fixtures.ts'
import { applyEvent, Deferreds, describePath, flush, pathsToReplay, shortestPaths } from '../../util/paths.ts'

const LINK = letterPath(F.boulangerie.id, 24)
/** The page shown as the portal loads (what loadPortal reads), and the one left when the session expired. */
const SHOWN = '/factures'
const EXPIRED_ON = '/mes-courriers/colis'

/** A stand-in for the startup machine that keeps its input. */
const startupStandIn = setup({
  types: { input: {} as { storedChoice: unknown; destination: string | null }, context: {} as { destination: string | null } },
}).createMachine({ context: ({ input }) => ({ destination: input.destination }), initial: 'ready', states: { ready: {} } })

const events = [
  { type: 'session.login', username: 'demo@example.com', password: 'Demo1234!' },
  { type: 'xstate.done.actor.login', output: F.authUser },
  { type: 'xstate.error.actor.login', error: new Error('Identifiants incorrects') },
  { type: 'xstate.done.actor.loadPortal', output: { startup: startupStandIn, storedChoice: 2, destination: SHOWN } },
  { type: 'session.logout' },
  { type: 'session.expired', path: EXPIRED_ON },
  { type: 'session.signedIn', user: F.authUser },
  { type: 'session.signedIn', user: F.authUser, orderId: 3 },
]

function start() {
  const deferreds = new Deferreds()
  const machine = sessionMachine.provide({ actors: { login: deferreds.actor(), loadPortal: deferreds.actor() } })
  return { actor: createActor(machine, { input: { storedUser: null, destination: LINK } }), deferreds }
}

const ModelBased = suite('session with an e-mail link opened signed out: shortest paths, replayed')
const serializeState = (s: any) =>
  JSON.stringify([s.value, !!s.context.user, !!s.context.startup, s.context.returnTo, s.context.destination, s.context.openOrder])
const paths = shortestPaths(sessionMachine, { events, input: { storedUser: null, destination: LINK }, serializeState })

for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(`${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
    const { actor, deferreds } = start()
    actor.start()
    await flush()
    /** The sign-ins so far, and how the last one came: after an expiry, by an invitation (an order just shared). */
    let signIns = 0
    let expiredBefore = false
    let invited = false
    for (const [i, step] of path.steps.entries()) {
      const before = actor.getSnapshot()
      await applyEvent(actor, deferreds, step.event)
      const snapshot = actor.getSnapshot()
      assert.equal(snapshot.value, step.state.value, `step ${i + 1} of ${describePath(path)}`)
      if (before.matches('signedIn') && !snapshot.matches('signedIn')) expiredBefore = step.event.type === 'session.expired'
      if (!before.matches('signedIn') && snapshot.matches('signedIn')) {
        signIns++
        invited = step.event.type === 'session.signedIn' && 'orderId' in step.event
        // Where /login leads: the expiry's page (the same person), else the link on the first sign-in only.
        assert.is(snapshot.context.returnTo, expiredBefore ? EXPIRED_ON : signIns === 1 ? LINK : null, `returnTo, step ${i + 1}`)
      }
      if (before.matches('signedIn') && step.event.type === 'session.signedIn') invited = 'orderId' in step.event
      // Kept only until a sign-in takes it; a sign-out, whatever its kind, leaves nothing of it.
      assert.is(snapshot.context.destination, signIns === 0 ? LINK : null, `destination, step ${i + 1}`)
      const startup = snapshot.context.startup
      if (startup) {
        const expected = invited ? null : (snapshot.context.returnTo ?? SHOWN)
        assert.is(
          (startup.getSnapshot().context as { destination: string | null }).destination,
          expected,
          `the startup's page, step ${i + 1}`,
        )
      }
    }
    actor.stop()
  })
}

ModelBased('the graph signs in, out and in again', () => {
  assert.ok(
    paths.some(
      (p) => p.steps.filter((s, i) => i > 0 && s.state.matches('signedIn') && !p.steps[i - 1]!.state.matches('signedIn')).length > 1,
    ),
  )
})

ModelBased.run()
