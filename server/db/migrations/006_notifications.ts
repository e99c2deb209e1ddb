// Frozen in time: never edit a migration that has shipped, add a new one.
// Notifications: what happened on an order, with a read mark per user (the owner and each
// collaborator keep their own unread state), each user's e-mail choice per order, the daily digest's
// claim, each letter's history, and the date an operator validated a contract's Kbis.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    .addColumn('package_id', 'integer', (c) => c.references('packages.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('notifications_order_idx').on('notifications').columns(['order_id', 'created_at']).execute()

  await db.schema
    .createTable('notification_reads')
    .addColumn('notification_id', 'integer', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_reads_pkey', ['notification_id', 'user_id'])
    .execute()

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().check(sql`email in ('each', 'digest', 'none')`))
    .addPrimaryKeyConstraint('notification_preferences_pkey', ['user_id', 'order_id'])
    .execute()

  // One row per user who had a digest: the claim that makes it once a day across server instances.
  await db.schema
    .createTable('notification_digests')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('digest_sent_on', 'date', (c) => c.notNull())
    .addColumn('covered_until', 'timestamptz', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('letter_history')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('detail', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('letter_history_document_idx').on('letter_history').columns(['document_id', 'at']).execute()
  // "Ouvert par …" once per person: the first opening is the one that tells.
  await sql`create unique index letter_history_opened_key on letter_history (document_id, user_id) where kind = 'opened'`.execute(db)

  await db.schema.alterTable('contracts').addColumn('kbis_validated_at', 'timestamptz').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('contracts').dropColumn('kbis_validated_at').execute()
  for (const table of ['letter_history', 'notification_digests', 'notification_preferences', 'notification_reads', 'notifications']) {
    await db.schema.dropTable(table).execute()
  }
}
