// « Mes données » (RGPD art. 15 and 20): the export rows (who asked, how far, the file, until when) and what the export
// reads, each list limited to what the person sees in the portal: the orders they own or that are shared with them.
import { sql, type Kysely } from 'kysely'
import type { Database, Db } from '../schema.ts'
import { orderIdsInScope } from './company-orders.ts'

export type ExportState = 'preparing' | 'ready' | 'failed' | 'expired'

export interface ExportRow {
  id: number
  userId: number
  state: ExportState
  progress: number
  fileKey: string | null
  bytes: number | null
  letters: number | null
  createdAt: Date
  readyAt: Date | null
  expiresAt: Date | null
}

/**
 * An export and its state: « failed » when its job failed for good (attempts spent, or a process killed on its last one), or
 * is gone; « expired » once past its expiry, even before the cleanup removed its file.
 */
const exportsQuery = (db: Db, now: Date) =>
  db
    .selectFrom('data_exports as e')
    .leftJoin('jobs as j', (join) => join.on(sql<boolean>`j.id = e.job_id`))
    .select([
      'e.id',
      'e.user_id as userId',
      sql<ExportState>`case
        when e.state = 'preparing' and (j.id is null or j.state = 'failed') then 'failed'
        when e.state = 'ready' and e.expires_at <= ${now} then 'expired'
        else e.state end`.as('state'),
      'e.progress',
      'e.file_key as fileKey',
      'e.file_bytes as bytes',
      'e.letters',
      'e.created_at as createdAt',
      'e.ready_at as readyAt',
      'e.expires_at as expiresAt',
    ])

const toRow = (row: Omit<ExportRow, 'bytes'> & { bytes: string | number | null }): ExportRow => ({
  ...row,
  bytes: row.bytes === null ? null : Number(row.bytes),
})

/**
 * A new export for the person, its job queued by `enqueue` in the same transaction; or, when one is being prepared
 * already (another tab, a double click), that one (`created` false). An export whose job failed for good is written
 * 'failed' first, so that a new one may start.
 */
export async function createExport(
  db: Kysely<Database>,
  userId: number,
  enqueue: (trx: Db, exportId: number) => Promise<string>,
): Promise<{ id: number; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    await sql`update data_exports e set state = 'failed'
      where e.user_id = ${userId} and e.state = 'preparing'
        and not exists (select 1 from jobs j where j.id = e.job_id and j.state <> 'failed')`.execute(trx)
    const row = await trx
      .insertInto('data_exports')
      .values({ user_id: userId })
      .onConflict((oc) => oc.column('user_id').where('state', '=', 'preparing').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) {
      const preparing = await trx
        .selectFrom('data_exports')
        .select('id')
        .where('user_id', '=', userId)
        .where('state', '=', 'preparing')
        .executeTakeFirstOrThrow()
      return { id: preparing.id, created: false }
    }
    const jobId = await enqueue(trx, row.id)
    await trx.updateTable('data_exports').set({ job_id: jobId }).where('id', '=', row.id).execute()
    return { id: row.id, created: true }
  })
}

/** The person's export, or undefined when there is none of that id for them (another person's is nobody's). */
export async function findExport(db: Db, userId: number, id: number, now: Date): Promise<ExportRow | undefined> {
  const row = await exportsQuery(db, now).where('e.id', '=', id).where('e.user_id', '=', userId).executeTakeFirst()
  return row && toRow(row)
}

/** The person's latest exports, newest first (the first is what « Mes données » shows). */
export async function latestExports(db: Db, userId: number, now: Date, limit: number): Promise<ExportRow[]> {
  const rows = await exportsQuery(db, now).where('e.user_id', '=', userId).orderBy('e.id', 'desc').limit(limit).execute()
  return rows.map(toRow)
}

/** The export a job prepares, whoever it is for. */
export async function exportOfJob(db: Db, id: number) {
  return db.selectFrom('data_exports').select(['id', 'user_id', 'state']).where('id', '=', id).executeTakeFirst()
}

export async function setExportProgress(db: Db, id: number, progress: number): Promise<void> {
  await db.updateTable('data_exports').set({ progress }).where('id', '=', id).where('state', '=', 'preparing').execute()
}

