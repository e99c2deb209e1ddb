import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { DataExport } from '../../../server/contract/people-exports.ts'
import { dataExportMachine } from '../../../src/machines/people/dataExport.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const ready: DataExport = {
  id: 9,
  state: 'ready',
  progress: 100,
  createdAt: '2026-11-22T10:00:00.000Z',
  readyAt: '2026-11-22T10:01:00.000Z',
  expiresAt: '2026-11-29T10:01:00.000Z',
  bytes: 1_000_000,
  letters: 32,
  file: '/api-protected/users/me/data-exports/9/file',
}
const preparing: DataExport = { ...ready, state: 'preparing', progress: 40, readyAt: null, expiresAt: null, bytes: null, file: null }
const failed: DataExport = { ...preparing, state: 'failed' }
const expired: DataExport = { ...ready, state: 'expired', file: null }
const offline = new Error('Impossible de joindre le serveur.')
const gone = Object.assign(new Error('Ce lien a expiré le 29 novembre 2026.'), { status: 410 })
/** The poll's delayed event, as xstate names it (the graph sends it like any other). */
const tick = 'xstate.after.poll.dataExport.preparing.waiting'

function start() {
  const deferreds = new Deferreds()
  const machine = dataExportMachine.provide({
    actors: { loadLatest: deferreds.actor(), start: deferreds.actor(), check: deferreds.actor(), download: deferreds.actor() },
  })
  return { actor: createActor(machine), deferreds }
}

const events = [
  { type: 'xstate.done.actor.loadLatest', output: null },
  { type: 'xstate.done.actor.loadLatest', output: preparing },
  { type: 'xstate.done.actor.loadLatest', output: ready },
  { type: 'xstate.done.actor.loadLatest', output: failed },
  { type: 'xstate.done.actor.loadLatest', output: expired },
  { type: 'xstate.error.actor.loadLatest', error: offline },
  { type: 'dataExport.reload' },
  { type: 'dataExport.prepare' },
  { type: 'xstate.done.actor.start', output: preparing },
  { type: 'xstate.error.actor.start', error: offline },
  { type: tick },
  { type: 'xstate.done.actor.check', output: preparing },
  { type: 'xstate.done.actor.check', output: ready },
  { type: 'xstate.done.actor.check', output: failed },
  { type: 'xstate.error.actor.check', error: offline },
  { type: 'dataExport.download' },
  { type: 'xstate.done.actor.download', output: undefined },
  { type: 'xstate.error.actor.download', error: offline },
  { type: 'xstate.error.actor.download', error: gone },
  { type: 'dataExport.retry' },
] as const

const ModelBased = suite('dataExport: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(dataExportMachine, {
  events,
  serializeState: (s: any) => JSON.stringify([s.value, s.context.current?.state ?? null, s.context.error, s.context.loadError]),
})
ModelBased('the model prepares, follows, downloads, retries', () => {
  for (const state of ['idle', 'ready', 'failed', 'loadFailed', 'downloading'] as const)
    assert.ok(
      paths.some((p) => p.state.matches(state)),
      state,
    )
  assert.ok(paths.some((p) => p.state.matches({ preparing: 'checking' })))
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const { current } = snapshot.context
    // The section shows what the server last said: preparing only while the server says so, ready only with a ready export.
    if (snapshot.hasTag('preparing')) assert.is(current?.state, 'preparing')
    if (snapshot.matches('ready')) assert.is(current?.state, 'ready')
    if (snapshot.matches('failed')) assert.is(current?.state, 'failed')
    // An expired link forgets the export and says why.
    const last = path.steps.at(-1)?.event as { type: string; error?: unknown } | undefined
    if (last?.type === 'xstate.error.actor.download' && last.error === gone) {
      assert.ok(snapshot.matches('idle'))
      assert.is(current, null)
      assert.match(snapshot.context.error!, 'expiré')
    }
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('dataExport: rules')
Rules('a second click while it is prepared starts nothing; the job is followed by its id', async () => {
  const { actor, deferreds } = start()
  actor.start()
  deferreds.settle('loadLatest', { output: null })
  await flush()
  actor.send({ type: 'dataExport.prepare' })
  actor.send({ type: 'dataExport.prepare' })
  deferreds.settle('start', { output: preparing })
  await flush()
  actor.send({ type: 'dataExport.prepare' })
  actor.send({ type: tick } as never)
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadLatest', 'start', 'check'],
  )
  assert.equal(deferreds.started.at(-1)!.input, { id: 9 })
  actor.stop()
})
Rules('a failed read while it is prepared is tried again at the next tick', async () => {
  const { actor, deferreds } = start()
  actor.start()
  deferreds.settle('loadLatest', { output: preparing })
  await flush()
  actor.send({ type: tick } as never)
  await flush()
  deferreds.settle('check', { error: offline })
  await flush()
  assert.ok(actor.getSnapshot().matches({ preparing: 'waiting' }))
  assert.is(actor.getSnapshot().context.error, null, 'nothing to tell: the job goes on')
  actor.stop()
})
Rules.run()
