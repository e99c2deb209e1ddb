// Frozen in time: never edit a migration that has shipped, add a new one.
// The operators' passkeys: a second factor instead of the authenticator app's code. Their own table, never
// the customers' `passkeys`; the WebAuthn challenges of their ceremonies sit beside the customers', owned by an operator.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operator_passkeys')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'jsonb', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('operator_passkeys_operator_idx').on('operator_passkeys').column('operator_id').execute()
  // A challenge belongs to a customer, to an operator, or (a customer's passkey sign-in) to nobody yet; never to both.
  await db.schema
    .alterTable('webauthn_challenges')
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('cascade'))
    .execute()
  await sql`alter table webauthn_challenges add constraint webauthn_challenges_one_owner check (user_id is null or operator_id is null)`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webauthn_challenges').dropConstraint('webauthn_challenges_one_owner').execute()
  await db.schema.alterTable('webauthn_challenges').dropColumn('operator_id').execute()
  await db.schema.dropTable('operator_passkeys').execute()
}
