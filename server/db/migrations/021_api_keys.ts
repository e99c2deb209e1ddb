// Frozen in time: never edit a migration that has shipped, add a new one.
// The machines' API keys (a scanner, the invoicing): named, kept as their SHA-256 only, revocable; the journal names the
// key behind each call made with one. OPERATOR_TOKEN stays as a bootstrap key beside them.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    // The key's first characters, shown to recognise it (never enough to use it).
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute()
  // A new column is no change of a row: the journal's trigger refuses UPDATE and DELETE, not this.
  await db.schema
    .alterTable('journal')
    .addColumn('api_key_id', 'integer', (c) => c.references('api_keys.id'))
    .execute()
  await sql`alter table journal add constraint journal_one_actor check (operator_id is null or api_key_id is null)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal').dropConstraint('journal_one_actor').execute()
  await db.schema.alterTable('journal').dropColumn('api_key_id').execute()
  await db.schema.dropTable('api_keys').execute()
}
