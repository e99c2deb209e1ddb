// Billing: subscriptions' option requests, invoices, credit notes, meeting-room invoices and termination requests.
// The test payment provider's own objects are in billing-test-provider.ts.
import { randomUUID } from 'node:crypto'
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely'
import type { CalendarInvoice, CreditNote, Invoice } from '../../contract/billing.ts'
import { NotFoundError } from '../errors.ts'
import { MAX_PAYMENT_CENTS } from '../../lib/money.ts'
import { isoDay, terminationDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'
import { orderIdsInScope } from './company-orders.ts'

/** The subscription of any order: callers prove their right to it otherwise (the subscription key). */
export function findOrderSubscription(db: Db, orderId: number) {
  return db.selectFrom('orders').select(['id', 'subscription_id']).where('id', '=', orderId).executeTakeFirst()
}

export async function createOptionRequest(
  db: Db,
  request: { orderId: number; userId: number; planId: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('option_requests')
    .values({ order_id: request.orderId, user_id: request.userId, plan_id: request.planId, expires_at: request.expiresAt })
    .execute()
}

/** Consumes the latest pending, unexpired request for this plan on the contract's order: its subscription id, or null. */
export async function confirmOptionRequest(db: Kysely<Database>, contractId: number, planId: string, now: Date): Promise<string | null> {
  return db.transaction().execute(async (tx) => {
    const contract = await tx
      .selectFrom('contracts')
      .innerJoin('orders', 'orders.id', 'contracts.order_id')
      .select(['orders.id as order_id', 'orders.subscription_id'])
      .where('contracts.id', '=', contractId)
      .executeTakeFirst()
    if (!contract?.subscription_id) return null
    // Single use: the pending request is consumed by the statement that finds it. `confirmed_at is null` again outside
    // the subquery: a confirmation that waited on the row while another consumed it is re-checked by PostgreSQL on the
    // row's new version against the outer conditions only (the subquery is not run again), and so consumed it twice.
    const request = await tx
      .updateTable('option_requests')
      .set({ confirmed_at: now })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('option_requests')
          .select('id')
          .where('order_id', '=', contract.order_id)
          .where('plan_id', '=', planId)
          .where('confirmed_at', 'is', null)
          .where('expires_at', '>', now)
          .orderBy('id', 'desc')
          .limit(1),
      )
      .where('confirmed_at', 'is', null)
      .returning('id')
      .executeTakeFirst()
    return request ? contract.subscription_id : null
  })
}

// Invoice years follow the French calendar, whatever the server's time zone.
const yearOf = (column: string) => sql<number>`extract(year from ${sql.ref(column)} at time zone 'Europe/Paris')::int`

export async function listInvoiceYears(db: Db, orderIds: number[]): Promise<number[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('invoices')
    .select(yearOf('date').as('year'))
    .distinct()
    .where('order_id', 'in', orderIds)
    .orderBy('year', 'desc')
    .execute()
  return rows.map((r) => r.year)
}

export async function listInvoices(db: Db, orderIds: number[], year?: number): Promise<Invoice[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .selectAll('invoices')
    .select('orders.raison_sociale')
    .where('invoices.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('invoices.date'), '=', year!))
    .orderBy('invoices.date', 'desc')
    .orderBy('invoices.id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    domId: r.order_id,
    raisonSociale: r.raison_sociale,
    number: r.number,
    date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents,
    amountInclTaxCents: r.amount_incl_tax_cents,
    paid: r.paid_at !== null,
  }))
}

/** One invoice as its lists show it (an operator's retry answers it again). */
export async function getInvoice(db: Db, id: number): Promise<Invoice> {
  const row = await db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .selectAll('invoices')
    .select('orders.raison_sociale')
    .where('invoices.id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Facture')
  return {
    id: row.id,
    domId: row.order_id,
    raisonSociale: row.raison_sociale,
    number: row.number,
    date: row.date.toISOString(),
    amountExclTaxCents: row.amount_excl_tax_cents,
    amountInclTaxCents: row.amount_incl_tax_cents,
    paid: row.paid_at !== null,
  }
}

