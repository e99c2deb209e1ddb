// How new mail gets in: an operator adds a scanned letter or a package to an order, by the CLI
// (scripts/ingest.ts) or by the operator API (server/routes/operator). A letter is checked by its
// content, stored atomically with its row, then announced by e-mail to the order's owner and its
// collaborators ("Nouveau courrier de {expéditeur}") with a link the portal opens on that letter.
// An invoice comes the same way (operator API), announced in the bell only.
import type { Invoice } from '../contract/billing.ts'
import type { DocumentKind, MailDocument, Package } from '../contract/mail.ts'
import { getInvoice, insertInvoice, invoiceNumberFree } from '../db/repositories/billing.ts'
import { getDocument, getPackage, insertDocument, insertPackage } from '../db/repositories/mail.ts'
import { isUniqueViolation } from '../db/errors.ts'
import { findOrder } from '../db/repositories/company-orders.ts'
import { recordJournal, type JournalActor } from '../db/repositories/operators-journal.ts'
import { peopleWantingEachEmail } from '../db/repositories/notifications.ts'
import type { Database, Db } from '../db/schema.ts'
import type { Transaction } from 'kysely'
import { saveLetterPipelineResult, type LetterPipelineResult } from '../db/repositories/mail-pipeline.ts'
import { findDeadline } from '../contract/rules/deadlines.ts'
import type { AppDeps } from '../deps.ts'
import { badRequest, conflict, fileTooLarge, HttpError, notFound, pdfTooHeavy, pdfTooLong } from '../http/errors.ts'
import { eurosText, invoiceEvent, recordEvent, recordLetterHistory } from './events.ts'
import { letterPath } from '../contract/rules/mail.ts'
import { MAX_UPLOAD_BYTES } from '../contract/rules/uploads.ts'
import { checkFile } from './file-types.ts'
import { enqueueLetterPipeline } from './mail-pipeline.ts'
import { longDate } from '../lib/time.ts'
import { newFileKey, storeWithRecord } from './storage.ts'
import { HIDDEN_CONTROL, isBlank, isSingleLine } from '../contract/rules/text.ts'

export type IngestDeps = Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'config' | 'clock' | 'jobs'>

export const DOCUMENT_KINDS: readonly DocumentKind[] = ['courrier', 'recommandé', 'administratif']

/** The portal page that opens on one letter (src/views/pages/mail/LettersPage.tsx reads both parameters). */
export const letterLink = (publicUrl: string, orderId: number, documentId: number) => `${publicUrl}${letterPath(orderId, documentId)}`

export const notificationSubject = (sender: string) => `Nouveau courrier de ${sender}`

async function requireAnyOrder(db: Db, orderId: number) {
  const order = await findOrder(db, orderId)
  if (!order) throw notFound('Domiciliation')
  return order
}

/**
 * The HTTP API refuses control characters and bidi overrides in these fields at the schema layer (rules/text.ts: a
 * sender shown reversed to the customer, escape sequences in the terminal of `npm run ingest`); `npm run ingest` on the
 * database calls this service directly, so the same rule is checked here too. White space (a line break in a shell
 * argument) is folded to spaces first.
 */
export function cleanText(value: string, field: string, max: number): string {
  const text = value.replace(/\s+/g, ' ').trim()
  if (isBlank(text)) throw badRequest(`Le champ « ${field} » ne peut pas être vide.`)
  if (!isSingleLine(text)) throw badRequest(`Le champ « ${field} » ${HIDDEN_CONTROL}`)
  if (text.length > max) throw badRequest(`Le champ « ${field} » ne peut pas dépasser ${max} caractères.`)
  return text
}

/** No letter, package or invoice of a customer predates this: an earlier date is a typo (0026 for 2026, a year 0000). */
const EARLIEST_DATE = Date.UTC(2000, 0, 1)

