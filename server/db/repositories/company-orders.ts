// Orders and who may reach them (the owner, and the collaborators the order is shared with); their contracts and identity documents.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely'
import type { OperatorOrder, UploadedDocument } from '../../contract/company.ts'
import type { Contract } from '../../contract/session.ts'
import { refusalText } from '../../contract/rules/justificatifs.ts'
import { DocumentsCompleteError, InvalidSessionError, NotFoundError, OwnerOnlyError } from '../errors.ts'
import { isoDateTime } from '../dates.ts'
import { jsonArrayOfX } from '../json.ts'
import { keptLists } from '../kept-lists.ts'
import { prepare } from '../prepared.ts'
import type { Database, Db, OrderRow } from '../schema.ts'
import { sessionArgs, withSession, type SessionKey } from './session.ts'

export type Role = 'owner' | 'member'
/** own: orders the user owns; shared: orders shared with them; all: both. */
export type Scope = 'own' | 'shared' | 'all'

/** Ids of the orders the user reaches in a scope, optionally narrowed to one order (then [] when out of reach). */
export async function orderIdsInScope(db: Db, userId: number, scope: Scope, onlyOrderId?: number): Promise<number[]> {
  const own = db.selectFrom('orders').select('id').where('owner_id', '=', userId)
  const shared = db.selectFrom('shares').select('order_id as id').where('user_id', '=', userId)
  const query = scope === 'own' ? own : scope === 'shared' ? shared : own.union(shared)
  const rows = await db
    .selectFrom(query.as('o'))
    .select('o.id')
    .$if(onlyOrderId !== undefined, (q) => q.where('o.id', '=', onlyOrderId!))
    .execute()
  return rows.map((r) => r.id)
}

/**
 * Everyone who sees an order, as a query of `user_id`s: its owner and the collaborators it is shared with (an invitation not yet accepted
 * is nobody).
 */
export function orderAudience(db: Db, orderId: number) {
  return db
    .selectFrom('orders')
    .select('owner_id as user_id')
    .where('id', '=', orderId)
    .union(
      db
        .selectFrom('shares')
        .select('user_id')
        .where('order_id', '=', orderId)
        .where('user_id', 'is not', null)
        .$narrowType<{ user_id: number }>(),
    )
}

export async function peopleSeeingOrder(db: Db, orderId: number): Promise<Set<number>> {
  return new Set((await orderAudience(db, orderId).execute()).map((r) => r.user_id))
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
  if (!found) throw new NotFoundError('Domiciliation')
  if (access === 'owner' && found.role !== 'owner') throw new OwnerOnlyError()
  return found.order
}

/** The ids of a scope, or of one order in it: an order outside the scope is a 404 (403 for a collaborator on own-only lists). */
export async function scopedOrderIds(db: Db, userId: number, scope: Scope, orderId: number | undefined): Promise<number[]> {
  if (orderId === undefined) return orderIdsInScope(db, userId, scope)
  if (scope === 'own') return [(await requireOrder(db, userId, orderId, 'owner')).id]
  await requireOrder(db, userId, orderId, 'member')
  return [orderId]
}

type SessionArgs = Parameters<typeof withSession>[1]

/**
 * The session and the orders it reaches (`reach`: owned or shared) with their versions (`version`: each order's id
 * and list_version, migration 008), as the two statements of GET my-domiciliation-orders read them.
 */
const reachAndVersion = (db: Kysely<Database>, args: SessionArgs) =>
  withSession(db, args)
    .with('reach', (qb) =>
      qb
        .selectFrom('orders')
        .select(['orders.id', 'orders.list_version'])
        .where((eb) =>
          eb.or([
            eb('orders.owner_id', '=', eb.selectFrom('session').select('session.id')),
            eb(
              'orders.id',
              'in',
              eb.selectFrom('shares').select('shares.order_id').where('shares.user_id', '=', eb.selectFrom('session').select('session.id')),
            ),
          ]),
        ),
    )
    .with('version', (qb) =>
      qb
        .selectFrom('reach')
        .select(sql<string | null>`string_agg(reach.id || ':' || reach.list_version, ',' order by reach.id)`.as('version')),
    )

/**
 * my-domiciliation-orders in one statement, written by the database (db/json.ts): the orders the user owns or shares,
 * oldest first, each as the contract's Order (test/server/documents-json.test.ts holds it equal to the same rows read
 * one by one), with their version; the token check joined in (no row: 401).
 */
