// Mail: scanned letters (documents), packages, courier requests (demandes courrier) and folders.
import { sql, type ExpressionBuilder, type Insertable, type Kysely } from 'kysely'
import type { CourierRequest, Folder, MailDocument, Package } from '../../contract/mail.ts'
import { InvalidSessionError, NotFoundError } from '../errors.ts'
import type { Database, Db, NewDocument } from '../schema.ts'
import { isoDateTime, isoDay } from '../dates.ts'
import { jsonArrayOfX } from '../json.ts'
import { keptLists } from '../kept-lists.ts'
import { prepare } from '../prepared.ts'
import { requireOrder } from './company-orders.ts'
import { trackingUrl } from '../../contract/rules/carriers.ts'
import { sessionArgs, withSession, type SessionKey } from './session.ts'

const countAsInt = sql<number>`count(*)::int`

function documentsQuery(db: Db) {
  return db
    .selectFrom('documents')
    .innerJoin('orders', 'orders.id', 'documents.order_id')
    .select([
      'documents.id',
      'documents.order_id',
      'documents.sender',
      'documents.kind',
      'documents.received_at',
      'documents.pages',
      'documents.read',
      'documents.deleted',
      'documents.folder_id',
      'documents.file_key',
      'orders.raison_sociale',
      // mail pipeline
      'documents.page_images',
      'documents.searchable',
      'documents.deadline_amount_cents',
      isoDay('documents.deadline_date').as('deadline_date'),
    ])
    .where('documents.deleted', '=', false)
}
type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentsQuery>['executeTakeFirstOrThrow']>>

const toDocument = (r: DocumentRow): MailDocument => ({
  id: r.id,
  orderId: r.order_id,
  raisonSociale: r.raison_sociale,
  sender: r.sender,
  kind: r.kind,
  receivedAt: r.received_at.toISOString(),
  pages: r.pages,
  read: r.read,
  deleted: r.deleted,
  folderId: r.folder_id,
  // mail pipeline
  pageImages: r.page_images,
  searchable: r.searchable,
  deadline: r.deadline_date ? { date: r.deadline_date, amountCents: r.deadline_amount_cents } : null,
})

/** A letter not deleted, whoever it belongs to (the operators' calls), or undefined. */
export async function findLiveDocument(db: Db, id: number): Promise<{ id: number; order_id: number } | undefined> {
  return db.selectFrom('documents').select(['id', 'order_id']).where('id', '=', id).where('deleted', '=', false).executeTakeFirst()
}

/**
 * Another customer's order answers as if the letter or folder did not exist; any other failure (the database away in the
 * middle of the check) stays what it is, a French 503, never a 404 that would tell the customer it is gone.
 */
const asNotFound = (what: string) => (error: unknown) => {
  throw error instanceof NotFoundError ? new NotFoundError(what) : error
}

/** A letter the user may see (deleted ones are gone for everybody), or 404. */
export async function requireDocument(db: Db, userId: number, id: number): Promise<DocumentRow> {
  const row = await documentsQuery(db).where('documents.id', '=', id).executeTakeFirst()
  if (!row) throw new NotFoundError('Courrier')
  await requireOrder(db, userId, row.order_id, 'member').catch(asNotFound('Courrier'))
  return row
}

type SessionArgs = Parameters<typeof withSession>[1]

/**
 * The letters as the contract's MailDocument, one row each with its fields named as in the contract, for GET documents
 * written by the database (db/json.ts). The same fields as toDocument: test/server/documents-json.test.ts holds the two
 * equal, and to the contract, on both databases.
 */
const documentJsonRows = (db: Db) =>
  db
    .selectFrom('documents as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select([
      'd.id',
      'd.order_id as orderId',
      'o.raison_sociale as raisonSociale',
      'd.sender',
      'd.kind',
      isoDateTime('d.received_at').as('receivedAt'),
      'd.pages',
      'd.read',
      'd.deleted',
      'd.folder_id as folderId',
      'd.page_images as pageImages',
      'd.searchable',
      sql`case when d.deadline_date is null then null
      else json_build_object('date', ${isoDay('d.deadline_date')}, 'amountCents', d.deadline_amount_cents) end`.as('deadline'),
    ])
    .where('d.deleted', '=', false)