/**
 * Whether no invoice has this number yet, inside the transaction that will insert it. Numbers are unique without an
 * index (the demo's may repeat across companies): the check and the insert run one issuer at a time, under a
 * transaction-level lock per schema. The read uses the index on upper(number) (migration 016, not unique), so the lock
 * is held for an index lookup, not a scan of every invoice.
 */
export async function invoiceNumberFree(trx: Db, number: string): Promise<boolean> {
  if (!trx.isTransaction) throw new Error('invoiceNumberFree: inside the transaction that inserts the invoice only')
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.invoice_numbers'))`.execute(trx)
  // Whatever the case (FA-Z-3 and fa-z-3 were two invoices, whose files collide on a case-blind disk
  // and in one e-mail's attachments).
  return !(await trx
    .selectFrom('invoices')
    .select('id')
    .where((eb) => eb(eb.fn('upper', ['number']), '=', number.toUpperCase()))
    .executeTakeFirst())
}

export function insertInvoice(db: Db, row: Insertable<Database['invoices']>) {
  return db.insertInto('invoices').values(row).returning('id').executeTakeFirstOrThrow()
}

export async function listCreditNotes(db: Db, orderIds: number[], year?: number): Promise<CreditNote[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('credit_notes')
    .innerJoin('orders', 'orders.id', 'credit_notes.order_id')
    .selectAll('credit_notes')
    .select('orders.raison_sociale')
    .where('credit_notes.order_id', 'in', orderIds)
    .$if(year !== undefined, (q) => q.where(yearOf('credit_notes.date'), '=', year!))
    .orderBy('credit_notes.date', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    domId: r.order_id,
    raisonSociale: r.raison_sociale,
    number: r.number,
    date: r.date.toISOString(),
    amountExclTaxCents: r.amount_excl_tax_cents,
    amountInclTaxCents: r.amount_incl_tax_cents,
    invoiceId: r.invoice_id,
  }))
}

export async function listCalendarInvoices(db: Db, orderIds: number[]): Promise<CalendarInvoice[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('calendar_invoices')
    .innerJoin('orders', 'orders.id', 'calendar_invoices.order_id')
    .leftJoin('invoices', 'invoices.id', 'calendar_invoices.invoice_id')
    .selectAll('calendar_invoices')
    .select(['orders.raison_sociale', 'invoices.number as invoice_number', 'invoices.paid_at as invoice_paid_at'])
    .where('calendar_invoices.order_id', 'in', orderIds)
    .orderBy('calendar_invoices.date', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    domId: r.order_id,
    raisonSociale: r.raison_sociale,
    date: r.date.toISOString(),
    room: r.room,
    hours: r.hours,
    amountInclTaxCents: r.amount_incl_tax_cents,
    // Once a booking is invoiced, whether it is paid is the invoice's business.
    paid: r.invoice_id !== null ? r.invoice_paid_at !== null : r.paid,
    invoiceId: r.invoice_id,
    invoiceNumber: r.invoice_number,
  }))
}

/** An invoice or credit note of an order the user sees (collaborators see the shared order's invoices), or 404. */
export async function requireBill(db: Db, table: 'invoices' | 'credit_notes', userId: number, id: number) {
  const row = await db.selectFrom(table).select(['id', 'order_id', 'number', 'file_key']).where('id', '=', id).executeTakeFirst()
  if (!row || !(await orderIdsInScope(db, userId, 'all', row.order_id)).length)
    throw new NotFoundError(table === 'invoices' ? 'Facture' : 'Avoir')
  return row
}

