// The mail room's scans (the back office's Numérisation): a PDF uploaded by an operator is checked as every upload,
// stored with its row and its reading job (the letter pipeline's: pages, text layer or OCR, then the suggested order
// and sender); reviewed; then published once, as ingestion publishes a letter (services/ingest.ts recordLetter and
// announceLetter: the letter, its history, the bell, the e-mail), its pages and text taken from the reading instead of
// read again. Every write is journaled in its transaction.
import type { MailDocument } from '../contract/mail.ts'
import { recordJournal } from '../db/repositories/operators-journal.ts'
import {
  claimScanForPublishing,
  deleteWaitingScan,
  findScan,
  insertScan,
  reviewScan,
  scanPages,
  setScanDocument,
  setScanJob,
  type ScanKind,
  type ScanRow,
} from '../db/repositories/mail-scans.ts'
import { findMailRoomOrder, type MailRoomOrderRow } from '../db/repositories/mail-room.ts'
import { conflict, HttpError, notFound } from '../http/errors.ts'
import { longDate, parisDay, parisTime } from '../lib/time.ts'
import { announceLetter, checkedPdf, cleanText, recordLetter, type IngestDeps, type IngestedLetter } from './ingest.ts'
import { enqueueScanReading } from './mail-pipeline.ts'
import { newFileKey, storeWithRecord } from './storage.ts'

export const mailRoomMessages = {
  scanDeleted: 'La numérisation a été supprimée.',
  notConfirmed: 'Confirmez d’abord la domiciliation, l’expéditeur et le type de ce courrier : il n’a pas été publié.',
  stillReading: 'Ce courrier est encore en cours de lecture : publiez-le dans un instant.',
  alreadyPublished: (by: string, at: Date) =>
    `Ce courrier a déjà été publié par ${by} le ${longDate.format(at)} à ${parisTime(at)} : il ne l’a pas été une seconde fois.`,
  terminated: (raisonSociale: string, day: string) =>
    `La domiciliation ${raisonSociale} est résiliée depuis le ${longDate.format(new Date(`${day}T12:00:00Z`))} : aucun courrier n’y est plus publié. Choisissez une autre domiciliation ou retournez le courrier à son expéditeur.`,
}

/** Past its termination date (Paris), an order takes no more mail. */
export const isTerminated = (order: Pick<MailRoomOrderRow, 'termination_date'>, now: Date) =>
  order.termination_date !== null && order.termination_date < parisDay(now)

export async function requireOpenOrder(deps: Pick<IngestDeps, 'db'>, orderId: number, now: Date): Promise<MailRoomOrderRow> {
  const order = await findMailRoomOrder(deps.db, orderId)
  if (!order) throw notFound('Domiciliation')
  if (isTerminated(order, now)) throw conflict(mailRoomMessages.terminated(order.raison_sociale, order.termination_date!))
  return order
}

const pagesText = (pages: number) => `${pages} page${pages > 1 ? 's' : ''}`

/** A scanned PDF into the queue; a file refused by the check stores nothing. The scan's id. */
export async function uploadScan(deps: IngestDeps, upload: { operatorId: number; fileName: string; bytes: Uint8Array }): Promise<number> {
  const { db, storage, clock } = deps
  const pages = await checkedPdf(upload.bytes, `Le fichier « ${upload.fileName} »`)
  const key = newFileKey('documents', 'pdf')
  const at = clock.now()
  const id = await storeWithRecord(storage, [{ key, bytes: upload.bytes }], () =>
    db.transaction().execute(async (trx) => {
      const scan = await insertScan(trx, { fileKey: key, fileName: upload.fileName, pages, operatorId: upload.operatorId, at })
      await setScanJob(trx, scan.id, await enqueueScanReading(trx, scan.id))
      await recordJournal(trx, {
        actor: { operatorId: upload.operatorId },
        action: 'scan.uploaded',
        summary: `Numérisation de « ${upload.fileName} » (${pagesText(pages)}) ajoutée à la file`,
        after: { scanId: scan.id, fileName: upload.fileName, pages },
        at,
      })
      return scan.id
    }),
  )
  deps.jobs?.wake()
  return id
}

export interface ScanReview {
  orderId: number
  sender: string
  kind: ScanKind
  confirmed: boolean
}

export async function reviewWaitingScan(deps: IngestDeps, operatorId: number, scanId: number, review: ScanReview): Promise<void> {
  const now = deps.clock.now()
  const sender = cleanText(review.sender, 'sender', 200)
  const order = await requireOpenOrder(deps, review.orderId, now)
  const before = await deps.db.transaction().execute(async (trx) => {
    const was = await reviewScan(trx, scanId, { ...review, sender, operatorId, at: now })
    if (!was) return undefined
    await recordJournal(trx, {
      actor: { operatorId },
      action: review.confirmed ? 'scan.confirmed' : 'scan.reviewed',
      orderId: order.id,
      summary: `${review.confirmed ? 'Numérisation confirmée' : 'Numérisation revue'} : courrier de ${sender} (${review.kind}) pour ${order.raison_sociale}`,
      before: { orderId: was.order_id, sender: was.sender, kind: was.kind, confirmed: was.confirmed_at !== null },
      after: { orderId: order.id, sender, kind: review.kind, confirmed: review.confirmed },
      at: now,
    })
    return was
  })
  if (!before) await refuseChange(deps, scanId)
}