function receivedAtOf(value: string | undefined, now: Date, field = 'receivedAt'): Date {
  if (value === undefined) return now
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw badRequest(`Le champ « ${field} » doit être une date et heure ISO 8601.`)
  if (date.getTime() < EARLIEST_DATE) throw badRequest(`Le champ « ${field} » ne peut pas être antérieur au 1er janvier 2000.`)
  if (date.getTime() > now.getTime() + 5 * 60_000) throw badRequest(`Le champ « ${field} » ne peut pas être dans le futur.`)
  return date
}

/**
 * The page count of a complete, readable PDF (the check of every upload); a 400 in French for anything else (422 for a PDF too heavy to
 * read).
 */
export async function checkedPdf(bytes: Uint8Array, fileName = 'Le fichier'): Promise<number> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw fileTooLarge()
  const checked = await checkFile(bytes)
  if (checked.type === 'pdf') return checked.pages
  if (checked.type !== null || checked.problem === 'unknown')
    throw badRequest(`${fileName} n’est pas un PDF valide (fichier incomplet ou d’un autre type).`, 'NOT_A_PDF')
  if (checked.problem === 'heavy') throw pdfTooHeavy(fileName)
  if (checked.problem === 'long') throw pdfTooLong(fileName)
  if (checked.problem === 'active') throw badRequest(`${fileName} contient du code (JavaScript ou HTML) : il est refusé.`, 'NOT_A_PDF')
  throw badRequest(`${fileName} n’est pas un PDF lisible : numérisez-le à nouveau.`, 'NOT_A_PDF')
}

/**
 * Retries: an operator's call sent with an Idempotency-Key. The key is kept with the letter, package or invoice it
 * made (operator_requests, as long as that row) and a digest of what was sent; the same key again makes nothing and
 * answers what the first made, as it is now, telling nobody again; the same key with something else: 422.
 */
export interface Retry {
  key: string
  fingerprint: string
}
type RetryKind = 'document' | 'package' | 'invoice'

/** The letter, package or invoice an earlier call with this key made, or null. */
async function earlierCall(db: Db, kind: RetryKind, retry: Retry): Promise<number | null> {
  const row = await db
    .selectFrom('operator_requests')
    .select(['fingerprint', 'document_id', 'package_id', 'invoice_id'])
    .where('kind', '=', kind)
    .where('key', '=', retry.key)
    .executeTakeFirst()
  if (!row) return null
  if (row.fingerprint !== retry.fingerprint) {
    throw new HttpError(
      422,
      'Cette clé Idempotency-Key a déjà servi pour un autre envoi : envoyez celui-ci avec une nouvelle clé.',
      'IDEMPOTENCY_KEY_REUSED',
    )
  }
  return row.document_id ?? row.package_id ?? row.invoice_id
}

/** Makes the row once per key: a call with a key already used answers `replay` of what the first made. */
async function once<T>(
  db: Db,
  kind: RetryKind,
  retry: Retry | undefined,
  replay: (id: number) => Promise<T>,
  make: () => Promise<T>,
): Promise<T> {
  if (!retry) return make()
  const earlier = await earlierCall(db, kind, retry)
  if (earlier !== null) return replay(earlier)
  try {
    return await make()
  } catch (error) {
    // The same key sent twice at once: the second's row waited for the first's and was refused (an invoice's number,
    // checked under a lock, is found taken by the first: 409).
    const sameTimeRetry = isUniqueViolation(error) || (kind === 'invoice' && error instanceof HttpError && error.statusCode === 409)
    const made = sameTimeRetry ? await earlierCall(db, kind, retry) : null
    if (made === null) throw error
    return replay(made)
  }
}

export interface NewLetter {
  orderId: number
  sender: string
  kind?: DocumentKind
  bytes: Uint8Array
  receivedAt?: string
  retry?: Retry
  /** Who asks, for the journal (the API key of a machine's call; neither for OPERATOR_TOKEN); absent, no journal row. */
  actor?: JournalActor
}

export interface IngestedLetter {
  document: MailDocument
  link: string
  notified: string[]
  /** Addresses the notification could not be sent to (the letter is stored all the same). */
  notificationFailures: string[]
  /** An earlier call with the same Idempotency-Key made it: nothing was made or sent this time. */
  replayed?: true
}

