import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import { sql, type Kysely } from 'kysely'
import * as initial from './migrations/001_initial.ts'
// people
import * as people from './migrations/003_people.ts'
// billing
import * as billing from './migrations/002_billing.ts'
// company area
import * as company from './migrations/004_company.ts'
// mail pipeline
import * as mailPipeline from './migrations/005_mail_pipeline.ts'
// notifications
import * as notifications from './migrations/006_notifications.ts'
// the mail list's version
import * as mailListVersion from './migrations/007_mail_list_version.ts'
// the orders list's version
import * as ordersListVersion from './migrations/008_orders_list_version.ts'
// the "Kbis validé" notification's link
import * as kbisNotificationLink from './migrations/009_kbis_notification_link.ts'
import * as oneSharePerUser from './migrations/010_one_share_per_user.ts'
import * as operatorRequests from './migrations/011_operator_requests.ts'
import * as oneMandatairePerIdentity from './migrations/012_one_mandataire_per_identity.ts'
// « Ce n’était pas vous ? »: the link that undoes an address change
import * as emailChangeReverts from './migrations/013_email_change_reverts.ts'
// address proven or only typed (review of the revert links)
import * as emailVerified from './migrations/014_email_verified.ts'
// operators' retries of an invoice: Idempotency-Key
import * as operatorInvoiceRequests from './migrations/015_operator_invoice_requests.ts'
// the invoice number check's index
import * as invoiceNumberIndex from './migrations/016_invoice_number_index.ts'
import * as rateLimitPending from './migrations/017_rate_limit_pending.ts'
// the live notification streams open, per user across the instances
import * as liveStreams from './migrations/018_live_streams.ts'
// the back office: operators, their sessions and sign-in
import * as operators from './migrations/019_operators.ts'
// the journal of operators' writes, which nothing changes
import * as journal from './migrations/020_journal.ts'
// the machines' API keys
import * as apiKeys from './migrations/021_api_keys.ts'
// the back office's Clients and dashboard: text folded for search, an order's start, a Kbis's filing time
import * as clients from './migrations/022_clients.ts'
// the back office's mail room: scans to publish, packages handed over, forwarding requests shipped
import * as mailRoom from './migrations/030_mail_room.ts'
// the operators' passkeys, a second factor beside the authenticator app
import * as operatorPasskeys from './migrations/040_operator_passkeys.ts'
// a person's rights: an account closed, the journal's automatic rows, the mail retention of terminated orders
import * as rights from './migrations/070_rights.ts'
// « Mes données »: the export jobs of a person's data
import * as dataExports from './migrations/080_data_exports.ts'
// the back office's Justificatifs: Kbis and identity documents validated or refused with a reason
import * as justificatifs from './migrations/090_justificatifs.ts'
// the back office's Messages and Résiliations: conversations, a termination accepted for a date
import * as conversations from './migrations/100_conversations.ts'
// every stored file's size and SHA-256
import * as storedFiles from './migrations/110_stored_files.ts'

// Listed in code rather than read from disk, so the bundle-free tsx runtime and tests need no file lookups.
export const migrations: Record<string, Migration> = {
  '001_initial': initial,
  // people
  '003_people': people,
  // billing
  '002_billing': billing,
  // company area
  '004_company': company,
  // mail pipeline
  '005_mail_pipeline': mailPipeline,
  // notifications
  '006_notifications': notifications,
  // the mail list's version
  '007_mail_list_version': mailListVersion,
  // the orders list's version
  '008_orders_list_version': ordersListVersion,
  // the "Kbis validé" notification's link
  '009_kbis_notification_link': kbisNotificationLink,
  '010_one_share_per_user': oneSharePerUser,
  // operators' retries: Idempotency-Key
  '011_operator_requests': operatorRequests,
  '012_one_mandataire_per_identity': oneMandatairePerIdentity,
  '013_email_change_reverts': emailChangeReverts,
  '014_email_verified': emailVerified,
  '015_operator_invoice_requests': operatorInvoiceRequests,
  '016_invoice_number_index': invoiceNumberIndex,
  '017_rate_limit_pending': rateLimitPending,
  '018_live_streams': liveStreams,
  '019_operators': operators,
  '020_journal': journal,
  '021_api_keys': apiKeys,
  '022_clients': clients,
  '030_mail_room': mailRoom,
  '040_operator_passkeys': operatorPasskeys,
  '070_rights': rights,
  '080_data_exports': dataExports,
  '090_justificatifs': justificatifs,
  '100_conversations': conversations,
  '110_stored_files': storedFiles,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/**
 * Every migration already applied: one read of Kysely's own table, instead of the Migrator's dozen statements (its
 * tables created if missing, its lock taken and released) at every start. Anything else (no table yet, a migration
 * missing, a name unknown to this code) goes through the Migrator, which decides under its lock as before.
 */
async function upToDate(db: Kysely<any>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    const applied = new Set(rows.map((row) => row.name))
    const names = Object.keys(migrations)
    return applied.size === names.length && names.every((name) => applied.has(name))
  } catch {
    return false
  }
}

/**
 * Kysely's Migrator pinned to the connection's schema: left to itself, Kysely's introspection lists every schema's tables,
 * and the Migrator takes a kysely_migration table in any of them for its own, then fails on the missing one here. On
 * PostgreSQL, connect.ts's dialect also limits that introspection to the connection's schema (OneSchemaPostgresDialect).
 */
export async function migratorFor(db: Kysely<any>, migrations: MigrationProvider = provider): Promise<Migrator> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return new Migrator({ db, provider: migrations, migrationTableSchema: rows[0]?.schema })
}

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  if (await upToDate(db)) return
  const { error, results } = await (await migratorFor(db)).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} a échoué`, { cause: error })
}
