// Frozen in time: never edit a migration that has shipped, add a new one.
// Operators' retries of an invoice: an invoice POSTed with an Idempotency-Key is created once, as letters and packages
// are (migration 011). Before, a retry after a lost answer met 409 « existe déjà », which an operator could not tell
// from another order's invoice of the same number. The key is kept as long as the invoice.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('operator_requests')
    .addColumn('invoice_id', 'integer', (c) => c.references('invoices.id').onDelete('cascade'))
    .execute()
  // 011's checks, named by PostgreSQL (the column's) and by 011 (the target's), widened to invoices.
  await db.schema.alterTable('operator_requests').dropConstraint('operator_requests_kind_check').execute()
  await db.schema.alterTable('operator_requests').dropConstraint('operator_requests_target').execute()
  await db.schema
    .alterTable('operator_requests')
    .addCheckConstraint('operator_requests_kind_check', sql`kind in ('document', 'package', 'invoice')`)
    .execute()
  await db.schema
    .alterTable('operator_requests')
    .addCheckConstraint(
      'operator_requests_target',
      sql`(kind = 'document') = (document_id is not null)
    and (kind = 'package') = (package_id is not null) and (kind = 'invoice') = (invoice_id is not null)`,
    )
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('operator_requests').where('kind', '=', 'invoice').execute()
  await db.schema.alterTable('operator_requests').dropConstraint('operator_requests_target').execute()
  await db.schema.alterTable('operator_requests').dropConstraint('operator_requests_kind_check').execute()
  await db.schema.alterTable('operator_requests').dropColumn('invoice_id').execute()
  await db.schema
    .alterTable('operator_requests')
    .addCheckConstraint('operator_requests_kind_check', sql`kind in ('document', 'package')`)
    .execute()
  await db.schema
    .alterTable('operator_requests')
    .addCheckConstraint(
      'operator_requests_target',
      sql`(kind = 'document') = (document_id is not null) and (kind = 'package') = (package_id is not null)`,
    )
    .execute()
}