export async function ingestLetter(deps: IngestDeps, letter: NewLetter): Promise<IngestedLetter> {
  const replay = async (id: number): Promise<IngestedLetter> => {
    const document = await getDocument(deps.db, id)
    return {
      document,
      link: letterLink(deps.config.publicUrl, document.orderId, document.id),
      notified: [],
      notificationFailures: [],
      replayed: true,
    }
  }
  return once(deps.db, 'document', letter.retry, replay, () => makeLetter(deps, letter))
}

async function makeLetter(deps: IngestDeps, letter: NewLetter): Promise<IngestedLetter> {
  const { db, storage, clock } = deps
  const order = await requireAnyOrder(db, letter.orderId)
  const sender = cleanText(letter.sender, 'sender', 200)
  const kind = letter.kind ?? 'courrier'
  if (!DOCUMENT_KINDS.includes(kind)) throw badRequest(`Le champ « kind » doit valoir ${DOCUMENT_KINDS.join(', ')}.`)
  const receivedAt = receivedAtOf(letter.receivedAt, clock.now())
  const pages = await checkedPdf(letter.bytes)
  const key = newFileKey('documents', 'pdf')
  // The file first, then its row; if the row fails, the file is removed: neither exists without the other.
  // The answer does not wait for the letter's background job.
  const recorded = await storeWithRecord(storage, [{ key, bytes: letter.bytes }], () =>
    db.transaction().execute((trx) =>
      recordLetter(trx, {
        order,
        sender,
        kind,
        receivedAt,
        scannedAt: clock.now(),
        at: clock.now(),
        pages,
        fileKey: key,
        alongside: async (documentId) => {
          if (letter.retry)
            await trx
              .insertInto('operator_requests')
              .values({ kind: 'document', ...keyOf(letter.retry), document_id: documentId })
              .execute()
          if (letter.actor)
            await recordJournal(trx, {
              actor: letter.actor,
              action: 'letter.added',
              orderId: order.id,
              summary: `Courrier ajouté pour ${order.raison_sociale} : ${sender} (${kind}, ${pages} page${pages > 1 ? 's' : ''})`,
              after: { documentId, sender, kind, pages },
              at: clock.now(),
            })
        },
      }),
    ),
  )
  deps.jobs?.wake()
  return announceLetter(deps, recorded)
}

export interface LetterToRecord {
  order: { id: number; raison_sociale: string }
  sender: string
  kind: DocumentKind
  receivedAt: Date
  scannedAt: Date
  /** When it is published: the bell's event. */
  at: Date
  pages: number
  fileKey: string
  /** Its page images and text already read (a mail room's scan): saved at once, instead of queuing the letter's job. */
  read?: { pages: LetterPipelineResult['pages']; text: string | null }
  /** What else the transaction writes, after the letter and before the bell's event (a retry's key, the journal). */
  alongside?: (documentId: number) => Promise<void>
}

/**
 * A letter's rows in the caller's transaction, as ingestion and the mail room's publishing both write them: the letter,
 * its history, its pages and text (saved, or its background job queued), then the bell's event. Answers the letter as
 * the customer's API shows it.
 */
