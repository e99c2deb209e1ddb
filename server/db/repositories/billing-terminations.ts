// The back office's Résiliations: every termination request with its order, who asked, and its acceptance.
import { sql } from 'kysely'
import type { Db } from '../schema.ts'
import { isoDay } from '../dates.ts'

const terminationsQuery = (db: Db) =>
  db
    .selectFrom('termination_requests as t')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('operators as op', 'op.id', 't.accepted_by')
    .select([
      't.id',
      't.order_id',
      'o.raison_sociale',
      'o.subscription_id',
      'o.owner_id',
      'u.firstname',
      'u.lastname',
      't.reason',
      't.comment',
      isoDay('t.date').as('requested_date'),
      't.created_at',
      sql<string | null>`to_char(t.end_date, 'YYYY-MM-DD')`.as('end_date'),
      't.accepted_at',
      'op.name as accepted_by_name',
      't.conversation_id',
    ])
export type TerminationRow = Awaited<ReturnType<typeof findTermination>> & {}

/** Waiting ones first, the oldest first; then the accepted ones, the latest accepted first. */
export function listTerminations(db: Db) {
  return terminationsQuery(db)
    .orderBy(sql`t.accepted_at is not null`)
    .orderBy(sql`case when t.accepted_at is null then t.created_at end`)
    .orderBy('t.accepted_at', 'desc')
    .orderBy('t.id')
    .limit(200)
    .execute()
}

export function findTermination(db: Db, id: number) {
  return terminationsQuery(db).where('t.id', '=', id).executeTakeFirst()
}

/** The request's row locked until the transaction ends (two acceptances at once take turns). */
export function lockTermination(trx: Db, id: number) {
  return terminationsQuery(trx).where('t.id', '=', id).forUpdate('t').executeTakeFirst()
}

export async function acceptTermination(trx: Db, id: number, acceptance: { operatorId: number; endDate: string; at: Date }) {
  await trx
    .updateTable('termination_requests')
    .set({ accepted_at: acceptance.at, accepted_by: acceptance.operatorId, end_date: acceptance.endDate })
    .where('id', '=', id)
    .execute()
}

export async function linkTerminationConversation(trx: Db, id: number, conversationId: number) {
  await trx.updateTable('termination_requests').set({ conversation_id: conversationId }).where('id', '=', id).execute()
}