export async function markExportReady(
  db: Db,
  id: number,
  file: { key: string; bytes: number; letters: number; readyAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .updateTable('data_exports')
    .set({
      state: 'ready',
      progress: 100,
      file_key: file.key,
      file_bytes: file.bytes,
      letters: file.letters,
      ready_at: file.readyAt,
      expires_at: file.expiresAt,
    })
    .where('id', '=', id)
    .execute()
}

/** The ready exports past their expiry, marked expired; their files' keys, for the caller to remove. */
export async function expireExports(db: Db, now: Date): Promise<string[]> {
  // RETURNING gives the new row: the old key comes from the locked rows of the CTE.
  const { rows } = await sql<{ file_key: string }>`
    with old as (
      select id, file_key from data_exports where state = 'ready' and expires_at <= ${now} for update skip locked
    )
    update data_exports e set state = 'expired', file_key = null from old where e.id = old.id
    returning old.file_key`.execute(db)
  return rows.map((row) => row.file_key)
}

// --- What the export reads

/** The orders the person sees, with their role on each. */
export async function exportOrders(db: Db, userId: number) {
  const ids = await orderIdsInScope(db, userId, 'all')
  if (!ids.length) return []
  const rows = await db
    .selectFrom('orders as o')
    .leftJoin('contracts as c', 'c.order_id', 'o.id')
    .select([
      'o.id',
      'o.owner_id',
      'o.raison_sociale',
      'o.siren',
      'o.legal_form',
      'o.status',
      'o.order_date',
      'o.starts_on',
      'o.domiciliation_address',
      'c.id as contract_id',
      'c.signed_at',
      'c.adresse_postale_expedition',
      'c.adresse_complement_postale_expedition',
      'c.code_postale_expedition',
      'c.ville_postale_expedition',
      'c.pays_postale_expedition',
      'c.kbis_filed_at',
      'c.kbis_validated_at',
    ])
    .where('o.id', 'in', ids)
    .orderBy('o.id')
    .execute()
  return rows.map((row) => ({ ...row, role: row.owner_id === userId ? ('titulaire' as const) : ('collaborateur' as const) }))
}

export async function exportAccount(db: Db, userId: number) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'firstname', 'lastname', 'phone', 'email_verified', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const passkeys = await db
    .selectFrom('passkeys')
    .select(['name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  const sessions = await db
    .selectFrom('api_tokens')
    .select(['user_agent', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  return { user, passkeys, sessions }
}

/** The letters of these orders as the portal lists them (the deleted ones are not), oldest first, with their text. */
export async function exportLetters(db: Db, orderIds: number[]) {
  if (!orderIds.length) return []
  return db
    .selectFrom('documents as d')
    .leftJoin('folders as f', 'f.id', 'd.folder_id')
    .select([
      'd.id',
      'd.order_id',
      'd.sender',
      'd.kind',
      'd.received_at',
      'd.pages',
      'd.read',
      'f.name as folder',
      'd.deadline_date',
      'd.deadline_amount_cents',
      'd.text',
      'd.file_key',
    ])
    .where('d.order_id', 'in', orderIds)
    .where('d.deleted', '=', false)
    .orderBy('d.received_at')
    .orderBy('d.id')
    .execute()
}

export async function exportPackages(db: Db, orderIds: number[]) {
  if (!orderIds.length) return []
  return db
    .selectFrom('packages')
    .select(['id', 'order_id', 'received_at', 'carrier', 'sender', 'status', 'collected_at', 'collected_by'])
    .where('order_id', 'in', orderIds)
    .orderBy('received_at')
    .orderBy('id')
    .execute()
}

export async function exportCourierRequests(db: Db, orderIds: number[]) {
  if (!orderIds.length) return []
  return db
    .selectFrom('courier_requests as r')
    .select((eb) => [
      'r.id',
      'r.order_id',
      'r.kind',
      'r.status',
      'r.letter_count',
      'r.created_at',
      'r.outcome',
      'r.processed_at',
      'r.carrier',
      'r.tracking_number',
      'r.impossible_reason',
      eb
        .selectFrom('courier_request_letters as l')
        .select(sql<string | null>`string_agg(l.document_id::text, ' ' order by l.document_id)`.as('letters'))
        .whereRef('l.request_id', '=', 'r.id')
        .as('letter_ids'),
    ])
    .where('r.order_id', 'in', orderIds)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute()
}

export async function exportBills(db: Db, orderIds: number[]) {
  if (!orderIds.length) return { invoices: [], creditNotes: [] }
  const invoices = await db
    .selectFrom('invoices')
    .select([
      'id',
      'order_id',
      'number',
      'date',
      'amount_excl_tax_cents',
      'amount_incl_tax_cents',
      'paid_at',
      'payment_reference',
      'file_key',
    ])
    .where('order_id', 'in', orderIds)
    .orderBy('date')
    .orderBy('id')
    .execute()
  const creditNotes = await db
    .selectFrom('credit_notes as n')
    .leftJoin('invoices as i', 'i.id', 'n.invoice_id')
    .select([
      'n.id',
      'n.order_id',
      'n.number',
      'n.date',
      'n.amount_excl_tax_cents',
      'n.amount_incl_tax_cents',
      'i.number as invoice_number',
      'n.file_key',
    ])
    .where('n.order_id', 'in', orderIds)
    .orderBy('n.date')
    .orderBy('n.id')
    .execute()
  return { invoices, creditNotes }
}

/** The card payments the person made (their own attempts, whatever the order). */
export async function exportPayments(db: Db, userId: number) {
  return db
    .selectFrom('payment_attempts')
    .select(['id', 'amount_cents', 'description', 'status', 'failure', 'created_at', 'settled_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/**
 * The conversations of the orders the person sees (« Mes échanges »: every « Signaler un problème » and what the provider
 * wrote), one row per message, oldest first, with who wrote it as the portal names them.
 */
export async function exportConversationMessages(db: Db, orderIds: number[]) {
  if (!orderIds.length) return []
  return db
    .selectFrom('conversation_messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .leftJoin('users as u', 'u.id', 'm.author_user_id')
    .leftJoin('operators as op', 'op.id', 'm.author_operator_id')
    .select([
      'c.id as conversation_id',
      'c.order_id',
      'c.subject',
      'c.status',
      'm.body',
      'm.created_at',
      'm.author_operator_id',
      'u.firstname',
      'u.lastname',
      'op.name as operator_name',
    ])
    .where('c.order_id', 'in', orderIds)
    .orderBy('c.id')
    .orderBy('m.id')
    .execute()
}

export async function exportNotificationChoices(db: Db, userId: number, orderIds: number[]) {
  if (!orderIds.length) return []
  return db
    .selectFrom('notification_preferences')
    .select(['order_id', 'email'])
    .where('user_id', '=', userId)
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .execute()
}

/** The certificates issued for the orders the person owns (a collaborator gets none, as in the portal). */
export async function exportCertificates(db: Db, ownedOrderIds: number[]) {
  if (!ownedOrderIds.length) return []
  return db
    .selectFrom('certificates')
    .select(['code', 'order_id', 'issued_at'])
    .where('order_id', 'in', ownedOrderIds)
    .orderBy('issued_at')
    .orderBy('id')
    .execute()
}
