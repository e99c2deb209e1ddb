// The company area: legal submissions (the formalities customers order and the jurists move on).
import type { Selectable } from 'kysely'
import type { LegalSubmission, LegalSubmissionKind, LegalSubmissionStatus } from '../../contract/company.ts'
import type { Database, Db } from '../schema.ts'

type Row = Selectable<Database['legal_submissions']> & { raison_sociale: string }

const toLegalSubmission = (row: Row): LegalSubmission => ({
  id: row.id,
  orderId: row.order_id,
  raisonSociale: row.raison_sociale,
  kind: row.kind as LegalSubmissionKind,
  status: row.status as LegalSubmissionStatus,
  comment: row.comment,
  receivedAt: row.created_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  filedAt: row.filed_at?.toISOString() ?? null,
  completedAt: row.completed_at?.toISOString() ?? null,
})

const submissions = (db: Db) =>
  db
    .selectFrom('legal_submissions')
    .innerJoin('orders', 'orders.id', 'legal_submissions.order_id')
    .selectAll('legal_submissions')
    .select('orders.raison_sociale')

/** The requests of these orders (every order when none is given: the operators' list), newest first. */
export async function listLegalSubmissions(db: Db, orderIds?: number[]): Promise<LegalSubmission[]> {
  if (orderIds && !orderIds.length) return []
  const rows = await submissions(db)
    .$if(orderIds !== undefined, (q) => q.where('legal_submissions.order_id', 'in', orderIds!))
    .orderBy('legal_submissions.created_at', 'desc')
    .orderBy('legal_submissions.id', 'desc')
    .execute()
  return rows.map(toLegalSubmission)
}

export async function findLegalSubmission(db: Db, id: number): Promise<(LegalSubmission & { ownerId: number }) | undefined> {
  const row = await submissions(db).select('orders.owner_id').where('legal_submissions.id', '=', id).executeTakeFirst()
  return row && { ...toLegalSubmission(row), ownerId: row.owner_id }
}

/** A request of this kind for this order that is not finished yet. */
export function findOpenLegalSubmission(db: Db, orderId: number, kind: LegalSubmissionKind) {
  return db
    .selectFrom('legal_submissions')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', '=', kind)
    .where('status', '<>', 'Terminée')
    .executeTakeFirst()
}

/** The new request, or null when one of the same kind is already under way (the unique index decides under concurrency). */
export async function createLegalSubmission(
  db: Db,
  values: { orderId: number; userId: number; kind: LegalSubmissionKind; comment: string | null; at: Date },
): Promise<LegalSubmission | null> {
  const inserted = await db
    .insertInto('legal_submissions')
    .values({ order_id: values.orderId, user_id: values.userId, kind: values.kind, comment: values.comment, created_at: values.at })
    .onConflict((oc) => oc.columns(['order_id', 'kind']).where('status', '<>', 'Terminée').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted ? (await findLegalSubmission(db, inserted.id))! : null
}

/** Takes back a request whose e-mail to the support could not leave (http/send-or-undo.ts). */
export async function deleteLegalSubmission(db: Db, id: number): Promise<void> {
  await db.deleteFrom('legal_submissions').where('id', '=', id).execute()
}

const stepColumn = { 'En cours': 'started_at', 'Déposée au greffe': 'filed_at', Terminée: 'completed_at' } as const

/** Moves a request to a later step and dates it; null when it is no longer at `from` (another operator moved it meanwhile). */
export async function moveLegalSubmission(
  db: Db,
  id: number,
  from: LegalSubmissionStatus,
  to: Exclude<LegalSubmissionStatus, 'Reçue'>,
  at: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable('legal_submissions')
    .set({ status: to, [stepColumn[to]]: at })
    .where('id', '=', id)
    .where('status', '=', from)
    .returning('id')
    .executeTakeFirst()
  return updated !== undefined
}
