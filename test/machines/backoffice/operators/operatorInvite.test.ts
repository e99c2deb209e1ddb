import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { OperatorSummary } from '../../../../server/contract/operators.ts'
import { type Invited, operatorInviteMachine } from '../../../../src/backoffice/machines/operators/operatorInvite.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const taken = failure(409, 'Cette adresse est déjà celle d’un opérateur.')
const offline = failure(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')
const values = { email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite' as const] }
const lea: OperatorSummary = {
  id: 3,
  ...values,
  active: true,
  enrolled: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  deactivatedAt: null,
}
const invited: Invited = {
  operator: lea,
  enrolmentUrl: 'http://localhost:8080/operateur/inscription/tok_lea',
  enrolmentExpiresAt: '2026-11-27T10:00:00.000Z',
}

function start() {
  const deferreds = new Deferreds()
  const told: OperatorSummary[] = []
  const machine = operatorInviteMachine.provide({
    actors: { invite: deferreds.actor() },
    actions: { invited: (_, { operator }) => void told.push(operator) },
  })
  return { actor: createActor(machine), deferreds, told }
}

const events = [
  { type: 'invite.send', values },
  { type: 'xstate.done.actor.invite', output: invited },
  { type: 'xstate.error.actor.invite', error: taken },
  { type: 'xstate.error.actor.invite', error: offline },
  { type: 'invite.close' },
] as const

const ModelBased = suite('back office, operatorInvite: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(operatorInviteMachine, { events, serializeState: (s: any) => JSON.stringify([s.value, s.context]) })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['editing', 'invited', 'sending'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, told } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
    const last = steps.at(-1)
    assert.is(deferreds.started.length, steps.filter((e) => e.type === 'invite.send').length)
    assert.ok(deferreds.started.every((s) => JSON.stringify(s.input) === JSON.stringify(values)))
    // The list hears of each operator invited, once.
    assert.equal(
      told,
      steps.filter((e) => e.type === 'xstate.done.actor.invite').map(() => lea),
    )
    // The link is there while shown, and gone for good once closed.
    assert.equal(snapshot.context.invited, snapshot.matches('invited') ? invited : null)
    // A refusal keeps what was typed, with the server's reason.
    assert.is(snapshot.context.error, last?.error ? last.error.message : null)
    if (last?.error) assert.equal(snapshot.context.values, values)
    if (last?.type === 'invite.close') assert.is(snapshot.context.values, null)
    assert.is(snapshot.hasTag('busy'), snapshot.matches('sending'))
    actor.stop()
  })
}
ModelBased.run()
