// Frozen in time: never edit a migration that has shipped, add a new one.
// The check that an invoice number is free, whatever its case (repositories/billing.ts, invoiceNumberFree), reads
// `upper(number)` under a lock that makes every issuer wait: the unique constraint on `number` (001) cannot serve that
// expression, so it scanned every invoice, each time and the lock held meanwhile. Not unique: numbers that differ only
// by case (FA-1 and fa-1, stored before that check) may exist, and a unique index would fail to build on them.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('invoices_number_upper').on('invoices').expression(sql`upper(number)`).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('invoices_number_upper').execute()
}
