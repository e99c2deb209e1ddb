// The hook every action that customers should hear about calls inside its own transaction:
// the notification row and its NOTIFY are committed with the action or not at all, so a rolled-back
// action announces nothing, and every server instance LISTENing on the database hears the commit.
import { sql } from 'kysely'
import type { NotificationKind } from '../contract/notifications.ts'
import { insertLetterEvent, insertNotification } from '../db/repositories/notifications.ts'
import type { Database, Db } from '../db/schema.ts'

export const EVENTS_CHANNEL = 'portal_events'

/** What crosses NOTIFY: the row's id (the listener reads the row) and the schema, as test schemas share one PostgreSQL. */
export interface EventSignal {
  id: number
  orderId: number
  schema: string
}

export interface PortalEvent {
  kind: NotificationKind
  orderId: number
  documentId?: number
  packageId?: number
  title: string
  body: string
  /** A portal path (no host): the bell navigates there. */
  link: string
  at?: Date
}

/**
 * Records the event inside the action's transaction. Its id is taken under a lock held until that transaction
 * ends, so ids follow the commits: without it, an action still open could commit an id lower than one already
 * committed, listed and followed on from (Last-Event-ID), and that notification would never reach the browser.
 * The lock is one per schema (test schemas share one PostgreSQL); it makes the actions that raise an event commit
 * one after the other from this call on, which their few remaining statements keep short.
 */
export async function recordEvent(trx: Db, event: PortalEvent): Promise<number> {
  if (!trx.isTransaction) throw new Error('recordEvent: inside the action’s transaction only')
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.' || ${EVENTS_CHANNEL}))`.execute(trx)
  const row = await insertNotification(trx, {
    order_id: event.orderId,
    kind: event.kind,
    document_id: event.documentId ?? null,
    package_id: event.packageId ?? null,
    title: event.title,
    body: event.body,
    link: event.link,
    ...(event.at ? { created_at: event.at } : {}),
  })
  await sql`select pg_notify(${EVENTS_CHANNEL}, json_build_object('id', ${row.id}::int, 'orderId', ${event.orderId}::int, 'schema', current_schema())::text)`.execute(
    trx,
  )
  return row.id
}

export interface LetterHistoryEntry {
  documentId: number
  kind: Database['letter_history']['kind']
  /** Who did it; none for the provider (receipt, scan). */
  userId?: number
  /** The address a letter was sent to, the folder it was filed in. */
  detail?: string | null
  at?: Date
}

/** One line of a letter's history; an opening is kept once per person (the first). */
export async function recordLetterHistory(trx: Db, entry: LetterHistoryEntry): Promise<void> {
  await insertLetterEvent(trx, {
    document_id: entry.documentId,
    kind: entry.kind,
    user_id: entry.userId ?? null,
    detail: entry.detail ?? null,
    ...(entry.at ? { at: entry.at } : {}),
  })
}

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })
/** "348,00 €" from cents, as customers read amounts (notifications, messages). */
export const eurosText = (cents: number) => euros.format(cents / 100)

/** The bell's text of a new invoice (issued by an operator, or the demo's past). */
export const invoiceEvent = (number: string, amountInclTaxCents: number, raisonSociale: string) => ({
  title: 'Nouvelle facture',
  body: `Facture ${number} de ${eurosText(amountInclTaxCents)} — ${raisonSociale}`,
  link: '/factures',
})

/** The bell's text of a Kbis validated: it leads to Attestation et contrats, which shows the Kbis, its validation date and its download. */
export const kbisEvent = (raisonSociale: string) => ({
  title: 'Kbis validé',
  body: `Le justificatif d’immatriculation de ${raisonSociale} a été validé.`,
  link: '/souscription/attestation-contrats',
})

/** The portal path that opens one letter (the mailbox reads both parameters, as from the "Nouveau courrier" e-mail). */
