import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  type OperatorSession,
  operatorSessionMachine,
  SESSION_EXPIRED,
  SIGNED_OUT,
} from '../../../../src/backoffice/machines/operators/operatorSession.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const ended = failure(401, 'Votre session a expiré. Veuillez vous reconnecter.')
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const offline = failure(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')

const stored: OperatorSession = {
  token: 'op_old',
  operator: { id: 1, email: 'operateur@example.com', name: 'Inès Garnier', roles: ['admin'] },
}
const fresh = { ...stored.operator, roles: ['admin', 'courrier'] as ('admin' | 'courrier')[] }
const other: OperatorSession = {
  token: 'op_new',
  operator: { id: 2, email: 'courrier@example.com', name: 'Hugo Lemaire', roles: ['courrier'] },
}

function start(input: { stored: OperatorSession | null }) {
  const deferreds = new Deferreds()
  const kept: (OperatorSession | null)[] = [input.stored]
  const forgotten: (string | null)[] = []
  const machine = operatorSessionMachine.provide({
    actors: { loadMe: deferreds.actor(), endSession: deferreds.actor() },
    actions: {
      persist: (_, { session }) => void kept.push(session),
      forget: (_, { token }) => {
        forgotten.push(token)
        kept.push(null)
      },
    },
  })
  return { actor: createActor(machine, { input }), deferreds, kept, forgotten }
}

const events = [
  { type: 'xstate.done.actor.loadMe', output: fresh },
  { type: 'xstate.error.actor.loadMe', error: ended },
  { type: 'xstate.error.actor.loadMe', error: down },
  { type: 'xstate.error.actor.loadMe', error: offline },
  { type: 'session.retry' },
  { type: 'session.signOut' },
  { type: 'session.expired', path: '/operateur/administration' },
  { type: 'xstate.done.actor.endSession', output: { message: 'ok' } },
  { type: 'xstate.error.actor.endSession', error: down },
  { type: 'session.signedIn', session: other },
] as const

const serializeState = (s: any) => JSON.stringify([s.value, s.context])
for (const input of [{ stored }, { stored: null }]) {
  const ModelBased = suite(`back office, operatorSession (${input.stored ? 'a session kept' : 'nothing kept'}): shortest paths, replayed`)
  const paths = shortestPaths(operatorSessionMachine, { events, input, serializeState })
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(describePath(path), async () => {
      const { actor, deferreds, kept, forgotten } = start(input)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
      const last = steps.at(-1)
      // What the browser keeps is the session shown: none when signed out, the one in use when signed in.
      const keptNow = kept.at(-1) ?? null
      if (snapshot.matches('signedOut')) assert.is(keptNow, null)
      if (snapshot.matches('signedIn')) assert.equal(keptNow, snapshot.context.session)
      // A kept session is checked once per try, with its own token; the roles the server answers replace the kept ones.
      const checks = deferreds.started.filter((s) => s.id === 'loadMe')
      assert.ok(checks.every((s) => JSON.stringify(s.input) === JSON.stringify({ token: stored.token })))
      if (
        snapshot.matches('signedIn') &&
        steps.some((e) => e.type === 'xstate.done.actor.loadMe') &&
        !steps.some((e) => e.type === 'session.signedIn')
      )
        assert.equal(snapshot.context.session, { token: stored.token, operator: fresh })
      // Signing out ends the session on the server with its token, and forgets it here at once.
      for (const end of deferreds.started.filter((s) => s.id === 'endSession'))
        assert.ok(forgotten.includes((end.input as { token: string }).token))
      if (snapshot.matches('signingOut')) assert.is(keptNow, null)
      // Why the sign-in page shows.
      if (snapshot.matches('signedOut')) {
        const why = steps.findLast((e) =>
          ['xstate.error.actor.loadMe', 'session.expired', 'xstate.done.actor.endSession', 'xstate.error.actor.endSession'].includes(
            e.type,
          ),
        )
        const expected = !why
          ? null
          : why.type === 'session.expired' || why.type === 'xstate.error.actor.loadMe'
            ? SESSION_EXPIRED
            : SIGNED_OUT
        assert.is(snapshot.context.notice, expected)
      }
      if (snapshot.matches('signedIn')) assert.is(snapshot.context.notice, null)
      // Only a session that ended by itself leads back to the page left.
      assert.is(
        snapshot.context.returnTo,
        steps.some((e) => e.type === 'session.expired') &&
          !steps.slice(steps.findIndex((e) => e.type === 'session.expired')).some((e) => e.type === 'session.signOut')
          ? '/operateur/administration'
          : null,
      )
      // The service down while checking: the session is kept, and « Réessayer » is offered.
      if (snapshot.matches('unavailable')) {
        assert.is(snapshot.context.error, last!.error!.message)
        assert.equal(keptNow, stored)
      }
      assert.is(snapshot.hasTag('loading'), snapshot.matches('restoring') || snapshot.matches('signingOut'))
      actor.stop()
    })
  }
  ModelBased.run()
}
