// The mail room's packages and forwarding requests (the back office), and the orders its operators pick from.
import { sql, type Transaction } from 'kysely'
import type { MailRoomPackage } from '../../contract/mail-backoffice.ts'
import { terminationDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'
import { courierRequestOutcome } from './mail.ts'

/** An order with its owner's name and its termination date (YYYY-MM-DD), if a termination was asked. */
function ordersQuery(db: Db) {
  return db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .leftJoin('termination_requests', 'termination_requests.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.raison_sociale',
      'orders.siren',
      sql<string>`trim(users.firstname || ' ' || users.lastname)`.as('owner_name'),
      terminationDay().as('termination_date'),
    ])
}
export type MailRoomOrderRow = Awaited<ReturnType<ReturnType<typeof ordersQuery>['executeTakeFirstOrThrow']>>

// Upper case too: lower() leaves them under a C locale.
const ACCENTED = 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿœæÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸŒÆ'
const PLAIN = 'aaaaaaceeeeiiiinooooouuuuyyoaaaaaaaceeeeiiiinooooouuuuyyoa'
/** Lower case without accents, in SQL (the same on PGlite and PostgreSQL, whatever schema the unaccent extension is in). */
const foldedSql = (expression: ReturnType<typeof sql>) => sql<string>`lower(translate(${expression}, ${ACCENTED}, ${PLAIN}))`
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/œ/g, 'o').replace(/æ/g, 'a')

