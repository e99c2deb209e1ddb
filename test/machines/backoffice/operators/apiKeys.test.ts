import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { ApiKeySummary } from '../../../../server/contract/operators.ts'
import { apiKeysMachine, type CreatedKey, keyRevoked } from '../../../../src/backoffice/machines/operators/apiKeys.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const gone = failure(404, 'Clé d’API introuvable.')

const key = (id: number, name: string, revokedAt: string | null = null): ApiKeySummary => ({
  id,
  name,
  prefix: `dk_${id}abcdefg`,
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: 'Inès Garnier',
  revokedAt,
  lastUsedAt: null,
})
const billing = key(1, 'Facturation')
const billingRevoked = key(1, 'Facturation', '2026-11-20T10:00:00.000Z')
const created: CreatedKey = { apiKey: key(2, 'Scanner salle 2'), key: 'dk_2abcdefg_the_secret_shown_once' }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = apiKeysMachine.provide({
    actors: { load: deferreds.actor(), create: deferreds.actor(), revoke: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [billing] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'key.create', name: 'Scanner salle 2' },
  { type: 'xstate.done.actor.create', output: created },
  { type: 'xstate.error.actor.create', error: down },
  { type: 'key.dismiss' },
  { type: 'revocation.ask', id: 1 },
  { type: 'revocation.cancel' },
  { type: 'revocation.confirm' },
  { type: 'xstate.done.actor.revoke', output: billingRevoked },
  { type: 'xstate.error.actor.revoke', error: gone },
] as const

const ModelBased = suite('back office, apiKeys: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(apiKeysMachine, {
  events, // The same row twice (the fake answers the same one each time) is no new state: the search stays bounded.
  serializeState: (s: any) =>
    JSON.stringify([s.value, { ...s.context, keys: [...new Map(s.context.keys.map((r: any) => [r.id, r])).values()] }]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'confirmingRevocation',
    'created',
    'creating',
    'failed',
    'list',
    'loading',
    'revoking',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error })
    const last = steps.at(-1)
    // The key itself is held only while it is shown, once; the list never holds it.
    assert.equal(snapshot.context.created, snapshot.matches('created') ? created : null)
    assert.not.match(JSON.stringify(snapshot.context.keys), created.key)
    if (!snapshot.matches('loading') && !snapshot.matches('failed')) {
      const expected = [
        ...(steps.some((e) => e.type === 'xstate.done.actor.create') ? [created.apiKey] : []),
        steps.some((e) => e.type === 'xstate.done.actor.revoke') ? billingRevoked : billing,
      ]
      assert.equal(snapshot.context.keys, expected)
    }
    // A name is sent as typed; a key is revoked only once confirmed, the one asked for.
    assert.ok(deferreds.started.filter((s) => s.id === 'create').every((s) => JSON.stringify(s.input) === '{"name":"Scanner salle 2"}'))
    const revokes = deferreds.started.filter((s) => s.id === 'revoke')
    assert.is(revokes.length, steps.filter((e) => e.type === 'revocation.confirm').length)
    assert.ok(revokes.every((s) => JSON.stringify(s.input) === '{"id":1}'))
    assert.equal(
      notices,
      steps.filter((e) => e.type === 'xstate.done.actor.revoke').map(() => ({ kind: 'success', message: keyRevoked('Facturation') })),
    )
    if (last?.type === 'xstate.error.actor.create' || last?.type === 'xstate.error.actor.revoke')
      assert.is(snapshot.context.changeError, last.error!.message)
    if (snapshot.matches('failed')) assert.is(snapshot.context.error, down.message)
    assert.is(snapshot.hasTag('busy'), snapshot.matches('creating') || snapshot.matches('revoking'))
    actor.stop()
  })
}
ModelBased.run()
