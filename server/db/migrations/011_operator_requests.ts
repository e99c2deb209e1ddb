// Frozen in time: never edit a migration that has shipped, add a new one.
// Operators' retries: a letter or package POSTed with an Idempotency-Key is created once; the key, a digest of what
// was sent and the row it made are kept as long as that row (services/ingest.ts, "retries").
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operator_requests')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('document', 'package')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (c) => c.references('packages.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('operator_requests_pkey', ['kind', 'key'])
    .addCheckConstraint(
      'operator_requests_target',
      sql`(kind = 'document') = (document_id is not null) and (kind = 'package') = (package_id is not null)`,
    )
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_requests').execute()
}