/**
 * The session, the orders it reaches (`reach`, narrowed to orderId when given) and their versions (`version`: each
 * order's id and mail_version, migration 007), as the two statements of GET documents read them.
 */
const reachAndVersion = (db: Kysely<Database>, args: SessionArgs & { orderId: number }, oneOrder: boolean) =>
  withSession(db, args)
    .with('reach', (qb) =>
      qb
        .selectFrom('orders')
        .select(['orders.id', 'orders.mail_version'])
        .where((eb) =>
          eb.or([
            eb('orders.owner_id', '=', eb.selectFrom('session').select('session.id')),
            eb(
              'orders.id',
              'in',
              eb.selectFrom('shares').select('shares.order_id').where('shares.user_id', '=', eb.selectFrom('session').select('session.id')),
            ),
          ]),
        )
        .$if(oneOrder, (q) => q.where('orders.id', '=', args.orderId)),
    )
    .with('version', (qb) =>
      qb
        .selectFrom('reach')
        .select(sql<string | null>`string_agg(reach.id || ':' || reach.mail_version, ',' order by reach.id)`.as('version')),
    )

/**
 * The letters of an order (or of every order) the user reaches, in one statement: the session, the orders it reaches,
 * their versions and their letters as one JSON array, newest first. No row: no session (401); a row whose `reachable`
 * is false: the order is not the user's (404).
 */
const documentsOfSessionQuery = (oneOrder: boolean) =>
  prepare((db, args: SessionArgs & { orderId: number }) =>
    reachAndVersion(db, args, oneOrder)
      .selectFrom('session')
      .select((eb) => [
        eb.exists(eb.selectFrom('reach').select('reach.id')).as('reachable'),
        eb.selectFrom('version').select('version.version').as('version'),
        // Newest first: an ISO date in this one format sorts as its text.
        eb
          .selectFrom(documentJsonRows(db).where('d.order_id', 'in', eb.selectFrom('reach').select('reach.id')).as('x'))
          .select(jsonArrayOfX(sql`x."receivedAt" desc, x.id desc`).as('list'))
          .as('list'),
      ]),
  )
const documentsOfOrderQuery = documentsOfSessionQuery(true)
const documentsOfAllOrdersQuery = documentsOfSessionQuery(false)

/**
 * The same statement without the list: the session, the access and the version only. When a list is kept this is the
 * request's one statement. It once was the statement below with the list in a CASE branch not run when the version was
 * the kept one; but PostgreSQL sets up the whole plan at each execution, that branch included (the letters' joins, their
 * relations locked): without it the check costs about a quarter less on the database side (pgbench).
 */
const documentsVersionQuery = (oneOrder: boolean) =>
  prepare((db, args: SessionArgs & { orderId: number }) =>
    reachAndVersion(db, args, oneOrder)
      .selectFrom('session')
      .select((eb) => [
        eb.exists(eb.selectFrom('reach').select('reach.id')).as('reachable'),
        eb.selectFrom('version').select('version.version').as('version'),
      ]),
  )
const documentsVersionOfOrderQuery = documentsVersionQuery(true)
const documentsVersionOfAllOrdersQuery = documentsVersionQuery(false)

/**
 * GET documents: the JSON text of the MailDocument list, as the database wrote it, or as this process kept it when the
 * orders' versions say it still holds (db/kept-lists.ts). Kept by order (the same list for every user who reaches it), or
 * by session for every order at once (the orders a user reaches are part of that version).
 * One statement per request: the version check when a list is kept (it holds unless the letters changed since), the
 * statement that writes the list otherwise; a second one only when the kept list no longer holds.
 */