/** Why a change of a scan found no waiting scan: 404, or 409 once published. */
async function refuseChange(deps: Pick<IngestDeps, 'db'>, scanId: number): Promise<never> {
  const scan = await findScan(deps.db, scanId)
  if (!scan) throw notFound('Numérisation')
  throw conflict(mailRoomMessages.alreadyPublished(scan.published_by_name ?? 'un opérateur', scan.published_at!))
}

export async function deleteScan(deps: IngestDeps, operatorId: number, scanId: number): Promise<void> {
  const now = deps.clock.now()
  const deleted = await deps.db.transaction().execute(async (trx) => {
    const gone = await deleteWaitingScan(trx, scanId)
    if (gone)
      await recordJournal(trx, {
        actor: { operatorId },
        action: 'scan.deleted',
        orderId: gone.order_id,
        summary: `Numérisation « ${gone.file_name} » supprimée sans être publiée`,
        before: { scanId, fileName: gone.file_name, orderId: gone.order_id, sender: gone.sender },
        at: now,
      })
    return gone
  })
  if (!deleted) return refuseChange(deps, scanId)
  // Its files are no longer referenced by anything (the sweep would take them later otherwise).
  await Promise.all(deleted.keys.map((key) => deps.storage.delete(key).catch(() => undefined)))
}

/**
 * Publishes a confirmed scan, once. The scan is taken by a conditional UPDATE in the transaction that writes the letter
 * (claimScanForPublishing): two operators, on one instance or two, pressing « Publier » together get one letter, and the
 * second a French 409 naming who published it. The e-mails leave once the transaction has committed, as ingestion's.
 */
export async function publishScan(deps: IngestDeps, operatorId: number, scanId: number): Promise<IngestedLetter> {
  const now = deps.clock.now()
  const published = await deps.db.transaction().execute(async (trx) => {
    const scan = await claimScanForPublishing(trx, scanId, operatorId, now)
    if (!scan) return undefined
    const order = await findMailRoomOrder(trx, scan.order_id!)
    if (!order) throw notFound('Domiciliation')
    if (isTerminated(order, now)) throw conflict(mailRoomMessages.terminated(order.raison_sociale, order.termination_date!))
    // Read as a letter is: its pages and text go with it; a reading that failed is tried again by the letter's own job.
    const read = scan.reading === 'terminée' ? { pages: await pageRows(trx, scan.id), text: scan.text } : undefined
    const document: MailDocument = await recordLetter(trx, {
      order,
      sender: scan.sender!,
      kind: scan.kind,
      receivedAt: scan.uploaded_at,
      scannedAt: scan.uploaded_at,
      at: now,
      pages: scan.pages,
      fileKey: scan.file_key,
      ...(read ? { read } : {}),
      alongside: async (documentId) => {
        await setScanDocument(trx, scan.id, documentId)
        await recordJournal(trx, {
          actor: { operatorId },
          action: 'scan.published',
          orderId: order.id,
          summary: `Courrier de ${scan.sender} (${scan.kind}, ${pagesText(scan.pages)}) publié pour ${order.raison_sociale}`,
          after: { scanId: scan.id, documentId, sender: scan.sender, kind: scan.kind },
          at: now,
        })
      },
    })
    return { document, read: read !== undefined }
  })
  if (!published) return refusePublishing(deps, scanId)
  if (!published.read) deps.jobs?.wake()
  return announceLetter(deps, published.document)
}

async function pageRows(db: Parameters<typeof scanPages>[0], scanId: number) {
  return (await scanPages(db, scanId)).map((p) => ({
    fileKey: p.file_key,
    contentType: p.content_type,
    width: p.width,
    height: p.height,
    bytes: p.bytes,
  }))
}

/** Why a scan was not taken for publishing: gone (404), published already, not confirmed or still being read (409). */
async function refusePublishing(deps: Pick<IngestDeps, 'db'>, scanId: number): Promise<never> {
  const scan: ScanRow | undefined = await findScan(deps.db, scanId)
  if (!scan) throw notFound('Numérisation')
  if (scan.state === 'published')
    throw conflict(mailRoomMessages.alreadyPublished(scan.published_by_name ?? 'un opérateur', scan.published_at!))
  if (scan.reading === 'en cours') throw new HttpError(409, mailRoomMessages.stillReading, 'STILL_READING')
  throw new HttpError(409, mailRoomMessages.notConfirmed, 'NOT_CONFIRMED')
}