const ordersOfSessionQuery = prepare((db, args: SessionArgs) =>
  reachAndVersion(db, args)
    .selectFrom('session')
    .select((eb) => [
      eb.selectFrom('version').select('version.version').as('version'),
      eb
        .selectFrom(
          eb
            .selectFrom('orders as o')
            .leftJoin('contracts as c', 'c.order_id', 'o.id')
            .select([
              'o.id',
              'o.raison_sociale as raisonSociale',
              isoDateTime('o.order_date').as('orderDate'),
              'o.status',
              'o.has_kbis as hasKbis',
              'o.missing_documents as missingDocuments',
              isoDateTime('o.missing_documents_validated_at').as('missingDocumentsValidatedAt'),
              'o.subscription_id as subscriptionId',
              sql<boolean>`o.owner_id <> session.id`.as('isShareOrder'),
              'c.id as contractId',
              'o.siren',
              'o.legal_form as legalForm',
              'o.domiciliation_address as domiciliationAddress',
              'o.qonto',
              'o.shine',
              sql<boolean>`o.want_comptable_at is not null`.as('wantComptable'),
              sql<unknown>`case when c.kbis_refused_at is null then null else json_build_object('at', ${isoDateTime('c.kbis_refused_at')}, 'reason', c.kbis_refusal_reason, 'detail', c.kbis_refusal_detail) end`.as(
                'kbisRefusal',
              ),
            ])
            .where('o.id', 'in', eb.selectFrom('reach').select('reach.id'))
            .as('x'),
        )
        .select(jsonArrayOfX(sql`x."orderDate", x.id`).as('list'))
        .as('list'),
    ]),
)

/** The same statement without the list (see documentsVersionQuery in mail.ts): the request's one statement while a list is kept. */
const ordersVersionQuery = prepare((db, args: SessionArgs) =>
  reachAndVersion(db, args)
    .selectFrom('session')
    .select((eb) => [eb.selectFrom('version').select('version.version').as('version')]),
)

/**
 * GET my-domiciliation-orders: the JSON text of the user's Order list, as the database wrote it, or as this process
 * kept it while the orders' versions say it still holds (db/kept-lists.ts). Kept by session: isShareOrder is the user's.
 * One statement per request: the version check when a list is kept, the statement that writes the list otherwise; a
 * second one only when an order, a contract or a share changed since.
 */
export async function ordersOfSessionJson(db: Kysely<Database>, key: SessionKey): Promise<Buffer | string> {
  const lists = keptLists(db)
  const keptKey = `orders:${key.tokenHash}`
  const kept = lists.get(keptKey)
  const args = sessionArgs(key)
  if (kept) {
    const row = (await ordersVersionQuery(db, args)).rows[0]
    if (!row) throw new InvalidSessionError()
    if (row.version === null) return '[]'
    if (row.version === kept.version) return kept.json
  }
  const row = (await ordersOfSessionQuery(db, args)).rows[0]
  if (!row) throw new InvalidSessionError()
  if (row.version === null) return '[]'
  return lists.set(keptKey, row.version, row.list ?? '[]')
}

/** Every order with its owner's e-mail, for the operators (no access check: their token is checked before). */
export async function listOrdersForOperators(db: Db): Promise<OperatorOrder[]> {
  const rows = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.owner_id')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.raison_sociale',
      'orders.status',
      'users.email',
      'contracts.id as contract_id',
      'contracts.kbis_file_key',
      'contracts.kbis_validated_at',
    ])
    .orderBy('orders.id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    raisonSociale: r.raison_sociale,
    status: r.status,
    ownerEmail: r.email,
    contractId: r.contract_id,
    kbis: !r.kbis_file_key ? 'aucun' : r.kbis_validated_at ? 'validé' : 'à valider',
  }))
}

/** Any order, whoever owns it (operators and the ingest command). */
export function findOrder(db: Db, orderId: number) {
  return db.selectFrom('orders').select(['id', 'raison_sociale', 'owner_id']).where('id', '=', orderId).executeTakeFirst()
}

/** The report's id. */
export async function createProblemReport(db: Db, orderId: number, userId: number, message: string): Promise<number> {
  return (
    await db.insertInto('problem_reports').values({ order_id: orderId, user_id: userId, message }).returning('id').executeTakeFirstOrThrow()
  ).id
}

