import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { portalDataMachine, RESOURCES, type Scope } from '../../../src/machines/session/portalData.machine.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

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
const ModelBased = suite('portalData: shortest paths (documents, packages, order switch) covering every state and transition, replayed')
const events = [
  { type: 'xstate.done.actor.documents', output: letters },
  { type: 'xstate.error.actor.documents', error: failure },
  { type: 'xstate.done.actor.packages', output: [] },
  { type: 'xstate.error.actor.packages', error: failure },
  { type: 'data.retry', resource: 'documents' },
  { type: 'data.retry', resource: 'packages' },
  { type: 'data.refresh', resource: 'documents' },
  { type: 'data.refresh', resource: 'packages' },
  { type: 'document.select', documentId: 13 },
  { type: 'document.select', documentId: 11 },
  { type: 'order.select', scope: studioScope },
] as const
const serializeState = (s: any) =>
  JSON.stringify([
    s.value.active.documents,
    s.value.active.packages,
    s.context.scope.order?.id,
    s.context.selectedDocumentId,
    s.context.documents.length,
    Object.keys(s.context.errors).sort(),
  ])
const paths = shortestPaths(portalDataMachine, { events, input: { scope: boulangerieScope }, serializeState, limit: 5000 })

ModelBased('each region reaches loaded, failed, refreshing and stale', () => {
  const reached = new Set(paths.map((p) => `${(p.state.value as any).active.documents}/${(p.state.value as any).active.packages}`))
  for (const pair of [
    'loaded/loading',
    'failed/loading',
    'loading/loaded',
    'loading/failed',
    'loaded/loaded',
    'failed/failed',
    'refreshing/loading',
    'stale/loading',
    'loading/refreshing',
    'loading/stale',
    'refreshing/refreshing',
    'stale/stale',
  ]) {
    assert.ok(reached.has(pair), `no path reaches documents/packages = ${pair}`)
  }
})

for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(`${describePath(path)}`, async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const { context, value } = actor.getSnapshot() as any
    // Deleted letters never reach the list; the selected letter is always one of the list, or none.
    assert.not.ok(context.documents.some((d: any) => d.deleted))
    assert.ok(context.selectedDocumentId === null || context.documents.some((d: any) => d.id === context.selectedDocumentId))
    // A region that failed, or could not be read again, says why; any other carries no error.
    for (const resource of ['documents', 'packages'] as const) {
      assert.is(
        ['failed', 'stale'].includes(value.active[resource]),
        typeof context.errors[resource] === 'string',
        `${resource} error matches its state`,
      )
    }
    // While a list is read again, or after that failed, its items stay (the letters of the model's answer).
    if (['refreshing', 'stale'].includes(value.active.documents))
      assert.equal(
        context.documents.map((d: any) => d.id),
        [12, 13],
      )
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
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [12, 13],
  )
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
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [31],
  )
  // And a stale failure does not mark the new data failed.
  deferreds.settleAt('packages', 0, { error: failure })
  await flush()
  assert.is((actor.getSnapshot().value as any).active.packages, 'loading')
  assert.equal(actor.getSnapshot().context.errors, {})
})

Data('the stale load is cancelled: its abort signal fires', async () => {
  const signals: AbortSignal[] = []
  const { fromPromise } = await import('xstate')
  const load = fromPromise<any, any>(({ signal }) => {
    signals.push(signal)
    return new Promise(() => {})
  })
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
  assert.equal(
    deferreds.started.slice(before).map((s) => s.id),
    ['invoices'],
  )
  assert.is(actor.getSnapshot().context.errors.invoices, undefined)
})

Data.run()

const News = suite('portalData: news from the server (data.refresh)')

async function loadedLetters() {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('documents', { output: letters })
  await flush()
  return { actor, deferreds }
}
const regionOf = (actor: { getSnapshot(): any }, resource: string) => actor.getSnapshot().value.active[resource]