/** How many invoices of these orders are unpaid, and their total including tax. */
export async function unpaidTotal(db: Db, orderIds: number[]): Promise<{ count: number; amountInclTaxCents: number }> {
  if (!orderIds.length) return { count: 0, amountInclTaxCents: 0 }
  const row = await db
    .selectFrom('invoices')
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.coalesce(eb.fn.sum<string>('amount_incl_tax_cents'), eb.lit(0)).as('amount'),
    ])
    .where('order_id', 'in', orderIds)
    .where('paid_at', 'is', null)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), amountInclTaxCents: Number(row.amount) }
}

export interface PaymentAttempt {
  id: number
  idempotencyKey: string
  customerId: string
  paymentMethodId: string
  amountCents: number
  description: string
  /** When it was first claimed: its key is not sent again after PAYMENT_KEY_TTL_MS (services/payment.ts, findCharge). */
  createdAt: Date
}

export type InvoiceClaim =
  /** No unpaid invoice in these orders. */
  | { kind: 'nothing' }
  /** A new attempt now holds these invoices: charge it. */
  | { kind: 'claimed'; attempt: PaymentAttempt; invoiceCount: number }
  /** Another request is paying them right now. */
  | { kind: 'inProgress' }
  /** An attempt left pending (its request died) is handed to this caller: charge it again, with the same key. */
  | { kind: 'resumed'; attempt: PaymentAttempt; invoiceCount: number }
  /** They came to 0 €: marked paid without a charge (no provider takes 0 €, nor does payment_attempts.amount_cents). */
  | { kind: 'settled'; invoiceCount: number }
  /** The charge would not be the amount the customer confirmed: nothing claimed. */
  | { kind: 'amountChanged'; count: number; amountCents: number }
  /** More than one charge carries (MAX_PAYMENT_CENTS): nothing claimed. */
  | { kind: 'tooLarge'; amountCents: number }

const toAttempt = (row: {
  id: number
  idempotency_key: string
  customer_id: string
  payment_method_id: string
  amount_cents: number
  description: string
  created_at: Date
}): PaymentAttempt => ({
  id: row.id,
  idempotencyKey: row.idempotency_key,
  customerId: row.customer_id,
  paymentMethodId: row.payment_method_id,
  amountCents: row.amount_cents,
  description: row.description,
  createdAt: row.created_at,
})

/** The payment reference of invoices of 0 € settled by a pay request: nothing was charged. */
export const FREE_SETTLEMENT = 'aucun prélèvement (0 €)'

/**
 * Money moves once: in one transaction, locks the unpaid invoices of these orders (SELECT … FOR UPDATE),
 * and either records a pending payment attempt that claims them (before any call to the provider),
 * or finds them claimed already. A concurrent request waits on the lock, then sees them claimed.
 */
