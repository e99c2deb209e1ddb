// Frozen in time: never edit a migration that has shipped, add a new one.
// The people area: invitations that start access only once accepted, the devices behind each
// session, passkeys, and the WebAuthn challenges any API instance can check.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // A share is an invitation until it is accepted (user_id set then); its link is single-use.
  await db.schema
    .alterTable('shares')
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('invitation_token_hash', 'text', (c) => c.unique())
    .addColumn('invitation_expires_at', 'timestamptz')
    .addColumn('invitation_sent_at', 'timestamptz')
    .addColumn('accepted_at', 'timestamptz')
    .execute()
  await sql`update shares set accepted_at = created_at where user_id is not null`.execute(db)

  await db.schema.alterTable('api_tokens').addColumn('user_agent', 'text').addColumn('last_used_at', 'timestamptz').execute()

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'jsonb', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute()

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute()
  await db.schema.dropTable('passkeys').execute()
  await db.schema.alterTable('api_tokens').dropColumn('user_agent').dropColumn('last_used_at').execute()
  await db.schema
    .alterTable('shares')
    .dropColumn('invited_by')
    .dropColumn('invitation_token_hash')
    .dropColumn('invitation_expires_at')
    .dropColumn('invitation_sent_at')
    .dropColumn('accepted_at')
    .execute()
}
