// « Mes données » (RGPD art. 15 and 20): the background job that writes the ZIP of everything a person can see in the
// portal (docs/LEGAL.md lists it). The archive (archiver) is written as a stream from storage to storage: each letter's
// PDF is read from its file while the ZIP is written to its own, one entry at a time, so the server holds at most one
// entry's buffers whatever the number of letters (`npm run bench:export`). The lists (metadata, letters' text) are read
// from the database first: a few megabytes for years of mail.
import { ZipArchive } from 'archiver'
import type { Readable } from 'node:stream'
import type { Logger } from 'pino'
import {
  exportAccount,
  exportBills,
  exportCertificates,
  exportCourierRequests,
  exportLetters,
  exportNotificationChoices,
  exportOfJob,
  exportOrders,
  exportPackages,
  exportPayments,
  exportConversationMessages,
  expireExports,
  markExportReady,
  setExportProgress,
} from '../db/repositories/people-exports.ts'
import { findCertificate } from '../db/repositories/billing.ts'
import type { AppDeps } from '../deps.ts'
import { longDate } from '../lib/time.ts'
import { certificateFile, contractFile } from '../routes/billing/certificates.ts'
import type { JobHandler } from './jobs.ts'
import { newFileKey } from './storage.ts'

export const DATA_EXPORT_JOB = 'data-export'
/** How long the ZIP may be downloaded (the e-mail says so); the cleanup removes it then. */
export const EXPORT_DAYS = 7
/** Tries of an export: a storage or payment provider's hiccup is met again a little later. */
export const EXPORT_ATTEMPTS = 3

type ExportDeps = Pick<AppDeps, 'db' | 'storage' | 'payments' | 'config' | 'clock' | 'mailer'>

/** A name as a file name in the ZIP: readable (accents kept), without what a file system refuses, not too long. */
export function zipName(text: string, max = 80): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
  return (clean.length > max ? clean.slice(0, max).trim() : clean) || 'sans nom'
}

/** 2026-11-03 in Paris time: a letter's file name sorts by date. */
// One formatter for the module: making one per letter costs ICU's native memory, which the GC sees late (+100 MB for 2,000).
const parisDayFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' })
const parisDay = (date: Date) => parisDayFormat.format(date)

/** A letter's file in the ZIP: « Courrier/Boulangerie des Lilas SAS/2026-11-03 DGFiP (courrier 812).pdf », unique by its id. */
export const letterEntryName = (folder: string, letter: { id: number; sender: string; received_at: Date }) =>
  `Courrier/${folder}/${parisDay(letter.received_at)} ${zipName(letter.sender, 60)} (courrier ${letter.id}).pdf`

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString())

