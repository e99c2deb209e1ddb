import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { ApiError } from '../../../src/api/errors.ts'
import { closeAccountMachine } from '../../../src/machines/people/closeAccount.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const ACTIVE =
  'Votre domiciliation Boulangerie des Lilas SAS est active jusqu’au 31 mars 2027 : vous pourrez fermer votre compte après sa résiliation.'
const wrongPassword = new ApiError('Le mot de passe est incorrect : votre compte n’a pas été fermé.', 400, 'BAD_PASSWORD')
const active = new ApiError(ACTIVE, 409, 'ORDERS_ACTIVE')
const CLOSED = 'Votre compte est fermé. Un e-mail de confirmation vous a été envoyé.'

function start() {
  const deferreds = new Deferreds()
  const closed: string[] = []
  const machine = closeAccountMachine.provide({
    actors: { closeAccount: deferreds.actor() },
    actions: { closed: (_, { message }) => void closed.push(message) },
  })
  return { actor: createActor(machine), deferreds, closed }
}

const events = [
  { type: 'close.open' },
  { type: 'close.continue' },
  { type: 'close.submit', password: '' },
  { type: 'close.submit', password: 'Demo1234!' },
  { type: 'close.cancel' },
  { type: 'xstate.done.actor.closeAccount', output: { message: CLOSED } },
  { type: 'xstate.error.actor.closeAccount', error: wrongPassword },
  { type: 'xstate.error.actor.closeAccount', error: active },
] as const

const ModelBased = suite('closeAccount: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(closeAccountMachine, { events })
ModelBased('the model reaches closed, refused and a wrong password', () => {
  assert.ok(paths.some((p) => p.state.value === 'closed'))
  assert.ok(paths.some((p) => p.state.value === 'refused' && p.state.context.refusal === ACTIVE))
  assert.ok(paths.some((p) => p.state.value === 'password' && p.state.context.error === wrongPassword.message))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, closed } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const done = path.steps.some((s) => s.event.type === 'xstate.done.actor.closeAccount')
    // The session ends once, and only when the server closed the account.
    assert.equal(closed, done ? [CLOSED] : [])
    assert.is(snapshot.status === 'done', done)
    // Only a password typed is ever sent.
    assert.ok(deferreds.started.every((s) => (s.input as { password: string }).password === 'Demo1234!'))
    if (snapshot.matches('refused')) assert.is(snapshot.context.refusal, ACTIVE)
    actor.stop()
  })
}
ModelBased.run()
