import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { journalMachine, type JournalResult } from '../../../../src/backoffice/machines/operators/journal.machine.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')

const entry = {
  id: 9,
  at: '2026-11-20T10:00:00.000Z',
  operator: { id: 1, name: 'Inès Garnier', email: 'operateur@example.com' },
  apiKey: null,
  action: 'apiKey.created',
  orderId: null,
  summary: 'Clé d’API « Scanner salle 2 » créée',
  before: null,
  after: null,
}
const pageOne: JournalResult = { entries: [entry], page: 1, pageSize: 50, total: 120 }
const pageTwo: JournalResult = { entries: [{ ...entry, id: 8 }], page: 2, pageSize: 50, total: 120 }
const filters = { operatorId: 1, action: 'apiKey.created', from: '2026-11-01', to: '2026-11-30' }
const csv = new Blob(['\ufeffDate;Opérateur\r\n'], { type: 'text/csv' })

function start() {
  const deferreds = new Deferreds()
  const saved: Blob[] = []
  const machine = journalMachine.provide({
    actors: { load: deferreds.actor(), download: deferreds.actor() },
    actions: { save: (_, { file }) => void saved.push(file) },
  })
  return { actor: createActor(machine), deferreds, saved }
}

const events = [
  { type: 'xstate.done.actor.load', output: pageOne },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'journal.retry' },
  { type: 'journal.filter', filters },
  { type: 'journal.page', page: 2 },
  { type: 'journal.export' },
  { type: 'xstate.done.actor.download', output: csv },
  { type: 'xstate.error.actor.download', error: down },
] as const

const ModelBased = suite('back office, journal: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(journalMachine, { events, serializeState: (s: any) => JSON.stringify([s.value, s.context]) })
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['exporting', 'failed', 'loaded', 'loading'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, saved } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; filters?: object; page?: number })
    const last = steps.at(-1)
    // New filters read page 1 again; a page keeps the filters; what is asked is what the context says.
    const lastFilter = steps.findLastIndex((e) => e.type === 'journal.filter')
    const lastPage = steps.findLastIndex((e) => e.type === 'journal.page')
    assert.equal(snapshot.context.filters, lastFilter >= 0 ? filters : {})
    assert.is(snapshot.context.page, lastPage > lastFilter ? 2 : 1)
    const loads = deferreds.started.filter((s) => s.id === 'load')
    assert.equal(loads.at(-1)?.input, {
      filters: snapshot.context.filters,
      page: loads.length ? (loads.at(-1)!.input as { page: number }).page : 1,
    })
    // The export takes the filters shown, and the file goes to the browser once per export that succeeded.
    for (const d of deferreds.started.filter((s) => s.id === 'download')) assert.ok('filters' in (d.input as object))
    assert.is(saved.length, steps.filter((e) => e.type === 'xstate.done.actor.download').length)
    assert.is(snapshot.context.exportError, last?.type === 'xstate.error.actor.download' ? down.message : null)
    if (snapshot.matches('failed')) assert.is(snapshot.context.error, down.message)
    if (snapshot.matches('loaded') || snapshot.matches('exporting')) assert.ok(snapshot.context.result !== null)
    assert.is(snapshot.hasTag('loading'), snapshot.matches('loading'))
    actor.stop()
  })
}
ModelBased.run()

const Examples = suite('back office, journal: examples')
Examples('the rows shown stay while the next page loads, and a newer query replaces an older one', async () => {
  const { actor, deferreds } = start()
  actor.start()
  deferreds.settle('load', { output: pageOne })
  await new Promise((r) => setImmediate(r))
  actor.send({ type: 'journal.page', page: 2 })
  assert.equal(actor.getSnapshot().context.result, pageOne)
  actor.send({ type: 'journal.filter', filters })
  // The page-2 call was dropped with its state: only the filtered page 1 can answer now.
  deferreds.settle('load', { output: pageTwo })
  await new Promise((r) => setImmediate(r))
  assert.equal(
    deferreds.started.map((s) => s.input),
    [
      { filters: {}, page: 1 },
      { filters: {}, page: 2 },
      { filters, page: 1 },
    ],
  )
  assert.ok(actor.getSnapshot().matches('loaded'))
})
Examples.run()
