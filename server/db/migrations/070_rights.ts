// Frozen in time: never edit a migration that has shipped, add a new one.
// A person's rights and the law: an account closed by its holder (its row kept, emptied of personal data, for the
// orders, invoices and identity documents the law keeps), the journal's rows written by no operator nor key (the
// automatic mail retention, a customer closing their account), and each terminated order's mail retention: the notice
// e-mailed before its letters are deleted, and when they were.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('closed_at', 'timestamptz').execute()

  // Adding a column writes no row: the journal's triggers (020) refuse updates, not this.
  await db.schema
    .alterTable('journal')
    .addColumn('system_actor', 'text', (c) => c.check(sql`system_actor in ('retention', 'customer')`))
    .execute()

  await db.schema
    .createTable('mail_retention')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    // The notice's e-mail is being sent by a run until then (a crash leaves it to the next run once passed).
    .addColumn('notice_claimed_until', 'timestamptz')
    .addColumn('notice_sent_at', 'timestamptz')
    // The first day the letters may go: never less than 30 days after the notice left.
    .addColumn('purge_on', 'date')
    .addColumn('purged_at', 'timestamptz')
    .addColumn('purged_letters', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_retention').execute()
  await db.schema.alterTable('journal').dropColumn('system_actor').execute()
  await db.schema.alterTable('users').dropColumn('closed_at').execute()
}
