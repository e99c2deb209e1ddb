// Frozen in time: never edit a migration that has shipped, add a new one.
// The company area: the legal formalities customers order (legal submissions) and followed by the
// provider's jurists; each meeting-room booking linked to the invoice that bills it.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('legal_submissions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('Reçue'))
    .addColumn('comment', 'text')
    // One date per status, set when the jurists move the request to it.
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('filed_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('legal_submissions_order_idx').on('legal_submissions').column('order_id').execute()
  // One request of a kind under way per order, even when two arrive at once.
  await sql`create unique index legal_submissions_open_key on legal_submissions (order_id, kind) where status <> 'Terminée'`.execute(db)

  await db.schema
    .alterTable('calendar_invoices')
    .addColumn('invoice_id', 'integer', (c) => c.references('invoices.id').onDelete('set null'))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_invoices').dropColumn('invoice_id').execute()
  await db.schema.dropTable('legal_submissions').execute()
}
