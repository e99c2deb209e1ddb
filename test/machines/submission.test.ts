import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { submissionMachine } from '../../src/machines/submission.machine.ts'
import { Deferreds, describePath, replay, shortestPaths } from '../util/paths.ts'

const values = { email: 'demo@example.com' }

function start() {
  const deferreds = new Deferreds()
  const replies: unknown[] = []
  const machine = submissionMachine.provide({ actors: { submit: deferreds.actor() }, actions: { succeeded: (_, { reply }) => void replies.push(reply) } })
  return { actor: createActor(machine), deferreds, succeeded: () => replies.length, replies }
}

const events = [
  { type: 'form.submit', values },
  { type: 'xstate.done.actor.submit', output: { message: 'Votre mot de passe a été modifié.' } },
  { type: 'xstate.error.actor.submit', error: new Error('Adresse inconnue.') },
] as const

const ModelBased = suite('submission: every shortest path, replayed')
const paths = shortestPaths(submissionMachine, { events })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['editing', 'submitting', 'succeeded'])
})
for (const path of paths) {
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
    const failedLast = path.steps.at(-1)?.event.type === 'xstate.error.actor.submit'
    assert.is(snapshot.context.error, failedLast ? 'Adresse inconnue.' : null)
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
