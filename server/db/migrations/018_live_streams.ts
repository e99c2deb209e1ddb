// Frozen in time: never edit a migration that has shipped, add a new one.
// The live notification streams open, whichever server instance holds them: at most a few per user across every
// instance on the database (services/notification-stream-limit.ts). A row lives as long as its stream; `seen_at` is
// moved on by its instance while it runs, so the rows of an instance that stopped without cleaning up (killed, its
// host lost) are known by their age and hold no place.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('live_streams')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('live_streams_user_idx').on('live_streams').columns(['user_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_streams').execute()
}
