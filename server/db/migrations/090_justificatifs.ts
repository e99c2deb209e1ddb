// Frozen in time: never edit a migration that has shipped, add a new one.
// The back office's Justificatifs: a Kbis or an identity document is validated or refused (with a reason) by an
// operator; a refused Kbis brings the portal's banner back with the reason, a refused identity document is sent again.
import { sql, type Kysely } from 'kysely'

const REASONS = sql`('illisible', 'pas-au-nom', 'plus-de-trois-mois', 'autre')`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contracts')
    .addColumn('kbis_refused_at', 'timestamptz')
    .addColumn('kbis_refusal_reason', 'text', (c) => c.check(sql`kbis_refusal_reason in ${REASONS}`))
    .addColumn('kbis_refusal_detail', 'text')
    .execute()
  await sql`alter table contracts add constraint contracts_kbis_refusal check (
    (kbis_refused_at is null) = (kbis_refusal_reason is null)
    and (kbis_refused_at is null or kbis_validated_at is null)
    and (kbis_refusal_reason is distinct from 'autre' or kbis_refusal_detail is not null)
  )`.execute(db)

  await db.schema
    .alterTable('uploaded_documents')
    .addColumn('validated_at', 'timestamptz')
    .addColumn('refused_at', 'timestamptz')
    .addColumn('refusal_reason', 'text', (c) => c.check(sql`refusal_reason in ${REASONS}`))
    .addColumn('refusal_detail', 'text')
    .execute()
  await sql`alter table uploaded_documents add constraint uploaded_documents_review check (
    (refused_at is null) = (refusal_reason is null)
    and (refused_at is null or validated_at is null)
    and (refusal_reason is distinct from 'autre' or refusal_detail is not null)
  )`.execute(db)
  // Before, a complete set of uploads validated the order by itself: those documents count as validated then.
  await sql`update uploaded_documents d set validated_at = o.missing_documents_validated_at
    from orders o where o.id = d.order_id and o.missing_documents_validated_at is not null`.execute(db)
  await db.schema
    .createIndex('uploaded_documents_waiting')
    .on('uploaded_documents')
    .columns(['uploaded_at'])
    .where(sql.ref('validated_at'), 'is', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('uploaded_documents_waiting').execute()
  await sql`alter table uploaded_documents drop constraint uploaded_documents_review`.execute(db)
  for (const column of ['validated_at', 'refused_at', 'refusal_reason', 'refusal_detail'])
    await db.schema.alterTable('uploaded_documents').dropColumn(column).execute()
  await sql`alter table contracts drop constraint contracts_kbis_refusal`.execute(db)
  for (const column of ['kbis_refused_at', 'kbis_refusal_reason', 'kbis_refusal_detail'])
    await db.schema.alterTable('contracts').dropColumn(column).execute()
}
