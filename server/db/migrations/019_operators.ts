// Frozen in time: never edit a migration that has shipped, add a new one.
// The provider's operators (people of the back office, never customer accounts), their sessions, their enrolment links
// and the tickets between a sign-in's password and its code. Every token is kept as its SHA-256 only, as customer
// sessions are. An operator is never deleted: deactivated, so that what they did keeps their name.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Null until the operator follows their enrolment link and chooses one.
    .addColumn('password_hash', 'text')
    .addColumn('roles', sql`text[]`, (c) =>
      c.notNull().check(sql`cardinality(roles) >= 1 and roles <@ array['admin', 'courrier', 'conformite']::text[]`),
    )
    // TOTP is a shared secret: the server needs it as it is to check a code (base32, RFC 4648), so it cannot be hashed.
    .addColumn('totp_secret', 'text', (c) => c.notNull())
    .addColumn('totp_enrolled_at', 'timestamptz')
    // The last time step whose code was accepted: a code is taken once, never again (nor an older one).
    .addColumn('totp_last_step', 'bigint')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deactivated_at', 'timestamptz')
    .execute()
  await sql`create unique index operators_email_idx on operators (lower(email))`.execute(db)

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('operator_sessions_operator_idx').on('operator_sessions').column('operator_id').execute()

  // Single-use links: choose a password and enrol the authenticator app.
  await db.schema
    .createTable('operator_enrolments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()

  // A password checked, the code not yet: a short-lived ticket that opens nothing but the code's check.
  await db.schema
    .createTable('operator_sign_in_tickets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_sign_in_tickets').execute()
  await db.schema.dropTable('operator_enrolments').execute()
  await db.schema.dropTable('operator_sessions').execute()
  await db.schema.dropTable('operators').execute()
}