export async function recordLetter(trx: Transaction<Database>, letter: LetterToRecord): Promise<MailDocument> {
  const { order, sender, kind, receivedAt, pages } = letter
  const inserted = await insertDocument(trx, { order_id: order.id, sender, kind, received_at: receivedAt, pages, file_key: letter.fileKey })
  await recordLetterHistory(trx, { documentId: inserted.id, kind: 'received', at: receivedAt })
  await recordLetterHistory(trx, { documentId: inserted.id, kind: 'scanned', at: letter.scannedAt })
  const deadline = letter.read?.text ? findDeadline(letter.read.text, receivedAt) : null
  if (letter.read) await saveLetterPipelineResult(trx, inserted.id, { ...letter.read, deadline })
  else await enqueueLetterPipeline(trx, inserted.id)
  await letter.alongside?.(inserted.id)
  // Last: the event's lock (services/events.ts) is held from here to the commit, as briefly as possible.
  await recordEvent(trx, {
    kind: 'letter',
    orderId: order.id,
    documentId: inserted.id,
    title: notificationSubject(sender),
    body: `${kind}, ${pages} page${pages > 1 ? 's' : ''} — ${order.raison_sociale}`,
    link: letterPath(order.id, inserted.id),
    at: letter.at,
  })
  return {
    id: inserted.id,
    orderId: order.id,
    raisonSociale: order.raison_sociale,
    sender,
    kind,
    receivedAt: receivedAt.toISOString(),
    pages,
    read: inserted.read,
    deleted: inserted.deleted,
    folderId: inserted.folder_id,
    pageImages: letter.read?.pages.length ?? 0,
    searchable: !!letter.read?.text,
    deadline: deadline ? { date: deadline.date, amountCents: deadline.amountCents } : null,
  }
}

/** Once its transaction has committed: the letter's link, and the e-mail to whoever wants one per event. */
export async function announceLetter(deps: IngestDeps, document: MailDocument): Promise<IngestedLetter> {
  const link = letterLink(deps.config.publicUrl, document.orderId, document.id)
  return { document, link, ...(await notifyNewLetter(deps, document, link)) }
}

