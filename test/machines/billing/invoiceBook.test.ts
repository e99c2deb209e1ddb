import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, type SnapshotFrom } from 'xstate'
import type { CreditNote, Invoice } from '../../../server/contract/billing.ts'
import { invoiceBookMachine } from '../../../src/machines/billing/invoiceBook.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const invoice = (id: number, overrides: Partial<Invoice> = {}): Invoice => ({
  id,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  number: `FA-2026-${id}`,
  date: '2026-11-01T10:00:00.000Z',
  amountExclTaxCents: 29000,
  amountInclTaxCents: 34800,
  paid: true,
  ...overrides,
})
const unpaid = invoice(1, { paid: false })
const shared = invoice(3, { domId: 3, raisonSociale: 'Studio Nuage SAS', paid: false, amountExclTaxCents: 2900, amountInclTaxCents: 3480 })
const note: CreditNote = {
  id: 9,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  number: 'AV-2026-1',
  date: '2026-06-05T10:00:00.000Z',
  amountExclTaxCents: 1000,
  amountInclTaxCents: 1200,
  invoiceId: 4,
}
const book = { invoices: [unpaid, invoice(2), shared], creditNotes: [note] }
/** The same year read again after news: an invoice was issued meanwhile. */
const issuedInvoice = invoice(6, { paid: false, date: '2026-11-20T10:00:00.000Z' })
const issued = { invoices: [issuedInvoice, ...book.invoices], creditNotes: [note] }
/** The user's own invoices of every year: one more unpaid of the Boulangerie, from 2025. */
const older = invoice(5, {
  paid: false,
  number: 'FA-2025-5',
  date: '2025-03-01T10:00:00.000Z',
  amountExclTaxCents: 1000,
  amountInclTaxCents: 1200,
})
const everyYear = [unpaid, invoice(2), older]
const noCard = Object.assign(new Error('Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.'), {
  status: 402,
  code: 'NO_CARD',
})
const declined = Object.assign(
  new Error('Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.'),
  { status: 402, code: 'PAYMENT_FAILED' },
)
const amountChanged = Object.assign(
  new Error(
    'Le montant à régler a changé depuis votre confirmation : 3 factures impayées, 1 560,00 € TTC. Rien n’a été prélevé : vérifiez le nouveau montant puis confirmez.',
  ),
  { status: 409, code: 'AMOUNT_CHANGED' },
)
const input = { orderId: null, payableOrderIds: [1, 2, 4], currentYear: 2026 }

type Snapshot = SnapshotFrom<typeof invoiceBookMachine>
/** What the page shows: the rows of a year (InvoicesPage: not loading, not failed, a year shown). */
const rowsShown = (s: Snapshot) => !s.hasTag('loading') && !s.matches('yearsFailed') && !s.matches('yearFailed') && s.context.year !== null

function start() {
  const deferreds = new Deferreds()
  const paid: number[] = []
  const notices: Notice[] = []
  /** The news sent, each with how many reads had started by then. */
  const news: number[] = []
  /** Every change of the page's state, with the event that made it. */
  const changes: { event: { type: string; output?: unknown }; before: Snapshot; after: Snapshot }[] = []
  const machine = invoiceBookMachine.provide({
    actors: { loadYears: deferreds.actor(), loadYear: deferreds.actor(), loadUnpaid: deferreds.actor(), pay: deferreds.actor() },
    actions: { invoicesPaid: (_, { orderId }) => void paid.push(orderId), notify: (_, n) => void notices.push(n) },
  })
  let last: Snapshot | undefined
  const actor = createActor(machine, {
    input,
    inspect: (e) => {
      if (e.actorRef.sessionId !== e.rootId) return
      if (e.type === '@xstate.event' && e.event.type === 'book.refresh') news.push(deferreds.started.length)
      if (e.type === '@xstate.snapshot') {
        const after = e.snapshot as Snapshot
        if (last) changes.push({ event: e.event, before: last, after })
        last = after
      }
    },
  })
  return { actor, deferreds, paid, notices, news, changes }
}

