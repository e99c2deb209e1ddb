// The conversations of an order with the provider (« Signaler un problème » starts one; an operator may open one):
// their messages, written by a person of the order or an operator, and their state (open or closed, waiting for the
// provider's answer since when). Rows or undefined: the routes decide the 404.
import { sql } from 'kysely'
import type { Db } from '../schema.ts'

export type Author = { userId: number } | { operatorId: number }

const authorColumns = (author: Author) =>
  'userId' in author
    ? { author_user_id: author.userId, author_operator_id: null }
    : { author_user_id: null, author_operator_id: author.operatorId }

/** A new conversation and its first message; the provider owes an answer when a customer opened it. */
export async function createConversation(
  trx: Db,
  conversation: { orderId: number; subject: string; problemReportId?: number; author: Author; body: string; at: Date },
): Promise<number> {
  const { id } = await trx
    .insertInto('conversations')
    .values({
      order_id: conversation.orderId,
      subject: conversation.subject,
      problem_report_id: conversation.problemReportId ?? null,
      waiting_since: 'userId' in conversation.author ? conversation.at : null,
      created_at: conversation.at,
      last_message_at: conversation.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .insertInto('conversation_messages')
    .values({ conversation_id: id, ...authorColumns(conversation.author), body: conversation.body, created_at: conversation.at })
    .execute()
  return id
}

/**
 * A message added to a conversation. A customer's reopens it and, unless the provider already owes an answer, starts
 * the wait; an operator's answers it.
 */
export async function addConversationMessage(trx: Db, conversationId: number, author: Author, body: string, at: Date): Promise<void> {
  await trx
    .insertInto('conversation_messages')
    .values({ conversation_id: conversationId, ...authorColumns(author), body, created_at: at })
    .execute()
  await trx
    .updateTable('conversations')
    .set(
      'userId' in author
        ? { last_message_at: at, status: 'open', closed_at: null, closed_by: null, waiting_since: sql`coalesce(waiting_since, ${at})` }
        : { last_message_at: at, waiting_since: null },
    )
    .where('id', '=', conversationId)
    .execute()
}

export async function setConversationStatus(trx: Db, conversationId: number, status: 'open' | 'closed', operatorId: number, at: Date) {
  await trx
    .updateTable('conversations')
    .set(status === 'closed' ? { status, closed_at: at, closed_by: operatorId } : { status, closed_at: null, closed_by: null })
    .where('id', '=', conversationId)
    .execute()
}

const summaryQuery = (db: Db) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .select([
      'c.id',
      'c.order_id',
      'o.raison_sociale',
      'c.subject',
      'c.status',
      'c.created_at',
      'c.last_message_at',
      'c.waiting_since',
      'c.closed_at',
      sql<number>`(select count(*)::int from conversation_messages m where m.conversation_id = c.id)`.as('message_count'),
      sql<string>`(select m.body from conversation_messages m where m.conversation_id = c.id order by m.id desc limit 1)`.as(
        'last_message',
      ),
      sql<boolean>`(select m.author_operator_id is not null from conversation_messages m where m.conversation_id = c.id order by m.id desc limit 1)`.as(
        'last_by_operator',
      ),
      sql<string | null>`(select name from operators where id = c.closed_by)`.as('closed_by_name'),
    ])
export type ConversationRow = Awaited<ReturnType<typeof findConversation>> & {}

export function findConversation(db: Db, id: number) {
  return summaryQuery(db).where('c.id', '=', id).executeTakeFirst()
}

/** The conversation's row, locked until the transaction ends: two answers or a close at once take turns. */
export function lockConversation(trx: Db, id: number) {
  return trx
    .selectFrom('conversations as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .select(['c.id', 'c.order_id', 'c.status', 'c.subject', 'o.raison_sociale'])
    .where('c.id', '=', id)
    .forUpdate('c')
    .executeTakeFirst()
}

/** The back office's list: open ones first, then the one waiting longest (or the oldest message) first. */
export function listConversationsForOperators(db: Db, filter: { status?: 'open' | 'closed'; orderId?: number }) {
  return summaryQuery(db)
    .$if(filter.status !== undefined, (q) => q.where('c.status', '=', filter.status!))
    .$if(filter.orderId !== undefined, (q) => q.where('c.order_id', '=', filter.orderId!))
    .orderBy(sql`c.status = 'open'`, 'desc')
    .orderBy(sql`c.waiting_since is null`)
    .orderBy(sql`coalesce(c.waiting_since, c.last_message_at)`)
    .orderBy('c.id')
    .limit(200)
    .execute()
}

/** A customer's list: the conversations of these orders, open ones first, the latest first. */
export async function listConversationsOfOrders(db: Db, orderIds: number[]) {
  if (orderIds.length === 0) return []
  return summaryQuery(db)
    .where('c.order_id', 'in', orderIds)
    .orderBy(sql`c.status = 'open'`, 'desc')
    .orderBy('c.last_message_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(200)
    .execute()
}

/** The messages, oldest first, each with its author's name (a customer's as « Prénom Nom », an operator's). */
export function conversationMessages(db: Db, conversationId: number) {
  return db
    .selectFrom('conversation_messages as m')
    .leftJoin('users as u', 'u.id', 'm.author_user_id')
    .leftJoin('operators as op', 'op.id', 'm.author_operator_id')
    .select(['m.id', 'm.body', 'm.created_at', 'm.author_operator_id', 'u.firstname', 'u.lastname', 'op.name as operator_name'])
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.id')
    .execute()
}

/** The customers who wrote in the conversation and still see its order: whom an operator's answer is e-mailed to. */
export function conversationCustomers(db: Db, conversationId: number, orderId: number) {
  return (
    db
      .selectFrom('users as u')
      .select(['u.id', 'u.email', 'u.firstname'])
      .where(
        'u.id',
        'in',
        db
          .selectFrom('conversation_messages')
          .select('author_user_id as id')
          .where('conversation_id', '=', conversationId)
          .where('author_user_id', 'is not', null)
          .$narrowType<{ id: number }>(),
      )
      .where((eb) =>
        eb.or([
          eb('u.id', '=', eb.selectFrom('orders').select('owner_id').where('id', '=', orderId)),
          eb(
            'u.id',
            'in',
            eb
              .selectFrom('shares')
              .select('user_id')
              .where('order_id', '=', orderId)
              .where('user_id', 'is not', null)
              .$narrowType<{ user_id: number }>(),
          ),
        ]),
      )
      // A closed account's row stays for its orders (people-closing.ts), with an address that reaches no one.
      .where('u.closed_at', 'is', null)
      .orderBy('u.id')
      .execute()
  )
}

/** The order's owner, unless their account is closed: whom a conversation an operator opened is e-mailed to. */
export function orderOwner(db: Db, orderId: number) {
  return db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.owner_id')
    .select(['u.id', 'u.email', 'u.firstname'])
    .where('o.id', '=', orderId)
    .where('u.closed_at', 'is', null)
    .executeTakeFirst()
}
