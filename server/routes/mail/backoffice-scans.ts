// The back office's Numérisation (roles Courrier and Administrateur): the shared queue of scans, a scan's file and
// pages, its review, its deletion and its publishing (services/mail-room.ts); and the orders an operator picks from.
import type { MailRoomOrder, MailScan } from '../../contract/mail-backoffice.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError, notFound } from '../../http/errors.ts'
import { cleanFileName } from '../../http/multipart.ts'
import { findScan, findScanFile, findScanPage, listWaitingScans, confirmedScanIds, type ScanRow } from '../../db/repositories/mail-scans.ts'
import { searchOrders, type MailRoomOrderRow } from '../../db/repositories/mail-room.ts'
import { longDate } from '../../lib/time.ts'
import { deleteScan, isTerminated, mailRoomMessages, publishScan, reviewWaitingScan, uploadScan } from '../../services/mail-room.ts'
import { answerPdf, fileHeaders } from '../files.ts'
import { pdfDataUrl } from '../operator-input.ts'

/** Orders offered at once in a picker: the operator types more to narrow. */
const ORDERS_PER_SEARCH = 50

export const toMailRoomOrder = (row: MailRoomOrderRow, now: Date): MailRoomOrder => ({
  id: row.id,
  raisonSociale: row.raison_sociale,
  siren: row.siren,
  ownerName: row.owner_name,
  terminationDate: row.termination_date,
  terminated: isTerminated(row, now),
})

/** Why a scan is « À vérifier », or null: no order recognised nor chosen, or its order terminated. */
function toCheckOf(row: ScanRow, now: Date): string | null {
  if (row.state === 'published' || row.reading === 'en cours') return null
  if (row.order_id === null) {
    const why = row.reading === 'échouée' ? 'le fichier n’a pas pu être lu' : (row.suggestion_reason ?? 'aucune domiciliation reconnue')
    return `Aucune domiciliation reconnue : ${why}.`
  }
  if (row.termination_date !== null && isTerminated(row, now))
    return `La domiciliation ${row.raison_sociale} est résiliée depuis le ${longDate.format(new Date(`${row.termination_date}T12:00:00Z`))}.`
  return null
}

export function toMailScan(row: ScanRow, now: Date): MailScan {
  return {
    id: row.id,
    fileName: row.file_name,
    pages: row.pages,
    uploadedAt: row.uploaded_at.toISOString(),
    uploadedBy: { id: row.uploaded_by, name: row.uploaded_by_name },
    reading: row.reading,
    pageImages: row.page_images,
    suggestion:
      row.suggestion_reason === null
        ? null
        : {
            orderId: row.suggested_order_id,
            raisonSociale: row.suggested_raison_sociale,
            confidence: row.suggestion_confidence,
            reason: row.suggestion_reason,
          },
    suggestedSender: row.suggested_sender,
    orderId: row.order_id,
    raisonSociale: row.raison_sociale,
    sender: row.sender,
    kind: row.kind,
    confirmed: row.confirmed_at !== null,
    toCheck: toCheckOf(row, now),
    published:
      row.state === 'published' && row.document_id !== null
        ? { at: row.published_at!.toISOString(), by: row.published_by_name ?? '', documentId: row.document_id }
        : null,
  }
}

export function mailRoomScanRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, storage, clock } = deps
  const scanOf = async (id: number) => {
    const row = await findScan(db, id)
    if (!row) throw notFound('Numérisation')
    return toMailScan(row, clock.now())
  }

  define('mailRoomOrders', async ({ query }) => {
    const now = clock.now()
    return (await searchOrders(db, query.q, ORDERS_PER_SEARCH)).map((row) => toMailRoomOrder(row, now))
  })

  define('mailRoomUploadScan', async ({ body, operator }) => {
    const fileName = cleanFileName(body.fileName) || 'numérisation.pdf'
    const { bytes } = pdfDataUrl(body.file)
    return scanOf(await uploadScan(deps, { operatorId: operator.id, fileName, bytes }))
  })

  define('mailRoomScans', async () => {
    const now = clock.now()
    return (await listWaitingScans(db)).map((row) => toMailScan(row, now))
  })

  define('mailRoomScan', async ({ params }) => scanOf(params.id))

  define('mailRoomScanFile', async ({ params, reply }) => {
    const scan = await findScanFile(db, params.id)
    const bytes = scan ? await storage.get(scan.file_key) : null
    if (!scan || !bytes) throw notFound('Numérisation')
    return answerPdf(reply, bytes, `numerisation-${params.id}.pdf`)
  })

  define('mailRoomScanPage', async ({ params, reply }) => {
    const image = await findScanPage(db, params.id, params.page)
    const bytes = image ? await storage.get(image.file_key) : null
    if (!image || !bytes) throw notFound('Page')
    fileHeaders(reply, image.content_type, `numerisation-${params.id}-page-${params.page}.webp`)
    return bytes
  })

  define('mailRoomReviewScan', async ({ params, body, operator }) => {
    await reviewWaitingScan(deps, operator.id, params.id, body)
    return scanOf(params.id)
  })

  define('mailRoomDeleteScan', async ({ params, operator }) => {
    await deleteScan(deps, operator.id, params.id)
    return { message: mailRoomMessages.scanDeleted }
  })

  define('mailRoomPublishScan', async ({ params, operator, req }) => {
    const { document, link, notified, notificationFailures } = await publishScan(deps, operator.id, params.id)
    if (notificationFailures.length)
      req.log.error({ documentId: document.id, notificationFailures }, 'notification du nouveau courrier impossible')
    return { scan: await scanOf(params.id), document, link, notified }
  })

  define('mailRoomPublishScans', async ({ body, operator, req }) => {
    const ids = body.scanIds ?? (await confirmedScanIds(db))
    const published = []
    const skipped = []
    // One after the other, each in its own transaction: a scan refused leaves the others to publish.
    for (const scanId of ids) {
      try {
        const { document, link, notified, notificationFailures } = await publishScan(deps, operator.id, scanId)
        if (notificationFailures.length)
          req.log.error({ documentId: document.id, notificationFailures }, 'notification du nouveau courrier impossible')
        published.push({ scan: await scanOf(scanId), document, link, notified })
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode >= 500) throw error
        skipped.push({ scanId, message: error.message })
      }
    }
    return { published, skipped }
  })
}