const events = [
  { type: 'book.retry' },
  { type: 'book.refresh' },
  { type: 'year.select', year: 2025 },
  { type: 'year.select', year: 1999 },
  { type: 'invoice.pay', orderId: 2 },
  { type: 'invoice.pay', orderId: 3 },
  { type: 'payment.confirm' },
  { type: 'payment.cancel' },
  { type: 'payment.retry' },
  { type: 'xstate.done.actor.loadYears', output: [2026, 2025] },
  { type: 'xstate.done.actor.loadYears', output: [] },
  { type: 'xstate.error.actor.loadYears', error: new Error('Le service est momentanément indisponible.') },
  { type: 'xstate.done.actor.loadYear', output: book },
  { type: 'xstate.done.actor.loadYear', output: issued },
  { type: 'xstate.error.actor.loadYear', error: new Error('Le service est momentanément indisponible.') },
  { type: 'xstate.done.actor.loadUnpaid', output: everyYear },
  { type: 'xstate.error.actor.loadUnpaid', error: new Error('Le service est momentanément indisponible.') },
  { type: 'xstate.done.actor.pay', output: { paidCount: 1, message: 'Votre facture a été réglée.' } },
  { type: 'xstate.error.actor.pay', error: declined },
  { type: 'xstate.error.actor.pay', error: noCard },
  { type: 'xstate.error.actor.pay', error: amountChanged },
] as const

/**
 * States told apart by when the last news came too (during a read, a payment, or at rest): the graph then reaches the
 * page at rest after news that came at each of those times.
 */
const newsIn = new WeakMap<object, string>()
const moment = (s: Snapshot) => (s.hasTag('dialog') ? 'payment' : s.children.loadYears || s.children.loadYear ? 'read' : 'rest')
const serializeState = (s: Snapshot, event?: { type: string }, prev?: Snapshot) => {
  if (!newsIn.has(s)) newsIn.set(s, event?.type === 'book.refresh' ? moment(prev!) : ((prev && newsIn.get(prev)) ?? 'none'))
  return JSON.stringify({ value: s.value, context: s.context, news: newsIn.get(s) })
}

