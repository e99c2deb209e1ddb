// Mail: scanned letters (documents), packages, courier requests (demandes courrier) and folders.
import type { Kysely } from 'kysely'
import type { CourierRequest, Folder, MailDocument, Package } from '../../contract/index.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, notFound } from '../../http/errors.ts'
import { countAsInt, requireOrder, scopedOrderIds } from '../../db/repositories/orders.ts'
import type { Database } from '../../db/schema.ts'
import { sendPdf } from '../files.ts'

type Db = Kysely<Database>

function documentsQuery(db: Db) {
  return db.selectFrom('documents').innerJoin('orders', 'orders.id', 'documents.order_id')
    .select(['documents.id', 'documents.order_id', 'documents.sender', 'documents.kind', 'documents.received_at', 'documents.pages',
      'documents.read', 'documents.deleted', 'documents.folder_id', 'documents.file_key', 'orders.raison_sociale'])
    .where('documents.deleted', '=', false)
}
type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentsQuery>['executeTakeFirstOrThrow']>>

const toDocument = (r: DocumentRow): MailDocument => ({
  id: r.id, orderId: r.order_id, raisonSociale: r.raison_sociale, sender: r.sender, kind: r.kind,
  receivedAt: r.received_at.toISOString(), pages: r.pages, read: r.read, deleted: r.deleted, folderId: r.folder_id,
})

/** A letter the user may see (deleted ones are gone for everybody), or 404. */
export async function requireDocument(db: Db, userId: number, id: number): Promise<DocumentRow> {
  const row = await documentsQuery(db).where('documents.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Courrier')
  await requireOrder(db, userId, row.order_id, 'member').catch(() => { throw notFound('Courrier') })
  return row
}

async function listPackages(db: Db, orderIds: number[]): Promise<Package[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('packages').innerJoin('orders', 'orders.id', 'packages.order_id')
    .selectAll('packages').select('orders.raison_sociale')
    .where('packages.order_id', 'in', orderIds).orderBy('packages.received_at', 'desc').orderBy('packages.id', 'desc').execute()
  return rows.map((r) => ({ id: r.id, orderId: r.order_id, raisonSociale: r.raison_sociale, receivedAt: r.received_at.toISOString(), carrier: r.carrier, sender: r.sender, status: r.status }))
}

async function listCourierRequests(db: Db, orderIds: number[]): Promise<CourierRequest[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('courier_requests').innerJoin('orders', 'orders.id', 'courier_requests.order_id')
    .selectAll('courier_requests').select('orders.raison_sociale')
    .where('courier_requests.order_id', 'in', orderIds).orderBy('courier_requests.created_at', 'desc').orderBy('courier_requests.id', 'desc').execute()
  return rows.map((r) => ({ id: r.id, orderId: r.order_id, raisonSociale: r.raison_sociale, createdAt: r.created_at.toISOString(), kind: r.kind, status: r.status, letterCount: r.letter_count }))
}

async function listFolders(db: Db, orderIds: number[]): Promise<Folder[]> {
  if (!orderIds.length) return []
  const rows = await db.selectFrom('folders')
    .select((eb) => ['folders.id', 'folders.name', 'folders.order_id',
      eb.selectFrom('documents').select(countAsInt.as('n')).whereRef('documents.folder_id', '=', 'folders.id').where('documents.deleted', '=', false).as('document_count')])
    .where('folders.order_id', 'in', orderIds).orderBy('folders.name').execute()
  return rows.map((r) => ({ id: r.id, name: r.name, domiciliationOrderId: r.order_id, documentCount: r.document_count ?? 0 }))
}

async function requireFolder(db: Db, userId: number, id: number) {
  const folder = await db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst()
  if (!folder) throw notFound('Dossier')
  await requireOrder(db, userId, folder.order_id, 'member').catch(() => { throw notFound('Dossier') })
  return folder
}

const folderNameTaken = (error: unknown) => (error as { code?: string }).code === '23505'
  ? conflict('Un dossier porte déjà ce nom pour cette domiciliation.')
  : error