/** Whether this person sent this very report on this order within the last `minutes` (the database's clock: it wrote created_at). */
export async function hasRecentProblemReport(db: Db, orderId: number, userId: number, message: string, minutes: number): Promise<boolean> {
  const row = await db
    .selectFrom('problem_reports')
    .select('id')
    .where('order_id', '=', orderId)
    .where('user_id', '=', userId)
    .where('message', '=', message)
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${minutes})`)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Takes back a report whose e-mail to the support could not leave (http/send-or-undo.ts). */
export async function deleteProblemReport(db: Db, id: number): Promise<void> {
  await db.deleteFrom('problem_reports').where('id', '=', id).execute()
}

export async function setQonto(db: Db, orderId: number, qonto: boolean): Promise<void> {
  await db.updateTable('orders').set({ qonto }).where('id', '=', orderId).execute()
}

export async function setShine(db: Db, orderId: number, shine: boolean): Promise<void> {
  await db.updateTable('orders').set({ shine }).where('id', '=', orderId).execute()
}

/** Records the first request only: a later one keeps the first date. Whether this call was the first. */
export async function markWantComptable(db: Db, orderId: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ want_comptable_at: at })
    .where('id', '=', orderId)
    .where('want_comptable_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Takes back the request recorded at `at` when its e-mail to the support could not leave (http/send-or-undo.ts). */
export async function unmarkWantComptable(db: Db, orderId: number, at: Date): Promise<void> {
  await db.updateTable('orders').set({ want_comptable_at: null }).where('id', '=', orderId).where('want_comptable_at', '=', at).execute()
}

export async function listUploadedDocuments(db: Db, orderId: number): Promise<UploadedDocument[]> {
  const rows = await db.selectFrom('uploaded_documents').selectAll().where('order_id', '=', orderId).orderBy('id').execute()
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    label: r.label,
    fileName: r.file_name,
    uploadedAt: r.uploaded_at.toISOString(),
    status: r.validated_at ? 'validé' : r.refused_at ? 'refusé' : 'à vérifier',
    refusal: r.refusal_reason ? { reason: r.refusal_reason, text: refusalText(r.refusal_reason, r.refusal_detail) } : null,
  }))
}

/**
 * Records identity documents, each replacing the file of its type sent before (the same row, its check started over;
 * `replaced`: the files to delete once committed). The order's file is complete only once operators have validated
 * every document (Justificatifs: company-justificatifs.ts), never by an upload. The order's row is held meanwhile: a
 * form arriving once the file is complete, even at the same moment, is refused (409) and writes nothing.
 */
export async function recordIdentityDocuments(
  db: Kysely<Database>,
  orderId: number,
  documents: Insertable<Database['uploaded_documents']>[],
): Promise<{ replaced: string[] }> {
  return db.transaction().execute(async (tx) => {
    const order = await tx
      .selectFrom('orders')
      .select('missing_documents_validated_at')
      .where('id', '=', orderId)
      .forUpdate()
      .executeTakeFirstOrThrow()
    if (order.missing_documents_validated_at) throw new DocumentsCompleteError()
    const replaced: string[] = []
    for (const document of documents) {
      const before = await tx
        .selectFrom('uploaded_documents')
        .select(['id', 'file_key'])
        .where('order_id', '=', orderId)
        .where('type', '=', document.type)
        .orderBy('id')
        .execute()
      const [kept, ...extra] = before
      if (!kept) {
        await tx.insertInto('uploaded_documents').values(document).execute()
        continue
      }
      // The same row: an operator who opened the file sent before finds its version changed (a 412), never this one unseen.
      await tx
        .updateTable('uploaded_documents')
        .set({ ...document, validated_at: null, refused_at: null, refusal_reason: null, refusal_detail: null })
        .where('id', '=', kept.id)
        .execute()
      if (extra.length)
        await tx
          .deleteFrom('uploaded_documents')
          .where(
            'id',
            'in',
            extra.map((e) => e.id),
          )
          .execute()
      replaced.push(kept.file_key, ...extra.map((e) => e.file_key))
    }
    return { replaced }
  })
}

export const contractColumns = [
  'contracts.id',
  'contracts.order_id',
  'contracts.adresse_postale_expedition',
  'contracts.adresse_complement_postale_expedition',
  'contracts.code_postale_expedition',
  'contracts.ville_postale_expedition',
  'contracts.pays_postale_expedition',
  'contracts.kbis_file_key',
  'contracts.kbis_validated_at',
  'contracts.signed_at',
  'orders.raison_sociale',
  'orders.owner_id',
] as const

function contractsQuery(db: Db) {
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
  kbisValidatedAt: row.kbis_validated_at?.toISOString() ?? null,
  signedAt: row.signed_at?.toISOString() ?? null,
})

export async function listContracts(db: Db, ownerId: number): Promise<Contract[]> {
  const rows = await contractsQuery(db).where('orders.owner_id', '=', ownerId).orderBy('contracts.id').execute()
  return rows.map(toContract)
}

export async function getContract(db: Db, contractId: number): Promise<Contract> {
  return toContract(await contractsQuery(db).where('contracts.id', '=', contractId).executeTakeFirstOrThrow())
}

/**
 * New forwarding address columns and/or a new Kbis, in one transaction: a Kbis also marks the order as having one, and
 * awaits the team's check again (a validation was of the file it replaces).
 */
export async function updateContract(
  db: Kysely<Database>,
  contractId: number,
  orderId: number,
  address: Updateable<Database['contracts']>,
  kbisKey?: string,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (Object.keys(address).length || kbisKey) {
      await tx
        .updateTable('contracts')
        .set({
          ...address,
          // A new file: the check starts over (a validation or a refusal was of the file it replaces).
          ...(kbisKey
            ? {
                kbis_file_key: kbisKey,
                kbis_validated_at: null,
                kbis_refused_at: null,
                kbis_refusal_reason: null,
                kbis_refusal_detail: null,
              }
            : {}),
        })
        .where('id', '=', contractId)
        .execute()
    }
    if (kbisKey) await tx.updateTable('orders').set({ has_kbis: true }).where('id', '=', orderId).execute()
  })
}

/** A contract of one of the user's own orders (contracts are the owner's business only). */
export async function requireOwnContract(db: Db, userId: number, contractId: number): Promise<ContractRow> {
  const row = await contractsQuery(db).where('contracts.id', '=', contractId).executeTakeFirst()
  if (!row || row.owner_id !== userId) {
    if (row && (await roleOnOrder(db, userId, row.order_id))) throw new OwnerOnlyError()
    throw new NotFoundError('Contrat')
  }
  return row
}
