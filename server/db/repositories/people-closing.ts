// A person leaving: their account closed (RGPD art. 17) and a collaborator leaving a shared order. What the law makes the
// provider keep stays (docs/LEGAL.md): the orders, their invoices and credit notes, the identity documents; the person's
// row stays too, for the orders it owns, emptied of everything that names or reaches them.
import type { Kysely, Transaction } from 'kysely'
import { randomToken } from '../../lib/crypto.ts'
import { isoDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'
import { recordJournal } from './operators-journal.ts'

/** An order of the person's that still runs: no termination, or one whose day has not passed. */
export interface OpenOrder {
  id: number
  raisonSociale: string
  /** The termination's day (YYYY-MM-DD), or null when none was asked for. */
  terminationDate: string | null
}

/**
 * The orders the person owns that are not over on `today` (Paris, YYYY-MM-DD): an order is over once its termination's
 * day has passed, as for its certificates. A collaborator owns none.
 */
export async function openOwnedOrders(db: Db, userId: number, today: string): Promise<OpenOrder[]> {
  const rows = await db
    .selectFrom('orders')
    .leftJoin('termination_requests', 'termination_requests.order_id', 'orders.id')
    .select(['orders.id', 'orders.raison_sociale', isoDay('termination_requests.date').as('termination_date')])
    .where('orders.owner_id', '=', userId)
    .where((eb) => eb.or([eb('termination_requests.date', 'is', null), eb('termination_requests.date', '>=', today)]))
    .orderBy('orders.id')
    .execute()
  return rows.map((r) => ({ id: r.id, raisonSociale: r.raison_sociale, terminationDate: r.termination_date }))
}

/** The address a closed account is left with: unique, unreachable (.invalid, RFC 2606), so its old one is free again. */
const closedAddress = (userId: number) => `compte-ferme-${userId}-${randomToken().slice(0, 12).toLowerCase()}@ferme.invalid`

export const CLOSED_NAME = { firstname: 'Compte', lastname: 'fermé' } as const

/**
 * Closes the account in one transaction, the row locked first: sessions, passkeys, reset and revert links, WebAuthn
 * challenges and notification choices deleted, its collaborations left, its name, phone and address erased (the
 * password too: nothing opens it again), and one journal row per order it owns, which the order's timeline shows.
 * False when the account was closed meanwhile, or an order of it opened again (`stillOpen` is checked under the lock).
 */
export async function closeAccount(
  db: Kysely<Database>,
  userId: number,
  now: Date,
  stillOpen: (tx: Db) => Promise<OpenOrder[]>,
): Promise<{ closed: true; orderIds: number[] } | { closed: false; open: OpenOrder[] }> {
  return db.transaction().execute(async (tx: Transaction<Database>) => {
    const user = await tx.selectFrom('users').select(['id', 'closed_at']).where('id', '=', userId).forUpdate().executeTakeFirst()
    if (!user || user.closed_at) return { closed: false as const, open: [] }
    const open = await stillOpen(tx)
    if (open.length) return { closed: false as const, open }
    for (const table of [
      'api_tokens',
      'passkeys',
      'password_resets',
      'email_change_reverts',
      'webauthn_challenges',
      'notification_preferences',
      'notification_reads',
      'notification_digests',
      'live_streams',
      'shares',
    ] as const)
      await tx.deleteFrom(table).where('user_id', '=', userId).execute()
    await tx
      .updateTable('users')
      .set({
        email: closedAddress(userId),
        ...CLOSED_NAME,
        phone: null,
        password_hash: '',
        email_verified: false,
        closed_at: now,
      })
      .where('id', '=', userId)
      .execute()
    const owned = await tx.selectFrom('orders').select('id').where('owner_id', '=', userId).orderBy('id').execute()
    // The representatives of its orders are other people's data, kept for the domiciliation only, which is over.
    if (owned.length)
      await tx
        .deleteFrom('mandataires')
        .where(
          'order_id',
          'in',
          owned.map((o) => o.id),
        )
        .execute()
    for (const order of owned)
      await recordJournal(tx, {
        actor: { system: 'customer' },
        action: 'account.closed',
        orderId: order.id,
        summary:
          'Le titulaire a fermé son compte : ses données personnelles sont effacées ; factures et pièces d’identité conservées pour les durées légales.',
        at: now,
      })
    return { closed: true as const, orderIds: owned.map((o) => o.id) }
  })
}

/**
 * A collaborator leaves an order shared with them: their share is deleted. False when they had none (left already, or
 * removed by the owner meanwhile).
 */
export async function leaveSharedOrder(db: Db, userId: number, orderId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('shares').where('order_id', '=', orderId).where('user_id', '=', userId).executeTakeFirst()
  return deleted.numDeletedRows > 0n
}