export async function documentsOfSessionJson(db: Kysely<Database>, key: SessionKey, orderId: number | undefined): Promise<Buffer | string> {
  const lists = keptLists(db)
  const keptKey = orderId === undefined ? `session:${key.tokenHash}` : `order:${orderId}`
  const kept = lists.get(keptKey)
  const args = { ...sessionArgs(key), orderId: orderId ?? 0 }
  if (kept) {
    const row = (await (orderId === undefined ? documentsVersionOfAllOrdersQuery : documentsVersionOfOrderQuery)(db, args)).rows[0]
    if (!row) throw new InvalidSessionError()
    if (orderId !== undefined && !row.reachable) throw new NotFoundError('Domiciliation')
    if (row.version === null) return '[]'
    if (row.version === kept.version) return kept.json
  }
  // Nothing kept, or the letters changed since: the list is written (and the session and access checked again).
  const { rows } = await (orderId === undefined ? documentsOfAllOrdersQuery : documentsOfOrderQuery)(db, args)
  const row = rows[0]
  if (!row) throw new InvalidSessionError()
  if (orderId !== undefined && !row.reachable) throw new NotFoundError('Domiciliation')
  if (row.version === null) return '[]'
  return lists.set(keptKey, row.version, row.list ?? '[]')
}

/** mail pipeline: letters by id (the search's hits), in no particular order. */
export async function listDocumentsById(db: Db, ids: number[]): Promise<MailDocument[]> {
  if (!ids.length) return []
  return (await documentsQuery(db).where('documents.id', 'in', ids).execute()).map(toDocument)
}

export async function getDocument(db: Db, id: number): Promise<MailDocument> {
  return toDocument(await documentsQuery(db).where('documents.id', '=', id).executeTakeFirstOrThrow())
}

/** Marks a letter read or unread and/or files it (null: back to the inbox); absent fields stay as they are. */
/**
 * The letter's folder as it is now, its row held until the transaction ends: of two requests filing a letter at the same
 * moment, the second reads where the first put it.
 */
export async function lockDocumentFolder(trx: Db, id: number): Promise<number | null> {
  return (await trx.selectFrom('documents').select('folder_id').where('id', '=', id).forUpdate().executeTakeFirstOrThrow()).folder_id
}

export async function updateDocument(db: Db, id: number, changes: { read?: boolean; folderId?: number | null }): Promise<void> {
  await db
    .updateTable('documents')
    .set({
      ...(changes.read !== undefined ? { read: changes.read } : {}),
      ...(changes.folderId !== undefined ? { folder_id: changes.folderId } : {}),
    })
    .where('id', '=', id)
    .execute()
}

export function insertDocument(db: Db, document: NewDocument) {
  return db.insertInto('documents').values(document).returning(['id', 'read', 'deleted', 'folder_id']).executeTakeFirstOrThrow()
}

const packagesQuery = (db: Db) =>
  db.selectFrom('packages').innerJoin('orders', 'orders.id', 'packages.order_id').selectAll('packages').select('orders.raison_sociale')

type PackageRow = Awaited<ReturnType<ReturnType<typeof packagesQuery>['executeTakeFirstOrThrow']>>
const toPackage = (r: PackageRow): Package => ({
  id: r.id,
  orderId: r.order_id,
  raisonSociale: r.raison_sociale,
  receivedAt: r.received_at.toISOString(),
  carrier: r.carrier,
  sender: r.sender,
  status: r.status,
  collectedAt: r.collected_at?.toISOString() ?? null,
  collectedBy: r.collected_by,
})

export async function listPackages(db: Db, orderIds: number[]): Promise<Package[]> {
  if (!orderIds.length) return []
  const rows = await packagesQuery(db)
    .where('packages.order_id', 'in', orderIds)
    .orderBy('packages.received_at', 'desc')
    .orderBy('packages.id', 'desc')
    .execute()
  return rows.map(toPackage)
}

export async function getPackage(db: Db, id: number): Promise<Package> {
  return toPackage(await packagesQuery(db).where('packages.id', '=', id).executeTakeFirstOrThrow())
}

export function insertPackage(db: Db, parcel: Insertable<Database['packages']>) {
  return db.insertInto('packages').values(parcel).returning(['id', 'status']).executeTakeFirstOrThrow()
}

export async function listCourierRequests(db: Db, orderIds: number[]): Promise<CourierRequest[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('courier_requests')
    .innerJoin('orders', 'orders.id', 'courier_requests.order_id')
    .selectAll('courier_requests')
    .select('orders.raison_sociale')
    .where('courier_requests.order_id', 'in', orderIds)
    .orderBy('courier_requests.created_at', 'desc')
    .orderBy('courier_requests.id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    raisonSociale: r.raison_sociale,
    createdAt: r.created_at.toISOString(),
    kind: r.kind,
    status: r.status,
    letterCount: r.letter_count,
    outcome: courierRequestOutcome(r),
  }))
}

