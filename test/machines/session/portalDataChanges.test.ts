// What the mail flows report to portalData: the lists follow at once, without loading them again.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { CourierRequest, Folder } from '../../../server/contract/mail.ts'
import { portalDataMachine, type Scope, unreadCount } from '../../../src/machines/session/portalData.machine.ts'
import * as F from '../../util/fixtures.ts'
import { Deferreds, flush } from '../../util/paths.ts'

const scope: Scope = { order: F.boulangerie, orders: [F.boulangerie] }
const banque: Folder = { id: 7, name: 'Banque', domiciliationOrderId: 2, documentCount: 1 }
const urssaf: Folder = { id: 8, name: 'URSSAF', domiciliationOrderId: 2, documentCount: 0 }
const request: CourierRequest = {
  id: 5,
  orderId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  createdAt: '2026-11-01T14:15:00.000Z',
  kind: 'scan',
  status: 'en attente',
  letterCount: 1,
  outcome: null,
}

async function loaded() {
  const deferreds = new Deferreds()
  const actor = createActor(portalDataMachine.provide({ actors: { load: deferreds.actor() } }), { input: { scope } })
  actor.start()
  await flush()
  deferreds.settle('documents', { output: [F.letter(12, { folderId: 7 }), F.letter(13, { read: true })] })
  deferreds.settle('folders', { output: [urssaf, banque] })
  deferreds.settle('courierRequests', { output: [request] })
  await flush()
  return { actor, deferreds }
}

const Changes = suite('portalData: changes reported by the mail flows')

Changes('a letter read: the unread count follows at once', async () => {
  const { actor } = await loaded()
  assert.is(unreadCount(actor.getSnapshot().context.documents), 1)
  actor.send({ type: 'document.changed', document: F.letter(12, { folderId: 7, read: true }) })
  assert.is(unreadCount(actor.getSnapshot().context.documents), 0)
})

Changes('a letter moved: both folders count it where it now is', async () => {
  const { actor } = await loaded()
  actor.send({ type: 'document.changed', document: F.letter(12, { folderId: 8 }) })
  const { folders, documents } = actor.getSnapshot().context
  assert.equal(
    folders.map((f) => [f.name, f.documentCount]),
    [
      ['URSSAF', 1],
      ['Banque', 0],
    ],
  )
  assert.is(documents[0]!.folderId, 8)
})

Changes('a read mark (or its undoing) changes the read flag only: a move made meanwhile stays, with its counts', async () => {
  const { actor } = await loaded()
  actor.send({ type: 'document.changed', document: F.letter(12, { folderId: 8 }) })
  actor.send({ type: 'document.read', documentId: 12, read: true })
  assert.is(unreadCount(actor.getSnapshot().context.documents), 0)
  actor.send({ type: 'document.read', documentId: 12, read: false })
  const { folders, documents } = actor.getSnapshot().context
  assert.equal([documents[0]!.read, documents[0]!.folderId], [false, 8])
  assert.equal(
    folders.map((f) => [f.name, f.documentCount]),
    [
      ['URSSAF', 1],
      ['Banque', 0],
    ],
  )
})

Changes('a letter of another list (a stale report) changes nothing', async () => {
  const { actor } = await loaded()
  const before = actor.getSnapshot().context
  actor.send({ type: 'document.changed', document: F.letter(99, { read: true }) })
  assert.equal(actor.getSnapshot().context.documents, before.documents)
  assert.equal(actor.getSnapshot().context.folders, before.folders)
})

Changes('a folder created or renamed takes its place by name', async () => {
  const { actor } = await loaded()
  actor.send({ type: 'folder.saved', folder: { id: 9, name: 'Assurances', domiciliationOrderId: 2, documentCount: 0 } })
  actor.send({ type: 'folder.saved', folder: { ...urssaf, name: 'Administratif' } })
  assert.equal(
    actor.getSnapshot().context.folders.map((f) => f.name),
    ['Administratif', 'Assurances', 'Banque'],
  )
})

Changes('a folder deleted: its letters stay, unfiled', async () => {
  const { actor } = await loaded()
  actor.send({ type: 'folder.removed', folderId: 7 })
  const { folders, documents } = actor.getSnapshot().context
  assert.equal(
    folders.map((f) => f.id),
    [8],
  )
  assert.equal(
    documents.map((d) => [d.id, d.folderId]),
    [
      [12, null],
      [13, null],
    ],
  )
})

