// Frozen in time: never edit a migration that has shipped, add a new one.
// The back office's mail room: the scans waiting to be published (shared by every operator, read by the letter
// pipeline's job, published once), a package's photo and its handover, a forwarding request's letters and outcome.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_scans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull())
    // The reading job (mail pipeline): its row tells a reading that died with its process.
    .addColumn('job_id', 'bigint')
    .addColumn('reading', 'text', (c) => c.notNull().defaultTo('en cours').check(sql`reading in ('en cours', 'terminée', 'échouée')`))
    .addColumn('text', 'text')
    .addColumn('suggested_order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('suggestion_confidence', 'text')
    .addColumn('suggestion_reason', 'text')
    .addColumn('suggested_sender', 'text')
    // What the operator chose (the suggestion copied in when reading ends, until the operator changes it).
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('sender', 'text')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('courrier').check(sql`kind in ('courrier', 'recommandé', 'administratif')`))
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('confirmed_by', 'integer', (c) => c.references('operators.id'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('waiting').check(sql`state in ('waiting', 'published')`))
    .addColumn('published_at', 'timestamptz')
    .addColumn('published_by', 'integer', (c) => c.references('operators.id'))
    .addColumn('document_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    .addCheckConstraint('mail_scans_published', sql`(state = 'published') = (published_at is not null and published_by is not null)`)
    .execute()
  await db.schema.createIndex('mail_scans_waiting').on('mail_scans').columns(['state', 'uploaded_at']).execute()
  await db.schema
    .createTable('mail_scan_pages')
    .addColumn('scan_id', 'integer', (c) => c.notNull().references('mail_scans.id').onDelete('cascade'))
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_scan_pages_pkey', ['scan_id', 'page'])
    .execute()

  await db.schema
    .alterTable('packages')
    .addColumn('photo_file_key', 'text')
    .addColumn('photo_type', 'text')
    .addColumn('collected_at', 'timestamptz')
    // The name as it was at the handover: a representative removed later still collected it.
    .addColumn('collected_by', 'text')
    .addColumn('collector_kind', 'text', (c) => c.check(sql`collector_kind in ('titulaire', 'mandataire')`))
    .addColumn('collector_mandataire_id', 'integer', (c) => c.references('mandataires.id').onDelete('set null'))
    .addColumn('identity_checked', 'boolean')
    .addColumn('handed_over_by', 'integer', (c) => c.references('operators.id'))
    .execute()
  await sql`alter table packages add constraint packages_handover check (
    (collected_at is null) = (collected_by is null) and (collected_at is null or (identity_checked and status = 'Retiré'))
  )`.execute(db)

  await db.schema
    .alterTable('courier_requests')
    .addColumn('processed_at', 'timestamptz')
    .addColumn('processed_by', 'integer', (c) => c.references('operators.id'))
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('expédiée', 'impossible')`))
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('impossible_reason', 'text')
    .execute()
  await sql`alter table courier_requests add constraint courier_requests_outcome check (
    (outcome is null or status = 'traitée')
    and (outcome <> 'expédiée' or (carrier is not null and tracking_number is not null))
    and (outcome <> 'impossible' or impossible_reason is not null)
  )`.execute(db)
  await db.schema
    .createTable('courier_request_letters')
    .addColumn('request_id', 'integer', (c) => c.notNull().references('courier_requests.id').onDelete('cascade'))
    // A letter is never removed, but a row may be fixed by hand: the request then names it no more.
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('courier_request_letters_pkey', ['request_id', 'document_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('courier_request_letters').execute()
  await sql`alter table courier_requests drop constraint courier_requests_outcome`.execute(db)
  for (const column of ['processed_at', 'processed_by', 'outcome', 'carrier', 'tracking_number', 'impossible_reason'])
    await db.schema.alterTable('courier_requests').dropColumn(column).execute()
  await sql`alter table packages drop constraint packages_handover`.execute(db)
  for (const column of [
    'photo_file_key',
    'photo_type',
    'collected_at',
    'collected_by',
    'collector_kind',
    'collector_mandataire_id',
    'identity_checked',
    'handed_over_by',
  ])
    await db.schema.alterTable('packages').dropColumn(column).execute()
  await db.schema.dropTable('mail_scan_pages').execute()
  await db.schema.dropTable('mail_scans').execute()
}