/** What the mail room recorded of a processed request, as the customer reads it. */
export function courierRequestOutcome(r: {
  outcome: 'expédiée' | 'impossible' | null
  processed_at: Date | null
  carrier: string | null
  tracking_number: string | null
  impossible_reason: string | null
}): CourierRequest['outcome'] {
  if (r.outcome === 'expédiée')
    return {
      kind: 'expédiée',
      at: r.processed_at!.toISOString(),
      carrier: r.carrier!,
      trackingNumber: r.tracking_number!,
      trackingUrl: trackingUrl(r.carrier!, r.tracking_number!),
    }
  if (r.outcome === 'impossible') return { kind: 'impossible', at: r.processed_at!.toISOString(), reason: r.impossible_reason! }
  return null
}

export function findCourierRequest(db: Db, orderId: number, id: number) {
  return db.selectFrom('courier_requests').selectAll().where('id', '=', id).where('order_id', '=', orderId).executeTakeFirst()
}

/** Only while it is still pending: a request processed meanwhile stays. Whether this call deleted it. */
export async function deletePendingCourierRequest(db: Db, orderId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('courier_requests')
    .where('id', '=', id)
    .where('order_id', '=', orderId)
    .where('status', '=', 'en attente')
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** A folder's letters still in the mailbox. */
const folderDocumentCount = (eb: ExpressionBuilder<Database, 'folders'>) =>
  eb
    .selectFrom('documents')
    .select(countAsInt.as('n'))
    .whereRef('documents.folder_id', '=', 'folders.id')
    .where('documents.deleted', '=', false)
    .as('document_count')
const toFolder = (r: { id: number; name: string; order_id: number; document_count: number | null }): Folder => ({
  id: r.id,
  name: r.name,
  domiciliationOrderId: r.order_id,
  documentCount: r.document_count ?? 0,
})

export async function listFolders(db: Db, orderIds: number[]): Promise<Folder[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('folders')
    .select((eb) => ['folders.id', 'folders.name', 'folders.order_id', folderDocumentCount(eb)])
    .where('folders.order_id', 'in', orderIds)
    .orderBy('folders.name')
    .execute()
  return rows.map(toFolder)
}

/** A folder of an order the user reaches, or 404. */
export async function requireFolder(db: Db, userId: number, id: number) {
  const folder = await db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst()
  if (!folder) throw new NotFoundError('Dossier')
  await requireOrder(db, userId, folder.order_id, 'member').catch(asNotFound('Dossier'))
  return folder
}

export async function folderBelongsToOrder(db: Db, folderId: number, orderId: number): Promise<boolean> {
  return !!(await db.selectFrom('folders').select('id').where('id', '=', folderId).where('order_id', '=', orderId).executeTakeFirst())
}

/** Rejects with the database's unique violation (23505) when the order already has a folder of that name. */
export async function createFolder(db: Db, orderId: number, name: string): Promise<number> {
  return (await db.insertInto('folders').values({ order_id: orderId, name }).returning('id').executeTakeFirstOrThrow()).id
}

/**
 * The folder renamed, as the list shows it (read by the same statement), or undefined when it is gone (deleted by
 * another request since it was checked). Rejects with the database's unique violation (23505) when the order already
 * has a folder of that name.
 */
export async function renameFolder(db: Db, id: number, name: string): Promise<Folder | undefined> {
  const row = await db
    .updateTable('folders')
    .set({ name })
    .where('id', '=', id)
    .returning((eb) => ['folders.id', 'folders.name', 'folders.order_id', folderDocumentCount(eb)])
    .executeTakeFirst()
  return row && toFolder(row)
}

/** Its letters stay, back in the inbox (documents.folder_id is set null by the foreign key). */
export async function deleteFolder(db: Db, id: number): Promise<void> {
  await db.deleteFrom('folders').where('id', '=', id).execute()
}
