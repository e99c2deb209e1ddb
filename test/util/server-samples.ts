// A valid request for every route of the table, on Camille's demo data: the happy-path tests and the
// access matrix are built from it, and `Record<RouteName, …>` makes a new route without a sample a type error.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Kysely } from 'kysely'
import { PDFDocument } from 'pdf-lib'
import { routes, type RouteName } from '../../server/contract/routes.ts'
import type { Database } from '../../server/db/schema.ts'
import { subscriptionKey } from '../../server/lib/crypto.ts'
import { luhnValid } from '../../server/contract/rules/company.ts'
import { parisDay } from '../../server/lib/time.ts'
import { kbisTag } from '../../server/routes/company/operator.ts'
import { buildTestApp, DEMO_PASSWORD, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from './server.ts'
import { SoftPasskey } from './webauthn.ts'
import { complianceSamples, type ComplianceSamples } from './compliance-samples.ts'

export interface DemoIds {
  camille: number
  /** Boulangerie des Lilas SAS: Camille owns it, Julien is a collaborator. */
  order: number
  /** Studio Nuage SAS: Julien owns it, shared with Camille. */
  sharedOrder: number
  /** Conseil Horizon EURL: the manager's ID document is missing. */
  missingDocsOrder: number
  contract: number
  /** The ETag of that contract's filed Kbis (GET /api/operator/contracts/{id}/kbis), for the validation's If-Match. */
  contractKbisTag: string
  document: number
  folder: number
  share: number
  mandataire: number
  pendingCourierRequest: number
  invoice: number
  creditNote: number
  subscriptionKey: string
  /** people: a passkey of Camille's (a software one, test/util/webauthn.ts). */
  passkey: number
  /** company area: Studio Nuage's change of manager, 'En cours' (Julien's order, shared with Camille). */
  legalSubmission: number
  /** billing: the demo certificate of the Boulangerie. */
  certificate: string
  /** notifications: the newest event of the Boulangerie. */
  notification: number
  /** operators: an operator that the samples may change and deactivate (Conformité), made once per database. */
  spareOperator: number
  /** operators: an API key that the samples may revoke, made once per database (its key is never used). */
  spareApiKey: number
  /** the mail room: what its samples read, change and use up, made once per database (mailRoomSamples). */
  mailRoom: MailRoomSamples
  /** operators: a passkey of the demo administrator's (a software one), made once per database. */
  operatorPasskey: number
  /** people: a ready « Mes données » export of Camille's (its file the sample letter's bytes), made once per database. */
  dataExport: number
  /**
   * Justificatifs and Formalités juridiques: what their samples read, decide and move (complianceSamples). Made only when
   * asked (`demoIds(db, { compliance: true })`, the tests that send every route's sample): their 12 orders would
   * change the demo's counts that the other tests check exactly.
   */
  compliance?: ComplianceSamples
  /**
   * Messages and Résiliations: what their samples read, change and use up (messagesSamples), made once per database, and
   * only when asked (`{ messages: true }`): their 24 orders and their customer would change the demo's exact counts.
   */
  messages?: MessagesSamples
}

export interface DemoOptions {
  /** Make the Justificatifs and Formalités samples (complianceSamples) too. */
  compliance?: boolean
  /** Make the Messages and Résiliations samples (messagesSamples) too. */
  messages?: boolean
}

/**
 * Messages and Résiliations: a conversation of the Boulangerie (Camille wrote it; Julien, its collaborator, sees it), pools
 * of open and closed ones to close and reopen, and termination requests to accept or answer, each on an order of its own
 * (one request per order) owned by a customer of its own.
 */
export interface MessagesSamples {
  conversation: number
  conversationsToClose: number[]
  conversationsToReopen: number[]
  terminationsToAccept: number[]
  terminationsToContact: number[]
}
const TERMINATIONS_OWNER = 'resiliations@example.com'
const messagesTaken = { close: 0, reopen: 0, accept: 0, contact: 0 }
const takeMessages = (pool: number[], which: keyof typeof messagesTaken) => pool[messagesTaken[which]++ % pool.length]!

async function messagesSamples(db: Kysely<Database>, order: number, camille: number): Promise<MessagesSamples> {
  const conversations = async (subject: string) =>
    (await db.selectFrom('conversations').select('id').where('subject', '=', subject).orderBy('id').execute()).map((r) => r.id)
  const terminations = async (reason: string) =>
    (await db.selectFrom('termination_requests').select('id').where('reason', '=', reason).orderBy('id').execute()).map((r) => r.id)
  const held = await conversations('Échantillon : une conversation')
  if (held.length > 0)
    return {
      conversation: held[0]!,
      conversationsToClose: await conversations('Échantillon : à clore'),
      conversationsToReopen: await conversations('Échantillon : à rouvrir'),
      terminationsToAccept: await terminations('Échantillon : à accepter'),
      terminationsToContact: await terminations('Échantillon : à contacter'),
    }
  const conversation = async (subject: string, closed: boolean) => {
    const row = await db
      .insertInto('conversations')
      .values({
        order_id: order,
        subject,
        status: closed ? 'closed' : 'open',
        waiting_since: closed ? null : new Date(),
        closed_at: closed ? new Date() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('conversation_messages')
      .values({ conversation_id: row.id, author_user_id: camille, body: 'Un courrier manque.' })
      .execute()
    return row.id
  }
  const pool = Array.from({ length: MAIL_ROOM_POOL }, (_, i) => i)
  const first = await conversation('Échantillon : une conversation', false)
  const conversationsToClose = []
  for (const _ of pool) conversationsToClose.push(await conversation('Échantillon : à clore', false))
  const conversationsToReopen = []
  for (const _ of pool) conversationsToReopen.push(await conversation('Échantillon : à rouvrir', true))
  const camilleRow = await db.selectFrom('users').select('password_hash').where('id', '=', camille).executeTakeFirstOrThrow()
  const owner = await db
    .insertInto('users')
    .values({ email: TERMINATIONS_OWNER, password_hash: camilleRow.password_hash, firstname: 'Marc', lastname: 'Roussel' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const termination = async (reason: string, i: number) => {
    const made = await db
      .insertInto('orders')
      .values({
        owner_id: owner.id,
        raison_sociale: `Résiliation ${i} SARL`,
        order_date: new Date(),
        status: 'Finalisé',
        domiciliation_address: '10 rue de la Paix, 75002 Paris',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const row = await db
      .insertInto('termination_requests')
      .values({ order_id: made.id, user_id: owner.id, reason, date: TERMINATION_DATE })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }
  const terminationsToAccept = []
  for (const i of pool) terminationsToAccept.push(await termination('Échantillon : à accepter', i))
  const terminationsToContact = []
  for (const i of pool) terminationsToContact.push(await termination('Échantillon : à contacter', MAIL_ROOM_POOL + i))
  return { conversation: first, conversationsToClose, conversationsToReopen, terminationsToAccept, terminationsToContact }
}

/**
 * The mail room's samples: a scan to read (its file and page are the sample letter's), and pools that the samples use
 * one item per call (a scan is published or deleted once, a package handed over once, a request processed once).
 */
export interface MailRoomSamples {
  /** Its own order (MAIL_ROOM_ORDER), with a forwarding address. */
  order: number
  scanToRead: number
  scansToPublish: number[]
  scansToDelete: number[]
  waitingPackages: number[]
  pendingForwarding: number[]
}
const MAIL_ROOM_POOL = 12
export const MAIL_ROOM_ORDER = 'Échantillons du Courrier SAS'
const poolTaken = { publish: 0, delete: 0, handOver: 0, forwarding: 0, validate: 0, refuse: 0, formality: 0 }
const take = <T = number>(pool: T[], which: keyof typeof poolTaken): T => pool[poolTaken[which]++ % pool.length]!

async function mailRoomSamples(db: Kysely<Database>, document: number): Promise<MailRoomSamples> {
  const held = await db.selectFrom('mail_scans').select('id').where('file_name', '=', 'échantillon-lecture.pdf').executeTakeFirst()
  const operator = (await db.selectFrom('operators').select('id').where('email', '=', 'courrier@example.com').executeTakeFirstOrThrow()).id
  if (held) {
    const named = async (fileName: string) =>
      (await db.selectFrom('mail_scans').select('id').where('file_name', '=', fileName).orderBy('id').execute()).map((r) => r.id)
    const order = (await db.selectFrom('orders').select('id').where('raison_sociale', '=', MAIL_ROOM_ORDER).executeTakeFirstOrThrow()).id
    return {
      order,
      scanToRead: held.id,
      scansToPublish: await named('échantillon-publication.pdf'),
      scansToDelete: await named('échantillon-suppression.pdf'),
      waitingPackages: (await db.selectFrom('packages').select('id').where('order_id', '=', order).orderBy('id').execute()).map(
        (r) => r.id,
      ),
      pendingForwarding: (await db.selectFrom('courier_requests').select('id').where('order_id', '=', order).orderBy('id').execute()).map(
        (r) => r.id,
      ),
    }
  }
  // An order of its own, so that the demo's counts stay as they are: owned by a customer of its own, with a forwarding address.
  const camille = await db.selectFrom('users').select('password_hash').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  const owner = await db
    .insertInto('users')
    .values({ email: 'echantillons@example.com', password_hash: camille.password_hash, firstname: 'Paul', lastname: 'Girard' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { id: order } = await db
    .insertInto('orders')
    .values({
      owner_id: owner.id,
      raison_sociale: MAIL_ROOM_ORDER,
      order_date: new Date(),
      status: 'Finalisé',
      siren: '552 100 554',
      domiciliation_address: '10 rue de la Paix, 75002 Paris',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('contracts')
    .values({
      order_id: order,
      adresse_postale_expedition: '4 place Bellecour',
      code_postale_expedition: '69002',
      ville_postale_expedition: 'Lyon',
      pays_postale_expedition: 'France',
    })
    .execute()
  const letter = await db.selectFrom('documents').select(['file_key', 'pages']).where('id', '=', document).executeTakeFirstOrThrow()
  const page = await db
    .selectFrom('document_pages')
    .selectAll()
    .where('document_id', '=', document)
    .where('page', '=', 1)
    .executeTakeFirstOrThrow()
  const scan = (fileName: string, fileKey: string, confirmed: boolean) =>
    db
      .insertInto('mail_scans')
      .values({
        file_key: fileKey,
        file_name: fileName,
        pages: letter.pages,
        uploaded_by: operator,
        uploaded_at: new Date(),
        reading: 'terminée',
        text: `Moulins Bourgeois\n${MAIL_ROOM_ORDER}\nFacture de farines`,
        suggested_order_id: order,
        suggestion_confidence: 'probable',
        suggestion_reason: `« ${MAIL_ROOM_ORDER} » dans l’adresse du destinataire, page 1`,
        suggested_sender: 'Moulins Bourgeois',
        order_id: order,
        sender: 'Moulins Bourgeois',
        confirmed_at: confirmed ? new Date() : null,
        confirmed_by: confirmed ? operator : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  const toRead = await scan('échantillon-lecture.pdf', letter.file_key, false)
  await db
    .insertInto('mail_scan_pages')
    .values({ ...page, scan_id: toRead.id, document_id: undefined } as never)
    .execute()
  const pool = Array.from({ length: MAIL_ROOM_POOL }, (_, i) => i)
  // Keys of files that do not exist: publishing does not read the file, a deletion removes nothing of the demo's.
  const scansToPublish = []
  for (const i of pool)
    scansToPublish.push((await scan('échantillon-publication.pdf', `documents/echantillons/publication-${i}.pdf`, true)).id)
  const scansToDelete = []
  for (const i of pool)
    scansToDelete.push((await scan('échantillon-suppression.pdf', `documents/echantillons/suppression-${i}.pdf`, false)).id)
  // The first has a photo (the sample letter's PDF, which nothing removes): a photo may be a PDF.
  const waitingPackages = []
  for (const i of pool)
    waitingPackages.push(
      (
        await db
          .insertInto('packages')
          .values({
            order_id: order,
            received_at: new Date(Date.now() - 86_400_000),
            carrier: 'Colissimo',
            sender: 'Échantillon',
            status: 'À retirer',
            ...(i === 0 ? { photo_file_key: letter.file_key, photo_type: 'application/pdf' } : {}),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    )
  const pendingForwarding = []
  for (const _ of pool)
    pendingForwarding.push(
      (
        await db
          .insertInto('courier_requests')
          .values({ order_id: order, kind: 'réexpédition', status: 'en attente', letter_count: 99 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    )
  return { order, scanToRead: toRead.id, scansToPublish, scansToDelete, waitingPackages, pendingForwarding }
}

export async function demoIds(db: Kysely<Database>, options: DemoOptions = {}): Promise<DemoIds> {
  const orderId = async (name: string) =>
    (await db.selectFrom('orders').select('id').where('raison_sociale', '=', name).executeTakeFirstOrThrow()).id
  const order = await orderId('Boulangerie des Lilas SAS')
  const first = async <T extends 'contracts' | 'documents' | 'folders' | 'shares' | 'mandataires' | 'invoices' | 'credit_notes'>(
    table: T,
  ) =>
    (
      await db
        .selectFrom(table as 'contracts')
        .select('id')
        .where('order_id', '=', order)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id
  const document = (
    await db
      .selectFrom('documents')
      .select('id')
      .where('order_id', '=', order)
      .where('deleted', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id
  const subscription = (await db.selectFrom('orders').select('subscription_id').where('id', '=', order).executeTakeFirstOrThrow())
    .subscription_id!
  return {
    camille: (await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()).id,
    order,
    sharedOrder: await orderId('Studio Nuage SAS'),
    missingDocsOrder: await orderId('Conseil Horizon EURL'),
    contract: await first('contracts'),
    contractKbisTag: kbisTag(
      (await db.selectFrom('contracts').select('kbis_file_key').where('order_id', '=', order).executeTakeFirstOrThrow()).kbis_file_key!,
    ),
    document,
    folder: await first('folders'),
    share: await first('shares'),
    mandataire: await first('mandataires'),
    pendingCourierRequest: (
      await db
        .selectFrom('courier_requests')
        .select('id')
        .where('order_id', '=', order)
        .where('status', '=', 'en attente')
        .executeTakeFirstOrThrow()
    ).id,
    invoice: await first('invoices'),
    creditNote: await first('credit_notes'),
    subscriptionKey: subscriptionKey(order, subscription),
    passkey: await camillesPasskey(db),
    legalSubmission: (
      await db.selectFrom('legal_submissions').select('id').where('status', '=', 'En cours').orderBy('id').executeTakeFirstOrThrow()
    ).id,
    certificate: (await db.selectFrom('certificates').select('code').where('order_id', '=', order).orderBy('id').executeTakeFirstOrThrow())
      .code,
    notification: (
      await db
        .selectFrom('notifications')
        .select('id')
        .where('order_id', '=', order)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).id,
    spareOperator: await spareOperator(db),
    spareApiKey: await spareApiKey(db),
    mailRoom: await mailRoomSamples(db, document),
    operatorPasskey: await adminsPasskey(db),
    dataExport: await camillesDataExport(db, document),
    compliance: options.compliance ? await complianceSamples(db, document) : undefined,
    messages: options.messages
      ? await messagesSamples(
          db,
          order,
          (await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()).id,
        )
      : undefined,
  }
}

/** people: a ready export of Camille's, its file any stored file (the samples check who may read it, not what it holds). */
async function camillesDataExport(db: Kysely<Database>, document: number): Promise<number> {
  const camille = (await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()).id
  const held = await db
    .selectFrom('data_exports')
    .select('id')
    .where('user_id', '=', camille)
    .where('state', '=', 'ready')
    .executeTakeFirst()
  if (held) return held.id
  const letter = await db.selectFrom('documents').select('file_key').where('id', '=', document).executeTakeFirstOrThrow()
  const now = new Date()
  const row = await db
    .insertInto('data_exports')
    .values({
      user_id: camille,
      state: 'ready',
      progress: 100,
      file_key: letter.file_key,
      file_bytes: 1,
      letters: 0,
      ready_at: now,
      expires_at: new Date(now.getTime() + 7 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** operators: an operator, enrolled with the demo password, for the samples that change or deactivate one. */
export const SPARE_OPERATOR = { email: 'remplacant@example.com', totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' }
async function spareOperator(db: Kysely<Database>): Promise<number> {
  const held = await db.selectFrom('operators').select('id').where('email', '=', SPARE_OPERATOR.email).executeTakeFirst()
  if (held) return held.id
  const demo = await db
    .selectFrom('operators')
    .select('password_hash')
    .where('email', '=', 'operateur@example.com')
    .executeTakeFirstOrThrow()
  const row = await db
    .insertInto('operators')
    .values({
      email: SPARE_OPERATOR.email,
      name: 'Léa Fontaine',
      roles: ['conformite'],
      totp_secret: SPARE_OPERATOR.totpSecret,
      password_hash: demo.password_hash,
      totp_enrolled_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function spareApiKey(db: Kysely<Database>): Promise<number> {
  const held = await db.selectFrom('api_keys').select('id').where('name', '=', 'Clé des échantillons').executeTakeFirst()
  if (held) return held.id
  const admin = await db.selectFrom('operators').select('id').where('email', '=', 'operateur@example.com').executeTakeFirstOrThrow()
  const row = await db
    .insertInto('api_keys')
    .values({ name: 'Clé des échantillons', key_hash: 'f'.repeat(64), prefix: 'dk_échant', created_by: admin.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** people: the first passkey of Camille's, made once per database (the demo data has none). */
async function camillesPasskey(db: Kysely<Database>): Promise<number> {
  const camille = (await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()).id
  const held = await db.selectFrom('passkeys').select('id').where('user_id', '=', camille).orderBy('id').executeTakeFirst()
  if (held) return held.id
  const passkey = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
  const row = await db
    .insertInto('passkeys')
    .values({
      user_id: camille,
      credential_id: passkey.id,
      public_key: 'pQECAyYgASFYIA',
      counter: 0,
      transports: JSON.stringify(['internal']),
      name: 'Ordinateur de test',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** operators: the first passkey of the demo administrator's, made once per database (the demo data has none). */
async function adminsPasskey(db: Kysely<Database>): Promise<number> {
  const admin = (await db.selectFrom('operators').select('id').where('email', '=', 'operateur@example.com').executeTakeFirstOrThrow()).id
  const held = await db.selectFrom('operator_passkeys').select('id').where('operator_id', '=', admin).orderBy('id').executeTakeFirst()
  if (held) return held.id
  const row = await db
    .insertInto('operator_passkeys')
    .values({
      operator_id: admin,
      credential_id: new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' }).id,
      public_key: 'pQECAyYgASFYIA',
      counter: 0,
      transports: JSON.stringify(['internal']),
      name: 'Clé de test',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** people: WebAuthn answers of the right shape whose signatures no challenge will match. */
const unverifiableRegistration = () =>
  new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' }).register({ challenge: 'AAAA', user: { id: 'dXNlcg' } })
const unverifiableAuthentication = () =>
  new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' }).authenticate({ challenge: 'AAAA' })

/** A small valid PDF. */
export async function tinyPdf(text = 'Extrait Kbis'): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  pdf.addPage([200, 200]).drawText(text, { x: 20, y: 100, size: 12 })
  return Buffer.from(await pdf.save())
}

export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

export interface FilePart {
  field: string
  filename: string
  contentType: string
  bytes: Buffer
}

/** A multipart/form-data body, fields first, in the order given. */
export function multipart(fields: Record<string, string>, files: FilePart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portail${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
    )
    chunks.push(file.bytes, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export interface Sample {
  params?: Record<string, string | number>
  query?: Record<string, string | number>
  body?: unknown
  multipart?: { payload: Buffer; headers: Record<string, string> }
  /** Request headers the route needs besides the credentials. */
  headers?: Record<string, string>
}

let invoiceNumbers = 0
let invitedOperators = 0
let newClients = 0

/** A SIREN whose Luhn key is right, new at each call (a SIREN makes one order): 7 then the count, then the key. */
export function freshSiren(n: number): string {
  const body = `7${String(n).padStart(7, '0')}`
  for (let key = 0; key < 10; key++) if (luhnValid(body + key)) return `${body.slice(0, 3)} ${body.slice(3, 6)} ${body.slice(6)}${key}`
  throw new Error('aucune clé')
}

/**
 * A termination date the Boulangerie may ask for: after its yearly period ends (200 days from the seed) and within the
 * two years a request may look ahead (a fixed 31 January of the year after next was over them each January).
 */
export const TERMINATION_DATE = new Date(Date.now() + 540 * 86_400_000).toISOString().slice(0, 10)

export function sampleFor(name: RouteName, ids: DemoIds, kbisPdf: Buffer): Sample {
  const compliance = (): ComplianceSamples => {
    if (!ids.compliance) throw new Error(`${name} : échantillons de la Conformité absents, demoIds(db, { compliance: true })`)
    return ids.compliance
  }
  const messages = (): MessagesSamples => {
    if (!ids.messages) throw new Error(`${name} : échantillons des Messages et Résiliations absents, demoIds(db, { messages: true })`)
    return ids.messages
  }
  const samples: Record<RouteName, () => Sample> = {
    login: () => ({ body: { username: 'demo@example.com', password: 'Demo1234!' } }),
    resetPasswordRequest: () => ({ body: { email: 'demo@example.com', domain: 'http://localhost:8080' } }),
    resetPassword: () => ({ body: { token: 'x'.repeat(43), password: 'NouveauMotDePasse1!' } }),
    currentUser: () => ({}),
    contracts: () => ({}),
    updateEmail: () => ({ body: { newEmail: 'camille.martin@example.com' } }),
    revertEmailChange: () => ({ params: { token: 'x'.repeat(43) } }),
    updatePassword: () => ({ body: { currentPassword: 'Demo1234!', newPassword: 'un nouveau mot de passe' } }),
    unpaidStatus: () => ({}),
    payUnpaidInvoice: () => ({ body: { orderId: ids.order } }),
    myOrders: () => ({}),
    sendProblem: () => ({ params: { id: ids.order }, body: { message: 'Le dernier courrier scanné est illisible.' } }),
    sendInvite: () => ({ body: { email: 'ami@example.com' } }),
    isAttenteCourrierOrFinalise: () => ({ params: { id: ids.order } }),
    isCompleteKbis: () => ({ params: { id: ids.order } }),
    isWaitingContract: () => ({ params: { id: ids.order } }),
    uploadedDocuments: () => ({ params: { id: ids.order } }),
    shares: () => ({ params: { id: ids.order } }),
    deleteShare: () => ({ params: { id: ids.order, shareId: ids.share } }),
    invite: () => ({ params: { id: ids.order }, body: { emails: ['nouvelle.collaboratrice@example.com'] } }),
    mandataires: () => ({ params: { id: ids.order } }),
    deleteMandataire: () => ({ params: { id: ids.order, mandataireId: ids.mandataire } }),
    addMandataire: () => ({
      params: { id: ids.order },
      body: { firstname: 'Paul', lastname: 'Durand', email: 'paul.durand@example.com', phone: '06 11 22 33 44' },
    }),
    setQonto: () => ({ params: { id: ids.order }, body: { qonto: true } }),
    setShine: () => ({ params: { id: ids.order }, body: { shine: true } }),
    wantComptable: () => ({ params: { id: ids.order } }),
    packages: () => ({ query: { orderId: ids.order } }),
    sharePackages: () => ({ query: { orderId: ids.sharedOrder } }),
    courierRequests: () => ({ query: { orderId: ids.order } }),
    shareCourierRequests: () => ({ query: { orderId: ids.sharedOrder } }),
    removeCourierRequest: () => ({ body: { orderId: ids.order, id: ids.pendingCourierRequest } }),
    documents: () => ({ query: { orderId: ids.order } }),
    updateDocument: () => ({ params: { id: ids.document }, body: { readFlag: true } }),
    documentFile: () => ({ params: { id: ids.document } }),
    sendDocuments: () => ({ body: { email: 'comptable@example.com', documentIds: [ids.document] } }),
    folders: () => ({ query: { domiciliationOrderId: ids.order } }),
    shareFolders: () => ({}),
    createFolder: () => ({ body: { name: 'Impôts 2025', domiciliationOrderId: ids.order } }),
    updateFolder: () => ({ params: { id: ids.folder }, body: { name: 'Administratif et social' } }),
    deleteFolder: () => ({ params: { id: ids.folder } }),
    subscriptionInformations: () => ({ params: { orderId: ids.order }, query: { key: ids.subscriptionKey } }),
    addOptionSubscription: () => ({ body: { contractId: ids.contract, planId: 'option-reexpedition-annuelle' } }),
    addOption: () => ({ params: { id: ids.order }, body: { option: 'reexpedition', key: ids.subscriptionKey } }),
    paymentMethod: () => ({ params: { id: ids.order } }),
    creditCard: () => ({}),
    updatePaymentMethod: () => ({ params: { id: ids.order }, body: { pm: 'pm_inconnu' } }),
    updateCreditCardWeb: () => ({ body: { pm: 'pm_inconnu' } }),
    terminationRequest: () => ({ body: { orderId: ids.order, reason: 'Déménagement du siège', date: TERMINATION_DATE } }),
    // billing
    subscriptionOptions: () => ({ params: { id: ids.order } }),
    terminationStatus: () => ({ params: { id: ids.order } }),
    issueCertificate: () => ({ params: { id: ids.order } }),
    certificateFile: () => ({ params: { code: ids.certificate } }),
    certificateVerification: () => ({ params: { code: ids.certificate } }),
    contractFile: () => ({ params: { id: ids.contract } }),
    cardSetup: () => ({ body: { orderId: ids.order } }),
    invoiceYears: () => ({}),
    shareInvoiceYears: () => ({}),
    invoices: () => ({}),
    shareInvoices: () => ({}),
    creditNotesByYear: () => ({}),
    shareCreditNotesByYear: () => ({}),
    calendarInvoices: () => ({}),
    invoiceFile: () => ({ params: { id: ids.invoice } }),
    creditNoteFile: () => ({ params: { id: ids.creditNote } }),
    sendDextInvoices: () => ({ body: { email: 'factures@dext.example.com', invoiceIds: [ids.invoice], documentIds: [ids.document] } }),
    updateContract: () => ({ params: { id: ids.contract }, body: { kbis: `data:application/pdf;base64,${kbisPdf.toString('base64')}` } }),
    contractKbis: () => ({ params: { id: ids.contract } }),
    uploadIdentity: () => ({
      multipart: multipart({ orderId: String(ids.missingDocsOrder) }, [
        { field: 'identity_manager', filename: 'cni.png', contentType: 'image/png', bytes: tinyPng },
      ]),
    }),
    health: () => ({}),
    operatorOrders: () => ({}),
    operatorStorageCheck: () => ({ body: { recordMissing: false } }),
    operatorAddDocument: () => ({
      params: { id: ids.order },
      body: { sender: 'URSSAF Île-de-France', kind: 'administratif', file: `data:application/pdf;base64,${kbisPdf.toString('base64')}` },
    }),
    operatorAddPackage: () => ({ params: { id: ids.order }, body: { carrier: 'Colissimo', sender: 'Moulins Bourgeois' } }),
    // A new number at each call: an invoice number is issued once.
    operatorAddInvoice: () => ({
      params: { id: ids.order },
      body: {
        reference: `FA-ESSAI-${++invoiceNumbers}`,
        amountExclTaxCents: 29000,
        amountInclTaxCents: 34800,
        file: `data:application/pdf;base64,${kbisPdf.toString('base64')}`,
      },
    }),
    // people
    invitation: () => ({ params: { token: 'x'.repeat(43) } }),
    createInvitationAccount: () => ({
      params: { token: 'x'.repeat(43) },
      body: { firstname: 'Nina', lastname: 'Roussel', password: 'trois mots au hasard' },
    }),
    acceptInvitation: () => ({ params: { token: 'x'.repeat(43) } }),
    sessions: () => ({}),
    signOutOtherSessions: () => ({}),
    signOut: () => ({}),
    passkeys: () => ({}),
    passkeyRegistrationOptions: () => ({}),
    registerPasskey: () => ({ body: { credential: unverifiableRegistration(), name: 'Téléphone de Camille' } }),
    renamePasskey: () => ({ params: { id: ids.passkey }, body: { name: 'Ordinateur du bureau' } }),
    deletePasskey: () => ({ params: { id: ids.passkey } }),
    // people: « Mes données »
    startDataExport: () => ({}),
    dataExports: () => ({}),
    dataExport: () => ({ params: { id: ids.dataExport } }),
    dataExportFile: () => ({ params: { id: ids.dataExport } }),
    passkeyLoginOptions: () => ({}),
    passkeyLogin: () => ({ body: { credential: unverifiableAuthentication() } }),
    // Camille owns active orders: refused (409), nothing closed. Studio Nuage is shared with her: she leaves it.
    closeAccount: () => ({ body: { password: DEMO_PASSWORD } }),
    leaveSharedOrder: () => ({ params: { id: ids.sharedOrder } }),
    // company area
    legalSubmissions: () => ({ query: { orderId: ids.order } }),
    createLegalSubmission: () => ({ body: { orderId: ids.order, kind: 'transfert-siege', comment: 'Transfert depuis Lyon.' } }),
    operatorLegalSubmissions: () => ({}),
    operatorUpdateLegalSubmission: () => ({ params: { id: ids.legalSubmission }, body: { status: 'Déposée au greffe' } }),
    // mail pipeline: the sample letter's pages are rendered by buildTestApp
    documentPage: () => ({ params: { id: ids.document, page: 1 } }),
    documentSearch: () => ({ query: { q: 'farines', orderId: ids.order } }),
    letterDeadlines: () => ({ query: { orderId: ids.order } }),
    // notifications
    notifications: () => ({}),
    readNotification: () => ({ params: { id: ids.notification } }),
    readAllNotifications: () => ({}),
    notificationStream: () => ({}),
    notificationPreferences: () => ({ params: { id: ids.order } }),
    updateNotificationPreferences: () => ({ params: { id: ids.order }, body: { email: 'digest' } }),
    letterHistory: () => ({ params: { id: ids.document } }),
    operatorLetterForwarded: () => ({ params: { id: ids.document }, body: { address: '12 rue des Lilas, 69003 Lyon' } }),
    operatorKbis: () => ({ params: { id: ids.contract } }),
    operatorBackupDatabase: () => ({}),
    operatorKbisStatus: () => ({ params: { id: ids.contract }, body: { status: 'validé' }, headers: { 'if-match': ids.contractKbisTag } }),
    // operators
    operatorPassword: () => ({ body: { email: 'operateur@example.com', password: DEMO_PASSWORD } }),
    operatorCode: () => ({ body: { ticket: 'x'.repeat(43), code: '123456' } }),
    operatorPasskeyOptions: () => ({ body: { ticket: 'x'.repeat(43) } }),
    operatorPasskey: () => ({ body: { ticket: 'x'.repeat(43), credential: unverifiableAuthentication() } }),
    operatorEnrolment: () => ({ params: { token: 'x'.repeat(43) } }),
    operatorEnrol: () => ({ params: { token: 'x'.repeat(43) }, body: { password: 'trois mots au hasard', code: '123456' } }),
    operatorMe: () => ({}),
    operatorSignOut: () => ({}),
    operatorMyPasskeys: () => ({}),
    operatorPasskeyRegistrationOptions: () => ({}),
    operatorRegisterPasskey: () => ({ body: { credential: unverifiableRegistration(), name: 'Clé du bureau' } }),
    operatorDeletePasskey: () => ({ params: { id: ids.operatorPasskey } }),
    operatorList: () => ({}),
    // A new address at each call: an address belongs to one operator.
    operatorInvite: () => ({
      body: { email: `nouvel-operateur-${++invitedOperators}@example.com`, name: 'Nina Roussel', roles: ['courrier'] },
    }),
    operatorSetRoles: () => ({ params: { id: ids.spareOperator }, body: { roles: ['conformite'] } }),
    operatorDeactivate: () => ({ params: { id: ids.spareOperator } }),
    operatorJournal: () => ({ query: { action: 'operator.invited', page: 1 } }),
    operatorJournalCsv: () => ({ query: { from: '2020-01-01' } }),
    operatorApiKeys: () => ({}),
    operatorCreateApiKey: () => ({ body: { name: 'Scanner salle 2' } }),
    operatorRevokeApiKey: () => ({ params: { id: ids.spareApiKey } }),
    operatorClientSearch: () => ({ query: { q: 'boulangerie', page: 1 } }),
    operatorClientOrder: () => ({ params: { id: ids.order } }),
    operatorOrderTimeline: () => ({ params: { id: ids.order }, query: { page: 1 } }),
    // A new SIREN and address at each call: a SIREN makes one order.
    operatorCreateClient: () => {
      const n = ++newClients
      return {
        body: {
          raisonSociale: `Menuiserie Essai ${n} SARL`,
          siren: freshSiren(n),
          legalForm: 'SARL',
          owner: { firstname: 'Marc', lastname: 'Lefèvre', email: `nouveau-client-${n}@example.com` },
          plan: 'domiciliation-mensuelle',
          options: ['scan'],
          // Tomorrow: each operator sign-in moves the test clock 30 s on, and near Paris midnight today would be past.
          startDate: parisDay(new Date(Date.now() + 86_400_000)),
        },
      }
    },
    operatorDashboard: () => ({}),
    // the back office's mail room
    mailRoomOrders: () => ({ query: { q: 'échantillons courrier' } }),
    mailRoomUploadScan: () => ({ body: { fileName: 'scan-0001.pdf', file: `data:application/pdf;base64,${kbisPdf.toString('base64')}` } }),
    mailRoomScans: () => ({}),
    mailRoomScan: () => ({ params: { id: ids.mailRoom.scanToRead } }),
    mailRoomScanFile: () => ({ params: { id: ids.mailRoom.scanToRead } }),
    mailRoomScanPage: () => ({ params: { id: ids.mailRoom.scanToRead, page: 1 } }),
    mailRoomReviewScan: () => ({
      params: { id: ids.mailRoom.scanToRead },
      body: { orderId: ids.mailRoom.order, sender: 'Moulins Bourgeois', kind: 'courrier', confirmed: false },
    }),
    mailRoomDeleteScan: () => ({ params: { id: take(ids.mailRoom.scansToDelete, 'delete') } }),
    mailRoomPublishScan: () => ({ params: { id: take(ids.mailRoom.scansToPublish, 'publish') } }),
    mailRoomPublishScans: () => ({ body: { scanIds: [take(ids.mailRoom.scansToPublish, 'publish')] } }),
    mailRoomRegisterPackage: () => ({
      body: {
        orderId: ids.mailRoom.order,
        carrier: 'Colissimo',
        sender: 'Moulins Bourgeois',
        photo: `data:image/png;base64,${tinyPng.toString('base64')}`,
      },
    }),
    mailRoomWaitingPackages: () => ({ query: { orderId: ids.mailRoom.order } }),
    mailRoomPackagePhoto: () => ({ params: { id: ids.mailRoom.waitingPackages[0]! } }),
    mailRoomPackageCollectors: () => ({ params: { id: ids.mailRoom.waitingPackages[0]! } }),
    mailRoomHandOverPackage: () => ({
      params: { id: take(ids.mailRoom.waitingPackages.slice(1), 'handOver') },
      body: { collector: { kind: 'titulaire' }, identityChecked: true },
    }),
    conversations: () => ({ query: { orderId: ids.order } }),
    conversation: () => ({ params: { id: messages().conversation } }),
    answerConversation: () => ({ params: { id: messages().conversation }, body: { message: 'Merci, je reste disponible.' } }),
    operatorConversations: () => ({ query: { status: 'open' } }),
    operatorConversation: () => ({ params: { id: messages().conversation } }),
    operatorReplyConversation: () => ({
      params: { id: messages().conversation },
      body: { message: 'Bonjour, nous regardons votre courrier et revenons vers vous.' },
    }),
    operatorCloseConversation: () => ({ params: { id: takeMessages(messages().conversationsToClose, 'close') } }),
    operatorReopenConversation: () => ({ params: { id: takeMessages(messages().conversationsToReopen, 'reopen') } }),
    operatorTerminations: () => ({}),
    operatorAcceptTermination: () => ({
      params: { id: takeMessages(messages().terminationsToAccept, 'accept') },
      body: { endDate: TERMINATION_DATE },
    }),
    operatorContactTermination: () => ({
      params: { id: takeMessages(messages().terminationsToContact, 'contact') },
      body: { message: 'Bonjour, pouvez-vous nous confirmer la date souhaitée ?' },
    }),
    mailRoomForwardingRequests: () => ({}),
    mailRoomForwardingShipped: () => ({
      params: { id: take(ids.mailRoom.pendingForwarding, 'forwarding') },
      body: { carrier: 'Colissimo', trackingNumber: '6A12345678901' },
    }),
    mailRoomForwardingImpossible: () => ({
      params: { id: take(ids.mailRoom.pendingForwarding, 'forwarding') },
      body: { reason: 'Adresse de réexpédition incomplète : le numéro de rue manque.' },
    }),
    complianceJustificatifs: () => ({}),
    complianceJustificatif: () => ({ params: { kind: 'kbis', id: compliance().kbis[0]!.id } }),
    complianceJustificatifFile: () => ({ params: { kind: 'identite', id: compliance().identity[0]!.id } }),
    complianceValidateJustificatif: () => {
      const kbis = take(compliance().kbis, 'validate')
      return { params: { kind: 'kbis', id: kbis.id }, body: { version: kbis.version } }
    },
    complianceRefuseJustificatif: () => {
      const identity = take(compliance().identity, 'refuse')
      return { params: { kind: 'identite', id: identity.id }, body: { version: identity.version, reason: 'illisible' } }
    },
    complianceLegalSubmissions: () => ({}),
    complianceMoveLegalSubmission: () => ({
      params: { id: take(compliance().formalities, 'formality') },
      body: { status: 'En cours' },
    }),
  }
  return samples[name]()
}

export function urlOf(name: RouteName, sample: Sample): string {
  let path: string = routes[name].path
  for (const [key, value] of Object.entries(sample.params ?? {})) path = path.replace(`{${key}}`, encodeURIComponent(String(value)))
  const query = new URLSearchParams(Object.entries(sample.query ?? {}).map(([k, v]) => [k, String(v)])).toString()
  return query ? `${path}?${query}` : path
}

/** The headers a sample sends besides the credentials (a multipart form's content type, an If-Match). */
export const sampleHeaders = (sample: Sample): Record<string, string> => ({
  ...(sample.multipart?.headers ?? {}),
  ...(sample.headers ?? {}),
})

/**
 * The token to send to a route on behalf of a customer: theirs, the operators' for operator routes, or the back office's
 * administrator's session for its routes (`operatorToken`, signed in by operatorLogin).
 */
export const tokenFor = (name: RouteName, customerToken: string, operatorToken?: string) =>
  routes[name].auth === 'operator'
    ? TEST_OPERATOR_TOKEN
    : routes[name].auth === 'operatorSession'
      ? (operatorToken ?? 'aucune-session-operateur')
      : customerToken

/** Sends a sample with the credentials the route expects (apiToken header, or Bearer for contract and operator routes). */
export function send(app: FastifyInstance, name: RouteName, sample: Sample, token: string | null): Promise<LightMyRequestResponse> {
  const route = routes[name]
  const headers: Record<string, string> = { ...sampleHeaders(sample) }
  if (token !== null) {
    if (route.auth === 'bearer' || route.auth === 'operator' || route.auth === 'operatorSession') headers.authorization = `Bearer ${token}`
    else headers.apitoken = token
  }
  const payload = sample.multipart ? sample.multipart.payload : (sample.body as InjectOptions['payload'])
  return app.inject({ method: route.method, url: urlOf(name, sample), headers, ...(payload !== undefined ? { payload } : {}) })
}

/** A test app on the demo data, with the demo's three people signed in: Camille (owner), Julien (her
 * collaborator on the Boulangerie only) and Sophie (another customer); a small PDF; Camille's Atelier (not shared). */
export interface DemoContext {
  t: TestApp
  ids: DemoIds
  camille: string
  julien: string
  sophie: string
  pdf: Buffer
  atelier: number
  /** operators: the demo administrator's back-office session (operateur@example.com). */
  admin: string
}

export async function demoContext(ctx: Partial<DemoContext>, pdfText?: string, options?: DemoOptions): Promise<DemoContext> {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db, options)
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  ctx.pdf = await tinyPdf(pdfText)
  ctx.admin = await operatorLogin(ctx.t)
  ctx.atelier = (
    await ctx.t.deps.db.selectFrom('orders').select('id').where('raison_sociale', '=', 'Atelier Lumière SARL').executeTakeFirstOrThrow()
  ).id
  return ctx as DemoContext
}