const ModelBased = suite('invoiceBook: every shortest path, replayed')
const paths = shortestPaths(invoiceBookMachine, { events, input, serializeState, limit: 50_000 })
ModelBased('the model reaches every state', () => {
  const reached = new Set(
    paths.map((p) =>
      typeof p.state.value === 'string'
        ? p.state.value
        : Object.entries(p.state.value).map(([parent, child]) => `${parent}.${String(child)}`)[0],
    ),
  )
  for (const state of [
    'loadingYears',
    'yearsFailed',
    'empty',
    'loadingYear',
    'yearFailed',
    'ready',
    'rereading.years',
    'rereading.year',
    'rereading.stale',
    'countingUnpaid',
    'countFailed',
    'confirmingPayment',
    'paying',
    'noCard',
  ])
    assert.ok(reached.has(state), state)
})
// Every path, not only those that add a state or a transition: each path ends with news, the years read again whatever
// the state, and this check is meant for each state the graph tells apart (by when the last news came, too).
for (const path of pathsToReplay(paths, ModelBased, { every: true })) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, paid, news, changes } = start()
    await replay(actor, deferreds, path)
    const steps = path.steps.map((s) => s.event.type)
    const snapshot = actor.getSnapshot()
    // News and the page back at rest: the years, and the year shown, were read after the last news.
    const atRest =
      snapshot.matches({ rereading: 'stale' }) ||
      (['ready', 'empty', 'yearsFailed', 'yearFailed'] as const).some((state) => snapshot.matches(state))
    if (news.length && atRest) {
      const readAfter = (id: string) => deferreds.started.slice(news.at(-1)!).some((s) => s.id === id)
      assert.ok(readAfter('loadYears'), 'the years read after the last news')
      const noYearsLeft = path.steps.findLast((s) => s.event.type === 'xstate.done.actor.loadYears')?.event.output?.length === 0
      if (snapshot.matches('ready') && !noYearsLeft) assert.ok(readAfter('loadYear'), 'the year read after the last news')
    }
    for (const { event, before, after } of changes) {
      // Rows on screen stay on screen, but for another year chosen; they change only for an answer (or a payment).
      if (rowsShown(before) && !rowsShown(after)) assert.is(event.type, 'year.select', `rows hidden by ${event.type}`)
      if (rowsShown(before) && rowsShown(after) && before.context.invoices !== after.context.invoices) {
        assert.ok(['xstate.done.actor.loadYear', 'xstate.done.actor.pay'].includes(event.type), `rows changed by ${event.type}`)
      }
      // The year shown is kept: only the user changes it, or a list of years without it.
      if (before.context.year !== null && after.context.year !== before.context.year) {
        assert.ok(
          event.type === 'year.select' ||
            (event.type === 'xstate.done.actor.loadYears' && !(event.output as number[]).includes(before.context.year)),
          `year changed by ${event.type}`,
        )
      }
    }
    // Only an order the user owns is paid, only after the confirmation; the shared order never.
    for (const { id, input: sent } of deferreds.started) {
      if (id === 'pay') {
        // The total confirmed goes with it: the server charges that, or nothing.
        assert.equal(sent, { orderId: 2, expectedAmountInclTaxCents: 36000 })
        assert.ok(steps.includes('payment.confirm'))
        // Only once the order's unpaid invoices of every year were counted after the last news: the confirmation gave
        // what the server pays.
        const confirmed = steps.lastIndexOf('payment.confirm')
        const before = steps.slice(0, confirmed)
        assert.ok(before.lastIndexOf('xstate.done.actor.loadUnpaid') > before.lastIndexOf('book.refresh'), 'counted after the last news')
      }
      if (id === 'loadUnpaid') assert.equal(sent, { orderId: 2 })
      if (id === 'loadYear') assert.ok([2026, 2025].includes((sent as { year: number }).year))
    }
    // Invoices turn paid (and the portal hears of it) only when the server paid them, until the year is read again.
    const paidNow = steps.includes('xstate.done.actor.pay')
    assert.equal(
      paid,
      steps.filter((s) => s === 'xstate.done.actor.pay').map(() => 2),
    )
    if (
      actor.getSnapshot().matches('ready') &&
      paidNow &&
      steps.lastIndexOf('xstate.done.actor.pay') > steps.lastIndexOf('xstate.done.actor.loadYear')
    ) {
      assert.ok(
        actor
          .getSnapshot()
          .context.invoices.filter((i) => i.domId === 2)
          .every((i) => i.paid),
      )
      assert.is(actor.getSnapshot().context.invoices.find((i) => i.id === 3)!.paid, false, 'another order’s invoice stays unpaid')
    }
    // A confirmation on screen always gives every year's unpaid invoices of the order.
    const { payment } = actor.getSnapshot().context
    if (actor.getSnapshot().matches('confirmingPayment'))
      assert.equal(payment, {
        orderId: 2,
        raisonSociale: 'Boulangerie des Lilas SAS',
        count: 2,
        amountInclTaxCents: 36000,
        years: [2026, 2025],
      })
    // News now, whatever the state: the years are read again at once (the rows kept), or after the payment under way.
    const startedBefore = deferreds.started.length
    actor.send({ type: 'book.refresh' })
    await flush()
    const after = actor.getSnapshot()
    const readNow = deferreds.started.slice(startedBefore).some((s) => s.id === 'loadYears')
    if (snapshot.hasTag('dialog'))
      assert.ok(after.hasTag('dialog') && after.context.refreshPending && !readNow, 'kept for after the payment')
    else assert.ok(readNow, 'the years read again')
    // Before the confirmation, news counts the amount again (an invoice may have been issued): never confirmed unseen.
    if (snapshot.matches('confirmingPayment') || snapshot.matches('countingUnpaid')) {
      assert.ok(after.matches('countingUnpaid'), 'counted again')
      assert.is(deferreds.started.slice(startedBefore).filter((s) => s.id === 'loadUnpaid').length, 1)
    }
    // A total that changed since the confirmation: nothing paid, counted again, the server's reason shown.
    if (path.steps.at(-1)?.event.type === 'xstate.error.actor.pay' && path.steps.at(-1)?.event.error === amountChanged) {
      assert.ok(snapshot.matches('countingUnpaid'))
      assert.is(snapshot.context.error, amountChanged.message)
      assert.equal(paid, [])
    }
    if (rowsShown(snapshot)) assert.ok(rowsShown(after) && after.context.invoices === snapshot.context.invoices, 'the rows still shown')
    actor.stop()
  })
}
ModelBased.run()

