import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { OperatorSummary } from '../../../../server/contract/operators.ts'
import {
  deactivated,
  operatorDirectoryMachine,
  rolesSaved,
} from '../../../../src/backoffice/machines/operators/operatorDirectory.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const ownRole = failure(409, 'Vous ne pouvez pas retirer votre propre rôle « Administrateur ».')

const operator = (id: number, name: string, roles: OperatorSummary['roles'], active = true): OperatorSummary => ({
  id,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  name,
  roles,
  active,
  enrolled: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  deactivatedAt: active ? null : '2026-11-20T10:00:00.000Z',
})
const ines = operator(1, 'Inès Garnier', ['admin'])
const hugo = operator(2, 'Hugo Lemaire', ['courrier'])
const hugoBoth = { ...hugo, roles: ['courrier', 'conformite'] as OperatorSummary['roles'] }
const hugoGone = { ...hugo, active: false, deactivatedAt: '2026-11-20T10:00:00.000Z' }
const lea = { ...operator(3, 'Léa Fontaine', ['conformite']), enrolled: false }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = operatorDirectoryMachine.provide({
    actors: { load: deferreds.actor(), saveRoles: deferreds.actor(), deactivate: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [ines, hugo] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'operator.invited', operator: lea },
  { type: 'roles.save', id: 2, roles: ['courrier', 'conformite'] },
  { type: 'xstate.done.actor.saveRoles', output: hugoBoth },
  { type: 'xstate.error.actor.saveRoles', error: ownRole },
  { type: 'deactivation.ask', id: 2 },
  { type: 'deactivation.cancel' },
  { type: 'deactivation.confirm' },
  { type: 'xstate.done.actor.deactivate', output: hugoGone },
  { type: 'xstate.error.actor.deactivate', error: down },
] as const

const ModelBased = suite('back office, operatorDirectory: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(operatorDirectoryMachine, {
  events, // The same row twice (the fake answers the same one each time) is no new state: the search stays bounded.
  serializeState: (s: any) =>
    JSON.stringify([s.value, { ...s.context, operators: [...new Map(s.context.operators.map((r: any) => [r.id, r])).values()] }]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'confirmingDeactivation',
    'deactivating',
    'failed',
    'list',
    'loading',
    'savingRoles',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; output?: unknown })
    const last = steps.at(-1)
    // The list as the server last answered it, each change applied to its own row only.
    if (!snapshot.matches('loading') && !snapshot.matches('failed')) {
      const expected = new Map<number, OperatorSummary>([ines, hugo].map((o) => [o.id, o]))
      for (const step of steps) {
        if (step.type === 'operator.invited') expected.set(lea.id, lea)
        if (step.type === 'xstate.done.actor.saveRoles') expected.set(2, hugoBoth)
        if (step.type === 'xstate.done.actor.deactivate')
          expected.set(2, { ...(expected.get(2) as OperatorSummary), ...hugoGone, roles: expected.get(2)!.roles })
      }
      assert.equal(
        snapshot.context.operators.map((o) => [o.id, o.active, o.roles]),
        [...expected.values()].map((o) => [o.id, o.active, o.roles]),
      )
    }
    // Each change is sent once, for the operator it was asked for; a deactivation only once confirmed.
    assert.ok(
      deferreds.started
        .filter((s) => s.id === 'saveRoles')
        .every((s) => JSON.stringify(s.input) === '{"id":2,"roles":["courrier","conformite"]}'),
    )
    assert.is(deferreds.started.filter((s) => s.id === 'deactivate').length, steps.filter((e) => e.type === 'deactivation.confirm').length)
    // Success is told by a toast; a refusal or a failure beside the list, with the server's words.
    const successes = steps.filter((e) => e.type === 'xstate.done.actor.saveRoles' || e.type === 'xstate.done.actor.deactivate')
    assert.equal(
      notices,
      successes.map((e) => ({
        kind: 'success',
        message: e.type.endsWith('saveRoles') ? rolesSaved('Hugo Lemaire') : deactivated('Hugo Lemaire'),
      })),
    )
    if (last?.type === 'xstate.error.actor.saveRoles' || last?.type === 'xstate.error.actor.deactivate')
      assert.is(snapshot.context.changeError, last.error!.message)
    if (last?.type === 'xstate.error.actor.load') assert.is(snapshot.context.error, down.message)
    if (snapshot.matches('confirmingDeactivation') || snapshot.matches('deactivating')) assert.is(snapshot.context.selectedId, 2)
    assert.is(snapshot.hasTag('busy'), snapshot.matches('savingRoles') || snapshot.matches('deactivating'))
    actor.stop()
  })
}
ModelBased.run()
