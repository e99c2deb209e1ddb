// Frozen in time: never edit a migration that has shipped, add a new one.
// « Mes données » (RGPD art. 15 and 20): the ZIP of everything a person can see, prepared by a background job. Who asked,
// how far it got, where the file is and until when it may be downloaded; the file is removed once expired.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The job that prepares it: its failure (attempts spent) is the export's, written as 'failed' by the next request.
    .addColumn('job_id', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('preparing').check(sql`state in ('preparing', 'ready', 'failed', 'expired')`))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('file_key', 'text')
    .addColumn('file_bytes', 'bigint')
    .addColumn('letters', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addCheckConstraint(
      'data_exports_ready',
      sql`(state = 'ready') = (file_key is not null) and (state in ('preparing', 'failed') or (ready_at is not null and expires_at is not null))`,
    )
    .execute()
  await db.schema.createIndex('data_exports_user').on('data_exports').columns(['user_id', 'id']).execute()
  // One export in preparation per person: a second click, another tab, gets the same one.
  await db.schema
    .createIndex('data_exports_one_preparing')
    .unique()
    .on('data_exports')
    .column('user_id')
    .where(sql.ref('state'), '=', 'preparing')
    .execute()
  // What the cleanup looks for: ready exports, by expiry.
  await db.schema.createIndex('data_exports_ready').on('data_exports').column('expires_at').where(sql.ref('state'), '=', 'ready').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_exports').execute()
}
