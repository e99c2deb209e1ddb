import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { submissionMachine } from '../../../src/machines/session/submission.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const values = { email: 'demo@example.com' }
/** As src/api's errors: the server's French message and its status (0: not reached). */
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const refused = failure(400, 'Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.')
const down = failure(503, 'Le service est momentanément indisponible : veuillez réessayer dans quelques instants.')
const offline = failure(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')

function start() {
  const deferreds = new Deferreds()
  const replies: unknown[] = []
  const machine = submissionMachine.provide({
    actors: { submit: deferreds.actor() },
    actions: { succeeded: (_, { reply }) => void replies.push(reply) },
  })
  return { actor: createActor(machine), deferreds, succeeded: () => replies.length, replies }
}

const events = [
  { type: 'form.submit', values },
  { type: 'xstate.done.actor.submit', output: { message: 'Votre mot de passe a été modifié.' } },
  { type: 'xstate.error.actor.submit', error: refused },
  { type: 'xstate.error.actor.submit', error: down },
  { type: 'xstate.error.actor.submit', error: offline },
] as const

const ModelBased = suite('submission: shortest paths covering every state and transition, replayed')
const serializeState = (s: any) => JSON.stringify([s.value, s.context.error, s.context.unavailable, s.context.unsure])
const paths = shortestPaths(submissionMachine, { events, serializeState })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['editing', 'submitting', 'succeeded'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, succeeded, replies } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const submits = path.steps.filter((s) => s.event.type === 'form.submit').length
    // Sent once per submit taken (never while one is under way), with the values typed; a failure keeps them and says why.
    assert.is(deferreds.started.length, submits)
    assert.ok(deferreds.started.every((s) => JSON.stringify(s.input) === JSON.stringify(values)))
    assert.is(succeeded(), snapshot.matches('succeeded') ? 1 : 0)
    // The wiring is handed the server's reply (its message becomes the toast).
    assert.equal(replies, snapshot.matches('succeeded') ? [{ message: 'Votre mot de passe a été modifié.' }] : [])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('submitting'))
    const last = path.steps.at(-1)?.event as { type: string; error?: Error } | undefined
    assert.is(snapshot.context.error, last?.type === 'xstate.error.actor.submit' ? last.error!.message : null)
    // The service failed (unreachable, 5xx): worth sending again; a refusal (4xx: a link used or expired) is not.
    assert.is(snapshot.context.unavailable, last?.error === down || last?.error === offline)
    // A send got no answer at all (offline): what it sent may have gone through, for the rest of the page's life.
    assert.is(
      snapshot.context.unsure,
      path.steps.some((s) => (s.event as { error?: Error }).error === offline),
    )
    if (submits) assert.equal(snapshot.context.values, values, 'what was typed is kept')
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('submission: examples')

Examples('a second submit while one is under way is not sent', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'form.submit', values })
  actor.send({ type: 'form.submit', values: { email: 'autre@example.com' } })
  assert.is(deferreds.started.length, 1)
  assert.equal(actor.getSnapshot().context.values, values)
})

Examples.run()