export async function claimUnpaidInvoices(
  db: Kysely<Database>,
  request: {
    userId: number
    orderIds: number[]
    now: Date
    leaseExpiresAt: Date
    /** The card to charge; null when the invoices came to 0 € as the request saw them (nothing to charge, no card needed). */
    customerId: string | null
    paymentMethodId: string | null
    /** The total the customer confirmed, if the request says: no more than that is ever charged. */
    expectedAmountCents?: number
  },
): Promise<InvoiceClaim> {
  if (!request.orderIds.length) return { kind: 'nothing' }
  return db.transaction().execute(async (tx): Promise<InvoiceClaim> => {
    const unpaid = await tx
      .selectFrom('invoices')
      .select(['id', 'number', 'amount_incl_tax_cents', 'payment_attempt_id'])
      .where('order_id', 'in', request.orderIds)
      .where('paid_at', 'is', null)
      .orderBy('date')
      .orderBy('id')
      .forUpdate()
      .execute()
    if (!unpaid.length) return { kind: 'nothing' }
    const total = unpaid.reduce((sum, i) => sum + i.amount_incl_tax_cents, 0)
    const expected = request.expectedAmountCents
    const claimedBy = [...new Set(unpaid.map((i) => i.payment_attempt_id).filter((id): id is number => id !== null))]
    if (claimedBy.length) {
      const pending = await tx
        .selectFrom('payment_attempts')
        .selectAll()
        .where('id', 'in', claimedBy)
        .where('status', '=', 'pending')
        .orderBy('id')
        .forUpdate()
        .executeTakeFirst()
      if (pending) {
        if (pending.lease_expires_at > request.now) return { kind: 'inProgress' }
        // Resumed as it was first claimed: refused only when it is more than was confirmed this time.
        if (expected !== undefined && pending.amount_cents > expected)
          return { kind: 'amountChanged', count: unpaid.length, amountCents: total }
        await tx.updateTable('payment_attempts').set({ lease_expires_at: request.leaseExpiresAt }).where('id', '=', pending.id).execute()
        return {
          kind: 'resumed',
          attempt: toAttempt(pending),
          invoiceCount: unpaid.filter((i) => i.payment_attempt_id === pending.id).length,
        }
      }
      // Claims of settled attempts cannot outlive them (settling frees or pays in the same transaction); were one left, it is claimed anew
      // below.
    }
    if (total > MAX_PAYMENT_CENTS) return { kind: 'tooLarge', amountCents: total }
    if (expected !== undefined && total !== expected) return { kind: 'amountChanged', count: unpaid.length, amountCents: total }
    if (total === 0) {
      await tx
        .updateTable('invoices')
        .set({ paid_at: request.now, payment_reference: FREE_SETTLEMENT })
        .where(
          'id',
          'in',
          unpaid.map((i) => i.id),
        )
        .execute()
      return { kind: 'settled', invoiceCount: unpaid.length }
    }
    // Asked without a card, the total being 0 € a moment ago: an invoice issued since is not charged unseen.
    if (request.customerId === null || request.paymentMethodId === null)
      return { kind: 'amountChanged', count: unpaid.length, amountCents: total }
    const attempt = await tx
      .insertInto('payment_attempts')
      .values({
        idempotency_key: `paiement-${randomUUID()}`,
        user_id: request.userId,
        customer_id: request.customerId,
        payment_method_id: request.paymentMethodId,
        amount_cents: total,
        created_at: request.now,
        description: `Factures ${unpaid.map((i) => i.number).join(', ')}`,
        lease_expires_at: request.leaseExpiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await tx
      .updateTable('invoices')
      .set({ payment_attempt_id: attempt.id })
      .where(
        'id',
        'in',
        unpaid.map((i) => i.id),
      )
      .execute()
    return { kind: 'claimed', attempt: toAttempt(attempt), invoiceCount: unpaid.length }
  })
}

/**
 * The attempt's invoices locked in the order claimUnpaidInvoices locks them (date, id), before any is written: an
 * UPDATE alone locks rows in the order it meets them, and against a claim of the same invoices two transactions could
 * each hold what the other waits for (2 deadlocks in 60 rounds on PostgreSQL, one a 503 after a
 * successful charge).
 */
async function lockAttemptInvoices(tx: Transaction<Database>, attemptId: number) {
  await tx
    .selectFrom('invoices')
    .select('id')
    .where('payment_attempt_id', '=', attemptId)
    .orderBy('date')
    .orderBy('id')
    .forUpdate()
    .execute()
}

/** The provider charged: the attempt succeeded and its invoices are paid by that charge (a repeat changes nothing). */
export async function recordPaymentSucceeded(db: Kysely<Database>, attemptId: number, chargeId: string, now: Date): Promise<void> {
  // Invoices first, then the attempt: the order claimUnpaidInvoices locks them in, so no two transactions deadlock.
  await db.transaction().execute(async (tx) => {
    await lockAttemptInvoices(tx, attemptId)
    await tx
      .updateTable('invoices')
      .set({ paid_at: now, payment_reference: chargeId })
      .where('payment_attempt_id', '=', attemptId)
      .where('paid_at', 'is', null)
      .execute()
    await tx
      .updateTable('payment_attempts')
      .set({ status: 'succeeded', charge_id: chargeId, settled_at: now })
      .where('id', '=', attemptId)
      .where('status', '=', 'pending')
      .execute()
  })
}

/** The provider refused: the attempt failed and its invoices are free for another attempt. */
export async function recordPaymentFailed(db: Kysely<Database>, attemptId: number, failure: string, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await lockAttemptInvoices(tx, attemptId)
    await tx
      .updateTable('invoices')
      .set({ payment_attempt_id: null })
      .where('payment_attempt_id', '=', attemptId)
      .where('paid_at', 'is', null)
      .execute()
    await tx
      .updateTable('payment_attempts')
      .set({ status: 'failed', failure, settled_at: now })
      .where('id', '=', attemptId)
      .where('status', '=', 'pending')
      .execute()
  })
}

