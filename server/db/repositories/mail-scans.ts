// The mail room's scans: uploaded by an operator, read by the letter pipeline's job (pages, text, the suggested order
// and sender), reviewed, then published once as a letter (services/mail-room.ts).
import { sql, type Transaction } from 'kysely'
import { terminationDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'

export type ScanKind = 'courrier' | 'recommandé' | 'administratif'

/** An order as the suggestion (services/order-suggestion.ts) looks for it in a letter. */
export interface SuggestionCandidate {
  orderId: number
  raisonSociale: string
  siren: string | null
  ownerName: string
}

export function insertScan(
  trx: Transaction<Database>,
  scan: { fileKey: string; fileName: string; pages: number; operatorId: number; at: Date },
) {
  return trx
    .insertInto('mail_scans')
    .values({ file_key: scan.fileKey, file_name: scan.fileName, pages: scan.pages, uploaded_by: scan.operatorId, uploaded_at: scan.at })
    .returning('id')
    .executeTakeFirstOrThrow()
}

export async function setScanJob(trx: Transaction<Database>, scanId: number, jobId: string): Promise<void> {
  await trx.updateTable('mail_scans').set({ job_id: jobId }).where('id', '=', scanId).execute()
}

export function findScanForReading(db: Db, scanId: number) {
  return db.selectFrom('mail_scans').select(['id', 'file_key', 'pages', 'state']).where('id', '=', scanId).executeTakeFirst()
}

/** Every order as the suggestion looks for it: its company name, SIREN and owner's name. */
export async function listSuggestionCandidates(db: Db): Promise<SuggestionCandidate[]> {
  const rows = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .select(['orders.id', 'orders.raison_sociale', 'orders.siren', 'users.firstname', 'users.lastname'])
    .execute()
  return rows.map((r) => ({
    orderId: r.id,
    raisonSociale: r.raison_sociale,
    siren: r.siren,
    ownerName: `${r.firstname} ${r.lastname}`.trim(),
  }))
}

export interface ScanReading {
  pages: { fileKey: string; contentType: string; width: number; height: number; bytes: number }[]
  text: string | null
  failed: boolean
  suggestion: { orderId: number | null; confidence: 'sûr' | 'probable' | 'possible' | null; reason: string }
  sender: string | null
}

/**
 * What reading found, in the job's finishing transaction; the suggestion becomes the choice unless the operator already
 * made one. False when the scan is no longer waiting (deleted or published meanwhile): its page images are then the
 * caller's to remove.
 */
export async function saveScanReading(trx: Transaction<Database>, scanId: number, reading: ScanReading): Promise<boolean> {
  const updated = await trx
    .updateTable('mail_scans')
    .set((eb) => ({
      reading: reading.failed ? 'échouée' : 'terminée',
      text: reading.text,
      suggested_order_id: reading.suggestion.orderId,
      suggestion_confidence: reading.suggestion.confidence,
      suggestion_reason: reading.suggestion.reason,
      suggested_sender: reading.sender,
      order_id: eb.fn.coalesce('order_id', eb.val(reading.suggestion.orderId)),
      sender: eb.fn.coalesce('sender', eb.val(reading.sender)),
    }))
    .where('id', '=', scanId)
    .where('state', '=', 'waiting')
    .returning('id')
    .executeTakeFirst()
  if (!updated) return false
  await trx.deleteFrom('mail_scan_pages').where('scan_id', '=', scanId).execute()
  if (reading.pages.length)
    await trx
      .insertInto('mail_scan_pages')
      .values(
        reading.pages.map((p, i) => ({
          scan_id: scanId,
          page: i + 1,
          file_key: p.fileKey,
          content_type: p.contentType,
          width: p.width,
          height: p.height,
          bytes: p.bytes,
        })),
      )
      .execute()
  return true
}

/** A reading job whose process died on its last attempt never ends the reading itself: its failed row says so. */
const readingOf = sql<'en cours' | 'terminée' | 'échouée'>`case
  when mail_scans.reading = 'en cours' and exists (select 1 from jobs where jobs.id = mail_scans.job_id and jobs.state = 'failed')
  then 'échouée' else mail_scans.reading end`

function scansQuery(db: Db) {
  return db
    .selectFrom('mail_scans')
    .innerJoin('operators as uploader', 'uploader.id', 'mail_scans.uploaded_by')
    .leftJoin('orders as chosen', 'chosen.id', 'mail_scans.order_id')
    .leftJoin('termination_requests', 'termination_requests.order_id', 'mail_scans.order_id')
    .leftJoin('orders as suggested', 'suggested.id', 'mail_scans.suggested_order_id')
    .leftJoin('operators as publisher', 'publisher.id', 'mail_scans.published_by')
    .select([
      'mail_scans.id',
      'mail_scans.file_name',
      'mail_scans.pages',
      'mail_scans.uploaded_at',
      'mail_scans.uploaded_by',
      'uploader.name as uploaded_by_name',
      readingOf.as('reading'),
      'mail_scans.suggested_order_id',
      'suggested.raison_sociale as suggested_raison_sociale',
      'mail_scans.suggestion_confidence',
      'mail_scans.suggestion_reason',
      'mail_scans.suggested_sender',
      'mail_scans.order_id',
      'chosen.raison_sociale',
      terminationDay().as('termination_date'),
      'mail_scans.sender',
      'mail_scans.kind',
      'mail_scans.confirmed_at',
      'mail_scans.state',
      'mail_scans.published_at',
      'publisher.name as published_by_name',
      'mail_scans.document_id',
      sql<number>`(select count(*)::int from mail_scan_pages where mail_scan_pages.scan_id = mail_scans.id)`.as('page_images'),
    ])
}
export type ScanRow = Awaited<ReturnType<ReturnType<typeof scansQuery>['executeTakeFirstOrThrow']>>

/** The queue: every scan not yet published, oldest first. */
export function listWaitingScans(db: Db): Promise<ScanRow[]> {
  return scansQuery(db).where('mail_scans.state', '=', 'waiting').orderBy('mail_scans.uploaded_at').orderBy('mail_scans.id').execute()
}

export function findScan(db: Db, scanId: number): Promise<ScanRow | undefined> {
  return scansQuery(db).where('mail_scans.id', '=', scanId).executeTakeFirst()
}

/** The waiting scans confirmed, oldest first: what "Publier tous les confirmés" publishes. */
export async function confirmedScanIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('mail_scans')
    .select('id')
    .where('state', '=', 'waiting')
    .where('confirmed_at', 'is not', null)
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute()
  return rows.map((r) => r.id)
}

