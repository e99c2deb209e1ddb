// Frozen in time once shipped: never edit a migration that has shipped, add a new one.
// Billing: payment attempts (money moves once), one termination request per order, the test
// provider's idempotent charges, and the domiciliation certificates with their verification code.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // Recorded before the provider is called: its idempotency key makes a retry charge nothing twice.
  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'succeeded', 'failed')`))
    .addColumn('charge_id', 'text')
    .addColumn('failure', 'text')
    // While the lease runs, the request that made the attempt is still at work; after it, anyone may resume it.
    .addColumn('lease_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('settled_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('payment_attempts_pending_idx')
    .on('payment_attempts')
    .column('user_id')
    .where(sql.ref('status'), '=', 'pending')
    .execute()
  // The attempt an unpaid invoice is claimed by: a second request finds it claimed and charges nothing.
  await db.schema
    .alterTable('invoices')
    .addColumn('payment_attempt_id', 'integer', (c) => c.references('payment_attempts.id'))
    .execute()
  await db.schema.createIndex('invoices_payment_attempt_idx').on('invoices').column('payment_attempt_id').execute()

  await db.schema
    .alterTable('test_charges')
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .execute()
  // Stripe's 4000 0000 0000 0341: the card is saved, every charge on it is declined.
  await db.schema
    .alterTable('test_payment_methods')
    .addColumn('declines_charges', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  // The provider's card form makes a method that belongs to nobody until our API attaches it to a customer (as Stripe's).
  await db.schema
    .alterTable('test_payment_methods')
    .alterColumn('customer_id', (c) => c.dropNotNull())
    .execute()

  // One termination request per order: the duplicates a race may have left go, the first stays.
  await sql`delete from termination_requests t using termination_requests first
            where t.order_id = first.order_id and t.id > first.id`.execute(db)
  await db.schema.createIndex('termination_requests_order_key').on('termination_requests').column('order_id').unique().execute()

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('issued_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('certificates').execute()
  await db.schema.dropIndex('termination_requests_order_key').execute()
  await db.deleteFrom('test_payment_methods').where('customer_id', 'is', null).execute()
  await db.schema
    .alterTable('test_payment_methods')
    .alterColumn('customer_id', (c) => c.setNotNull())
    .execute()
  await db.schema.alterTable('test_payment_methods').dropColumn('declines_charges').execute()
  await db.schema.alterTable('test_charges').dropColumn('idempotency_key').execute()
  await db.schema.alterTable('invoices').dropColumn('payment_attempt_id').execute()
  await db.schema.dropTable('payment_attempts').execute()
}