/** Orders whose name, owner, SIREN or number matches `q` (every word), by name, `limit` at most. */
export function searchOrders(db: Db, q: string | undefined, limit: number): Promise<MailRoomOrderRow[]> {
  let query = ordersQuery(db)
  const words = (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)
  const digits = (q ?? '').replace(/\s+/g, '')
  if (words.length) {
    query = query.where((eb) =>
      eb.or([
        eb.and(
          words.map((word) => {
            const like = `%${folded(word).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
            return eb.or([
              sql<boolean>`${foldedSql(sql.ref('orders.raison_sociale'))} like ${like}`,
              sql<boolean>`${foldedSql(sql`users.firstname || ' ' || users.lastname`)} like ${like}`,
            ])
          }),
        ),
        ...(/^\d{1,9}$/.test(digits)
          ? [sql<boolean>`replace(coalesce(orders.siren, ''), ' ', '') like ${`${digits}%`}`, eb('orders.id', '=', Number(digits))]
          : []),
      ]),
    )
  }
  return query.orderBy('orders.raison_sociale').orderBy('orders.id').limit(limit).execute()
}

export function findMailRoomOrder(db: Db, orderId: number): Promise<MailRoomOrderRow | undefined> {
  return ordersQuery(db).where('orders.id', '=', orderId).executeTakeFirst()
}

// --- Packages

function packagesQuery(db: Db) {
  return db
    .selectFrom('packages')
    .innerJoin('orders', 'orders.id', 'packages.order_id')
    .selectAll('packages')
    .select('orders.raison_sociale')
}
type PackageRow = Awaited<ReturnType<ReturnType<typeof packagesQuery>['executeTakeFirstOrThrow']>>

export const toMailRoomPackage = (r: PackageRow): MailRoomPackage => ({
  id: r.id,
  orderId: r.order_id,
  raisonSociale: r.raison_sociale,
  receivedAt: r.received_at.toISOString(),
  carrier: r.carrier,
  sender: r.sender,
  status: r.status,
  collectedAt: r.collected_at?.toISOString() ?? null,
  collectedBy: r.collected_by,
  hasPhoto: r.photo_file_key !== null,
})

export async function findMailRoomPackage(db: Db, id: number, options: { forUpdate?: boolean } = {}) {
  const query = packagesQuery(db).where('packages.id', '=', id)
  return (options.forUpdate ? query.forUpdate('packages') : query).executeTakeFirst()
}

/** The packages waiting to be collected, oldest first (of one order with `orderId`). */
export function waitingPackages(db: Db, orderId?: number) {
  let query = packagesQuery(db).where('packages.status', '=', 'À retirer')
  if (orderId !== undefined) query = query.where('packages.order_id', '=', orderId)
  return query.orderBy('packages.received_at').orderBy('packages.id').execute()
}

/** Who may collect an order's packages: the owner, then its representatives (oldest first). */
export async function collectorsOf(db: Db, orderId: number) {
  const owner = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .select(['users.firstname', 'users.lastname'])
    .where('orders.id', '=', orderId)
    .executeTakeFirst()
  const mandataires = await db
    .selectFrom('mandataires')
    .select(['id', 'firstname', 'lastname'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return {
    owner: owner ? `${owner.firstname} ${owner.lastname}`.trim() : null,
    mandataires: mandataires.map((m) => ({ id: m.id, name: `${m.firstname} ${m.lastname}`.trim() })),
  }
}

export async function handOverPackage(
  trx: Transaction<Database>,
  packageId: number,
  handover: {
    at: Date
    collectedBy: string
    kind: 'titulaire' | 'mandataire'
    mandataireId: number | null
    operatorId: number
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('packages')
    .set({
      status: 'Retiré',
      collected_at: handover.at,
      collected_by: handover.collectedBy,
      collector_kind: handover.kind,
      collector_mandataire_id: handover.mandataireId,
      identity_checked: true,
      handed_over_by: handover.operatorId,
    })
    .where('id', '=', packageId)
    .where('status', '=', 'À retirer')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export function findPackagePhoto(db: Db, packageId: number) {
  return db.selectFrom('packages').select(['photo_file_key', 'photo_type']).where('id', '=', packageId).executeTakeFirst()
}

// --- Forwarding requests

/** The pending forwarding requests, oldest first, with the order's forwarding address. */
export function pendingForwardingRequests(db: Db) {
  return db
    .selectFrom('courier_requests')
    .innerJoin('orders', 'orders.id', 'courier_requests.order_id')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .select([
      'courier_requests.id',
      'courier_requests.order_id',
      'orders.raison_sociale',
      'courier_requests.created_at',
      'courier_requests.letter_count',
      'contracts.adresse_postale_expedition',
      'contracts.adresse_complement_postale_expedition',
      'contracts.code_postale_expedition',
      'contracts.ville_postale_expedition',
      'contracts.pays_postale_expedition',
    ])
    .where('courier_requests.kind', '=', 'réexpédition')
    .where('courier_requests.status', '=', 'en attente')
    .orderBy('courier_requests.created_at')
    .orderBy('courier_requests.id')
    .execute()
}
export type ForwardingRow = Awaited<ReturnType<typeof pendingForwardingRequests>>[number]

/** The forwarding address's lines (street, complement, postcode and town, country), or null when it has none. */
export function forwardingAddressLines(r: {
  adresse_postale_expedition: string | null
  adresse_complement_postale_expedition: string | null
  code_postale_expedition: string | null
  ville_postale_expedition: string | null
  pays_postale_expedition: string | null
}): string[] | null {
  const lines = [
    r.adresse_postale_expedition,
    r.adresse_complement_postale_expedition,
    [r.code_postale_expedition, r.ville_postale_expedition].filter((part) => part?.trim()).join(' '),
    r.pays_postale_expedition,
  ]
    .map((line) => line?.trim() ?? '')
    .filter(Boolean)
  return lines.length ? lines : null
}

/** The letters of these requests, by request. */
export async function lettersOfRequests(db: Db, requestIds: number[]) {
  if (!requestIds.length)
    return new Map<number, { id: number; sender: string; kind: 'courrier' | 'recommandé' | 'administratif'; receivedAt: string }[]>()
  const rows = await db
    .selectFrom('courier_request_letters')
    .innerJoin('documents', 'documents.id', 'courier_request_letters.document_id')
    .select(['courier_request_letters.request_id', 'documents.id', 'documents.sender', 'documents.kind', 'documents.received_at'])
    .where('courier_request_letters.request_id', 'in', requestIds)
    .orderBy('documents.received_at')
    .orderBy('documents.id')
    .execute()
  const byRequest = new Map<
    number,
    { id: number; sender: string; kind: 'courrier' | 'recommandé' | 'administratif'; receivedAt: string }[]
  >()
  for (const r of rows) {
    const list = byRequest.get(r.request_id) ?? []
    list.push({ id: r.id, sender: r.sender, kind: r.kind, receivedAt: r.received_at.toISOString() })
    byRequest.set(r.request_id, list)
  }
  return byRequest
}

/** The request, locked, with its order's forwarding address (any kind and status: the caller says why it refuses). */
export function findForwardingRequestForUpdate(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('courier_requests')
    .innerJoin('orders', 'orders.id', 'courier_requests.order_id')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .leftJoin('termination_requests', 'termination_requests.order_id', 'orders.id')
    .select([
      terminationDay().as('termination_date'),
      'courier_requests.id',
      'courier_requests.order_id',
      'courier_requests.kind',
      'courier_requests.status',
      'courier_requests.outcome',
      'courier_requests.processed_at',
      'orders.raison_sociale',
      'contracts.adresse_postale_expedition',
      'contracts.adresse_complement_postale_expedition',
      'contracts.code_postale_expedition',
      'contracts.ville_postale_expedition',
      'contracts.pays_postale_expedition',
    ])
    .where('courier_requests.id', '=', id)
    .forUpdate('courier_requests')
    .executeTakeFirst()
}

export async function processForwardingRequest(
  trx: Transaction<Database>,
  id: number,
  done: { at: Date; operatorId: number } & (
    | { outcome: 'expédiée'; carrier: string; trackingNumber: string }
    | { outcome: 'impossible'; reason: string }
  ),
) {
  const row = await trx
    .updateTable('courier_requests')
    .set({
      status: 'traitée',
      processed_at: done.at,
      processed_by: done.operatorId,
      outcome: done.outcome,
      carrier: done.outcome === 'expédiée' ? done.carrier : null,
      tracking_number: done.outcome === 'expédiée' ? done.trackingNumber : null,
      impossible_reason: done.outcome === 'impossible' ? done.reason : null,
    })
    .where('id', '=', id)
    .where('status', '=', 'en attente')
    .returning(['id', 'order_id', 'outcome', 'processed_at', 'carrier', 'tracking_number', 'impossible_reason'])
    .executeTakeFirst()
  return row ? { id: row.id, orderId: row.order_id, outcome: courierRequestOutcome(row)! } : undefined
}
