// Orders and who may reach them: the owner, and the collaborators the order is shared with.
import type { Contract, Order } from '../../contract/index.ts'
import { HttpError, messages, notFound } from '../../http/errors.ts'
import type { Db, OrderRow } from '../schema.ts'

export type Role = 'owner' | 'member'
/** own: orders the user owns; shared: orders shared with them; all: both. */
export type Scope = 'own' | 'shared' | 'all'

/** Ids of the orders the user reaches in a scope, optionally narrowed to one order (then [] when out of reach). */
export async function orderIdsInScope(db: Db, userId: number, scope: Scope, onlyOrderId?: number): Promise<number[]> {
  const own = db.selectFrom('orders').select('id').where('owner_id', '=', userId)
  const shared = db.selectFrom('shares').select('order_id as id').where('user_id', '=', userId)
  const query = scope === 'own' ? own : scope === 'shared' ? shared : own.union(shared)
  const rows = await db.selectFrom(query.as('o')).select('o.id')
    .$if(onlyOrderId !== undefined, (q) => q.where('o.id', '=', onlyOrderId!))
    .execute()
  return rows.map((r) => r.id)
}

export async function roleOnOrder(db: Db, userId: number, orderId: number): Promise<{ order: OrderRow; role: Role } | null> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst()
  if (!order) return null
  if (order.owner_id === userId) return { order, role: 'owner' }
  const share = await db.selectFrom('shares').select('id').where('order_id', '=', orderId).where('user_id', '=', userId).executeTakeFirst()
  return share ? { order, role: 'member' } : null
}

/**
 * The order if the user may act on it with `access`: 404 when it is not theirs at all
 * (never telling a stranger it exists), 403 for a collaborator on an owner-only action.
 */
export async function requireOrder(db: Db, userId: number, orderId: number, access: Role): Promise<OrderRow> {
  const found = await roleOnOrder(db, userId, orderId)
  if (!found) throw notFound('Domiciliation')
  if (access === 'owner' && found.role !== 'owner') throw new HttpError(403, messages.ownerOnly, 'OWNER_ONLY')
  return found.order
}

/** The ids of a scope, or of one order in it: an order outside the scope is a 404 (403 for a collaborator on own-only lists). */
export async function scopedOrderIds(db: Db, userId: number, scope: Scope, orderId: number | undefined): Promise<number[]> {
  if (orderId === undefined) return orderIdsInScope(db, userId, scope)
  if (scope === 'own') return [(await requireOrder(db, userId, orderId, 'owner')).id]
  await requireOrder(db, userId, orderId, 'member')
  return [orderId]
}

export async function listOrders(db: Db, userId: number): Promise<Order[]> {
  const rows = await db.selectFrom('orders')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .selectAll('orders')
    .select('contracts.id as contract_id')
    .where((eb) => eb.or([
      eb('orders.owner_id', '=', userId),
      eb('orders.id', 'in', eb.selectFrom('shares').select('order_id').where('user_id', '=', userId)),
    ]))
    .orderBy('orders.order_date')
    .orderBy('orders.id')
    .execute()
  return rows.map((row) => toOrder(row, row.owner_id !== userId, row.contract_id))
}

export const toOrder = (row: OrderRow, isShareOrder: boolean, contractId: number | null): Order => ({
  id: row.id,
  raisonSociale: row.raison_sociale,
  orderDate: row.order_date.toISOString(),
  status: row.status,
  hasKbis: row.has_kbis,
  missingDocuments: row.missing_documents,
  missingDocumentsValidatedAt: row.missing_documents_validated_at?.toISOString() ?? null,
  subscriptionId: row.subscription_id,
  isShareOrder,
  contractId,
  siren: row.siren,
  legalForm: row.legal_form,
  domiciliationAddress: row.domiciliation_address,
  qonto: row.qonto,
  shine: row.shine,
})

export const contractColumns = [
  'contracts.id', 'contracts.order_id', 'contracts.adresse_postale_expedition', 'contracts.adresse_complement_postale_expedition',
  'contracts.code_postale_expedition', 'contracts.ville_postale_expedition', 'contracts.pays_postale_expedition',
  'contracts.kbis_file_key', 'contracts.signed_at', 'orders.raison_sociale', 'orders.owner_id',
] as const

export function contractsQuery(db: Db) {
  return db.selectFrom('contracts').innerJoin('orders', 'orders.id', 'contracts.order_id').select(contractColumns)
}
type ContractRow = Awaited<ReturnType<ReturnType<typeof contractsQuery>['executeTakeFirstOrThrow']>>

export const kbisPath = (contractId: number) => `/api-protected/contracts/${contractId}/kbis`

export const toContract = (row: ContractRow): Contract => ({
  id: row.id,
  domiciliationOrderId: row.order_id,
  raisonSociale: row.raison_sociale,
  adressePostaleExpedition: row.adresse_postale_expedition,
  adresseComplementPostaleExpedition: row.adresse_complement_postale_expedition,
  codePostaleExpedition: row.code_postale_expedition,
  villePostaleExpedition: row.ville_postale_expedition,
  paysPostaleExpedition: row.pays_postale_expedition,
  kbis: row.kbis_file_key ? kbisPath(row.id) : null,
  signedAt: row.signed_at?.toISOString() ?? null,
})

/** A contract of one of the user's own orders (contracts are the owner's business only). */
export async function requireOwnContract(db: Db, userId: number, contractId: number): Promise<ContractRow> {
  const row = await contractsQuery(db).where('contracts.id', '=', contractId).executeTakeFirst()
  if (!row || row.owner_id !== userId) {
    if (row && (await roleOnOrder(db, userId, row.order_id))) throw new HttpError(403, messages.ownerOnly, 'OWNER_ONLY')
    throw notFound('Contrat')
  }
  return row
}
