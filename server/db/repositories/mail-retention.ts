// The mail retention of terminated orders (services/retention.ts): which orders are due a notice, the notice claimed
// then marked sent, and the letters of an order past its day deleted with everything that shows them, in one
// transaction with its journal row.
import { sql, type Kysely, type Transaction } from 'kysely'
import { isoDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'
import { recordJournal } from './operators-journal.ts'
import { referencedFileKeys } from './stored-files.ts'

export interface NoticeDue {
  orderId: number
  raisonSociale: string
  /** The termination's day, YYYY-MM-DD. */
  terminationDate: string
}

/**
 * The orders terminated on or before `terminatedBy` (YYYY-MM-DD) that hold letters and whose notice has not left: the
 * retention's first step. Oldest first.
 */
export async function ordersDueForNotice(db: Db, terminatedBy: string): Promise<NoticeDue[]> {
  const rows = await db
    .selectFrom('orders')
    .innerJoin('termination_requests', 'termination_requests.order_id', 'orders.id')
    .leftJoin('mail_retention', 'mail_retention.order_id', 'orders.id')
    .select(['orders.id', 'orders.raison_sociale', isoDay('termination_requests.date').as('termination_date')])
    .where('termination_requests.date', '<=', terminatedBy)
    .where('mail_retention.notice_sent_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('documents').select('documents.id').whereRef('documents.order_id', '=', 'orders.id')),
    )
    .orderBy('termination_requests.date')
    .orderBy('orders.id')
    .execute()
  return rows.map((r) => ({ orderId: r.id, raisonSociale: r.raison_sociale, terminationDate: r.termination_date }))
}

/**
 * Takes the order's notice for this run until `until`: false when it left already, or another run holds it (an
 * instance beside this one, or a crashed run whose hold has not run out: its notice is then sent again).
 */
export async function claimNotice(db: Db, orderId: number, now: Date, until: Date): Promise<boolean> {
  const row = await db
    .insertInto('mail_retention')
    .values({ order_id: orderId, notice_claimed_until: until })
    .onConflict((oc) =>
      oc
        .column('order_id')
        .doUpdateSet({ notice_claimed_until: until })
        .where('mail_retention.notice_sent_at', 'is', null)
        .where((eb) => eb.or([eb('mail_retention.notice_claimed_until', 'is', null), eb('mail_retention.notice_claimed_until', '<', now)])),
    )
    .returning('order_id')
    .executeTakeFirst()
  return row !== undefined
}

/** The notice could not leave: free for the next run. */
export async function releaseNotice(db: Db, orderId: number): Promise<void> {
  await db.updateTable('mail_retention').set({ notice_claimed_until: null }).where('order_id', '=', orderId).execute()
}

/** The notice left: the letters may go from `purgeOn`. Journaled with it. */
export async function markNoticeSent(
  db: Kysely<Database>,
  notice: { orderId: number; now: Date; purgeOn: string; recipients: number; summary: string },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('mail_retention')
      .set({ notice_sent_at: notice.now, notice_claimed_until: null, purge_on: notice.purgeOn })
      .where('order_id', '=', notice.orderId)
      .execute()
    await recordJournal(tx, {
      actor: { system: 'retention' },
      action: 'mail.retentionNotice',
      orderId: notice.orderId,
      summary: notice.summary,
      after: { purgeOn: notice.purgeOn, recipients: notice.recipients },
      at: notice.now,
    })
  })
}

/** Who is told: the owner and the collaborators with an account still open, each address once. */
export async function retentionRecipients(db: Db, orderId: number): Promise<{ email: string; firstname: string }[]> {
  const rows = await db
    .selectFrom('users')
    .select(['users.email', 'users.firstname'])
    .where('users.closed_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('users.id', 'in', eb.selectFrom('orders').select('owner_id').where('id', '=', orderId)),
        eb('users.id', 'in', eb.selectFrom('shares').select('user_id').where('order_id', '=', orderId).where('user_id', 'is not', null)),
      ]),
    )
    .orderBy('users.id')
    .execute()
  return rows
}

/** The orders whose notice left and whose day has come (`today` or before), that still hold letters. */
export async function ordersDueForPurge(db: Db, today: string): Promise<number[]> {
  const rows = await db
    .selectFrom('mail_retention')
    .select('order_id')
    .where('notice_sent_at', 'is not', null)
    .where('purge_on', '<=', today)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('documents').select('documents.id').whereRef('documents.order_id', '=', 'mail_retention.order_id')),
    )
    .orderBy('order_id')
    .execute()
  return rows.map((r) => r.order_id)
}

/** The storage keys of an order's letters: their PDFs, page images, and the mail room's scans they came from. */
async function letterFileKeys(tx: Transaction<Database>, letterIds: number[]): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    select file_key as key from documents where id = any(${letterIds}::int[])
    union select file_key from document_pages where document_id = any(${letterIds}::int[])
    union select file_key from mail_scans where document_id = any(${letterIds}::int[])
    union select p.file_key from mail_scan_pages p join mail_scans s on s.id = p.scan_id
      where s.document_id = any(${letterIds}::int[])`.execute(tx)
  return rows.map((r) => r.key)
}

/**
 * Deletes the order's letters (deleted by the customer or not), their pages, history, notifications and source scans,
 * in one transaction that holds the order's retention row, then answers the files no row points at any more, for the
 * caller to remove (a crash before that leaves them to the storage sweep, which removes files no row names). Nothing
 * when the day has not come or another run deleted them first; journaled when something went.
 */
export async function purgeOrderLetters(
  db: Kysely<Database>,
  orderId: number,
  today: string,
  now: Date,
  summary: (letters: number) => string,
): Promise<{ letters: number; fileKeys: string[] }> {
  const purged = await db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom('mail_retention')
      .select('purge_on')
      .where('order_id', '=', orderId)
      .where('notice_sent_at', 'is not', null)
      .where('purge_on', '<=', today)
      .forUpdate()
      .executeTakeFirst()
    if (!held) return { letters: 0, fileKeys: [] }
    const letterIds = (await tx.selectFrom('documents').select('id').where('order_id', '=', orderId).execute()).map((r) => r.id)
    if (!letterIds.length) return { letters: 0, fileKeys: [] }
    const fileKeys = await letterFileKeys(tx, letterIds)
    await tx.deleteFrom('notifications').where('document_id', 'in', letterIds).execute()
    await tx.deleteFrom('mail_scans').where('document_id', 'in', letterIds).execute()
    // Pages, history, forwarding links and operators' request keys go with them (on delete cascade).
    await tx.deleteFrom('documents').where('id', 'in', letterIds).execute()
    await tx
      .updateTable('mail_retention')
      .set((eb) => ({ purged_at: now, purged_letters: eb('purged_letters', '+', letterIds.length) }))
      .where('order_id', '=', orderId)
      .execute()
    await recordJournal(tx, {
      actor: { system: 'retention' },
      action: 'mail.retentionPurge',
      orderId,
      summary: summary(letterIds.length),
      after: { letters: letterIds.length, files: fileKeys.length },
      at: now,
    })
    return { letters: letterIds.length, fileKeys }
  })
  if (!purged.fileKeys.length) return purged
  // A file another row still names (a package's photo made from the same scan) stays.
  const kept = await referencedFileKeys(db, purged.fileKeys)
  return { letters: purged.letters, fileKeys: purged.fileKeys.filter((key) => !kept.has(key)) }
}
