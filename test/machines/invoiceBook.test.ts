import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { CreditNote, Invoice } from '../../server/contract/schemas.ts'
import { invoiceBookMachine } from '../../src/machines/invoiceBook.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const invoice = (id: number, overrides: Partial<Invoice> = {}): Invoice => ({
  id, domId: 2, raisonSociale: 'Boulangerie des Lilas SAS', number: `FA-2026-${id}`, date: '2026-11-01T10:00:00.000Z',
  amountExclTaxCents: 29000, amountInclTaxCents: 34800, paid: true, ...overrides,
})
const unpaid = invoice(1, { paid: false })
const shared = invoice(3, { domId: 3, raisonSociale: 'Studio Nuage SAS', paid: false, amountExclTaxCents: 2900, amountInclTaxCents: 3480 })
const note: CreditNote = { id: 9, domId: 2, raisonSociale: 'Boulangerie des Lilas SAS', number: 'AV-2026-1', date: '2026-06-05T10:00:00.000Z', amountExclTaxCents: 1000, amountInclTaxCents: 1200, invoiceId: 4 }
const book = { invoices: [unpaid, invoice(2), shared], creditNotes: [note] }
/** The user's own invoices of every year: one more unpaid of the Boulangerie, from 2025. */
const older = invoice(5, { paid: false, number: 'FA-2025-5', date: '2025-03-01T10:00:00.000Z', amountExclTaxCents: 1000, amountInclTaxCents: 1200 })
const everyYear = [unpaid, invoice(2), older]
const noCard = Object.assign(new Error('Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.'), { status: 402, code: 'NO_CARD' })
const declined = Object.assign(new Error('Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.'), { status: 402, code: 'PAYMENT_FAILED' })
const input = { orderId: null, payableOrderIds: [1, 2, 4], currentYear: 2026 }

function start() {
  const deferreds = new Deferreds()
  const paid: number[] = []
  const notices: Notice[] = []
  const machine = invoiceBookMachine.provide({
    actors: { loadYears: deferreds.actor(), loadYear: deferreds.actor(), loadUnpaid: deferreds.actor(), pay: deferreds.actor() },
    actions: { invoicesPaid: (_, { orderId }) => void paid.push(orderId), notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input }), deferreds, paid, notices }
}

const events = [
  { type: 'book.retry' },
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
  { type: 'xstate.error.actor.loadYear', error: new Error('Le service est momentanément indisponible.') },
  { type: 'xstate.done.actor.loadUnpaid', output: everyYear },
  { type: 'xstate.error.actor.loadUnpaid', error: new Error('Le service est momentanément indisponible.') },
  { type: 'xstate.done.actor.pay', output: { paidCount: 1, message: 'Votre facture a été réglée.' } },
  { type: 'xstate.error.actor.pay', error: declined },
  { type: 'xstate.error.actor.pay', error: noCard },
] as const

const ModelBased = suite('invoiceBook: every shortest path, replayed')
const paths = shortestPaths(invoiceBookMachine, { events, input })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['loadingYears', 'yearsFailed', 'empty', 'loadingYear', 'yearFailed', 'ready', 'countingUnpaid', 'countFailed', 'confirmingPayment', 'paying', 'noCard']) assert.ok(reached.has(state), state)
})
for (const path of paths) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, paid } = start()
    await replay(actor, deferreds, path)
    const steps = path.steps.map((s) => s.event.type)
    // Only an order the user owns is paid, only after the confirmation; the shared order never.
    for (const { id, input: sent } of deferreds.started) {
      if (id === 'pay') {
        assert.equal(sent, { orderId: 2 })
        assert.ok(steps.includes('payment.confirm'))
        // Only once the order's unpaid invoices of every year were counted: the confirmation gave what the server pays.
        assert.ok(steps.includes('xstate.done.actor.loadUnpaid'))
      }
      if (id === 'loadUnpaid') assert.equal(sent, { orderId: 2 })
      if (id === 'loadYear') assert.ok([2026, 2025].includes((sent as { year: number }).year))
    }
    // Invoices turn paid (and the portal hears of it) only when the server paid them.
    const paidNow = steps.includes('xstate.done.actor.pay')
    assert.equal(paid, paidNow ? [2] : [])
    if (actor.getSnapshot().matches('ready') && paidNow) {
      assert.ok(actor.getSnapshot().context.invoices.filter((i) => i.domId === 2).every((i) => i.paid))
      assert.is(actor.getSnapshot().context.invoices.find((i) => i.id === 3)!.paid, false, 'another order’s invoice stays unpaid')
    }
    // A confirmation on screen always gives every year's unpaid invoices of the order.
    const { payment } = actor.getSnapshot().context
    if (actor.getSnapshot().matches('confirmingPayment')) assert.equal(payment, { orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', count: 2, amountInclTaxCents: 36000, years: [2026, 2025] })
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
  assert.equal(actor.getSnapshot().context.payment, { orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', count: 2, amountInclTaxCents: 36000, years: [2026, 2025] })
  actor.send({ type: 'payment.confirm' })
  await flush()
  deferreds.settle('pay', { output: { paidCount: 1, message: 'Votre facture a été réglée.' } })
  await flush()
  assert.equal(paid, [2])
  assert.ok(actor.getSnapshot().context.invoices.find((i) => i.id === 1)!.paid)
  assert.equal(notices, [{ kind: 'success', message: 'Votre facture a été réglée.' }])
})

Book('declined: the confirmation stays with the bank’s reason; nothing turns paid', async () => {
  const { actor, deferreds, paid } = await ready()
  actor.send({ type: 'invoice.pay', orderId: 2 })
  await flush()
  deferreds.settle('loadUnpaid', { output: everyYear })
  await flush()
  actor.send({ type: 'payment.confirm' })
  await flush()
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
