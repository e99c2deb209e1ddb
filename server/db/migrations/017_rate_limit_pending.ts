// Frozen in time: never edit a migration that has shipped, add a new one.
// Attempts at a password in flight, apart from the failures: a limit on failed passwords reserves a place before the
// check (so that concurrent guesses never pass it together) and keeps it only if the check fails. With both in one
// count, 20 correct sign-ins at once took the 10 places and 10 of them were refused; with the attempts in flight
// counted apart, an attempt finding the places taken by attempts still in flight waits for them instead.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('rate_limits')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limits').dropColumn('pending').execute()
}