News('a loaded list is read again with its items and the letter being read kept; only that list', async () => {
  const { actor, deferreds } = await loadedLetters()
  actor.send({ type: 'document.select', documentId: 13 })
  const before = deferreds.started.length
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  assert.equal(deferreds.started.slice(before), [{ id: 'documents', input: { resource: 'documents', scope: boulangerieScope } }])
  assert.is(regionOf(actor, 'documents'), 'refreshing')
  assert.ok(actor.getSnapshot().hasTag('loading'), 'the loading flag is set')
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [12, 13],
    'the items stay while it is read again',
  )
  assert.is(actor.getSnapshot().context.selectedDocumentId, 13)
  deferreds.settle('documents', { output: [F.letter(14), ...letters] })
  await flush()
  assert.is(regionOf(actor, 'documents'), 'loaded')
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [14, 12, 13],
  )
  assert.is(actor.getSnapshot().context.selectedDocumentId, 13, 'the letter being read stays selected')
})

News('a letter no longer listed after a refresh gives way to the first', async () => {
  const { actor, deferreds } = await loadedLetters()
  actor.send({ type: 'document.select', documentId: 13 })
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  deferreds.settle('documents', { output: [F.letter(14), F.letter(13, { deleted: true })] })
  await flush()
  assert.is(actor.getSnapshot().context.selectedDocumentId, 14)
})

News("a refresh that fails keeps the items and says why; 'Réessayer' reads again", async () => {
  const { actor, deferreds } = await loadedLetters()
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  deferreds.settle('documents', { error: failure })
  await flush()
  assert.is(regionOf(actor, 'documents'), 'stale')
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [12, 13],
  )
  assert.is(actor.getSnapshot().context.errors.documents, failure.message)
  actor.send({ type: 'data.retry', resource: 'documents' })
  await flush()
  assert.is(regionOf(actor, 'documents'), 'refreshing')
  assert.is(actor.getSnapshot().context.errors.documents, undefined)
  deferreds.settle('documents', { output: letters })
  await flush()
  assert.is(regionOf(actor, 'documents'), 'loaded')
  // News after such a failure reads again too.
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  deferreds.settle('documents', { error: failure })
  await flush()
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  assert.is(regionOf(actor, 'documents'), 'refreshing')
  assert.equal(actor.getSnapshot().context.errors, {})
})

News('news during a load starts it again: the earlier call is aborted and its answer dropped', async () => {
  const signals: AbortSignal[] = []
  const answers: ((value: unknown) => void)[] = []
  const { fromPromise } = await import('xstate')
  const load = fromPromise<any, any>(({ input, signal }) => {
    if (input.resource !== 'documents') return new Promise(() => {})
    signals.push(signal)
    return new Promise((resolve) => answers.push(resolve))
  })
  const actor = createActor(portalDataMachine.provide({ actors: { load } }), { input: { scope: boulangerieScope } })
  actor.start()
  // During the first load…
  actor.send({ type: 'data.refresh', resource: 'documents' })
  assert.is(signals.length, 2)
  assert.ok(signals[0]!.aborted && !signals[1]!.aborted)
  answers[1]!(letters)
  await flush()
  // …and during a refresh.
  actor.send({ type: 'data.refresh', resource: 'documents' })
  actor.send({ type: 'data.refresh', resource: 'documents' })
  assert.is(signals.length, 4)
  assert.ok(signals[2]!.aborted && !signals[3]!.aborted)
  answers[2]!([F.letter(99)])
  await flush()
  assert.is(regionOf(actor, 'documents'), 'refreshing', 'the aborted answer is dropped')
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [12, 13],
  )
  answers[3]!([F.letter(14), ...letters])
  await flush()
  assert.equal(
    actor.getSnapshot().context.documents.map((d) => d.id),
    [14, 12, 13],
  )
})