export function mailRoutes(define: DefineRoute, { db, storage, mailer }: AppDeps) {
  define('packages', async ({ user, query }) => listPackages(db, await scopedOrderIds(db, user.id, 'own', query.orderId)))
  define('sharePackages', async ({ user, query }) => listPackages(db, await scopedOrderIds(db, user.id, 'shared', query.orderId)))
  define('courierRequests', async ({ user, query }) => listCourierRequests(db, await scopedOrderIds(db, user.id, 'own', query.orderId)))
  define('shareCourierRequests', async ({ user, query }) => listCourierRequests(db, await scopedOrderIds(db, user.id, 'shared', query.orderId)))

  define('removeCourierRequest', async ({ user, body }) => {
    await requireOrder(db, user.id, body.orderId, 'member')
    const request = await db.selectFrom('courier_requests').selectAll().where('id', '=', body.id).where('order_id', '=', body.orderId).executeTakeFirst()
    if (!request) throw notFound('Demande')
    if (request.status !== 'en attente') throw conflict('Seule une demande en attente peut être annulée.')
    await db.deleteFrom('courier_requests').where('id', '=', request.id).where('status', '=', 'en attente').execute()
    return { message: 'La demande a été annulée.' }
  })

  define('documents', async ({ user, query }) => {
    const orderIds = await scopedOrderIds(db, user.id, 'all', query.orderId)
    if (!orderIds.length) return []
    const rows = await documentsQuery(db).where('documents.order_id', 'in', orderIds)
      .orderBy('documents.received_at', 'desc').orderBy('documents.id', 'desc').execute()
    return rows.map(toDocument)
  })

  define('updateDocument', async ({ user, params, body }) => {
    const document = await requireDocument(db, user.id, params.id)
    if (body.folderId != null) {
      const folder = await db.selectFrom('folders').select('id').where('id', '=', body.folderId).where('order_id', '=', document.order_id).executeTakeFirst()
      if (!folder) throw notFound('Dossier')
    }
    await db.updateTable('documents')
      .set({ ...(body.readFlag !== undefined ? { read: body.readFlag } : {}), ...(body.folderId !== undefined ? { folder_id: body.folderId } : {}) })
      .where('id', '=', document.id).execute()
    return toDocument(await documentsQuery(db).where('documents.id', '=', document.id).executeTakeFirstOrThrow())
  })

  define('documentFile', async ({ user, params, reply }) => {
    const document = await requireDocument(db, user.id, params.id)
    return sendPdf(reply, storage, document.file_key, `courrier-${document.id}.pdf`)
  })

  define('sendDocuments', async ({ user, body }) => {
    const ids = [...new Set(body.documentIds)]
    const documents = await Promise.all(ids.map((id) => requireDocument(db, user.id, id)))
    const attachments = await Promise.all(documents.map(async (d) => {
      const content = await storage.get(d.file_key)
      if (!content) throw notFound('Fichier du courrier')
      return { filename: `courrier-${d.id}-${d.sender.replace(/[^\p{L}\p{N}]+/gu, '-')}.pdf`, content }
    }))
    await mailer.send({
      to: body.email,
      subject: `${user.firstname} ${user.lastname} vous transmet ${documents.length > 1 ? `${documents.length} courriers` : 'un courrier'}`,
      text: `${body.message ? `${body.message}\n\n` : ''}Courriers joints :\n${documents.map((d) => `- ${d.sender}, reçu le ${d.received_at.toLocaleDateString('fr-FR')} (${d.raison_sociale})`).join('\n')}`,
      attachments,
    })
    return { message: documents.length > 1 ? `Les ${documents.length} courriers ont été envoyés à ${body.email}.` : `Le courrier a été envoyé à ${body.email}.` }
  })

  define('folders', async ({ user, query }) => listFolders(db, await scopedOrderIds(db, user.id, 'own', query.domiciliationOrderId)))
  define('shareFolders', async ({ user }) => listFolders(db, await scopedOrderIds(db, user.id, 'shared', undefined)))

  define('createFolder', async ({ user, body }) => {
    await requireOrder(db, user.id, body.domiciliationOrderId, 'member')
    const name = body.name.trim()
    if (!name) throw badRequest('Le nom du dossier ne peut pas être vide.')
    const row = await db.insertInto('folders').values({ order_id: body.domiciliationOrderId, name }).returning('id').executeTakeFirstOrThrow()
      .catch((error: unknown) => { throw folderNameTaken(error) })
    return { id: row.id, name, domiciliationOrderId: body.domiciliationOrderId, documentCount: 0 }
  })

  define('updateFolder', async ({ user, params, body }) => {
    const folder = await requireFolder(db, user.id, params.id)
    const name = body.name.trim()
    if (!name) throw badRequest('Le nom du dossier ne peut pas être vide.')
    await db.updateTable('folders').set({ name }).where('id', '=', folder.id).execute()
      .catch((error: unknown) => { throw folderNameTaken(error) })
    return (await listFolders(db, [folder.order_id])).find((f) => f.id === folder.id)!
  })

  define('deleteFolder', async ({ user, params }) => {
    const folder = await requireFolder(db, user.id, params.id)
    await db.deleteFrom('folders').where('id', '=', folder.id).execute()
    return { message: 'Le dossier a été supprimé ; ses courriers restent dans la liste.' }
  })
}