const Book = suite('invoiceBook: examples')

async function ready() {
  const started = start()
  started.actor.start()
  await flush()
  started.deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  started.deferreds.settle('loadYear', { output: book })
  await flush()
  return started
}

/** The list shown, 'Payer' on the Boulangerie, every year's unpaid invoices counted, and the payment confirmed. */
async function confirmed() {
  const started = await ready()
  started.actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  started.deferreds.settle('loadUnpaid', { output: everyYear })
  await flush()
  started.actor.send({ type: 'payment.confirm' })
  await flush()
  return started
}

Book('this year first; another year loads its own lists', async () => {
  const { actor, deferreds } = await ready()
  assert.is(actor.getSnapshot().context.year, 2026)
  actor.send({ type: 'year.select', year: 2025 })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'loadYear', input: { year: 2025, orderId: null } })
})

Book('pay ok: the confirmation gives the amount; the order’s invoices turn paid; a toast', async () => {
  const { actor, deferreds, paid, notices } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  actor.send({ type: 'payment.confirm' })
  assert.ok(actor.getSnapshot().matches('countingUnpaid'), 'nothing to confirm before the amount is known')
  deferreds.settle('loadUnpaid', { output: everyYear })
  await flush()
  assert.equal(actor.getSnapshot().context.payment, {
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    count: 2,
    amountInclTaxCents: 36000,
    years: [2026, 2025],
  })
  actor.send({ type: 'payment.confirm' })
  await flush()
  deferreds.settle('pay', { output: { paidCount: 1, message: 'Votre facture a été réglée.' } })
  await flush()
  assert.equal(paid, [2])
  assert.ok(actor.getSnapshot().context.invoices.find((i) => i.id === 1)!.paid)
  assert.equal(notices, [{ kind: 'success', message: 'Votre facture a été réglée.' }])
})

Book('declined: the confirmation stays with the bank’s reason; nothing turns paid', async () => {
  const { actor, deferreds, paid } = await confirmed()
  deferreds.settle('pay', { error: declined })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirmingPayment'))
  assert.is(actor.getSnapshot().context.error, declined.message)
  assert.is(actor.getSnapshot().context.invoices.find((i) => i.id === 1)!.paid, false)
  assert.equal(paid, [])
})

Book('no card: the way to /moyen-de-paiement', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  deferreds.settle('loadUnpaid', { output: everyYear })
  await flush()
  actor.send({ type: 'payment.confirm' })
  await flush()
  deferreds.settle('pay', { error: noCard })
  await flush()
  assert.ok(actor.getSnapshot().matches('noCard'))
})

Book('a shared order’s invoice cannot be paid here', async () => {
  const { actor } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 3 })
  assert.ok(actor.getSnapshot().matches('ready'))
})

