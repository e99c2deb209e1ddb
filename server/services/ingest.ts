// How new mail gets in: an operator adds a scanned letter or a package to an order, by the CLI
// (scripts/ingest.ts) or by the operator API (server/routes/operator). A letter is checked by its
// content, stored atomically with its row, then announced by e-mail to the order's owner and its
// collaborators ("Nouveau courrier de {expéditeur}") with a link the portal opens on that letter.
import type { DocumentKind, MailDocument, Package } from '../contract/index.ts'
import { insertDocument, insertPackage } from '../db/repositories/mail.ts'
import { findOrder } from '../db/repositories/orders.ts'
import { listPeopleWithAccount } from '../db/repositories/people.ts'
import type { Db } from '../db/schema.ts'
import type { AppDeps } from '../deps.ts'
import { badRequest, fileTooLarge, notFound } from '../http/errors.ts'
import { checkFile, MAX_UPLOAD_BYTES } from './file-types.ts'
import { newFileKey, storeWithRecord } from './storage.ts'

export type IngestDeps = Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'config' | 'clock'>

export const DOCUMENT_KINDS: readonly DocumentKind[] = ['courrier', 'recommandé', 'administratif']

/** The portal page that opens on one letter (src/views/pages/mail/LettersPage.tsx reads both parameters). */
export const letterLink = (publicUrl: string, orderId: number, documentId: number) =>
  `${publicUrl}/mes-courriers/courriers?domiciliation=${orderId}&courrier=${documentId}`

export const notificationSubject = (sender: string) => `Nouveau courrier de ${sender}`

async function requireAnyOrder(db: Db, orderId: number) {
  const order = await findOrder(db, orderId)
  if (!order) throw notFound('Domiciliation')
  return order
}

function cleanText(value: string, field: string, max: number): string {
  const text = value.replace(/\s+/g, ' ').trim()
  if (!text) throw badRequest(`Le champ « ${field} » ne peut pas être vide.`)
  if (text.length > max) throw badRequest(`Le champ « ${field} » ne peut pas dépasser ${max} caractères.`)
  return text
}

function receivedAtOf(value: string | undefined, now: Date): Date {
  if (value === undefined) return now
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw badRequest('Le champ « receivedAt » doit être une date et heure ISO 8601.')
  if (date.getTime() > now.getTime() + 5 * 60_000) throw badRequest('Le champ « receivedAt » ne peut pas être dans le futur.')
  return date
}

/** The page count of a complete, readable PDF (the check of every upload); a 400 in French for anything else. */
export async function checkedPdf(bytes: Uint8Array, fileName = 'Le fichier'): Promise<number> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw fileTooLarge()
  const checked = await checkFile(bytes)
  if (checked.type === 'pdf') return checked.pages
  if (checked.type !== null || checked.problem === 'unknown') throw badRequest(`${fileName} n’est pas un PDF valide (fichier incomplet ou d’un autre type).`, 'NOT_A_PDF')
  if (checked.problem === 'active') throw badRequest(`${fileName} contient du code (JavaScript ou HTML) : il est refusé.`, 'NOT_A_PDF')
  throw badRequest(`${fileName} n’est pas un PDF lisible : numérisez-le à nouveau.`, 'NOT_A_PDF')
}

export interface NewLetter {
  orderId: number
  sender: string
  kind?: DocumentKind
  bytes: Uint8Array
  receivedAt?: string
}

export interface IngestedLetter {
  document: MailDocument
  link: string
  notified: string[]
  /** Addresses the notification could not be sent to (the letter is stored all the same). */
  notificationFailures: string[]
}

export async function ingestLetter(deps: IngestDeps, letter: NewLetter): Promise<IngestedLetter> {
  const { db, storage, clock } = deps
  const order = await requireAnyOrder(db, letter.orderId)
  const sender = cleanText(letter.sender, 'sender', 200)
  const kind = letter.kind ?? 'courrier'
  if (!DOCUMENT_KINDS.includes(kind)) throw badRequest(`Le champ « kind » doit valoir ${DOCUMENT_KINDS.join(', ')}.`)
  const receivedAt = receivedAtOf(letter.receivedAt, clock.now())
  const pages = await checkedPdf(letter.bytes)
  const key = newFileKey('documents', 'pdf')
  // The file first, then its row; if the row fails, the file is removed: neither exists without the other.
  const row = await storeWithRecord(storage, [{ key, bytes: letter.bytes }], () =>
    insertDocument(db, { order_id: order.id, sender, kind, received_at: receivedAt, pages, file_key: key }))
  const document: MailDocument = {
    id: row.id, orderId: order.id, raisonSociale: order.raison_sociale, sender, kind, receivedAt: receivedAt.toISOString(),
    pages, read: row.read, deleted: row.deleted, folderId: row.folder_id,
  }
  const link = letterLink(deps.config.publicUrl, order.id, document.id)
  return { document, link, ...(await notifyNewLetter(deps, document, link)) }
}

async function notifyNewLetter({ db, mailer, config }: IngestDeps, document: MailDocument, link: string) {
  const notified: string[] = []
  const notificationFailures: string[] = []
  const received = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' }).format(new Date(document.receivedAt))
  for (const person of await listPeopleWithAccount(db, document.orderId)) {
    try {
      await mailer.send({
        to: person.email,
        subject: notificationSubject(document.sender),
        text: `Bonjour ${person.firstname},\n\nUn nouveau courrier de ${document.sender} (${document.kind}, ${document.pages} page${document.pages > 1 ? 's' : ''}) est arrivé le ${received} pour ${document.raisonSociale}.\n\nLisez-le dans votre espace client :\n${link}\n\n${config.brandName}`,
        link,
      })
      notified.push(person.email)
    } catch {
      notificationFailures.push(person.email)
    }
  }
  return { notified, notificationFailures }
}

export interface NewPackage {
  orderId: number
  carrier: string
  sender: string
  receivedAt?: string
}

export async function ingestPackage({ db, clock }: IngestDeps, parcel: NewPackage): Promise<Package> {
  const order = await requireAnyOrder(db, parcel.orderId)
  const carrier = cleanText(parcel.carrier, 'carrier', 100)
  const sender = cleanText(parcel.sender, 'sender', 200)
  const receivedAt = receivedAtOf(parcel.receivedAt, clock.now())
  const row = await insertPackage(db, { order_id: order.id, received_at: receivedAt, carrier, sender, status: 'À retirer' })
  return { id: row.id, orderId: order.id, raisonSociale: order.raison_sociale, receivedAt: receivedAt.toISOString(), carrier, sender, status: row.status }
}
