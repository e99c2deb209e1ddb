// Frozen in time: never edit a migration that has shipped, add a new one.
// The journal: one row per write of an operator (or, from 021 on, per call made with an API key), written in the
// transaction of the change it tells. Its rows never change and are never deleted: the database itself refuses an
// UPDATE, a DELETE or a TRUNCATE of the table, whatever the code or the person connected.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('journal')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    // No foreign key: the row outlives whatever it names, and never follows a change of it.
    .addColumn('order_id', 'integer')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb', (c) => c.check(sql`octet_length(before::text) <= 4000`))
    .addColumn('after', 'jsonb', (c) => c.check(sql`octet_length(after::text) <= 4000`))
    .execute()
  await db.schema.createIndex('journal_at_idx').on('journal').columns(['at', 'id']).execute()
  await db.schema.createIndex('journal_order_idx').on('journal').columns(['order_id', 'at']).execute()
  await db.schema.createIndex('journal_operator_idx').on('journal').columns(['operator_id', 'at']).execute()
  await sql`
    create function journal_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'journal : une ligne du journal ne peut être ni modifiée ni supprimée' using errcode = '42501';
    end
    $$`.execute(db)
  await sql`create trigger journal_no_change before update or delete on journal
    for each row execute function journal_refuse_change()`.execute(db)
  await sql`create trigger journal_no_truncate before truncate on journal
    for each statement execute function journal_refuse_change()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal').execute()
  await sql`drop function journal_refuse_change()`.execute(db)
}