async function notifyNewLetter({ db, mailer, config }: IngestDeps, document: MailDocument, link: string) {
  const notified: string[] = []
  const notificationFailures: string[] = []
  const received = longDate.format(new Date(document.receivedAt))
  // Those who chose the daily digest or no e-mail for this order get none here (server/services/digest.ts).
  for (const person of await peopleWantingEachEmail(db, document.orderId)) {
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

const keyOf = (retry: Retry) => ({ key: retry.key, fingerprint: retry.fingerprint })

export interface NewPackage {
  orderId: number
  carrier: string
  sender: string
  receivedAt?: string
  retry?: Retry
  /** Who asks, for the journal (as NewLetter's). */
  actor?: JournalActor
}

export const packageSubject = 'Nouveau colis'

export interface IngestedPackage {
  parcel: Package
  notified: string[]
  notificationFailures: string[]
  /** An earlier call with the same Idempotency-Key made it: nothing was made or sent this time. */
  replayed?: true
}

/** A package is announced like a letter: the bell, and an e-mail to whoever wants one per event. */
export async function ingestPackage(deps: IngestDeps, parcel: NewPackage): Promise<IngestedPackage> {
  const replay = async (id: number): Promise<IngestedPackage> => ({
    parcel: await getPackage(deps.db, id),
    notified: [],
    notificationFailures: [],
    replayed: true,
  })
  return once(deps.db, 'package', parcel.retry, replay, () => makePackage(deps, parcel))
}

async function makePackage(deps: IngestDeps, parcel: NewPackage): Promise<IngestedPackage> {
  const { db, clock } = deps
  const order = await requireAnyOrder(db, parcel.orderId)
  const carrier = cleanText(parcel.carrier, 'carrier', 100)
  const sender = cleanText(parcel.sender, 'sender', 200)
  const receivedAt = receivedAtOf(parcel.receivedAt, clock.now())
  const created = await db.transaction().execute((trx) =>
    recordPackage(trx, {
      order,
      carrier,
      sender,
      receivedAt,
      at: clock.now(),
      alongside: async (packageId) => {
        if (parcel.retry)
          await trx
            .insertInto('operator_requests')
            .values({ kind: 'package', ...keyOf(parcel.retry), package_id: packageId })
            .execute()
        if (parcel.actor)
          await recordJournal(trx, {
            actor: parcel.actor,
            action: 'package.added',
            orderId: order.id,
            summary: `Colis ajouté pour ${order.raison_sociale} : de ${sender}, par ${carrier}`,
            after: { packageId, carrier, sender },
            at: clock.now(),
          })
      },
    }),
  )
  return announcePackage(deps, created)
}

export interface PackageToRecord {
  order: { id: number; raison_sociale: string }
  carrier: string
  sender: string
  receivedAt: Date
  at: Date
  /** The photo taken at its arrival (the mail room), already stored. */
  photo?: { key: string; contentType: string }
  /** What else the transaction writes, after the package and before the bell's event (a retry's key, the journal). */
  alongside?: (packageId: number) => Promise<void>
}

/** A package's row and the bell's event in the caller's transaction, as the operator API and the mail room both write them. */
export async function recordPackage(trx: Transaction<Database>, parcel: PackageToRecord): Promise<Package> {
  const { order, carrier, sender, receivedAt } = parcel
  const inserted = await insertPackage(trx, {
    order_id: order.id,
    received_at: receivedAt,
    carrier,
    sender,
    status: 'À retirer',
    ...(parcel.photo ? { photo_file_key: parcel.photo.key, photo_type: parcel.photo.contentType } : {}),
  })
  await parcel.alongside?.(inserted.id)
  await recordEvent(trx, {
    kind: 'package',
    orderId: order.id,
    packageId: inserted.id,
    title: packageSubject,
    body: `De ${sender}, par ${carrier} — ${order.raison_sociale}`,
    link: '/mes-courriers/colis',
    at: parcel.at,
  })
  return {
    id: inserted.id,
    orderId: order.id,
    raisonSociale: order.raison_sociale,
    receivedAt: receivedAt.toISOString(),
    carrier,
    sender,
    status: inserted.status,
    collectedAt: null,
    collectedBy: null,
  }
}

/** Once its transaction has committed: the e-mail to whoever wants one per event. */
export async function announcePackage(deps: IngestDeps, parcel: Package): Promise<IngestedPackage> {
  return { parcel, ...(await notifyNewPackage(deps, parcel)) }
}

async function notifyNewPackage({ db, mailer, config }: IngestDeps, parcel: Package) {
  const notified: string[] = []
  const notificationFailures: string[] = []
  const link = `${config.publicUrl}/mes-courriers/colis`
  const received = longDate.format(new Date(parcel.receivedAt))
  for (const person of await peopleWantingEachEmail(db, parcel.orderId)) {
    try {
      await mailer.send({
        to: person.email,
        subject: packageSubject,
        text: `Bonjour ${person.firstname},\n\nUn colis de ${parcel.sender} (${parcel.carrier}) est arrivé le ${received} pour ${parcel.raisonSociale}. Il vous attend.\n\nSuivez-le dans votre espace client :\n${link}\n\n${config.brandName}`,
        link,
      })
      notified.push(person.email)
    } catch {
      notificationFailures.push(person.email)
    }
  }
  return { notified, notificationFailures }
}

export interface NewInvoice {
  orderId: number
  number: string
  date?: string
  amountExclTaxCents: number
  amountInclTaxCents: number
  paid?: boolean
  bytes: Uint8Array
  retry?: Retry
  /** Who asks, for the journal (as NewLetter's). */
  actor?: JournalActor
}

export interface IngestedInvoice {
  invoice: Invoice
  /** An earlier call with the same Idempotency-Key made it: nothing was made this time. */
  replayed?: true
}

/** What an invoice number may hold: it names the PDF the customer downloads (facture-{number}.pdf). */
const INVOICE_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * An invoice issued for an order: its PDF checked by content and stored with its row (neither without the other),
 * its number unique, and the bell's "Nouvelle facture" committed with it.
 */
/** The highest VAT rate in France (20 %), and the rounding of an invoice's lines: a few cents at most. */
export const maxInclTaxCents = (exclTaxCents: number) => Math.round(exclTaxCents * 1.2) + 5
export const INVOICE_TAX_TOO_HIGH =
  'Le montant TTC (« amountInclTaxCents ») dépasse le montant HT (« amountExclTaxCents ») augmenté de la TVA à 20 % : vérifiez les deux montants, en centimes.'

export const ZERO_INVOICE_UNPAID = 'Une facture de 0 € n’a rien à régler : enregistrez-la comme réglée (« paid »: true).'

/**
 * An invoice is made once per Idempotency-Key too: without one, a retry after a lost answer met 409 « existe déjà », the
 * same answer as another order's invoice of that number.
 */
export async function ingestInvoice(deps: IngestDeps, invoice: NewInvoice): Promise<IngestedInvoice> {
  const replay = async (id: number): Promise<IngestedInvoice> => ({ invoice: await getInvoice(deps.db, id), replayed: true })
  return once(deps.db, 'invoice', invoice.retry, replay, async () => ({ invoice: await makeInvoice(deps, invoice) }))
}

async function makeInvoice(deps: IngestDeps, invoice: NewInvoice): Promise<Invoice> {
  const { db, storage, clock } = deps
  const order = await requireAnyOrder(db, invoice.orderId)
  const number = invoice.number.trim()
  if (!INVOICE_NUMBER.test(number)) {
    throw badRequest(
      'Le champ « reference » ne peut contenir que des lettres sans accent, des chiffres, des points, des tirets et des soulignés (et doit commencer par une lettre ou un chiffre).',
    )
  }
  if (invoice.amountInclTaxCents < invoice.amountExclTaxCents)
    throw badRequest('Le montant TTC (« amountInclTaxCents ») ne peut pas être inférieur au montant HT (« amountExclTaxCents »).')
  // A tax above the highest French rate is a mix-up (cents for euros, HT and TTC of two invoices) that the customer would
  // be shown and asked to pay (HT 0 with TTC 50 €, or a TTC 10⁸ times the HT, were taken).
  if (invoice.amountInclTaxCents > maxInclTaxCents(invoice.amountExclTaxCents)) throw badRequest(INVOICE_TAX_TOO_HIGH)
  // A customer could never pay it: a charge is of 1 cent at least.
  if (invoice.amountInclTaxCents === 0 && !invoice.paid) throw badRequest(ZERO_INVOICE_UNPAID)
  const now = clock.now()
  const date = receivedAtOf(invoice.date, now, 'date')
  await checkedPdf(invoice.bytes, 'La facture')
  const key = newFileKey('invoices', 'pdf')
  const paid = invoice.paid ?? false
  const row = await storeWithRecord(storage, [{ key, bytes: invoice.bytes }], () =>
    db.transaction().execute(async (trx) => {
      if (!(await invoiceNumberFree(trx, number)))
        throw conflict(`La facture ${number} existe déjà : elle n’a pas été enregistrée une seconde fois.`)
      const inserted = await insertInvoice(trx, {
        order_id: order.id,
        number,
        date,
        amount_excl_tax_cents: invoice.amountExclTaxCents,
        amount_incl_tax_cents: invoice.amountInclTaxCents,
        paid_at: paid ? now : null,
        payment_reference: null,
        file_key: key,
        payment_attempt_id: null,
      })
      if (invoice.retry)
        await trx
          .insertInto('operator_requests')
          .values({ kind: 'invoice', ...keyOf(invoice.retry), invoice_id: inserted.id })
          .execute()
      if (invoice.actor)
        await recordJournal(trx, {
          actor: invoice.actor,
          action: 'invoice.added',
          orderId: order.id,
          summary: `Facture ${number} ajoutée pour ${order.raison_sociale} : ${eurosText(invoice.amountInclTaxCents)} TTC${paid ? ', réglée' : ''}`,
          after: { invoiceId: inserted.id, number, amountInclTaxCents: invoice.amountInclTaxCents, paid },
          at: now,
        })
      await recordEvent(trx, {
        kind: 'invoice',
        orderId: order.id,
        ...invoiceEvent(number, invoice.amountInclTaxCents, order.raison_sociale),
        at: now,
      })
      return inserted
    }),
  )
  return {
    id: row.id,
    domId: order.id,
    raisonSociale: order.raison_sociale,
    number,
    date: date.toISOString(),
    amountExclTaxCents: invoice.amountExclTaxCents,
    amountInclTaxCents: invoice.amountInclTaxCents,
    paid,
  }
}
