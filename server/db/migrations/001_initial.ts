// Frozen in time: never edit a migration that has shipped, add a new one.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  const id = <T extends string, C extends string>(t: CreateTableBuilder<T, C>) => t.addColumn('id', 'serial', (c) => c.primaryKey())
  const createdAt = <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
    t.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))

  await db.schema
    .createTable('app_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await createdAt(
    id(db.schema.createTable('users'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('firstname', 'text', (c) => c.notNull())
      .addColumn('lastname', 'text', (c) => c.notNull())
      .addColumn('phone', 'text')
      .addColumn('payment_customer_id', 'text'),
  ).execute()
  await sql`create unique index users_email_key on users (lower(email))`.execute(db)

  await createdAt(
    id(db.schema.createTable('api_tokens'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull()),
  ).execute()

  await createdAt(
    id(db.schema.createTable('password_resets'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz'),
  ).execute()

  await id(db.schema.createTable('orders'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('raison_sociale', 'text', (c) => c.notNull())
    .addColumn('order_date', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('has_kbis', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('missing_documents', 'jsonb')
    .addColumn('missing_documents_validated_at', 'timestamptz')
    .addColumn('subscription_id', 'text')
    .addColumn('siren', 'text')
    .addColumn('legal_form', 'text')
    .addColumn('domiciliation_address', 'text', (c) => c.notNull())
    .addColumn('qonto', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('shine', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('want_comptable_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('orders_owner_idx').on('orders').column('owner_id').execute()

  await id(db.schema.createTable('contracts'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('adresse_postale_expedition', 'text')
    .addColumn('adresse_complement_postale_expedition', 'text')
    .addColumn('code_postale_expedition', 'text')
    .addColumn('ville_postale_expedition', 'text')
    .addColumn('pays_postale_expedition', 'text')
    .addColumn('kbis_file_key', 'text')
    .addColumn('signed_at', 'timestamptz')
    .execute()

  await createdAt(
    id(db.schema.createTable('shares'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade')),
  ).execute()
  await sql`create unique index shares_order_email_key on shares (order_id, lower(email))`.execute(db)
  await db.schema.createIndex('shares_user_idx').on('shares').column('user_id').execute()

  await createdAt(
    id(db.schema.createTable('mandataires'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('firstname', 'text', (c) => c.notNull())
      .addColumn('lastname', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull()),
  ).execute()

  await createdAt(
    id(db.schema.createTable('folders'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull()),
  ).execute()
  await sql`create unique index folders_order_name_key on folders (order_id, lower(name))`.execute(db)

  await id(db.schema.createTable('documents'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('documents_order_idx').on('documents').columns(['order_id', 'received_at']).execute()

  await id(db.schema.createTable('packages'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .execute()

  await createdAt(
    id(db.schema.createTable('courier_requests'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('letter_count', 'integer', (c) => c.notNull()),
  ).execute()

  await id(db.schema.createTable('invoices'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('date', 'timestamptz', (c) => c.notNull())
    .addColumn('amount_excl_tax_cents', 'integer', (c) => c.notNull())
    .addColumn('amount_incl_tax_cents', 'integer', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .addColumn('payment_reference', 'text')
    .addColumn('file_key', 'text', (c) => c.notNull())
    .execute()

  await id(db.schema.createTable('credit_notes'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('invoice_id', 'integer', (c) => c.references('invoices.id'))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('date', 'timestamptz', (c) => c.notNull())
    .addColumn('amount_excl_tax_cents', 'integer', (c) => c.notNull())
    .addColumn('amount_incl_tax_cents', 'integer', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .execute()

  await id(db.schema.createTable('calendar_invoices'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('date', 'timestamptz', (c) => c.notNull())
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('hours', 'real', (c) => c.notNull())
    .addColumn('amount_incl_tax_cents', 'integer', (c) => c.notNull())
    .addColumn('paid', 'boolean', (c) => c.notNull())
    .execute()

  await id(db.schema.createTable('uploaded_documents'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull())
    .execute()

  await createdAt(
    id(db.schema.createTable('problem_reports'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('message', 'text', (c) => c.notNull()),
  ).execute()

  await createdAt(
    id(db.schema.createTable('termination_requests'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('date', 'date', (c) => c.notNull())
      .addColumn('comment', 'text'),
  ).execute()

  await createdAt(
    id(db.schema.createTable('option_requests'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('plan_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('confirmed_at', 'timestamptz'),
  ).execute()

  await createdAt(
    id(db.schema.createTable('outbox'))
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('attachments', 'jsonb', (c) => c.notNull()),
  ).execute()

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute()

  // The local test payment provider keeps Stripe-shaped objects here.
  await createdAt(
    db.schema
      .createTable('test_payment_methods')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('brand', 'text', (c) => c.notNull())
      .addColumn('last4', 'text', (c) => c.notNull())
      .addColumn('exp_month', 'integer', (c) => c.notNull())
      .addColumn('exp_year', 'integer', (c) => c.notNull()),
  ).execute()
  await db.schema
    .createTable('test_customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('default_payment_method', 'text')
    .execute()
  await db.schema
    .createTable('test_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'bigint', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull())
    .addColumn('default_payment_method', 'text')
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .execute()
  await createdAt(
    db.schema
      .createTable('test_charges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('payment_method', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull()),
  ).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'test_charges',
    'test_subscriptions',
    'test_customers',
    'test_payment_methods',
    'rate_limits',
    'outbox',
    'option_requests',
    'termination_requests',
    'problem_reports',
    'uploaded_documents',
    'calendar_invoices',
    'credit_notes',
    'invoices',
    'courier_requests',
    'packages',
    'documents',
    'folders',
    'mandataires',
    'shares',
    'contracts',
    'orders',
    'password_resets',
    'api_tokens',
    'users',
    'app_meta',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
