// Mail: scanned letters (documents), packages, courier requests (demandes courrier) and folders.
import type { AppDeps } from '../../deps.ts'
import { JsonText, type DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import { limitPerUser } from '../../http/user-rate-limit.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts'
import { attachmentBudget, MAIL_ATTACHMENTS_MAX_BYTES } from '../../services/mailer.ts'
import {
  createFolder,
  deleteFolder,
  deletePendingCourierRequest,
  findCourierRequest,
  folderBelongsToOrder,
  getDocument,
  listCourierRequests,
  documentsOfSessionJson,
  listFolders,
  listPackages,
  lockDocumentFolder,
  renameFolder,
  requireDocument,
  requireFolder,
  updateDocument,
} from '../../db/repositories/mail.ts'
import { requireOrder, scopedOrderIds } from '../../db/repositories/company-orders.ts'
import { recordLetterHistory } from '../../services/events.ts'
import { longDate } from '../../lib/time.ts'
import { isBlank, trimmedOrNull } from '../../contract/rules/text.ts'
import { sendPdf } from '../files.ts'
import { letterHistoryRoutes } from './history.ts'
import { mailOperatorRoutes } from './operator.ts'
import { mailPipelineRoutes } from './pipeline.ts'
import { mailRoomForwardingRoutes } from './backoffice-forwarding.ts'
import { mailRoomPackageRoutes } from './backoffice-packages.ts'
import { mailRoomScanRoutes } from './backoffice-scans.ts'

/** 30 e-mails of letters an hour: an accountant's needs, not a sender's. */
export const SEND_DOCUMENTS_LIMIT = {
  name: 'sendDocuments',
  max: 30,
  windowMs: 3_600_000,
  message: 'Trop de courriers envoyés par e-mail en peu de temps : réessayez dans une heure.',
}
export const attachmentsTooLarge = `Ces courriers dépassent ${MAIL_ATTACHMENTS_MAX_BYTES / 1024 / 1024} Mo au total, ce qu’un e-mail peut porter : envoyez-les en plusieurs fois.`

const folderNameTaken = (error: unknown) =>
  isUniqueViolation(error) ? conflict('Un dossier porte déjà ce nom pour cette domiciliation.') : error

export function mailRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, storage, mailer, clock } = deps
  define('packages', async ({ user, query }) => listPackages(db, await scopedOrderIds(db, user.id, 'own', query.orderId)))
  define('sharePackages', async ({ user, query }) => listPackages(db, await scopedOrderIds(db, user.id, 'shared', query.orderId)))
  define('courierRequests', async ({ user, query }) => listCourierRequests(db, await scopedOrderIds(db, user.id, 'own', query.orderId)))
  define('shareCourierRequests', async ({ user, query }) =>
    listCourierRequests(db, await scopedOrderIds(db, user.id, 'shared', query.orderId)),
  )

  define('removeCourierRequest', async ({ user, body }) => {
    await requireOrder(db, user.id, body.orderId, 'member')
    // One conditional delete: a request processed, or cancelled by another call, in between is never
    // answered as cancelled by this one. Only when nothing went is it looked up, to say why.
    if (await deletePendingCourierRequest(db, body.orderId, body.id)) return { message: 'La demande a été annulée.' }
    const request = await findCourierRequest(db, body.orderId, body.id)
    if (!request) throw notFound('Demande')
    throw conflict('Seule une demande en attente peut être annulée.')
  })

  // Hot: the token check, the order's access and the letters in one statement, the list written as JSON by the database.
  define.joined('documents', async ({ session, query }) => new JsonText(await documentsOfSessionJson(db, session, query.orderId)))

  define('updateDocument', async ({ user, params, body }) => {
    const document = await requireDocument(db, user.id, params.id)
    if (body.folderId != null && !(await folderBelongsToOrder(db, body.folderId, document.order_id))) throw notFound('Dossier')
    // notify: the history line is written with the change it tells of.
    await db.transaction().execute(async (trx) => {
      // Its folder read again with the row held, not as read before: two collaborators filing the letter into the same
      // folder at the same moment both compared with the folder it left, and the history told the move twice.
      const folderBefore = body.folderId === undefined ? undefined : await lockDocumentFolder(trx, document.id)
      await updateDocument(trx, document.id, { read: body.readFlag, folderId: body.folderId }).catch((error: unknown) => {
        // The folder deleted by another request since the check above (PostgreSQL runs them in parallel): the same 404.
        throw isForeignKeyViolation(error) ? notFound('Dossier') : error
      })
      if (body.readFlag === true)
        await recordLetterHistory(trx, { documentId: document.id, kind: 'opened', userId: user.id, at: clock.now() })
      if (body.folderId !== undefined && body.folderId !== folderBefore) {
        const folder =
          body.folderId === null
            ? undefined
            : await trx.selectFrom('folders').select('name').where('id', '=', body.folderId).executeTakeFirst()
        await recordLetterHistory(trx, {
          documentId: document.id,
          kind: 'moved',
          userId: user.id,
          detail: folder?.name ?? null,
          at: clock.now(),
        })
      }
    })
    return getDocument(db, document.id)
  })

  define('documentFile', async ({ user, params, reply }) => {
    const document = await requireDocument(db, user.id, params.id)
    // notify: reading the scan is opening the letter (kept once per person).
    await recordLetterHistory(db, { documentId: document.id, kind: 'opened', userId: user.id, at: clock.now() })
    return sendPdf(reply, storage, document.file_key, `courrier-${document.id}.pdf`)
  })

  define('sendDocuments', async ({ user, body }) => {
    // Any address, with a message, from the provider's own: limited like the invitations, or it is a way to send spam.
    await limitPerUser(deps, user.id, SEND_DOCUMENTS_LIMIT)
    const ids = [...new Set(body.documentIds)]
    const documents = await Promise.all(ids.map((id) => requireDocument(db, user.id, id)))
    // One file at a time, within what one e-mail can carry.
    const attachments: { filename: string; content: Buffer }[] = []
    const budget = attachmentBudget()
    for (const d of documents) {
      const content = await storage.get(d.file_key)
      if (!content) throw notFound('Fichier du courrier')
      if (!budget.take(content.length)) throw new HttpError(413, attachmentsTooLarge, 'ATTACHMENTS_TOO_LARGE')
      attachments.push({ filename: `courrier-${d.id}-${d.sender.replace(/[^\p{L}\p{N}]+/gu, '-')}.pdf`, content })
    }
    // A message of spaces or invisible characters says nothing: none is written.
    const message = trimmedOrNull(body.message)
    await mailer.send({
      to: body.email,
      subject: `${user.firstname} ${user.lastname} vous transmet ${documents.length > 1 ? `${documents.length} courriers` : 'un courrier'}`,
      text: `${message ? `${message}\n\n` : ''}Courriers joints :\n${documents.map((d) => `- ${d.sender}, reçu le ${longDate.format(d.received_at)} (${d.raison_sociale})`).join('\n')}`,
      attachments,
    })
    // notify: "Envoyé par e-mail à …" once the e-mail left (a failed send records nothing). Not inside a
    // transaction around the send: the outbox mailer writes through the pool, and PGlite has one connection.
    await db.transaction().execute(async (trx) => {
      for (const d of documents)
        await recordLetterHistory(trx, { documentId: d.id, kind: 'emailed', userId: user.id, detail: body.email, at: clock.now() })
    })
    return {
      message:
        documents.length > 1
          ? `Les ${documents.length} courriers ont été envoyés à ${body.email}.`
          : `Le courrier a été envoyé à ${body.email}.`,
    }
  })

  define('folders', async ({ user, query }) => listFolders(db, await scopedOrderIds(db, user.id, 'own', query.domiciliationOrderId)))
  define('shareFolders', async ({ user }) => listFolders(db, await scopedOrderIds(db, user.id, 'shared', undefined)))

  define('createFolder', async ({ user, body }) => {
    await requireOrder(db, user.id, body.domiciliationOrderId, 'member')
    const name = body.name.trim()
    if (isBlank(name)) throw badRequest('Le nom du dossier ne peut pas être vide.')
    const id = await createFolder(db, body.domiciliationOrderId, name).catch((error: unknown) => {
      throw folderNameTaken(error)
    })
    return { id, name, domiciliationOrderId: body.domiciliationOrderId, documentCount: 0 }
  })

  define('updateFolder', async ({ user, params, body }) => {
    const folder = await requireFolder(db, user.id, params.id)
    const name = body.name.trim()
    if (isBlank(name)) throw badRequest('Le nom du dossier ne peut pas être vide.')
    // The folder deleted by another request since the check above (PostgreSQL runs them in parallel): the same 404.
    const renamed = await renameFolder(db, folder.id, name).catch((error: unknown) => {
      throw folderNameTaken(error)
    })
    if (!renamed) throw notFound('Dossier')
    return renamed
  })

  define('deleteFolder', async ({ user, params }) => {
    const folder = await requireFolder(db, user.id, params.id)
    await deleteFolder(db, folder.id)
    return { message: 'Le dossier a été supprimé ; ses courriers restent dans la liste.' }
  })

  mailPipelineRoutes(define, deps)
  letterHistoryRoutes(define, deps)
  mailOperatorRoutes(define, deps)
  // the back office's mail room
  mailRoomScanRoutes(define, deps)
  mailRoomPackageRoutes(define, deps)
  mailRoomForwardingRoutes(define, deps)
}
