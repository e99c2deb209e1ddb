// Frozen in time: never edit a migration that has shipped, add a new one.
// « Ce n’était pas vous ? »: each change of a user's e-mail address leaves a link, mailed to the address left, that puts
// it back and closes the account to whoever changed it (a stolen session). 256 random bits, kept as SHA-256 like the
// reset links; 30 days, since the old owner may not read that mailbox every day; single use.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_change_reverts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('old_email', 'text', (c) => c.notNull())
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('email_change_reverts_user_idx').on('email_change_reverts').column('user_id').execute()
  // An address left with a live link is kept for its owner: another account asking for it is looked up by it.
  await sql`create index email_change_reverts_old_email_idx on email_change_reverts (lower(old_email)) where used_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_change_reverts').execute()
}