/** Records the order's termination request, or answers null when it has one already (one per order, a unique index). */
export async function createTerminationRequest(
  db: Db,
  request: { orderId: number; userId: number; reason: string; date: string; comment: string | null },
): Promise<number | null> {
  const row = await db
    .insertInto('termination_requests')
    .values({ order_id: request.orderId, user_id: request.userId, reason: request.reason, date: request.date, comment: request.comment })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id ?? null
}

/** Takes back a termination request whose e-mail to the support could not leave (http/send-or-undo.ts). */
export async function deleteTerminationRequest(db: Db, id: number): Promise<void> {
  await db.deleteFrom('termination_requests').where('id', '=', id).execute()
}

export async function findTerminationRequest(
  db: Db,
  orderId: number,
): Promise<{ date: string; reason: string; createdAt: string; endDate: string | null } | null> {
  const row = await db
    .selectFrom('termination_requests')
    .select([isoDay('date').as('date'), 'reason', 'created_at', sql<string | null>`to_char(end_date, 'YYYY-MM-DD')`.as('end_date')])
    .where('order_id', '=', orderId)
    .executeTakeFirst()
  return row ? { date: row.date, reason: row.reason, createdAt: row.created_at.toISOString(), endDate: row.end_date } : null
}

/** What a certificate or a contract states about an order: the company, its contract and its termination date, if any. */
function orderFactsQuery(db: Db) {
  return db
    .selectFrom('orders')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .leftJoin('termination_requests', 'termination_requests.order_id', 'orders.id')
    .select([
      'orders.id as order_id',
      'orders.owner_id',
      'orders.raison_sociale',
      'orders.legal_form',
      'orders.siren',
      'orders.domiciliation_address',
      'orders.subscription_id',
      'contracts.id as contract_id',
      'contracts.signed_at',
      terminationDay().as('termination_date'),
      'contracts.adresse_postale_expedition',
      'contracts.adresse_complement_postale_expedition',
      'contracts.code_postale_expedition',
      'contracts.ville_postale_expedition',
      'contracts.pays_postale_expedition',
    ])
}
export type OrderFacts = NonNullable<Awaited<ReturnType<typeof findOrderFacts>>>

export function findOrderFacts(db: Db, orderId: number) {
  return orderFactsQuery(db).where('orders.id', '=', orderId).executeTakeFirst()
}

export async function createCertificate(
  db: Db,
  certificate: { code: string; orderId: number; userId: number; issuedAt: Date },
): Promise<void> {
  await db
    .insertInto('certificates')
    .values({ code: certificate.code, order_id: certificate.orderId, issued_by: certificate.userId, issued_at: certificate.issuedAt })
    .execute()
}

/** A certificate by its code, with what it states about its order (any order: callers check who may see it). */
export async function findCertificate(db: Db, code: string) {
  const certificate = await db
    .selectFrom('certificates')
    .select(['code', 'order_id', 'issued_at'])
    .where('code', '=', code)
    .executeTakeFirst()
  if (!certificate) return null
  const facts = await findOrderFacts(db, certificate.order_id)
  return facts ? { ...facts, code: certificate.code, issued_at: certificate.issued_at } : null
}