News('news about another list changes nothing here; after a failed first load it loads again', async () => {
  const { actor, deferreds } = await loadedLetters()
  const before = deferreds.started.length
  actor.send({ type: 'data.refresh', resource: 'packages' })
  await flush()
  assert.equal(
    deferreds.started.slice(before).map((s) => s.id),
    ['packages'],
    'packages is still loading: read again from the start',
  )
  assert.is(regionOf(actor, 'documents'), 'loaded')
  deferreds.settle('invoices', { error: failure })
  await flush()
  actor.send({ type: 'data.refresh', resource: 'invoices' })
  await flush()
  assert.is(regionOf(actor, 'invoices'), 'loading')
  assert.is(actor.getSnapshot().context.errors.invoices, undefined)
})

News('a letter changed while its list is read again keeps its change over an answer read before the server had it', async () => {
  const { actor, deferreds } = await loadedLetters()
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  // Letter 12 opened (so read) meanwhile; the answer was read before the server had the read mark.
  actor.send({ type: 'document.changed', document: { ...letters[1]!, read: true } })
  deferreds.settle('documents', { output: [F.letter(14), ...letters] })
  await flush()
  const read = (id: number) => actor.getSnapshot().context.documents.find((d) => d.id === id)!.read
  assert.is(read(12), true)
  assert.equal(actor.getSnapshot().context.changedWhileRead, {}, 'used once')
  // The next read is the server's word again (another person may have changed the letter since).
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  deferreds.settle('documents', { output: letters })
  await flush()
  assert.is(read(12), false)
  // A change kept while a read fails is dropped with it: the list kept already shows it.
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  actor.send({ type: 'document.changed', document: { ...letters[1]!, read: true } })
  deferreds.settle('documents', { error: failure })
  await flush()
  assert.is(read(12), true)
  assert.equal(actor.getSnapshot().context.changedWhileRead, {})
  // A read mark kept over the answer is its read flag alone: what else the answer says of the letter (filed elsewhere) shows.
  actor.send({ type: 'data.refresh', resource: 'documents' })
  await flush()
  actor.send({ type: 'document.read', documentId: 12, read: true })
  deferreds.settle('documents', { output: letters.map((d) => (d.id === 12 ? { ...d, folderId: 7 } : d)) })
  await flush()
  const letter12 = actor.getSnapshot().context.documents.find((d) => d.id === 12)!
  assert.equal([letter12.read, letter12.folderId], [true, 7])
})

News(
  'a live notification is counted by kind; a letter or a package reads its list again, an invoice the invoices and the bookings, a formality none of these',
  async () => {
    const { actor, deferreds } = await loadedLetters()
    deferreds.settle('packages', { output: [] })
    await flush()
    let before = deferreds.started.length
    actor.send({ type: 'news.arrived', kind: 'letter' })
    await flush()
    assert.equal(
      deferreds.started.slice(before).map((s) => s.id),
      ['documents'],
    )
    assert.is(regionOf(actor, 'documents'), 'refreshing')
    before = deferreds.started.length
    actor.send({ type: 'news.arrived', kind: 'package' })
    actor.send({ type: 'news.arrived', kind: 'formality' })
    actor.send({ type: 'news.arrived', kind: 'formality' })
    await flush()
    assert.equal(
      deferreds.started.slice(before).map((s) => s.id),
      ['packages'],
    )
    // An invoice may bill a meeting-room booking: /mes-reunions reads its list again too.
    deferreds.settle('invoices', { output: [] })
    deferreds.settle('calendarInvoices', { output: [] })
    await flush()
    before = deferreds.started.length
    actor.send({ type: 'news.arrived', kind: 'invoice' })
    await flush()
    assert.equal(
      deferreds.started.slice(before).map((s) => s.id),
      ['invoices', 'calendarInvoices'],
    )
    assert.is(regionOf(actor, 'calendarInvoices'), 'refreshing')
    assert.equal(actor.getSnapshot().context.news, { letter: 1, package: 1, formality: 2, invoice: 1 })
    // The counts outlive an order switch: a page keyed by its order starts from the count it finds.
    actor.send({ type: 'order.select', scope: studioScope })
    assert.equal(actor.getSnapshot().context.news, { letter: 1, package: 1, formality: 2, invoice: 1 })
  },
)

News.run()