/** A CSV cell: quoted when it must be; a text that a spreadsheet would run as a formula is prefixed with a quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  let text = value instanceof Date ? value.toISOString() : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A CSV as French spreadsheets open it: `;` between cells, CRLF, a byte-order mark for UTF-8. */
export function toCsv(rows: Record<string, unknown>[], columns?: string[]): string {
  const header = columns ?? Object.keys(rows[0] ?? {})
  const lines = [header.map(cell).join(';'), ...rows.map((row) => header.map((column) => cell(row[column])).join(';'))]
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

interface Entry {
  name: string
  /** A stored file (read as a stream when its turn comes), or bytes made here. */
  source: { key: string } | { make: () => Promise<Uint8Array | string> }
  /** PDFs are compressed already: stored as they are. */
  store: boolean
}

/** Everything the export holds for a person, as the entries of the ZIP and the files of data. */
async function gather(deps: ExportDeps, userId: number) {
  const { db, config } = deps
  const account = await exportAccount(db, userId)
  const orders = await exportOrders(db, userId)
  const orderIds = orders.map((o) => o.id)
  const owned = orders.filter((o) => o.role === 'titulaire')
  // One folder per order, by its name; two orders of the same name are told apart by their number.
  const names = new Map<string, number>()
  for (const o of orders) names.set(o.raison_sociale, (names.get(o.raison_sociale) ?? 0) + 1)
  const folderOf = new Map(
    orders.map((o) => [o.id, zipName(names.get(o.raison_sociale)! > 1 ? `${o.raison_sociale} (${o.id})` : o.raison_sociale, 60)]),
  )
  const nameOf = new Map(orders.map((o) => [o.id, o.raison_sociale]))
  const letters = await exportLetters(db, orderIds)
  const packages = await exportPackages(db, orderIds)
  const requests = await exportCourierRequests(db, orderIds)
  const { invoices, creditNotes } = await exportBills(db, orderIds)
  const payments = await exportPayments(db, userId)
  const conversations = await exportConversationMessages(db, orderIds)
  const choices = await exportNotificationChoices(db, userId, orderIds)
  const certificates = await exportCertificates(
    db,
    owned.map((o) => o.id),
  )

  const data = {
    compte: {
      prenom: account.user.firstname,
      nom: account.user.lastname,
      email: account.user.email,
      emailVerifie: account.user.email_verified,
      telephone: account.user.phone,
      creeLe: iso(account.user.created_at),
    },
    clesAcces: account.passkeys.map((p) => ({ nom: p.name, ajouteeLe: iso(p.created_at), derniereUtilisation: iso(p.last_used_at) })),
    appareilsConnectes: account.sessions.map((s) => ({
      navigateur: s.user_agent,
      connecteLe: iso(s.created_at),
      derniereUtilisation: iso(s.last_used_at),
      expireLe: iso(s.expires_at),
    })),
    domiciliations: orders.map((o) => ({
      numero: o.id,
      raisonSociale: o.raison_sociale,
      siren: o.siren,
      formeJuridique: o.legal_form,
      role: o.role,
      statut: o.status,
      commandeLe: iso(o.order_date),
      debut: o.starts_on,
      adresseDomiciliation: o.domiciliation_address,
      ...(o.role === 'titulaire'
        ? {
            contratSigneLe: iso(o.signed_at),
            adresseReexpedition:
              [
                o.adresse_postale_expedition,
                o.adresse_complement_postale_expedition,
                [o.code_postale_expedition, o.ville_postale_expedition].filter(Boolean).join(' '),
                o.pays_postale_expedition,
              ]
                .filter(Boolean)
                .join(', ') || null,
            kbisDeposeLe: iso(o.kbis_filed_at),
            kbisValideLe: iso(o.kbis_validated_at),
          }
        : {}),
    })),
    courriers: letters.map((l) => ({
      numero: l.id,
      domiciliation: nameOf.get(l.order_id)!,
      expediteur: l.sender,
      type: l.kind,
      recuLe: iso(l.received_at),
      pages: l.pages,
      lu: l.read,
      dossier: l.folder,
      echeance: l.deadline_date === null ? null : String(l.deadline_date instanceof Date ? parisDay(l.deadline_date) : l.deadline_date),
      montantEcheanceCentimes: l.deadline_amount_cents,
      fichier: letterEntryName(folderOf.get(l.order_id)!, l),
      texte: l.text,
    })),
    colis: packages.map((p) => ({
      numero: p.id,
      domiciliation: nameOf.get(p.order_id)!,
      recuLe: iso(p.received_at),
      transporteur: p.carrier,
      expediteur: p.sender,
      statut: p.status,
      retireLe: iso(p.collected_at),
      retirePar: p.collected_by,
    })),
    demandesCourrier: requests.map((r) => ({
      numero: r.id,
      domiciliation: nameOf.get(r.order_id)!,
      type: r.kind,
      statut: r.status,
      demandeeLe: iso(r.created_at),
      nombreCourriers: r.letter_count,
      courriers: r.letter_ids,
      issue: r.outcome,
      traiteeLe: iso(r.processed_at),
      transporteur: r.carrier,
      numeroSuivi: r.tracking_number,
      motifImpossible: r.impossible_reason,
    })),
    factures: invoices.map((i) => ({
      numero: i.number,
      domiciliation: nameOf.get(i.order_id)!,
      date: iso(i.date),
      montantHtCentimes: i.amount_excl_tax_cents,
      montantTtcCentimes: i.amount_incl_tax_cents,
      payeeLe: iso(i.paid_at),
      referencePaiement: i.payment_reference,
    })),
    avoirs: creditNotes.map((n) => ({
      numero: n.number,
      domiciliation: nameOf.get(n.order_id)!,
      date: iso(n.date),
      montantHtCentimes: n.amount_excl_tax_cents,
      montantTtcCentimes: n.amount_incl_tax_cents,
      facture: n.invoice_number,
    })),
    paiements: payments.map((p) => ({
      numero: p.id,
      montantCentimes: p.amount_cents,
      libelle: p.description,
      statut: p.status,
      echec: p.failure,
      tenteLe: iso(p.created_at),
      regleLe: iso(p.settled_at),
    })),
    echanges: conversations.map((m) => ({
      conversation: m.conversation_id,
      domiciliation: nameOf.get(m.order_id)!,
      sujet: m.subject,
      statut: m.status === 'open' ? 'ouverte' : 'close',
      auteur: m.author_operator_id !== null ? `${m.operator_name ?? ''} (équipe)` : `${m.firstname ?? ''} ${m.lastname ?? ''}`.trim(),
      ecritLe: iso(m.created_at),
      message: m.body,
    })),
    preferencesNotifications: choices.map((c) => ({ domiciliation: nameOf.get(c.order_id)!, email: c.email })),
  }

  const entries: Entry[] = []
  const notes: string[] = []
  for (const letter of letters)
    entries.push({ name: letterEntryName(folderOf.get(letter.order_id)!, letter), source: { key: letter.file_key }, store: true })
  for (const i of invoices)
    entries.push({
      name: `Factures/${folderOf.get(i.order_id)}/Facture ${zipName(i.number)}.pdf`,
      source: { key: i.file_key },
      store: true,
    })
  for (const n of creditNotes)
    entries.push({ name: `Avoirs/${folderOf.get(n.order_id)}/Avoir ${zipName(n.number)}.pdf`, source: { key: n.file_key }, store: true })
  if (certificates.length && !config.prefectureApproval)
    notes.push(
      'Les attestations de domiciliation ne sont pas jointes : le domiciliataire doit d’abord configurer son agrément préfectoral.',
    )
  else
    for (const c of certificates)
      entries.push({
        name: `Attestations/${folderOf.get(c.order_id)}/Attestation ${zipName(c.code)}.pdf`,
        source: {
          make: async () => {
            const certificate = (await findCertificate(db, c.code))!
            return (await certificateFile(config, certificate)).bytes
          },
        },
        store: true,
      })
  if (owned.some((o) => o.contract_id !== null) && !config.prefectureApproval)
    notes.push('Les contrats ne sont pas joints : le domiciliataire doit d’abord configurer son agrément préfectoral.')
  else
    for (const o of owned)
      if (o.contract_id !== null)
        entries.push({
          name: `Contrats/${folderOf.get(o.id)}/Contrat ${o.contract_id}.pdf`,
          source: { make: async () => (await contractFile(deps, { id: o.contract_id!, order_id: o.id })).bytes },
          store: true,
        })

  const csv: [string, Record<string, unknown>[]][] = [
    ['compte', [data.compte]],
    ['cles-acces', data.clesAcces],
    ['appareils-connectes', data.appareilsConnectes],
    ['domiciliations', data.domiciliations],
    ['courriers', data.courriers],
    ['colis', data.colis],
    ['demandes-courrier', data.demandesCourrier],
    ['factures', data.factures],
    ['avoirs', data.avoirs],
    ['paiements', data.paiements],
    ['echanges', data.echanges],
    ['preferences-notifications', data.preferencesNotifications],
  ]
  const exportedAt = deps.clock.now()
  entries.push({
    name: 'Données/donnees.json',
    source: { make: async () => JSON.stringify({ exporteLe: exportedAt.toISOString(), ...data }, null, 2) },
    store: false,
  })
  for (const [name, rows] of csv)
    entries.push({ name: `Données/${name}.csv`, source: { make: async () => toCsv(rows, columnsOf(rows, name, data)) }, store: false })
  entries.push({ name: 'LISEZMOI.txt', source: { make: async () => readme(config.brandName, exportedAt, data, notes) }, store: false })
  return { entries, letters: letters.length, email: account.user.email, firstname: account.user.firstname }
}

/** The columns of a CSV, even an empty one (its header says what it would hold). */
function columnsOf(rows: Record<string, unknown>[], name: string, data: Record<string, unknown>): string[] {
  if (rows[0]) {
    // Every row's keys (an order owned has more than a shared one).
    const keys = new Set<string>()
    for (const row of rows) for (const key of Object.keys(row)) keys.add(key)
    return [...keys]
  }
  return EMPTY_COLUMNS[name] ?? Object.keys((data[name] as Record<string, unknown>[] | undefined)?.[0] ?? {})
}

const EMPTY_COLUMNS: Record<string, string[]> = {
  'cles-acces': ['nom', 'ajouteeLe', 'derniereUtilisation'],
  'appareils-connectes': ['navigateur', 'connecteLe', 'derniereUtilisation', 'expireLe'],
  domiciliations: ['numero', 'raisonSociale', 'siren', 'formeJuridique', 'role', 'statut'],
  courriers: ['numero', 'domiciliation', 'expediteur', 'type', 'recuLe', 'pages', 'lu', 'dossier', 'fichier', 'texte'],
  colis: ['numero', 'domiciliation', 'recuLe', 'transporteur', 'expediteur', 'statut', 'retireLe', 'retirePar'],
  'demandes-courrier': ['numero', 'domiciliation', 'type', 'statut', 'demandeeLe', 'nombreCourriers', 'courriers', 'issue'],
  factures: ['numero', 'domiciliation', 'date', 'montantHtCentimes', 'montantTtcCentimes', 'payeeLe', 'referencePaiement'],
  avoirs: ['numero', 'domiciliation', 'date', 'montantHtCentimes', 'montantTtcCentimes', 'facture'],
  paiements: ['numero', 'montantCentimes', 'libelle', 'statut', 'echec', 'tenteLe', 'regleLe'],
  echanges: ['conversation', 'domiciliation', 'sujet', 'statut', 'auteur', 'ecritLe', 'message'],
  'preferences-notifications': ['domiciliation', 'email'],
}

function readme(brandName: string, at: Date, data: { courriers: unknown[]; factures: unknown[]; avoirs: unknown[] }, notes: string[]) {
  return [
    `Vos données — ${brandName}`,
    `Préparées le ${longDate.format(at)}.`,
    '',
    'Ce dossier contient tout ce que vous voyez dans votre espace client :',
    `- Courrier/ : le PDF de chacun de vos ${data.courriers.length} courriers, par domiciliation, nommé par sa date de réception et son expéditeur ;`,
    `- Factures/ et Avoirs/ : vos ${data.factures.length} factures et ${data.avoirs.length} avoirs ;`,
    '- Attestations/ et Contrats/ : les attestations de domiciliation délivrées et les contrats des domiciliations dont vous êtes titulaire ;',
    '- Données/donnees.json : toutes vos données dans un seul fichier lisible par un programme (RGPD, article 20) ;',
    '- Données/*.csv : les mêmes données en tableaux (séparateur « ; », encodage UTF-8), qu’un tableur ouvre directement.',
    '',
    'Les montants sont en centimes d’euro, les dates au format ISO 8601 (UTC). Un texte commençant par =, +, - ou @ est',
    'précédé d’une apostrophe dans les CSV, pour qu’aucun tableur ne l’exécute comme une formule.',
    ...(notes.length ? ['', ...notes] : []),
    '',
    'Pour toute question sur vos données, consultez notre politique de confidentialité.',
    '',
  ].join('\r\n')
}

/** Waits for the archive to take in its current entry (or to fail). */
function entryDone(archive: ZipArchive): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      archive.off('error', failed)
      resolve()
    }
    const failed = (error: Error) => {
      archive.off('entry', done)
      reject(error)
    }
    archive.once('entry', done)
    archive.once('error', failed)
  })
}