/** The operator's choice, while the scan waits; the row as it was before, or undefined when it no longer waits. */
export async function reviewScan(
  trx: Transaction<Database>,
  scanId: number,
  review: { orderId: number; sender: string; kind: ScanKind; confirmed: boolean; operatorId: number; at: Date },
) {
  const before = await trx
    .selectFrom('mail_scans')
    .select(['order_id', 'sender', 'kind', 'confirmed_at'])
    .where('id', '=', scanId)
    .where('state', '=', 'waiting')
    .forUpdate()
    .executeTakeFirst()
  if (!before) return undefined
  await trx
    .updateTable('mail_scans')
    .set({
      order_id: review.orderId,
      sender: review.sender,
      kind: review.kind,
      confirmed_at: review.confirmed ? (before.confirmed_at ?? review.at) : null,
      confirmed_by: review.confirmed ? review.operatorId : null,
    })
    .where('id', '=', scanId)
    .execute()
  return before
}

/** Removes a waiting scan; its files' keys (the PDF and its page images) to delete once committed, or undefined. */
export async function deleteWaitingScan(trx: Transaction<Database>, scanId: number) {
  const pages = await trx.selectFrom('mail_scan_pages').select('file_key').where('scan_id', '=', scanId).execute()
  const deleted = await trx
    .deleteFrom('mail_scans')
    .where('id', '=', scanId)
    .where('state', '=', 'waiting')
    .returning(['file_key', 'file_name', 'order_id', 'sender'])
    .executeTakeFirst()
  if (!deleted) return undefined
  return { ...deleted, keys: [deleted.file_key, ...pages.map((p) => p.file_key)] }
}

/**
 * Takes the scan for publishing: one conditional UPDATE, so that of two operators (or two instances) pressing
 * « Publier » together, one only gets the row and the other nothing. Only a confirmed scan whose reading is over (done,
 * or failed for good) is taken. Its document is set by the same transaction (setScanDocument).
 */
export async function claimScanForPublishing(trx: Transaction<Database>, scanId: number, operatorId: number, at: Date) {
  return trx
    .updateTable('mail_scans')
    .set({ state: 'published', published_at: at, published_by: operatorId })
    .where('id', '=', scanId)
    .where('state', '=', 'waiting')
    .where('confirmed_at', 'is not', null)
    .where('order_id', 'is not', null)
    .where('sender', 'is not', null)
    .where(sql<boolean>`${readingOf} <> 'en cours'`)
    .returning(['id', 'file_key', 'pages', 'uploaded_at', 'order_id', 'sender', 'kind', 'text', 'reading', 'file_name'])
    .executeTakeFirst()
}

export async function setScanDocument(trx: Transaction<Database>, scanId: number, documentId: number): Promise<void> {
  await trx.updateTable('mail_scans').set({ document_id: documentId }).where('id', '=', scanId).execute()
}

export function scanPages(db: Db, scanId: number) {
  return db
    .selectFrom('mail_scan_pages')
    .select(['file_key', 'content_type', 'width', 'height', 'bytes'])
    .where('scan_id', '=', scanId)
    .orderBy('page')
    .execute()
}

export function findScanPage(db: Db, scanId: number, page: number) {
  return db
    .selectFrom('mail_scan_pages')
    .select(['file_key', 'content_type'])
    .where('scan_id', '=', scanId)
    .where('page', '=', page)
    .executeTakeFirst()
}

export function findScanFile(db: Db, scanId: number) {
  return db.selectFrom('mail_scans').select(['file_key', 'file_name']).where('id', '=', scanId).executeTakeFirst()
}