Book('an amount that cannot be counted: "Réessayer" counts again; "Annuler" closes; nothing is paid meanwhile', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  deferreds.settle('loadUnpaid', { error: new Error('Le service est momentanément indisponible.') })
  await flush()
  assert.ok(actor.getSnapshot().matches('countFailed'))
  assert.is(actor.getSnapshot().context.error, 'Le service est momentanément indisponible.')
  actor.send({ type: 'payment.confirm' })
  assert.ok(actor.getSnapshot().matches('countFailed'), 'no confirmation without the amount')
  actor.send({ type: 'payment.retry' })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'loadUnpaid', input: { orderId: 2 } })
  actor.send({ type: 'payment.cancel' })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.payment, null)
  assert.not.ok(deferreds.started.some((s) => s.id === 'pay'))
})

Book('every year counted and none unpaid any more (paid from elsewhere): the server says so on confirming', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  deferreds.settle('loadUnpaid', { output: [invoice(1), invoice(2)] })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirmingPayment'))
  assert.is(actor.getSnapshot().context.payment!.count, 1, 'the amount shown stays')
})

Book.run()

const News = suite('invoiceBook: news of an invoice issued')
const failure = new Error('Le service est momentanément indisponible.')

News('the rows stay while the years and the year chosen are read again; then the new invoice shows', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'year.select', year: 2025 })
  await flush()
  deferreds.settle('loadYear', { output: book })
  await flush()
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.ok(actor.getSnapshot().matches({ rereading: 'years' }))
  assert.not.ok(actor.getSnapshot().hasTag('loading'), 'no spinner')
  assert.equal(actor.getSnapshot().context.invoices, book.invoices, 'still shown')
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'loadYear', input: { year: 2025, orderId: null } }, 'the year chosen, not this year')
  assert.equal(actor.getSnapshot().context.invoices, book.invoices)
  deferreds.settle('loadYear', { output: issued })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.year, 2025)
  assert.equal(actor.getSnapshot().context.invoices, issued.invoices)
})

News('news during a read starts it again; the year chosen meanwhile is kept', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadYears', 'loadYears'],
  )
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  actor.send({ type: 'year.select', year: 2025 })
  await flush()
  // The year being read, and news: the years are read again first, then the year chosen.
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.ok(actor.getSnapshot().matches('loadingYears'))
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'loadYear', input: { year: 2025, orderId: null } })
  deferreds.settle('loadYear', { output: issued })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(actor.getSnapshot().context.invoices, issued.invoices)
})

News('news before the confirmation counts the amount again; during the payment it waits; the list is read again once paid', async () => {
  const { actor, deferreds, paid } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.is(deferreds.started.filter((s) => s.id === 'loadUnpaid').length, 2, 'news while counting: counted again')
  deferreds.settle('loadUnpaid', { output: everyYear })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirmingPayment'))
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.ok(actor.getSnapshot().matches('countingUnpaid'), 'news at the confirmation: the amount is counted again before one is taken')
  actor.send({ type: 'payment.confirm' })
  assert.ok(actor.getSnapshot().matches('countingUnpaid'), 'no confirmation while counting')
  deferreds.settle('loadUnpaid', { output: [...everyYear, invoice(6, { paid: false, number: 'FA-2026-6', amountInclTaxCents: 120_000 })] })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirmingPayment'), 'the confirmation, with the new amount')
  assert.equal(actor.getSnapshot().context.payment!.amountInclTaxCents, 156_000)
  actor.send({ type: 'payment.confirm' })
  await flush()
  actor.send({ type: 'book.refresh' })
  await flush()
  assert.equal(deferreds.started.filter((s) => s.id === 'loadYears').length, 1, 'nothing read during the payment')
  assert.equal(
    deferreds.started.findLast((s) => s.id === 'pay')!.input,
    { orderId: 2, expectedAmountInclTaxCents: 156_000 },
    'the amount confirmed',
  )
  deferreds.settle('pay', { output: { paidCount: 3, message: 'Vos factures ont été réglées.' } })
  await flush()
  assert.equal(paid, [2])
  assert.ok(actor.getSnapshot().matches({ rereading: 'years' }), 'read once the payment is over')
  assert.is(actor.getSnapshot().context.invoices.find((i) => i.id === 1)!.paid, true, 'the paid rows shown meanwhile')
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  deferreds.settle('loadYear', { output: issued })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.refreshPending, false)
  assert.equal(deferreds.started.filter((s) => s.id === 'loadYears').length, 2, 'read once, not once per news')
})

