// Frozen in time: never edit a migration that has shipped, add a new one.
// The back office's Messages and Résiliations: every « Signaler un problème » a conversation of its order (the reports
// already made become conversations with their first message), its messages written by a customer or an operator;
// a termination request accepted for an end date, and the conversation an operator opened about it; the local test
// payment provider's subscriptions cancelled at a date, as Stripe's.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    // The report it comes from: a report taken back (its e-mail could not leave) takes its conversation with it.
    .addColumn('problem_report_id', 'integer', (c) => c.unique().references('problem_reports.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'closed')`))
    // Since when the customer's last words wait for the provider's answer; null once answered.
    .addColumn('waiting_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'integer', (c) => c.references('operators.id'))
    .addCheckConstraint('conversations_closed', sql`(status = 'closed') = (closed_at is not null)`)
    .execute()
  await db.schema.createIndex('conversations_order_idx').on('conversations').columns(['order_id', 'last_message_at']).execute()
  await db.schema.createIndex('conversations_queue_idx').on('conversations').columns(['status', 'waiting_since']).execute()

  await db.schema
    .createTable('conversation_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('author_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('author_operator_id', 'integer', (c) => c.references('operators.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('conversation_messages_one_author', sql`(author_user_id is null) <> (author_operator_id is null)`)
    .execute()
  await db.schema
    .createIndex('conversation_messages_conversation_idx')
    .on('conversation_messages')
    .columns(['conversation_id', 'id'])
    .execute()

  await sql`insert into conversations (order_id, subject, problem_report_id, waiting_since, created_at, last_message_at)
    select order_id, 'Signaler un problème', id, created_at, created_at, created_at from problem_reports order by id`.execute(db)
  await sql`insert into conversation_messages (conversation_id, author_user_id, body, created_at)
    select c.id, r.user_id, r.message, r.created_at from problem_reports r join conversations c on c.problem_report_id = r.id
    order by r.id`.execute(db)

  await db.schema
    .alterTable('termination_requests')
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_by', 'integer', (c) => c.references('operators.id'))
    // The day the domiciliation ends, chosen by the operator (the customer's `date` by default).
    .addColumn('end_date', 'date')
    .addColumn('conversation_id', 'integer', (c) => c.references('conversations.id').onDelete('set null'))
    .execute()
  await sql`alter table termination_requests add constraint termination_requests_accepted check (
    (accepted_at is null) = (end_date is null) and (accepted_at is null) = (accepted_by is null)
  )`.execute(db)

  await db.schema.alterTable('test_subscriptions').addColumn('cancel_at', 'bigint').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('test_subscriptions').dropColumn('cancel_at').execute()
  await sql`alter table termination_requests drop constraint termination_requests_accepted`.execute(db)
  await db.schema
    .alterTable('termination_requests')
    .dropColumn('conversation_id')
    .dropColumn('end_date')
    .dropColumn('accepted_by')
    .dropColumn('accepted_at')
    .execute()
  await db.schema.dropTable('conversation_messages').execute()
  await db.schema.dropTable('conversations').execute()
}
