import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { portalDataMachine, RESOURCES, type Scope } from '../../src/machines/portalData.machine.ts'
import * as F from '../util/fixtures.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const orders = [F.atelier, F.boulangerie, F.studio, F.conseil]
const boulangerieScope: Scope = { order: F.boulangerie, orders }
const studioScope: Scope = { order: F.studio, orders }
const everyOrder: Scope = { order: null, orders }
const failure = new Error('Le service est momentanément indisponible.')

const letters = [F.letter(11, { deleted: true }), F.letter(12), F.letter(13, { read: true })]
const studioLetters = [F.letter(31, { orderId: 3, raisonSociale: 'Studio Nuage SAS' })]

function start(scope: Scope = boulangerieScope) {
  const deferreds = new Deferreds()
  const actor = createActor(portalDataMachine.provide({ actors: { load: deferreds.actor() } }), { input: { scope } })
  return { actor, deferreds }
}

// The state space of eight parallel regions is large: the model covers two regions and the order
// switch (the other six behave alike, by construction), the scenarios below cover all eight.
const ModelBased = suite('portalData: every shortest path (documents, packages, order switch), replayed')
const events = [
  { type: 'xstate.done.actor.documents', output: letters },
  { type: 'xstate.error.actor.documents', error: failure },
  { type: 'xstate.done.actor.packages', output: [] },
  { type: 'xstate.error.actor.packages', error: failure },
  { type: 'data.retry', resource: 'documents' },
  { type: 'data.retry', resource: 'packages' },
  { type: 'document.select', documentId: 13 },
  { type: 'document.select', documentId: 11 },
  { type: 'order.select', scope: studioScope },
] as const
const serializeState = (s: any) =>
  JSON.stringify([s.value.active.documents, s.value.active.packages, s.context.scope.order?.id, s.context.selectedDocumentId, s.context.documents.length, Object.keys(s.context.errors).sort()])
const paths = shortestPaths(portalDataMachine, { events, input: { scope: boulangerieScope }, serializeState, limit: 5000 })

ModelBased('each region reaches loaded and failed', () => {
  const reached = new Set(paths.map((p) => `${(p.state.value as any).active.documents}/${(p.state.value as any).active.packages}`))
  for (const pair of ['loaded/loading', 'failed/loading', 'loading/loaded', 'loading/failed', 'loaded/loaded', 'failed/failed']) {
    assert.ok(reached.has(pair), `no path reaches documents/packages = ${pair}`)
  }
})

for (const path of paths) {
  ModelBased(`${describePath(path)}`, async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const { context, value } = actor.getSnapshot() as any
    // Deleted letters never reach the list; the selected letter is always one of the list, or none.
    assert.not.ok(context.documents.some((d: any) => d.deleted))
    assert.ok(context.selectedDocumentId === null || context.documents.some((d: any) => d.id === context.selectedDocumentId))
    // A region that failed says why; one that did not carries no error.
    for (const resource of ['documents', 'packages'] as const) {
      assert.is(value.active[resource] === 'failed', typeof context.errors[resource] === 'string', `${resource} error matches its state`)
    }
    actor.stop()
  })
}
ModelBased.run()

const Data = suite('portalData: spec §4')

Data('all eight resources load in parallel for the picked order', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  assert.equal(deferreds.started.map((s) => s.id).sort(), [...RESOURCES].sort())
  for (const s of deferreds.started) assert.equal(s.input, { resource: s.id, scope: boulangerieScope })
  assert.ok(actor.getSnapshot().hasTag('loading'))
})

Data('the document list excludes deleted letters and the first is selected by default', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('documents', { output: letters })
  await flush()
  assert.equal(actor.getSnapshot().context.documents.map((d) => d.id), [12, 13])
  assert.is(actor.getSnapshot().context.selectedDocumentId, 12)
  actor.send({ type: 'document.select', documentId: 13 })
  assert.is(actor.getSnapshot().context.selectedDocumentId, 13)
  actor.send({ type: 'document.select', documentId: 11 })
  assert.is(actor.getSnapshot().context.selectedDocumentId, 13, 'a deleted letter cannot be selected')
})

Data('picking another order clears the selected document and reloads everything for it', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('documents', { output: letters })
  await flush()
  actor.send({ type: 'order.select', scope: studioScope })
  await flush()
  const { context } = actor.getSnapshot()
  assert.is(context.selectedDocumentId, null)
  assert.equal(context.documents, [])
  const reloads = deferreds.started.slice(RESOURCES.length)
  assert.equal(reloads.map((s) => s.id).sort(), [...RESOURCES].sort())
  for (const s of reloads) assert.equal((s.input as any).scope, studioScope)
})

Data("'Tous' loads for every order", async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'order.select', scope: everyOrder })
  await flush()
  for (const s of deferreds.started.slice(RESOURCES.length)) assert.equal((s.input as any).scope, everyOrder)
})

Data('a stale answer from an earlier pick never overwrites the newer one', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  actor.send({ type: 'order.select', scope: studioScope })
  await flush()
  assert.is(deferreds.count('documents'), 2, 'both loads are still pending')
  // The newer answer first, then the stale one: the stale one is dropped.
  deferreds.settleAt('documents', 1, { output: studioLetters })
  await flush()
  deferreds.settleAt('documents', 0, { output: letters })
  await flush()
  assert.equal(actor.getSnapshot().context.documents.map((d) => d.id), [31])
  // And a stale failure does not mark the new data failed.
  deferreds.settleAt('packages', 0, { error: failure })
  await flush()
  assert.is((actor.getSnapshot().value as any).active.packages, 'loading')
  assert.equal(actor.getSnapshot().context.errors, {})
})

Data('the stale load is cancelled: its abort signal fires', async () => {
  const signals: AbortSignal[] = []
  const { fromPromise } = await import('xstate')
  const load = fromPromise<any, any>(({ signal }) => { signals.push(signal); return new Promise(() => {}) })
  const actor = createActor(portalDataMachine.provide({ actors: { load } }), { input: { scope: boulangerieScope } })
  actor.start()
  actor.send({ type: 'order.select', scope: studioScope })
  assert.is(signals.length, RESOURCES.length * 2)
  assert.ok(signals.slice(0, RESOURCES.length).every((s) => s.aborted))
  assert.ok(signals.slice(RESOURCES.length).every((s) => !s.aborted))
})

Data('a failed resource says why and can be retried on its own', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('invoices', { error: failure })
  await flush()
  assert.is((actor.getSnapshot().value as any).active.invoices, 'failed')
  assert.is(actor.getSnapshot().context.errors.invoices, failure.message)
  const before = deferreds.started.length
  actor.send({ type: 'data.retry', resource: 'invoices' })
  await flush()
  assert.equal(deferreds.started.slice(before).map((s) => s.id), ['invoices'])
  assert.is(actor.getSnapshot().context.errors.invoices, undefined)
})

Data.run()