News(
  'a total changed since the confirmation (409 AMOUNT_CHANGED): nothing paid, counted again under the reason, then paid as shown',
  async () => {
    const { actor, deferreds, paid } = await confirmed()
    deferreds.settle('pay', { error: amountChanged })
    await flush()
    assert.ok(actor.getSnapshot().matches('countingUnpaid'))
    assert.is(actor.getSnapshot().context.error, amountChanged.message)
    assert.equal(paid, [])
    deferreds.settle('loadUnpaid', {
      output: [...everyYear, invoice(6, { paid: false, number: 'FA-2026-6', amountInclTaxCents: 120_000 })],
    })
    await flush()
    assert.ok(actor.getSnapshot().matches('confirmingPayment'))
    assert.is(actor.getSnapshot().context.error, amountChanged.message, 'the reason stays above the new amount')
    actor.send({ type: 'payment.confirm' })
    await flush()
    assert.equal(deferreds.started.findLast((s) => s.id === 'pay')!.input, { orderId: 2, expectedAmountInclTaxCents: 156_000 })
    deferreds.settle('pay', { output: { paidCount: 3, message: 'Vos factures ont été réglées.' } })
    await flush()
    assert.equal(paid, [2])
    assert.ok(actor.getSnapshot().matches({ rereading: 'years' }), 'the list read again: it has a new invoice')
  },
)

News('news, then the payment cancelled: read at once', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  actor.send({ type: 'book.refresh' })
  actor.send({ type: 'payment.cancel' })
  await flush()
  assert.ok(actor.getSnapshot().matches({ rereading: 'years' }))
  assert.equal(deferreds.started.at(-1)!.id, 'loadYears')
})

News('a re-read that fails keeps the rows and says why; "Réessayer" reads again', async () => {
  const { actor, deferreds } = await ready()
  actor.send({ type: 'book.refresh' })
  await flush()
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  deferreds.settle('loadYear', { error: failure })
  await flush()
  assert.ok(actor.getSnapshot().matches({ rereading: 'stale' }))
  assert.equal(actor.getSnapshot().context.invoices, book.invoices, 'still shown')
  assert.is(actor.getSnapshot().context.error, failure.message)
  actor.send({ type: 'book.retry' })
  await flush()
  assert.is(actor.getSnapshot().context.error, null)
  assert.equal(actor.getSnapshot().context.invoices, book.invoices)
  deferreds.settle('loadYears', { output: [2026, 2025] })
  await flush()
  deferreds.settle('loadYear', { output: issued })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(actor.getSnapshot().context.invoices, issued.invoices)
})

News('the first invoice: "Aucune facture" stays until this year is read', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  deferreds.settle('loadYears', { output: [] })
  await flush()
  assert.ok(actor.getSnapshot().matches('empty'))
  actor.send({ type: 'book.refresh' })
  await flush()
  deferreds.settle('loadYears', { output: [2026] })
  await flush()
  assert.not.ok(actor.getSnapshot().hasTag('loading'))
  assert.is(actor.getSnapshot().context.year, null, 'no year shown before its invoices')
  assert.equal(deferreds.started.at(-1), { id: 'loadYear', input: { year: 2026, orderId: null } })
  deferreds.settle('loadYear', { output: { invoices: [issuedInvoice], creditNotes: [] } })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.year, 2026)
})

News.run()
