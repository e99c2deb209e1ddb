import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { CURRENT_MISSING, PASSWORD_UPDATED, passwordChangeMachine } from '../../../src/machines/people/passwordChange.machine.ts'
import { PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT, PASSWORDS_DIFFER } from '../../../src/machines/passwordRule.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const wrongCurrent = new Error('Votre mot de passe n’a pas été modifié.')
const good = 'une phrase de passe'

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = passwordChangeMachine.provide({
    actors: { updatePassword: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'password.change', draft: { current: 'Demo1234!' } },
  { type: 'password.change', draft: { next: 'court' } },
  { type: 'password.change', draft: { next: good, confirmation: good } },
  { type: 'password.submit' },
  { type: 'xstate.done.actor.updatePassword', output: { message: 'ok' } },
  { type: 'xstate.error.actor.updatePassword', error: wrongCurrent },
] as const

const ModelBased = suite('passwordChange: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(passwordChangeMachine, { events })
// A change that went through empties the form: the machine is back where it started (the toast is what tells it, see
// the examples below), so no shortest path ends there.
ModelBased('the model reaches the wrong current password, and a change sent', () => {
  assert.ok(
    paths.some((p) => p.state.matches('saving')),
    'sent',
  )
  assert.ok(
    paths.some((p) => p.state.context.error === wrongCurrent.message),
    'wrong current',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    // Only a new password that follows the rule and is confirmed is ever sent, with the current one.
    for (const { input } of deferreds.started) assert.equal(input, { currentPassword: 'Demo1234!', newPassword: good })
    assert.is(notices.length, path.steps.filter((s) => s.event.type === 'xstate.done.actor.updatePassword').length)
    const snapshot = actor.getSnapshot()
    if (snapshot.context.error === wrongCurrent.message) assert.is(snapshot.context.draft.next, good, 'what was typed stays')
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('passwordChange: examples')

Examples('each field says what is wrong; a refusal keeps the values; success empties the form', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'password.change', draft: { next: 'azertyuiop123', confirmation: 'autre' } })
  actor.send({ type: 'password.submit' })
  assert.equal(actor.getSnapshot().context.problems, {
    current: CURRENT_MISSING,
    next: PASSWORD_TOO_COMMON,
    confirmation: PASSWORDS_DIFFER,
  })
  actor.send({ type: 'password.change', draft: { current: 'x', next: 'court', confirmation: 'court' } })
  actor.send({ type: 'password.submit' })
  assert.equal(actor.getSnapshot().context.problems, { next: PASSWORD_TOO_SHORT })
  actor.send({ type: 'password.change', draft: { next: good, confirmation: good } })
  actor.send({ type: 'password.submit' })
  await flush()
  deferreds.settle('updatePassword', { error: wrongCurrent })
  await flush()
  assert.equal(actor.getSnapshot().context.draft, { current: 'x', next: good, confirmation: good })
  actor.send({ type: 'password.change', draft: { current: 'Demo1234!' } })
  actor.send({ type: 'password.submit' })
  await flush()
  deferreds.settle('updatePassword', { output: { message: 'ok' } })
  await flush()
  assert.equal(actor.getSnapshot().context.draft, { current: '', next: '', confirmation: '' })
  assert.equal(notices, [{ kind: 'success', message: PASSWORD_UPDATED }])
})

Examples.run()
