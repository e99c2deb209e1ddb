// Billing: subscriptions' option requests, invoices, credit notes, meeting-room invoices and termination requests.
// The test payment provider's own objects are in test-payment-provider.ts.
import { sql, type Kysely } from 'kysely'
import type { CalendarInvoice, CreditNote, Invoice } from '../../contract/index.ts'
import { notFound } from '../../http/errors.ts'
import type { Database, Db } from '../schema.ts'
import { orderIdsInScope } from './orders.ts'

/** The subscription of any order: callers prove their right to it otherwise (the subscription key). */
export function findOrderSubscription(db: Db, orderId: number) {
  return db.selectFrom('orders').select(['id', 'subscription_id']).where('id', '=', orderId).executeTakeFirst()
}

export async function createOptionRequest(db: Db, request: { orderId: number; userId: number; planId: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('option_requests')
    .values({ order_id: request.orderId, user_id: request.userId, plan_id: request.planId, expires_at: request.expiresAt }).execute()
}

/** Consumes the latest pending, unexpired request for this plan on the contract's order: its subscription id, or null. */
export async function confirmOptionRequest(db: Kysely<Database>, contractId: number, planId: string, now: Date): Promise<string | null> {
  return db.transaction().execute(async (tx) => {
    const contract = await tx.selectFrom('contracts').innerJoin('orders', 'orders.id', 'contracts.order_id')
      .select(['orders.id as order_id', 'orders.subscription_id']).where('contracts.id', '=', contractId).executeTakeFirst()
    if (!contract?.subscription_id) return null
    // Single use: the pending request is consumed by the statement that finds it.
    const request = await tx.updateTable('option_requests').set({ confirmed_at: now })
      .where('id', '=', (eb) => eb.selectFrom('option_requests').select('id')
        .where('order_id', '=', contract.order_id).where('plan_id', '=', planId)
        .where('confirmed_at', 'is', null).where('expires_at', '>', now)
        .orderBy('id', 'desc').limit(1))
      .returning('id').executeTakeFirst()
    return request ? contract.subscription_id : null
  })
}

// Invoice years follow the French calendar, whatever the server's time zone.
const yearOf = (column: string) => sql<number>`extract(year from ${sql.ref(column)} at time zone 'Europe/Paris')::int`

export async function listInvoiceYears(db: Db, orderIds: number[]): Promise<number[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('invoices').select(yearOf('date').as('year')).distinct()
    .where('order_id', 'in', orderIds).orderBy('year', 'desc').execute()
  return rows.map((r) => r.year)
}

export async function listInvoices(db: Db, orderIds: number[], year?: number): Promise<Invoice[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('invoices').innerJoin('orders', 'orders.id', 'invoices.order_id')
    .selectAll('invoices').select('orders.raison_sociale')
    .where('invoices.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('invoices.date'), '=', year!))
    .orderBy('invoices.date', 'desc').orderBy('invoices.id', 'desc').execute()
  return rows.map((r) => ({
    id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, number: r.number, date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents, amountInclTaxCents: r.amount_incl_tax_cents, paid: r.paid_at !== null,
  }))
}

export async function listCreditNotes(db: Db, orderIds: number[], year?: number): Promise<CreditNote[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('credit_notes').innerJoin('orders', 'orders.id', 'credit_notes.order_id')
    .selectAll('credit_notes').select('orders.raison_sociale')
    .where('credit_notes.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('credit_notes.date'), '=', year!))
    .orderBy('credit_notes.date', 'desc').execute()
  return rows.map((r) => ({
    id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, number: r.number, date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents, amountInclTaxCents: r.amount_incl_tax_cents, invoiceId: r.invoice_id,
  }))
}

export async function listCalendarInvoices(db: Db, orderIds: number[]): Promise<CalendarInvoice[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('calendar_invoices').innerJoin('orders', 'orders.id', 'calendar_invoices.order_id')
    .leftJoin('invoices', 'invoices.id', 'calendar_invoices.invoice_id')
    .selectAll('calendar_invoices').select(['orders.raison_sociale', 'invoices.number as invoice_number', 'invoices.paid_at as invoice_paid_at'])
    .where('calendar_invoices.order_id', 'in', orderIds).orderBy('calendar_invoices.date', 'desc').execute()
  return rows.map((r) => ({
    id: r.id, domId: r.order_id, raisonSociale: r.raison_sociale, date: r.date.toISOString(), room: r.room,
    hours: r.hours, amountInclTaxCents: r.amount_incl_tax_cents,
    // Once a booking is invoiced, whether it is paid is the invoice's business.
    paid: r.invoice_id !== null ? r.invoice_paid_at !== null : r.paid,
    invoiceId: r.invoice_id, invoiceNumber: r.invoice_number,
  }))
}

/** An invoice or credit note of an order the user sees (collaborators see the shared order's invoices), or 404. */
export async function requireBill(db: Db, table: 'invoices' | 'credit_notes', userId: number, id: number) {
  const row = await db.selectFrom(table).select(['id', 'order_id', 'number', 'file_key']).where('id', '=', id).executeTakeFirst()
  if (!row || !(await orderIdsInScope(db, userId, 'all', row.order_id)).length) throw notFound(table === 'invoices' ? 'Facture' : 'Avoir')
  return row
}

/** How many invoices of these orders are unpaid, and their total including tax. */
export async function unpaidTotal(db: Db, orderIds: number[]): Promise<{ count: number; amountInclTaxCents: number }> {
  if (!orderIds.length) return { count: 0, amountInclTaxCents: 0 }
  const row = await db.selectFrom('invoices')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('amount_incl_tax_cents'), eb.lit(0)).as('amount')])
    .where('order_id', 'in', orderIds).where('paid_at', 'is', null).executeTakeFirstOrThrow()
  return { count: Number(row.count), amountInclTaxCents: Number(row.amount) }
}

/** Oldest first. */
export async function findUnpaidInvoices(db: Db, orderIds: number[]) {
  if (!orderIds.length) return []
  return db.selectFrom('invoices').select(['id', 'number', 'amount_incl_tax_cents'])
    .where('order_id', 'in', orderIds).where('paid_at', 'is', null).orderBy('date').execute()
}

/** Invoices paid meanwhile keep their first payment. */
export async function markInvoicesPaid(db: Db, invoiceIds: number[], paidAt: Date, paymentReference: string): Promise<void> {
  await db.updateTable('invoices').set({ paid_at: paidAt, payment_reference: paymentReference })
    .where('id', 'in', invoiceIds).where('paid_at', 'is', null).execute()
}

export async function hasTerminationRequest(db: Db, orderId: number): Promise<boolean> {
  return !!(await db.selectFrom('termination_requests').select('id').where('order_id', '=', orderId).executeTakeFirst())
}

export async function createTerminationRequest(db: Db, request: { orderId: number; userId: number; reason: string; date: string; comment: string | null }): Promise<number> {
  const row = await db.insertInto('termination_requests')
    .values({ order_id: request.orderId, user_id: request.userId, reason: request.reason, date: request.date, comment: request.comment })
    .returning('id').executeTakeFirstOrThrow()
  return row.id
}