/** The mail that says the ZIP is ready, with the page where it is downloaded (signed in: it is for this person only). */
export function exportReadyMail(config: AppDeps['config'], to: string, firstname: string, expiresAt: Date) {
  const link = `${config.publicUrl}/informations-personnelles#mes-donnees`
  return {
    to,
    subject: `${config.brandName} : vos données sont prêtes`,
    text: `Bonjour ${firstname},\n\nL’archive de vos données (vos courriers, factures, attestations, contrats et vos informations) est prête.\n\nTéléchargez-la depuis votre espace client, connecté à votre compte, jusqu’au ${longDate.format(expiresAt)} : ${link}\n\nPassé ce délai de ${EXPORT_DAYS} jours, elle sera supprimée ; vous pourrez en préparer une nouvelle.\n\nSi vous n’êtes pas à l’origine de cette demande, changez votre mot de passe et écrivez à ${config.supportEmail}.\n\n${config.brandName}`,
    link,
  }
}

/** The job: the ZIP written from storage to storage, its progress kept, then the export marked ready and the person told. */
export function dataExportJob(deps: ExportDeps, log?: Pick<Logger, 'error' | 'warn'>): JobHandler {
  const { db, storage, clock, mailer, config } = deps
  return async ({ job, finish, signal }) => {
    const exportId = Number((job.payload as { exportId: number }).exportId)
    const row = await exportOfJob(db, exportId)
    // Gone with its account, or prepared already: nothing to do.
    if (row?.state !== 'preparing') return void (await finish(async () => undefined))
    const { entries, letters, email, firstname } = await gather(deps, row.user_id)
    const key = newFileKey('exports', 'zip')
    const archive = new ZipArchive({ zlib: { level: 6 } })
    const written = storage.putStream(key, archive, signal)
    written.catch(() => {}) // awaited below; a failure meanwhile also fails the entry being appended
    let shown = 0
    try {
      for (const [i, entry] of entries.entries()) {
        if (signal.aborted) throw signal.reason
        let source: Readable | Buffer | string
        if ('key' in entry.source) {
          const file = await storage.read(entry.source.key)
          if (!file) throw new Error(`fichier absent du stockage : ${entry.source.key}`)
          source = file.stream
        } else {
          const made = await entry.source.make()
          source = typeof made === 'string' ? made : Buffer.from(made)
        }
        const taken = entryDone(archive)
        archive.append(source, { name: entry.name, store: entry.store, date: clock.now() })
        await Promise.race([taken, written])
        const progress = Math.floor(((i + 1) / entries.length) * 99)
        if (progress > shown) {
          shown = progress
          await setExportProgress(db, exportId, progress)
        }
      }
      await archive.finalize()
      const bytes = await written
      const readyAt = clock.now()
      const expiresAt = new Date(readyAt.getTime() + EXPORT_DAYS * 86_400_000)
      await finish((trx) => markExportReady(trx, exportId, { key, bytes, letters, readyAt, expiresAt }))
      try {
        await mailer.send(exportReadyMail(config, email, firstname, expiresAt))
      } catch (error) {
        // The page shows the ZIP ready whatever the mail server does.
        log?.warn({ err: error, export: exportId }, 'e-mail « vos données sont prêtes » non envoyé')
      }
    } catch (error) {
      archive.abort()
      await written.catch(() => undefined)
      await storage.delete(key).catch(() => undefined)
      throw error
    }
  }
}

/** The cleanup (with the storage sweep): exports past their 7 days marked expired and their files removed; how many. */
export async function expireDataExports({ db, storage, now }: Pick<AppDeps, 'db' | 'storage'> & { now: Date }): Promise<number> {
  const keys = await expireExports(db, now)
  for (const key of keys) await storage.delete(key)
  return keys.length
}
