// The people around an order besides its owner: collaborators (shares) and representatives (mandataires).
// Accounts and sessions are in users.ts.
import type { Insertable } from 'kysely'
import type { Mandataire, Share } from '../../contract/index.ts'
import type { Database, Db } from '../schema.ts'

export async function listShares(db: Db, orderId: number): Promise<Share[]> {
  const rows = await db.selectFrom('shares').leftJoin('users', 'users.id', 'shares.user_id')
    .select(['shares.id', 'shares.email', 'shares.user_id', 'shares.created_at', 'users.firstname', 'users.lastname'])
    .where('shares.order_id', '=', orderId).orderBy('shares.id').execute()
  return rows.map((r) => ({
    id: r.id, email: r.email, firstname: r.firstname, lastname: r.lastname,
    status: r.user_id ? 'active' : 'invitée', createdAt: r.created_at.toISOString(),
  }))
}

export async function createShare(db: Db, orderId: number, email: string, userId: number | null): Promise<void> {
  await db.insertInto('shares').values({ order_id: orderId, email, user_id: userId }).execute()
}

/** An invitation becomes access once its address has an account. */
export async function activateShare(db: Db, shareId: number, userId: number): Promise<void> {
  await db.updateTable('shares').set({ user_id: userId }).where('id', '=', shareId).execute()
}

/** False when the order has no such collaborator. */
export async function deleteShare(db: Db, orderId: number, shareId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('shares').where('id', '=', shareId).where('order_id', '=', orderId).executeTakeFirst()
  return deleted.numDeletedRows > 0n
}

/** The owner and the collaborators who have an account (an invitation still pending cannot open a link), each address once. */
export async function listPeopleWithAccount(db: Db, orderId: number): Promise<{ email: string; firstname: string }[]> {
  const owner = await db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.owner_id').select(['users.email', 'users.firstname'])
    .where('orders.id', '=', orderId).execute()
  const collaborators = await db.selectFrom('shares').innerJoin('users', 'users.id', 'shares.user_id').select(['users.email', 'users.firstname'])
    .where('shares.order_id', '=', orderId).orderBy('shares.id').execute()
  const seen = new Set<string>()
  return [...owner, ...collaborators].filter((r) => !seen.has(r.email.toLowerCase()) && seen.add(r.email.toLowerCase()))
}

type MandataireRow = { id: number; firstname: string; lastname: string; email: string; phone: string; created_at: Date }
const toMandataire = (r: MandataireRow): Mandataire =>
  ({ id: r.id, firstname: r.firstname, lastname: r.lastname, email: r.email, phone: r.phone, createdAt: r.created_at.toISOString() })

export async function listMandataires(db: Db, orderId: number): Promise<Mandataire[]> {
  const rows = await db.selectFrom('mandataires').selectAll().where('order_id', '=', orderId).orderBy('id').execute()
  return rows.map(toMandataire)
}

export async function createMandataire(db: Db, mandataire: Insertable<Database['mandataires']>): Promise<Mandataire> {
  return toMandataire(await db.insertInto('mandataires').values(mandataire).returningAll().executeTakeFirstOrThrow())
}

/** False when the order has no such representative. */
export async function deleteMandataire(db: Db, orderId: number, mandataireId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('mandataires').where('id', '=', mandataireId).where('order_id', '=', orderId).executeTakeFirst()
  return deleted.numDeletedRows > 0n
}
