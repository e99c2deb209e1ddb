import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { EMAIL_CHANGED, EMAIL_INVALID, EMAIL_UNCHANGED, emailChangeMachine } from '../../../src/machines/people/emailChange.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const taken = new Error('Cette adresse e-mail est déjà utilisée par un autre compte.')
const changedUser = { ...F.user, email: 'camille.martin@example.com' }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const changed: string[] = []
  const machine = emailChangeMachine.provide({
    actors: { updateEmail: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n), emailChanged: (_, { user }) => void changed.push(user.email) },
  })
  return { actor: createActor(machine, { input: { email: F.user.email } }), deferreds, notices, changed }
}

const events = [
  { type: 'email.edit' },
  { type: 'email.change', value: 'pas-une-adresse' },
  { type: 'email.change', value: F.user.email.toUpperCase() },
  { type: 'email.change', value: ' camille.martin@example.com ' },
  { type: 'email.submit' },
  { type: 'email.cancel' },
  { type: 'xstate.done.actor.updateEmail', output: changedUser },
  { type: 'xstate.error.actor.updateEmail', error: taken },
] as const

const ModelBased = suite('emailChange: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(emailChangeMachine, { events, input: { email: F.user.email } })
ModelBased('the model reaches every state, the address changed and the address taken', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['showing', 'editing', 'saving']) assert.ok(reached.has(state), state)
  assert.ok(
    paths.some((p) => p.state.context.email === changedUser.email),
    'changed',
  )
  assert.ok(
    paths.some((p) => p.state.context.error === taken.message),
    'taken',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed, notices } = start()
    await replay(actor, deferreds, path)
    // Only a valid address other than the current one is ever sent, trimmed: the old one only once it is no longer hers.
    for (const [i, { input }] of deferreds.started.entries()) {
      const { newEmail } = input as { newEmail: string }
      assert.ok(newEmail === 'camille.martin@example.com' || (newEmail === 'DEMO@EXAMPLE.COM' && i > 0), newEmail)
    }
    const done = path.steps.filter((s) => s.event.type === 'xstate.done.actor.updateEmail').length
    assert.is(changed.length, done, 'the change is told only once the server agreed')
    assert.is(notices.length, done)
    const snapshot = actor.getSnapshot()
    const sent = deferreds.started.at(-1)?.input as { newEmail: string } | undefined
    if (snapshot.matches('editing') && snapshot.context.error === taken.message)
      assert.is(snapshot.context.draft.trim(), sent!.newEmail, 'what was typed stays')
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('emailChange: examples')

Examples('checked before sending; taken: the message and the draft stay; then changed', async () => {
  const { actor, deferreds, notices, changed } = start()
  actor.start()
  actor.send({ type: 'email.edit' })
  actor.send({ type: 'email.change', value: 'camille@' })
  actor.send({ type: 'email.submit' })
  assert.is(actor.getSnapshot().context.error, EMAIL_INVALID)
  actor.send({ type: 'email.change', value: F.user.email })
  actor.send({ type: 'email.submit' })
  assert.is(actor.getSnapshot().context.error, EMAIL_UNCHANGED)
  actor.send({ type: 'email.change', value: 'associe@example.com' })
  actor.send({ type: 'email.submit' })
  await flush()
  deferreds.settle('updateEmail', { error: taken })
  await flush()
  assert.equal(
    [actor.getSnapshot().value, actor.getSnapshot().context.error, actor.getSnapshot().context.draft],
    ['editing', taken.message, 'associe@example.com'],
  )
  actor.send({ type: 'email.change', value: 'camille.martin@example.com' })
  actor.send({ type: 'email.submit' })
  await flush()
  deferreds.settle('updateEmail', { output: changedUser })
  await flush()
  assert.equal([actor.getSnapshot().value, actor.getSnapshot().context.email], ['showing', 'camille.martin@example.com'])
  assert.equal(changed, ['camille.martin@example.com'])
  assert.equal(notices, [{ kind: 'success', message: EMAIL_CHANGED }])
})

Examples.run()
