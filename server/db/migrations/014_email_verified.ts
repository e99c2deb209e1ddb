// Frozen in time: never edit a migration that has shipped, add a new one.
// Whether the account's address was proven by its owner (a link mailed to it was followed: the invitation, a password
// reset, a revert link), or only typed (PUT users/me/email checks nothing). A « Ce n’était pas vous ? » link goes only to
// a proven address: the link mailed to a mistyped address, corrected at once, gave a stranger the
// account. Accounts made before this column were made from an address the provider checked: proven.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified').execute()
}