Changes('a courier request cancelled leaves the list', async () => {
  const { actor } = await loaded()
  actor.send({ type: 'courierRequest.removed', id: 5 })
  assert.equal(actor.getSnapshot().context.courierRequests, [])
})

Changes.run()

// --- billing
const Billing = suite('portalData: changes reported by the billing flows')

const sub = (planIds: string[]) => ({
  id: 'sub_2',
  object: 'subscription' as const,
  status: 'active',
  current_period_end: 1_900_000_000,
  cancel_at_period_end: false,
  items: {
    object: 'list' as const,
    data: planIds.map((id) => ({
      id: `si_${id}`,
      quantity: 1,
      plan: { id, nickname: id, amount: 100, currency: 'eur', interval: 'year' as const, product: 'p' },
    })),
  },
})

async function billingLoaded() {
  const deferreds = new Deferreds()
  const actor = createActor(portalDataMachine.provide({ actors: { load: deferreds.actor() } }), { input: { scope } })
  actor.start()
  await flush()
  deferreds.settle('subscriptions', {
    output: [
      { orderId: 2, subscription: sub(['domiciliation-annuelle']) },
      { orderId: 4, subscription: sub(['domiciliation-mensuelle']) },
    ],
  })
  deferreds.settle('card', { output: { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2028 } })
  deferreds.settle('invoices', {
    output: [
      {
        id: 1,
        domId: 2,
        raisonSociale: 'Boulangerie des Lilas SAS',
        number: 'FA-1',
        date: '2026-11-01T00:00:00.000Z',
        amountExclTaxCents: 100,
        amountInclTaxCents: 120,
        paid: false,
      },
      {
        id: 2,
        domId: 3,
        raisonSociale: 'Studio Nuage SAS',
        number: 'FA-2',
        date: '2026-11-01T00:00:00.000Z',
        amountExclTaxCents: 100,
        amountInclTaxCents: 120,
        paid: false,
      },
    ],
  })
  const booking = {
    raisonSociale: 'Boulangerie des Lilas SAS',
    date: '2026-10-30T09:00:00.000Z',
    room: 'Salle Haussmann',
    hours: 2,
    amountInclTaxCents: 120,
    paid: false,
  }
  deferreds.settle('calendarInvoices', {
    output: [
      { ...booking, id: 1, domId: 2, invoiceId: 1, invoiceNumber: 'FA-1' },
      // Not invoiced yet: whether it is paid is its own business.
      { ...booking, id: 2, domId: 2, invoiceId: null, invoiceNumber: null },
      { ...booking, id: 3, domId: 3, raisonSociale: 'Studio Nuage SAS', invoiceId: 2, invoiceNumber: 'FA-2' },
    ],
  })
  await flush()
  return actor
}

Billing('an option added: that order’s subscription shows it, the others are untouched', async () => {
  const actor = await billingLoaded()
  actor.send({ type: 'subscription.changed', orderId: 2, subscription: sub(['domiciliation-annuelle', 'option-scan-annuelle']) })
  assert.equal(
    actor.getSnapshot().context.subscriptions.map((s) => [s.orderId, s.subscription.items.data.length]),
    [
      [2, 2],
      [4, 1],
    ],
  )
})

Billing('a card replaced shows at once', async () => {
  const actor = await billingLoaded()
  actor.send({ type: 'card.changed', card: { id: 'pm_2', brand: 'mastercard', last4: '4444', expMonth: 8, expYear: 2029 } })
  assert.is(actor.getSnapshot().context.card?.last4, '4444')
})

Billing('an order’s invoices paid: they turn paid, and the bookings they bill; another order’s stay as they were', async () => {
  const actor = await billingLoaded()
  actor.send({ type: 'invoices.paid', orderId: 2 })
  assert.equal(
    actor.getSnapshot().context.invoices.map((i) => [i.id, i.paid]),
    [
      [1, true],
      [2, false],
    ],
  )
  assert.equal(
    actor.getSnapshot().context.calendarInvoices.map((c) => [c.id, c.paid]),
    [
      [1, true],
      [2, false],
      [3, false],
    ],
  )
})

Billing.run()
