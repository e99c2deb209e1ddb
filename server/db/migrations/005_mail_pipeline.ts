// Frozen in time: never edit a migration that has shipped, add a new one.
// Mail pipeline: durable background jobs, each letter's page images, its text (text layer
// or French OCR) indexed for full-text search with accents ignored, and the deadline found in it.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    // queued → running → done, or back to queued (retry with backoff), or failed after max_attempts.
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued').check(sql`state in ('queued', 'running', 'done', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The lease: a running job whose lease has passed was left by a dead worker and is claimed again.
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute()
  // What a worker looks at: only the jobs still to run, by due time.
  await sql`create index jobs_due_idx on jobs (run_at, id) where state in ('queued', 'running')`.execute(db)

  await db.schema
    .createTable('document_pages')
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('page', 'integer', (c) => c.notNull().check(sql`page >= 1`))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_pages_pkey', ['document_id', 'page'])
    .execute()

  // French stemming with accents ignored. Debian's PostgreSQL ships unaccent; PGlite loads it from
  // @electric-sql/pglite/contrib/unaccent (server/db/connect.ts). Kept in public so that dropping a
  // test schema never drops it; an install that already has it elsewhere keeps it where it is.
  await sql`create extension if not exists unaccent schema public`.execute(db)
  const { rows } = await sql<{
    schema: string
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db)
  const unaccentDictionary = sql.id(rows[0]!.schema, 'unaccent')
  await sql`create text search configuration fr_unaccent (copy = french)`.execute(db)
  await sql`alter text search configuration fr_unaccent alter mapping for hword, hword_part, word with ${unaccentDictionary}, french_stem`.execute(
    db,
  )

  await db.schema
    .alterTable('documents')
    .addColumn('page_images', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'text')
    .addColumn('searchable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deadline_date', 'date')
    .addColumn('deadline_amount_cents', 'integer')
    .execute()
  // Sender and kind weigh most (A), the letter's text least (D); a letter is found by its sender at once.
  await sql`alter table documents add column search_vector tsvector generated always as (
    setweight(to_tsvector('fr_unaccent', sender || ' ' || kind), 'A') || setweight(to_tsvector('fr_unaccent', coalesce(text, '')), 'D')
  ) stored`.execute(db)
  await sql`create index documents_search_idx on documents using gin (search_vector)`.execute(db)
  await sql`create index documents_deadline_idx on documents (order_id, deadline_date) where deadline_date is not null and not deleted`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .dropColumn('search_vector')
    .dropColumn('deadline_amount_cents')
    .dropColumn('deadline_date')
    .dropColumn('searchable')
    .dropColumn('text')
    .dropColumn('page_images')
    .execute()
  await sql`drop text search configuration if exists fr_unaccent`.execute(db)
  await db.schema.dropTable('document_pages').execute()
  await db.schema.dropTable('jobs').execute()
}
