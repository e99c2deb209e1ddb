// The happy path of every route of the contract (spec §7), on the demo data.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { backupMessages } from '../../server/routes/operators/backups.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { routes, type RouteName } from '../../server/contract/routes.ts'
import { buildTestApp, DEMO_PASSWORD, eventually, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from '../util/server.ts'
import { totpCode } from '../../server/lib/totp.ts'
import {
  demoIds,
  MAIL_ROOM_ORDER,
  multipart,
  sampleFor,
  send,
  TERMINATION_DATE,
  tinyPdf,
  tokenFor,
  type DemoIds,
  type Sample,
} from '../util/server-samples.ts'
import { SoftPasskey } from '../util/webauthn.ts'

const softPasskey = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
const operatorsPasskey = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
import { DEMO_PREFECTURE_APPROVAL } from '../../server/config.ts'
import { pdfText } from '../util/pdf-text.ts'
import { testProviderCard } from '../util/billing.ts'
import { LEGAL_PAGES } from '../../server/contract/rules/legal.ts'
import { legalFooter } from '../../server/services/mailer.ts'

interface Ctx {
  t: TestApp
  ids: DemoIds
  camille: string
  julien: string
  /** operators: the demo administrator's back-office session. */
  admin: string
  kbis: Buffer
}
type Check = (ctx: Ctx, call: (sample?: Partial<Sample>, token?: string) => Promise<LightMyRequestResponse>) => Promise<void>

const ok = (res: LightMyRequestResponse) => {
  assert.is(res.statusCode, 200, res.body)
  return res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : res.rawPayload
}
const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString() === '%PDF-'

// Ordered so that reads come before the calls that change or remove what they read.
const happy: Record<RouteName, Check> = {
  health: async (_, call) =>
    assert.equal(ok(await call()), { status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite', paymentProvider: 'test' }),
  operatorStorageCheck: async ({ t }, call) => {
    const report = ok(await call())
    // The route tests' sample scans (test/util/server-samples.ts) name files that were never written: the only ones missing.
    const missing = report.missing.map((m: { key: string }) => m.key)
    assert.ok(missing.length && missing.every((key: string) => key.startsWith('documents/echantillons/')), missing.join(', '))
    assert.is(report.verified + missing.length, report.referenced, 'every file present was recorded when written')
    assert.equal([report.damaged, report.unrecorded], [[], []])
    const row = await t.deps.db.selectFrom('journal').select(['action', 'summary']).orderBy('id', 'desc').executeTakeFirstOrThrow()
    assert.equal(row, {
      action: 'storage.checked',
      summary:
        `Vérification des fichiers : ${report.referenced} référencés, ${missing.length} manquants, 0 endommagés, ` +
        `${report.orphans.length} orphelins (PERTE)`,
    })
  },
  login: async (_, call) => {
    const user = ok(await call())
    assert.is(user.firstname, 'Camille')
    assert.ok(user.apiToken.length >= 22, 'token of at least 128 bits')
    assert.ok(new Date(user.apiTokenExpiresAt) > new Date())
  },
  currentUser: async (_, call) => assert.equal(ok(await call()).email, 'demo@example.com'),
  myOrders: async ({ ids }, call) => {
    const orders = ok(await call())
    assert.equal(orders.map((o: { raisonSociale: string }) => o.raisonSociale).sort(), [
      'Atelier Lumière SARL',
      'Boulangerie des Lilas SAS',
      'Conseil Horizon EURL',
      'Studio Nuage SAS',
    ])
    const byName = Object.fromEntries(orders.map((o: { raisonSociale: string }) => [o.raisonSociale, o]))
    assert.is(byName['Studio Nuage SAS'].isShareOrder, true)
    assert.is(byName['Boulangerie des Lilas SAS'].isShareOrder, false)
    assert.is(byName['Atelier Lumière SARL'].status, 'En attente de KBIS')
    assert.is(byName['Atelier Lumière SARL'].hasKbis, false)
    assert.equal(byName['Conseil Horizon EURL'].missingDocuments, [{ type: 'identity_manager', label: 'Pièce d’identité du gérant' }])
    assert.is(byName['Conseil Horizon EURL'].missingDocumentsValidatedAt, null)
    assert.is(byName['Boulangerie des Lilas SAS'].id, ids.order)
  },
  contracts: async ({ ids }, call) => {
    const contracts = ok(await call())
    assert.is(contracts.length, 3, 'the contracts of her own three orders, not the shared one')
    assert.is(contracts.find((c: { id: number }) => c.id === ids.contract).kbis, `/api-protected/contracts/${ids.contract}/kbis`)
  },
  contractKbis: async (_, call) => assert.ok(isPdf(ok(await call()))),
  unpaidStatus: async (_, call) => {
    const status = ok(await call())
    assert.is(status.hasUnpaid, true)
    assert.is(status.count, 1)
    assert.ok(status.amountInclTaxCents > 0)
  },
  isAttenteCourrierOrFinalise: async (_, call) => assert.equal(ok(await call()), { result: true }),
  isCompleteKbis: async ({ ids }, call) => {
    assert.equal(ok(await call()), { result: true })
    assert.equal(ok(await call({ params: { id: ids.missingDocsOrder } })), { result: false })
  },
  isWaitingContract: async (_, call) => assert.equal(ok(await call()), { result: false }),
  uploadedDocuments: async (_, call) => assert.equal(ok(await call()), []),
  shares: async (_, call) => {
    const shares = ok(await call())
    assert.equal(
      shares.map((s: { email: string; status: string }) => [s.email, s.status]),
      [
        ['associe@example.com', 'active'],
        ['cabinet.durand@example.com', 'invitée'],
      ],
    )
  },
  mandataires: async (_, call) =>
    assert.equal(
      ok(await call()).map((m: { lastname: string }) => m.lastname),
      ['Fontaine'],
    ),
  packages: async ({ ids }, call) => {
    const packages = ok(await call())
    assert.is(packages.length, 4)
    assert.equal([...new Set(packages.map((p: { status: string }) => p.status))].sort(), ['Retiré', 'Réexpédié', 'À retirer'])
    assert.ok(packages.every((p: { orderId: number }) => p.orderId === ids.order))
    assert.is(ok(await call({ query: {} })).length, 4, 'without orderId: every own order (Studio Nuage is not hers)')
  },
  sharePackages: async ({ ids }, call) => {
    const packages = ok(await call())
    assert.ok(packages.length >= 1 && packages.every((p: { orderId: number }) => p.orderId === ids.sharedOrder))
    assert.equal(ok(await call({ query: {} })), packages)
  },
  courierRequests: async (_, call) => assert.is(ok(await call()).length, 3),
  shareCourierRequests: async ({ ids }, call) => {
    const requests = ok(await call())
    assert.ok(requests.length >= 1 && requests.every((r: { orderId: number }) => r.orderId === ids.sharedOrder))
  },
  documents: async (_, call) => {
    const documents = ok(await call())
    assert.ok(documents.length >= 30, `at least 30 letters, got ${documents.length}`)
    assert.ok(
      documents.every((d: { deleted: boolean }) => !d.deleted),
      'deleted letters are left out',
    )
    assert.ok(documents.some((d: { read: boolean }) => !d.read) && documents.some((d: { read: boolean }) => d.read))
    const all = ok(await call({ query: {} }))
    assert.ok(
      all.some((d: { raisonSociale: string }) => d.raisonSociale === 'Studio Nuage SAS'),
      'shared letters without orderId',
    )
  },
  // mail pipeline
  documentPage: async ({ ids }, call) => {
    const res = await call()
    assert.is(res.headers['content-type'], 'image/webp')
    const image = ok(res) as Buffer
    assert.is(image.subarray(8, 12).toString(), 'WEBP')
    assert.ok(image.length <= 200 * 1024)
    const beyond = await call({ params: { id: ids.document, page: 2 } })
    assert.is(beyond.statusCode, 404)
    assert.is(beyond.json().message, 'Page introuvable.')
  },
  documentSearch: async ({ ids }, call) => {
    const { results } = ok(await call())
    assert.is(results[0].document.id, ids.document)
    assert.is(results[0].document.searchable, true)
    assert.ok(
      results[0].excerpt.some((part: { text: string; match: boolean }) => part.match && /farines/i.test(part.text)),
      JSON.stringify(results[0].excerpt),
    )
    assert.is((await call({ query: { q: 'ab', orderId: ids.order } })).statusCode, 400)
  },
  letterDeadlines: async ({ t, ids }, call) => {
    // The Ville de Paris letter asks for a declaration "avant le 1er mars".
    const letter = await t.deps.db
      .selectFrom('documents')
      .select('id')
      .where('order_id', '=', ids.order)
      .where('sender', '=', 'Ville de Paris')
      .where('deleted', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    await t.runLetterJob(letter.id)
    const { deadlines } = ok(await call())
    const found = deadlines.find((d: { documentId: number }) => d.documentId === letter.id)
    assert.ok(found, JSON.stringify(deadlines))
    assert.match(found.date, /^\d{4}-03-01$/)
    assert.is(found.sender, 'Ville de Paris')
  },
  documentFile: async (_, call) => {
    const res = await call()
    assert.is(res.headers['content-type'], 'application/pdf')
    assert.ok(isPdf(ok(res)))
  },
  folders: async (_, call) => {
    const folders = ok(await call())
    assert.equal(
      folders.map((f: { name: string }) => f.name),
      ['Administratif', 'Banque', 'Fournisseurs'],
    )
    assert.ok(folders.some((f: { documentCount: number }) => f.documentCount > 0))
  },
  shareFolders: async ({ ids }, call) =>
    assert.equal(
      ok(await call()).map((f: { domiciliationOrderId: number }) => f.domiciliationOrderId),
      [ids.sharedOrder],
    ),
  subscriptionInformations: async (_, call) => {
    const subscription = ok(await call())
    assert.is(subscription.object, 'subscription')
    assert.is(subscription.items.data[0].plan.interval, 'year')
  },
  paymentMethod: async ({ t }, call) => {
    assert.equal(ok(await call()).last4, '4242')
    const atelier = await t.deps.db
      .selectFrom('orders')
      .select('id')
      .where('raison_sociale', '=', 'Atelier Lumière SARL')
      .executeTakeFirstOrThrow()
    assert.is(ok(await call({ params: { id: atelier.id } })), null, 'a subscription without a card')
  },
  creditCard: async (_, call) => assert.equal(ok(await call()).brand, 'visa'),
  invoiceYears: async (_, call) => assert.ok(ok(await call()).length >= 2, 'invoices over two years'),
  shareInvoiceYears: async (_, call) => assert.ok(ok(await call()).length >= 1),
  invoices: async ({ ids }, call) => {
    const invoices = ok(await call())
    assert.is(invoices.filter((i: { paid: boolean }) => !i.paid).length, 1)
    for (const invoice of invoices) assert.is(invoice.amountInclTaxCents, Math.round(invoice.amountExclTaxCents * 1.2))
    const year = new Date(invoices[0].date).getFullYear()
    const ofYear = ok(await call({ query: { year } }))
    assert.ok(
      ofYear.length > 0 &&
        ofYear.length < invoices.length &&
        ofYear.every((i: { date: string }) => new Date(i.date).getFullYear() === year),
    )
    assert.ok(invoices.some((i: { domId: number }) => i.domId === ids.order))
  },
  shareInvoices: async ({ ids }, call) => assert.ok(ok(await call()).every((i: { domId: number }) => i.domId === ids.sharedOrder)),
  creditNotesByYear: async (_, call) => assert.is(ok(await call()).length, 1),
  shareCreditNotesByYear: async (_, call) => assert.equal(ok(await call()), []),
  calendarInvoices: async (_, call) => {
    const bookings = ok(await call())
    assert.ok(bookings.length >= 2)
    // company area: each booking comes with the invoice that bills it.
    assert.ok(
      bookings.every(
        (b: { invoiceId: number | null; invoiceNumber: string | null }) => b.invoiceId !== null && /^FA-/.test(b.invoiceNumber!),
      ),
    )
  },
  invoiceFile: async (_, call) => assert.ok(isPdf(ok(await call()))),
  creditNoteFile: async (_, call) => assert.ok(isPdf(ok(await call()))),
  operatorOrders: async ({ ids }, call) => {
    const orders = ok(await call())
    assert.is(
      orders.length,
      42,
      'every order of every customer: the demo’s five, the mail room samples’ own, the compliance samples’ 12, the Résiliations samples’ 24',
    )
    assert.equal(
      orders.find((o: { id: number }) => o.id === ids.order),
      {
        id: ids.order,
        raisonSociale: 'Boulangerie des Lilas SAS',
        status: 'Finalisé',
        ownerEmail: 'demo@example.com',
        contractId: ids.contract,
        kbis: 'à valider',
      },
    )
  },
  operatorAddDocument: async ({ t, ids, camille }, call) => {
    const reply = ok(await call())
    assert.is(reply.document.sender, 'URSSAF Île-de-France')
    assert.is(reply.document.kind, 'administratif')
    assert.is(reply.document.read, false)
    assert.is(reply.link, `${t.deps.config.publicUrl}/mes-courriers/courriers?domiciliation=${ids.order}&courrier=${reply.document.id}`)
    assert.equal(reply.notified, ['demo@example.com', 'associe@example.com'])
    const listed = ok(await send(t.app, 'documents', { query: { orderId: ids.order } }, camille))
    assert.is(listed[0].id, reply.document.id, 'the newest letter heads the list')
  },
  operatorAddPackage: async ({ t, ids, camille }, call) => {
    const parcel = ok(await call())
    assert.equal([parcel.carrier, parcel.sender, parcel.status, parcel.orderId], ['Colissimo', 'Moulins Bourgeois', 'À retirer', ids.order])
    const listed = ok(await send(t.app, 'packages', { query: { orderId: ids.order } }, camille))
    assert.is(listed[0].id, parcel.id)
  },
  sendDocuments: async ({ t, ids }, call) => {
    // Received at 00:30 in Paris on the 21st (23:30 UTC the day before): the e-mail says the day in France.
    const { received_at } = await t.deps.db
      .selectFrom('documents')
      .select('received_at')
      .where('id', '=', ids.document)
      .executeTakeFirstOrThrow()
    await t.deps.db
      .updateTable('documents')
      .set({ received_at: new Date('2026-11-20T23:30:00Z') })
      .where('id', '=', ids.document)
      .execute()
    try {
      ok(await call())
    } finally {
      await t.deps.db.updateTable('documents').set({ received_at }).where('id', '=', ids.document).execute()
    }
    const mail = t.mails.at(-1)!
    assert.match(mail.text, 'reçu le 21 novembre 2026')
    assert.is(mail.to, 'comptable@example.com')
    assert.is(mail.attachments?.length, 1)
    assert.ok(isPdf(mail.attachments![0]!.content))
  },
  sendDextInvoices: async ({ t, ids }, call) => {
    const reply = ok(await call())
    assert.is(reply.sent, 2)
    assert.equal(reply.failed, [])
    assert.is(t.mails.at(-1)!.attachments?.length, 2)
    const partial = ok(await call({ body: { email: 'factures@dext.example.com', invoiceIds: [ids.invoice, 999999], documentIds: [] } }))
    assert.equal(
      partial.failed.map((f: { kind: string; id: number }) => [f.kind, f.id]),
      [['invoice', 999999]],
    )
    assert.is(partial.sent, 1)
  },
  sendProblem: async ({ t }, call) => {
    assert.equal(ok(await call()), { message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' })
    assert.match(t.mails.at(-1)!.text, 'illisible')
    const [started] = await t.deps.db
      .selectFrom('conversations')
      .select(['subject', 'status', 'waiting_since'])
      .where('problem_report_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
    assert.equal([started?.subject, started?.status, started?.waiting_since !== null], ['Signaler un problème', 'open', true])
  },
  conversations: async ({ ids }, call) => {
    const list = ok(await call())
    assert.ok(list.some((c: { id: number }) => c.id === ids.messages!.conversation))
    assert.ok(list.every((c: { orderId: number }) => c.orderId === ids.order))
  },
  conversation: async ({ ids }, call) => {
    const conversation = ok(await call())
    assert.is(conversation.id, ids.messages!.conversation)
    assert.equal(conversation.messages[0].author, { kind: 'customer', name: 'Camille Martin' })
  },
  answerConversation: async (_, call) => {
    const conversation = ok(await call())
    assert.is(conversation.messages.at(-1).body, 'Merci, je reste disponible.')
    assert.is(conversation.status, 'open')
  },
  sendInvite: async ({ t }, call) => {
    ok(await call())
    assert.is(t.mails.at(-1)!.to, 'ami@example.com')
  },
  updateDocument: async ({ ids }, call) => {
    const document = ok(await call())
    assert.is(document.read, true)
    const filed = ok(await call({ body: { folderId: ids.folder } }))
    assert.is(filed.folderId, ids.folder)
    const unread = ok(await call({ body: { readFlag: false, folderId: null } }))
    assert.is(unread.read, false)
    assert.is(unread.folderId, null)
  },
  createFolder: async (_, call) => {
    const folder = ok(await call())
    assert.is(folder.name, 'Impôts 2025')
    assert.is(folder.documentCount, 0)
    assert.is((await call()).statusCode, 409, 'same name twice')
  },
  updateFolder: async (_, call) => assert.is(ok(await call()).name, 'Administratif et social'),
  deleteFolder: async ({ t, ids, camille }, call) => {
    const filed = await t.deps.db.selectFrom('documents').select('id').where('folder_id', '=', ids.folder).execute()
    assert.ok(filed.length > 0, 'the demo folder holds letters')
    ok(await call())
    assert.is((await call()).statusCode, 404, 'gone')
    const documents = ok(await send(t.app, 'documents', { query: { orderId: ids.order } }, camille))
    const kept = documents.filter((d: { id: number }) => filed.some((f) => f.id === d.id))
    assert.is(kept.length, filed.length, 'its letters stay')
    assert.ok(
      kept.every((d: { folderId: number | null }) => d.folderId === null),
      'unfiled',
    )
  },
  removeCourierRequest: async (_, call) => {
    ok(await call())
    assert.is((await call()).statusCode, 404, 'already removed')
  },
  invite: async ({ t }, call) => {
    const shares = ok(await call())
    assert.equal(
      shares.map((s: { email: string; status: string; firstname: string | null }) => [s.email, s.status, s.firstname]),
      [['nouvelle.collaboratrice@example.com', 'invitée', null]],
      'only what the owner typed',
    )
    assert.is(t.mails.at(-1)!.to, 'nouvelle.collaboratrice@example.com')
    assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\/invitation\/[\w-]{43}$/)
    const withAccount = ok(await call({ body: { emails: ['SOLO@example.com', 'nouvelle.collaboratrice@example.com'] } }))
    assert.equal(
      withAccount.map((s: { email: string; status: string; firstname: string | null }) => [s.email, s.status, s.firstname]),
      [
        ['SOLO@example.com', 'invitée', null],
        ['nouvelle.collaboratrice@example.com', 'invitée', null],
      ],
      'an account does not show, nor get access, before it accepts',
    )
    assert.is((await call({ body: { emails: ['demo@example.com'] } })).statusCode, 400, 'not oneself')
  },
  deleteShare: async (_, call) => {
    ok(await call())
    assert.is((await call()).statusCode, 404)
  },
  addMandataire: async (_, call) => {
    const mandataire = ok(await call())
    assert.is(mandataire.lastname, 'Durand')
  },
  deleteMandataire: async (_, call) => {
    ok(await call())
    assert.is((await call()).statusCode, 404)
  },
  setQonto: async (_, call) => assert.equal(ok(await call()), { qonto: true }),
  setShine: async (_, call) => assert.equal(ok(await call()), { shine: true }),
  wantComptable: async ({ t }, call) => {
    const before = t.mails.length
    assert.is(ok(await call()).wantComptable, true)
    ok(await call())
    assert.is(t.mails.length, before + 1, 'registered once')
  },
  // company area: the seeded requests, then a new one and a step forward
  legalSubmissions: async ({ ids }, call) => {
    const own = ok(await call())
    assert.equal(
      own.map((r: { kind: string; status: string; orderId: number }) => [r.kind, r.status, r.orderId]),
      [['modification-capital', 'Terminée', ids.order]],
    )
    assert.ok(
      own[0].receivedAt < own[0].startedAt && own[0].startedAt < own[0].filedAt && own[0].filedAt < own[0].completedAt,
      'dated step by step',
    )
    const all = ok(await call({ query: {} }))
    assert.equal(
      all.map((r: { raisonSociale: string }) => r.raisonSociale),
      ['Studio Nuage SAS', 'Boulangerie des Lilas SAS'],
      'with no orderId: the shared order too, newest first',
    )
  },
  operatorLegalSubmissions: async (_, call) => assert.is(ok(await call()).length, 2 + 12, 'the demo’s two, the compliance samples’'),
  createLegalSubmission: async ({ t, ids, camille }, call) => {
    const created = ok(await call())
    assert.equal(
      [created.kind, created.status, created.orderId, created.comment, created.startedAt],
      ['transfert-siege', 'Reçue', ids.order, 'Transfert depuis Lyon.', null],
    )
    assert.match(t.mails.at(-1)!.subject, 'Transfert de siège social pour Boulangerie des Lilas SAS')
    assert.is(ok(await send(t.app, 'legalSubmissions', { query: { orderId: ids.order } }, camille))[0].id, created.id, 'listed first')
    assert.is((await call()).statusCode, 409, 'the same formality once at a time')
  },
  operatorUpdateLegalSubmission: async ({ t }, call) => {
    const moved = ok(await call())
    assert.equal([moved.status, moved.raisonSociale], ['Déposée au greffe', 'Studio Nuage SAS'])
    assert.ok(moved.filedAt)
    assert.equal([t.mails.at(-1)!.to, t.mails.at(-1)!.link], ['associe@example.com', `${t.deps.config.publicUrl}/formalites`])
    assert.is((await call()).statusCode, 409, 'never back, never twice')
  },
  // notifications; the details in notifications.test.ts
  notifications: async (_, call) => {
    const list = ok(await call())
    assert.ok(list.unread > 0 && list.notifications.length > 0 && list.notifications.length <= 50)
    assert.is(list.notifications[0].read, false, 'unread first')
  },
  readNotification: async ({ ids }, call) => {
    const before = (await call()).json().unread as number
    const list = ok(await call({ params: { id: ids.notification } }))
    assert.is(list.unread, before, 'the same notification twice counts once')
  },
  readAllNotifications: async (_, call) => assert.equal(ok(await call()), { unread: 0 }),
  notificationStream: async ({ t, camille }) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api-protected/notifications/stream',
      headers: { apitoken: camille },
      payloadAsStream: true,
    })
    assert.is(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), 'text/event-stream')
    res.stream().destroy()
  },
  notificationPreferences: async (_, call) => assert.equal(ok(await call()), { email: 'each' }),
  updateNotificationPreferences: async ({ ids, t, camille }, call) => {
    assert.equal(ok(await call()), { email: 'digest' })
    assert.equal(ok(await send(t.app, 'notificationPreferences', { params: { id: ids.order } }, camille)), { email: 'digest' })
  },
  letterHistory: async (_, call) => {
    const { events } = ok(await call())
    assert.equal(
      events.slice(0, 2).map((e: { kind: string; actor: string | null }) => [e.kind, e.actor]),
      [
        ['received', null],
        ['scanned', null],
      ],
    )
  },
  operatorLetterForwarded: async ({ t, ids, camille }, call) => {
    assert.is(ok(await call()).documentId, ids.document)
    const { events } = ok(await send(t.app, 'letterHistory', { params: { id: ids.document } }, camille))
    assert.equal(events.at(-1), { ...events.at(-1), kind: 'forwarded', actor: null, detail: '12 rue des Lilas, 69003 Lyon' })
    assert.is((await call({ params: { id: 999_999 }, body: { address: '12 rue des Lilas, 69003 Lyon' } })).statusCode, 404)
    const blank = await call({ body: { address: '   ' } })
    assert.is(blank.statusCode, 400)
  },
  operatorBackupDatabase: async ({ t }, call) => {
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/operator/backups/database',
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    })
    assert.is(elsewhere.statusCode, 403)
    assert.is(elsewhere.json().message, backupMessages.notLocal)
    const res = await call()
    if (process.env.DATABASE_URL) {
      assert.is(res.statusCode, 409)
      assert.is(res.json().message, backupMessages.postgres)
      return
    }
    assert.is(res.headers['content-type'], 'application/gzip')
    assert.equal([...ok(res).subarray(0, 2)], [0x1f, 0x8b], 'a gzip stream')
  },
  operatorKbis: async ({ ids }, call) => {
    const res = await call()
    assert.ok(isPdf(ok(res)))
    assert.is(res.headers.etag, ids.contractKbisTag)
    assert.is((await call({ params: { id: 999999 } })).statusCode, 404)
  },
  operatorKbisStatus: async ({ ids }, call) => {
    const validated = ok(await call())
    assert.is(validated.contractId, ids.contract)
    assert.is((await call()).statusCode, 409, 'once')
  },
  updateCreditCardWeb: async ({ t, camille }, call) => {
    assert.is((await call()).statusCode, 400, 'unknown pm')
    const card = await testProviderCard(t, '5555 5555 5555 4444')
    assert.equal(ok(await call({ body: { pm: card.id } })), card)
    assert.equal(ok(await send(t.app, 'creditCard', {}, camille)).last4, '4444')
  },
  updatePaymentMethod: async ({ t, ids, camille, julien }, call) => {
    assert.is((await call()).statusCode, 400, 'unknown pm')
    const theirs = await testProviderCard(t, '4000 0566 5566 5556')
    assert.is((await send(t.app, 'updateCreditCardWeb', { body: { pm: theirs.id } }, julien)).statusCode, 200)
    assert.is((await call({ body: { pm: theirs.id } })).statusCode, 400, "someone else's card")
    const card = await testProviderCard(t, '3782 822463 10005', '1234')
    assert.equal(ok(await call({ body: { pm: card.id } })), card)
    assert.equal(ok(await send(t.app, 'paymentMethod', { params: { id: ids.order } }, camille)).brand, 'amex')
  },
  // The demo runs the local test provider: Stripe's hosted element is not available (its success: billing.test.ts).
  cardSetup: async (_, call) => {
    assert.equal(ok(await call()), { provider: 'test' })
  },
  payUnpaidInvoice: async (_, call) => {
    assert.equal(ok(await call()).paidCount, 1)
    assert.equal(ok(await call()).paidCount, 0)
  },
  // After payUnpaidInvoice: the new invoice is the only unpaid one.
  operatorAddInvoice: async ({ t, ids, camille }, call) => {
    const invoice = ok(await call())
    assert.equal(
      [invoice.domId, invoice.raisonSociale, invoice.amountInclTaxCents, invoice.paid],
      [ids.order, 'Boulangerie des Lilas SAS', 34800, false],
    )
    const year = new Date(invoice.date).getFullYear()
    const listed = ok(await send(t.app, 'invoices', { query: { year } }, camille))
    assert.equal(
      listed.find((i: { id: number }) => i.id === invoice.id),
      invoice,
    )
    assert.equal(ok(await send(t.app, 'unpaidStatus', {}, camille)).count, 1)
    const file = await send(t.app, 'invoiceFile', { params: { id: invoice.id } }, camille)
    assert.ok(isPdf(ok(file)))
    assert.match(String(file.headers['content-disposition']), `facture-${invoice.number}.pdf`)
    // (Julien's share of this order was removed above: the collaborators' bell is tested in ingest.test.ts.)
    const bell = ok(await send(t.app, 'notifications', {}, camille))
    assert.equal(bell.notifications.find((n: { body: string }) => n.body.startsWith(`Facture ${invoice.number} `))?.link, '/factures')
  },
  addOption: async ({ ids }, call) => {
    const reply = ok(await call())
    assert.is(reply.planId, 'option-reexpedition-annuelle', 'the option at the yearly interval of the subscription')
    assert.ok(new Date(reply.expiresAt) > new Date())
    assert.is((await call({ body: { option: 'reexpedition', key: '0'.repeat(40) } })).statusCode, 403)
    assert.is((await call({ body: { option: 'jacuzzi', key: ids.subscriptionKey } })).statusCode, 400)
  },
  addOptionSubscription: async (_, call) => {
    const subscription = ok(await call())
    assert.ok(subscription.items.data.some((i: { plan: { id: string } }) => i.plan.id === 'option-reexpedition-annuelle'))
    assert.is((await call()).statusCode, 404, 'a request confirms once')
  },
  subscriptionOptions: async (_, call) => {
    // Run after addOptionSubscription: the Boulangerie holds scan (demo) and reexpedition (added) by now.
    const options = ok(await call())
    assert.equal(options, [
      {
        option: 'standard',
        planId: 'option-standard-annuelle',
        nickname: 'Permanence téléphonique',
        interval: 'year',
        amountExclTaxCents: 29000,
        amountInclTaxCents: 34800,
      },
    ])
  },
  terminationStatus: async ({ t }, call) => {
    const status = ok(await call())
    assert.is(status.request, null)
    const periodEnd = new Date(t.clock.now().getTime() + 200 * 86_400_000).toISOString().slice(0, 10)
    assert.ok(
      Math.abs(Date.parse(status.earliestDate) - Date.parse(periodEnd)) <= 86_400_000,
      `${status.earliestDate}: the end of the yearly period`,
    )
  },
  terminationRequest: async ({ ids, camille, t }, call) => {
    const early = await send(t.app, 'terminationStatus', { params: { id: ids.order } }, camille)
    const earliest = ok(early).earliestDate as string
    const dayBefore = new Date(Date.parse(earliest) - 86_400_000).toISOString().slice(0, 10)
    const refused = await call({ body: { orderId: ids.order, reason: 'Déménagement du siège', date: dayBefore } })
    assert.is(refused.statusCode, 400, 'not before the end of the current period')
    assert.match(refused.json().message, 'fin de la période en cours')
    assert.match(ok(await call()).message, 'résiliation')
    const status = ok(await send(t.app, 'terminationStatus', { params: { id: ids.order } }, camille))
    assert.is(status.request.date, TERMINATION_DATE)
    assert.is(status.request.reason, 'Déménagement du siège')
    const again = await call()
    assert.is(again.statusCode, 409, 'one request per order')
    assert.is(again.json().message, 'Une demande de résiliation est déjà enregistrée pour cette domiciliation.')
  },
  issueCertificate: async ({ t, ids }, call) => {
    const certificate = ok(await call())
    assert.match(certificate.code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    assert.is(certificate.orderId, ids.order)
    assert.is(certificate.verificationUrl, `${t.deps.config.publicUrl}/verification/${certificate.code}`)
    assert.is(certificate.file, `/api-protected/certificates/${certificate.code}/file`)
    assert.is.not(ok(await call()).code, certificate.code, 'each download is a new certificate')
  },
  certificateFile: async ({ ids }, call) => {
    const res = await call()
    assert.is(res.headers['content-type'], 'application/pdf')
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="attestation-domiciliation-boulangerie-des-lilas-sas-/)
    const text = pdfText(res.rawPayload)
    for (const expected of [
      'ATTESTATION DE DOMICILIATION',
      'Boulangerie des Lilas SAS',
      '823 456 785',
      'SAS',
      ids.certificate,
      DEMO_PREFECTURE_APPROVAL,
    ])
      assert.match(text, expected)
  },
  certificateVerification: async (_, call) => {
    const verification = ok(await call())
    assert.equal(Object.keys(verification).sort(), ['issuedAt', 'raisonSociale', 'status'], 'nothing more')
    assert.is(verification.status, 'valid')
    assert.is(verification.raisonSociale, 'Boulangerie des Lilas SAS')
  },
  contractFile: async ({ ids }, call) => {
    const res = await call()
    assert.is(res.headers['content-type'], 'application/pdf')
    const text = pdfText(res.rawPayload)
    assert.match(text, `CONTRAT DE DOMICILIATION N° ${ids.contract}`)
    assert.match(text, 'Boulangerie des Lilas SAS')
    assert.match(text, '27 rue des Lilas')
  },
  updateContract: async ({ ids }, call) => {
    const contract = ok(await call())
    assert.is(contract.kbis, `/api-protected/contracts/${ids.contract}/kbis`)
    const address = {
      adressePostaleExpedition: '3 place du Marché',
      codePostaleExpedition: '69002',
      villePostaleExpedition: 'Lyon',
      paysPostaleExpedition: 'France',
    }
    const moved = ok(await call({ body: address }))
    assert.is(moved.villePostaleExpedition, 'Lyon')
    assert.ok(moved.kbis, 'kbis stays')
  },
  uploadIdentity: async ({ t, ids }, call) => {
    const reply = ok(await call())
    assert.equal([reply.complete, reply.missingDocumentsValidatedAt], [false, null], 'complete once the provider validates it')
    assert.equal(
      reply.uploaded.map((u: { type: string; status: string }) => [u.type, u.status]),
      [['identity_manager', 'à vérifier']],
    )
    // Validated in the back office (Justificatifs): the file is complete.
    await t.deps.db
      .updateTable('uploaded_documents')
      .set({ validated_at: new Date() })
      .where('order_id', '=', ids.missingDocsOrder)
      .execute()
    await t.deps.db
      .updateTable('orders')
      .set({ missing_documents_validated_at: new Date() })
      .where('id', '=', ids.missingDocsOrder)
      .execute()
    const again = await call({
      multipart: multipart({ orderId: String(ids.missingDocsOrder) }, [
        { field: 'identity_manager', filename: 'cni.pdf', contentType: 'application/pdf', bytes: await tinyPdf() },
      ]),
    })
    assert.is(again.statusCode, 409, 'once complete, nothing more is taken')
    assert.is(again.json().code, 'DOCUMENTS_COMPLETE')
  },
  // people: invitation links, sessions, passkeys
  invitation: async ({ t, ids, camille }, call) => {
    ok(await send(t.app, 'invite', { params: { id: ids.order }, body: { emails: ['lien.invitation@example.com'] } }, camille))
    const token = t.mails.at(-1)!.link!.split('/invitation/')[1]!
    assert.equal(ok(await call({ params: { token } })), {
      email: 'lien.invitation@example.com',
      raisonSociale: 'Boulangerie des Lilas SAS',
      invitedBy: 'Camille Martin',
      hasAccount: false,
    })
    assert.is((await call()).statusCode, 404, 'unknown link')
  },
  createInvitationAccount: async ({ t, ids, camille }, call) => {
    ok(await send(t.app, 'invite', { params: { id: ids.order }, body: { emails: ['nina.roussel@example.com'] } }, camille))
    const token = t.mails.at(-1)!.link!.split('/invitation/')[1]!
    const reply = ok(await call({ params: { token } }))
    assert.equal([reply.user.email, reply.user.firstname, reply.orderId], ['nina.roussel@example.com', 'Nina', ids.order])
    const orders = ok(await send(t.app, 'myOrders', {}, reply.user.apiToken))
    assert.equal(
      orders.map((o: { id: number; isShareOrder: boolean }) => [o.id, o.isShareOrder]),
      [[ids.order, true]],
    )
    assert.is((await call({ params: { token } })).statusCode, 410, 'single use')
  },
  acceptInvitation: async ({ t, ids, camille }, call) => {
    const sophie = await login(t.app, 'solo@example.com')
    const toSophie = () => t.mails.filter((m) => m.to.toLowerCase() === 'solo@example.com')
    ok(await send(t.app, 'invite', { params: { id: ids.order }, body: { emails: ['solo@example.com'] } }, camille))
    assert.is(toSophie().length, 1, 'invited again within a minute: no second e-mail')
    const token = toSophie()[0]!.link!.split('/invitation/')[1]!
    assert.is((await send(t.app, 'documents', { query: { orderId: ids.order } }, sophie)).statusCode, 404, 'no access before accepting')
    assert.is((await call({ params: { token } }, camille)).statusCode, 403, 'another account cannot take it')
    assert.equal(ok(await call({ params: { token } }, sophie)).orderId, ids.order)
    assert.is((await send(t.app, 'documents', { query: { orderId: ids.order } }, sophie)).statusCode, 200, 'access once accepted')
    const shares = ok(await send(t.app, 'shares', { params: { id: ids.order } }, camille))
    assert.equal(
      shares.find((s: { email: string }) => s.email.toLowerCase() === 'solo@example.com')?.firstname,
      'Sophie',
      'her name shows once she accepted',
    )
  },
  sessions: async ({ t }, call) => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36' },
      payload: { username: 'demo@example.com', password: DEMO_PASSWORD },
    })
    assert.is(other.statusCode, 200)
    const sessions = ok(await call())
    assert.ok(sessions.some((s: { device: string; current: boolean }) => s.device === 'Chrome sur Android' && !s.current))
    assert.is(sessions.filter((s: { current: boolean }) => s.current).length, 1)
  },
  signOutOtherSessions: async ({ t }, call) => {
    const other = await login(t.app)
    assert.ok(ok(await call()).signedOut >= 1)
    assert.is((await send(t.app, 'currentUser', {}, other)).statusCode, 401, 'the other device is signed out')
    assert.equal(ok(await call()).signedOut, 0)
  },
  signOut: async ({ t, camille }, call) => {
    const here = await login(t.app)
    assert.equal(ok(await call({}, here)), { message: 'Vous êtes déconnecté.' })
    assert.is((await call({}, here)).statusCode, 401, 'this session is over: its token is refused')
    assert.is((await send(t.app, 'currentUser', {}, here)).statusCode, 401)
    assert.is((await send(t.app, 'currentUser', {}, camille)).statusCode, 200, 'her other device stays signed in')
  },
  passkeyRegistrationOptions: async (_, call) => {
    const options = ok(await call())
    assert.equal([options.rp.id, options.rp.name, options.user.name], ['localhost', 'Domicilium', 'demo@example.com'])
    assert.is(options.authenticatorSelection.residentKey, 'required')
    assert.is(options.excludeCredentials.length, 1, 'the passkey she holds already')
  },
  registerPasskey: async ({ t, camille }, call) => {
    const options = ok(await send(t.app, 'passkeyRegistrationOptions', {}, camille))
    const passkey = ok(await call({ body: { credential: softPasskey.register(options), name: 'Téléphone de Camille' } }))
    assert.is(passkey.name, 'Téléphone de Camille')
    assert.is((await call({ body: { credential: softPasskey.register(options) } })).statusCode, 400, 'a challenge serves once')
  },
  passkeys: async (_, call) => assert.ok(ok(await call()).some((p: { name: string }) => p.name === 'Téléphone de Camille')),
  renamePasskey: async (_, call) => assert.is(ok(await call()).name, 'Ordinateur du bureau'),
  passkeyLoginOptions: async (_, call) => {
    const options = ok(await call())
    assert.is(options.rpId, 'localhost')
    assert.match(options.challenge, /^[\w-]{20,}$/)
  },
  passkeyLogin: async ({ t }, call) => {
    const options = ok(await send(t.app, 'passkeyLoginOptions', {}, null))
    const user = ok(await call({ body: { credential: softPasskey.authenticate(options) } }))
    assert.is(user.email, 'demo@example.com')
    assert.is((await send(t.app, 'currentUser', {}, user.apiToken)).statusCode, 200)
  },
  deletePasskey: async (_, call) => {
    ok(await call())
    assert.is((await call()).statusCode, 404)
  },
  closeAccount: async (_, call) => {
    const refused = await call()
    assert.is(refused.statusCode, 409, refused.body)
    assert.match(refused.json().message, 'Votre domiciliation Boulangerie des Lilas SAS est active')
    const wrong = await call({ body: { password: 'pas le bon' } })
    assert.is(wrong.statusCode, 400)
    assert.is(wrong.json().message, 'Le mot de passe est incorrect : votre compte n’a pas été fermé.')
  },
  leaveSharedOrder: async ({ t, camille, ids }, call) => {
    assert.is(ok(await call()).message, 'Vous n’avez plus accès au courrier de Studio Nuage SAS.')
    assert.is((await send(t.app, 'documents', { query: { orderId: ids.sharedOrder } }, camille)).statusCode, 404)
    const own = await call({ params: { id: ids.order } })
    assert.is(own.statusCode, 409, 'her own order')
  },
  // people: « Mes données » (test/server/people/data-export.test.ts prepares one for real)
  dataExports: async ({ ids }, call) => assert.is(ok(await call())[0].id, ids.dataExport),
  dataExport: async ({ ids }, call) => assert.equal([ok(await call()).id, ok(await call()).state], [ids.dataExport, 'ready']),
  dataExportFile: async (_, call) => {
    const res = await call()
    assert.is(res.statusCode, 200)
    assert.is(res.headers['content-type'], 'application/zip')
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="mes-donnees-\d{4}-\d{2}-\d{2}\.zip"$/)
  },
  startDataExport: async (_, call) => {
    const started = ok(await call())
    assert.is(started.state, 'preparing')
    assert.is(ok(await call()).id, started.id, 'one being prepared is answered again')
  },
  updateEmail: async (_, call) => assert.is(ok(await call()).email, 'camille.martin@example.com'),
  updatePassword: async (_, call) => assert.match(ok(await call()).message, 'modifié'),
  resetPasswordRequest: async ({ t }, call) => {
    const known = ok(await call({ body: { email: 'camille.martin@example.com', domain: 'http://localhost:8080' } }))
    await eventually(() => t.mails.at(-1)!.link?.includes('/set-password/'))
    assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\/set-password\//)
    assert.equal(ok(await call({ body: { email: 'personne@example.com', domain: 'http://localhost:8080' } })), known)
  },
  resetPassword: async ({ t }, call) => {
    const token = t.mails.at(-1)!.link!.split('/').pop()!
    assert.match(ok(await call({ body: { token, password: 'Nouveau-mot-de-passe-1' } })).message, 'modifié')
    assert.ok(await login(t.app, 'camille.martin@example.com', 'Nouveau-mot-de-passe-1'))
    assert.is(
      (await send(t.app, 'login', { body: { username: 'camille.martin@example.com', password: DEMO_PASSWORD } }, null)).statusCode,
      401,
      'the old password is gone',
    )
  },
  // Last: it ends every session. The link of updateEmail's notice to demo@example.com puts that address back.
  revertEmailChange: async ({ t }, call) => {
    const notice = t.mails.find((m) => m.to === 'demo@example.com' && m.link?.includes('/retablir-adresse/'))!
    assert.match(notice.link!, /^http:\/\/localhost:8080\/retablir-adresse\/[\w-]{43}$/)
    const token = notice.link!.split('/').pop()!
    assert.is(
      ok(await call({ params: { token } })).message,
      'Votre adresse demo@example.com est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.',
    )
    assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\/set-password\/[\w-]{43}$/)
    assert.is(t.mails.at(-1)!.to, 'demo@example.com')
    assert.is(
      (await send(t.app, 'login', { body: { username: 'demo@example.com', password: 'Nouveau-mot-de-passe-1' } }, null)).statusCode,
      401,
      'a password nobody knows',
    )
    ok(
      await send(
        t.app,
        'resetPassword',
        { body: { token: t.mails.at(-1)!.link!.split('/').pop()!, password: 'Encore-un-mot-de-passe-2' } },
        null,
      ),
    )
    assert.ok(await login(t.app, 'demo@example.com', 'Encore-un-mot-de-passe-2'), 'the address is back')
    assert.is((await call({ params: { token } })).statusCode, 410, 'once')
  },
  // operators (their own tests: test/server/operators/)
  operatorPassword: async (_, call) => {
    const reply = ok(await call())
    assert.ok(reply.ticket.length >= 40)
    assert.ok(new Date(reply.expiresAt) > new Date())
  },
  operatorCode: async ({ t }, call) => {
    t.clock.advance(30_000)
    const ticket = ok(
      await send(t.app, 'operatorPassword', { body: { email: 'courrier@example.com', password: DEMO_PASSWORD } }, null),
    ).ticket
    const reply = ok(await call({ body: { ticket, code: totpCode('KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU', t.clock.now()) } }))
    assert.equal(reply.operator.roles, ['courrier'])
    assert.is(reply.idleMinutes, 30)
  },
  operatorMyPasskeys: async (_, call) => assert.ok(ok(await call()).some((p: { name: string }) => p.name === 'Clé de test')),
  operatorPasskeyRegistrationOptions: async (_, call) => {
    const options = ok(await call())
    assert.equal([options.rp.id, options.user.name], ['localhost', 'operateur@example.com'])
    assert.is(options.excludeCredentials.length, 1, 'the key the administrator holds already')
  },
  operatorRegisterPasskey: async ({ t, admin }, call) => {
    const options = ok(await send(t.app, 'operatorPasskeyRegistrationOptions', {}, admin))
    assert.is(ok(await call({ body: { credential: operatorsPasskey.register(options), name: 'Clé du bureau' } })).name, 'Clé du bureau')
    assert.is((await call({ body: { credential: operatorsPasskey.register(options) } })).statusCode, 400, 'a challenge serves once')
  },
  operatorPasskeyOptions: async ({ t }, call) => {
    const { ticket } = ok(
      await send(t.app, 'operatorPassword', { body: { email: 'operateur@example.com', password: DEMO_PASSWORD } }, null),
    )
    const options = ok(await call({ body: { ticket } }))
    assert.is(options.rpId, 'localhost')
    assert.ok(
      options.allowCredentials.some((c: { id: string }) => c.id === operatorsPasskey.id),
      'its keys only',
    )
  },
  operatorPasskey: async ({ t }, call) => {
    const { ticket } = ok(
      await send(t.app, 'operatorPassword', { body: { email: 'operateur@example.com', password: DEMO_PASSWORD } }, null),
    )
    const options = ok(await send(t.app, 'operatorPasskeyOptions', { body: { ticket } }, null))
    const reply = ok(await call({ body: { ticket, credential: operatorsPasskey.authenticate(options) } }))
    assert.equal(reply.operator.roles, ['admin'])
    assert.is((await send(t.app, 'operatorMe', {}, reply.token)).statusCode, 200)
  },
  operatorDeletePasskey: async (_, call) => {
    ok(await call())
    assert.is((await call()).statusCode, 404)
  },
  operatorEnrolment: async ({ t, admin }, call) => {
    const invited = ok(await send(t.app, 'operatorInvite', { body: { email: 'ines@example.com', name: 'Inès', roles: ['admin'] } }, admin))
    const token = invited.enrolmentUrl.split('/').pop()
    const enrolment = ok(await call({ params: { token } }))
    assert.is(enrolment.email, 'ines@example.com')
    assert.match(enrolment.otpauthUri, /^otpauth:\/\/totp\//)
  },
  operatorEnrol: async ({ t, admin }, call) => {
    const invited = ok(await send(t.app, 'operatorInvite', { body: { email: 'enzo@example.com', name: 'Enzo', roles: ['admin'] } }, admin))
    const token = invited.enrolmentUrl.split('/').pop()
    const { totpSecret } = ok(await send(t.app, 'operatorEnrolment', { params: { token } }, null))
    ok(await call({ params: { token }, body: { password: 'trois mots au hasard', code: totpCode(totpSecret, t.clock.now()) } }))
  },
  operatorMe: async (_, call) => assert.equal(ok(await call()).roles, ['admin']),
  operatorSignOut: async ({ t }, call) => {
    const token = await operatorLogin(t)
    ok(await call({}, token))
    assert.is((await send(t.app, 'operatorMe', {}, token)).statusCode, 401)
  },
  operatorList: async (_, call) => assert.ok(ok(await call()).some((o: { email: string }) => o.email === 'courrier@example.com')),
  operatorInvite: async (_, call) => assert.match(ok(await call()).enrolmentUrl, /\/operateur\/inscription\/[\w-]{43}$/),
  operatorSetRoles: async (_, call) => assert.equal(ok(await call()).roles, ['conformite']),
  operatorDeactivate: async (_, call) => assert.is(ok(await call()).active, false),
  operatorJournal: async (_, call) => {
    const page = ok(await call())
    assert.ok(page.total >= 1, 'the invitations above are in it')
    assert.is(page.entries[0].operator.email, 'operateur@example.com')
  },
  operatorApiKeys: async (_, call) => assert.ok(ok(await call()).some((k: { name: string }) => k.name === 'Clé des échantillons')),
  operatorCreateApiKey: async ({ t }, call) => {
    const made = ok(await call())
    assert.match(made.key, /^dk_[\w-]{43}$/)
    assert.is(made.apiKey.prefix, made.key.slice(0, 11))
    assert.is((await send(t.app, 'operatorOrders', {}, made.key)).statusCode, 200)
  },
  operatorRevokeApiKey: async (_, call) => assert.ok(ok(await call()).revokedAt),
  operatorClientSearch: async ({ ids }, call) => {
    const page = ok(await call())
    assert.equal(
      page.results.map((r: { orderId: number }) => r.orderId),
      [ids.order],
    )
    assert.equal(page.results[0].matches, [{ field: 'raisonSociale', value: 'Boulangerie des Lilas SAS' }])
  },
  operatorClientOrder: async ({ ids }, call) => {
    const order = ok(await call())
    assert.is(order.id, ids.order)
    assert.is(order.siren, '823 456 785')
    assert.is(order.owner.email, 'demo@example.com')
  },
  operatorOrderTimeline: async (_, call) => {
    const page = ok(await call())
    assert.is(page.pageSize, 50)
    assert.ok(page.total > 50, 'the Boulangerie has more to tell than one page')
  },
  operatorCreateClient: async ({ t }, call) => {
    const made = ok(await call())
    assert.is(made.status, 'En attente de KBIS')
    assert.ok(made.owner.newAccount)
    assert.ok(t.mails.some((m) => m.to === made.owner.email && m.link?.includes('/set-password/')))
  },
  operatorDashboard: async (_, call) => {
    const board = ok(await call())
    assert.equal(
      board.queues.map((q: { id: string }) => q.id),
      ['numerisation', 'justificatifs', 'messages', 'reexpeditions', 'resiliations'],
    )
  },
  operatorJournalCsv: async (_, call) => {
    const res = await call()
    assert.is(res.statusCode, 200)
    assert.is(res.headers['content-type'], 'text/csv; charset=utf-8')
    assert.match(res.body, /^\uFEFF"Date \(heure de Paris\)";"Opérateur"/)
  },
  // the back office's mail room (its own tests: test/server/mail/backoffice-*.test.ts)
  mailRoomOrders: async (_, call) =>
    assert.equal(
      ok(await call()).map((o: { raisonSociale: string }) => o.raisonSociale),
      [MAIL_ROOM_ORDER],
    ),
  mailRoomUploadScan: async (_, call) => {
    const scan = ok(await call())
    assert.is(scan.fileName, 'scan-0001.pdf')
    assert.is(scan.reading, 'en cours')
  },
  mailRoomScans: async ({ ids }, call) => assert.ok(ok(await call()).some((s: { id: number }) => s.id === ids.mailRoom.scanToRead)),
  mailRoomScan: async (_, call) => assert.is(ok(await call()).sender, 'Moulins Bourgeois'),
  mailRoomScanFile: async (_, call) => assert.ok(isPdf(ok(await call()))),
  mailRoomScanPage: async (_, call) => {
    const res = await call()
    assert.is(res.statusCode, 200)
    assert.is(res.headers['content-type'], 'image/webp')
  },
  mailRoomReviewScan: async (_, call) => assert.is(ok(await call()).confirmed, false),
  mailRoomDeleteScan: async (_, call) => assert.is(ok(await call()).message, 'La numérisation a été supprimée.'),
  mailRoomPublishScan: async (_, call) => {
    const published = ok(await call())
    assert.is(published.document.sender, 'Moulins Bourgeois')
    assert.ok(published.scan.published)
  },
  mailRoomPublishScans: async (_, call) => assert.is(ok(await call()).published.length, 1),
  mailRoomRegisterPackage: async (_, call) => {
    const parcel = ok(await call())
    assert.is(parcel.status, 'À retirer')
    assert.is(parcel.hasPhoto, true)
  },
  mailRoomWaitingPackages: async ({ ids }, call) => assert.is(ok(await call())[0].orderId, ids.mailRoom.order),
  mailRoomPackagePhoto: async (_, call) => assert.ok(isPdf(ok(await call()))),
  mailRoomPackageCollectors: async (_, call) =>
    assert.equal(ok(await call())[0], { kind: 'titulaire', mandataireId: null, name: 'Paul Girard' }),
  mailRoomHandOverPackage: async (_, call) => {
    const parcel = ok(await call())
    assert.is(parcel.status, 'Retiré')
    assert.is(parcel.collectedBy, 'Paul Girard')
  },
  mailRoomForwardingRequests: async ({ ids }, call) =>
    assert.ok(ok(await call()).some((r: { id: number }) => ids.mailRoom.pendingForwarding.includes(r.id))),
  mailRoomForwardingShipped: async (_, call) => {
    const done = ok(await call())
    assert.is(done.outcome.trackingUrl, 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901')
  },
  mailRoomForwardingImpossible: async (_, call) => assert.is(ok(await call()).outcome.kind, 'impossible'),
  complianceJustificatifs: async ({ ids }, call) => {
    const waiting = ok(await call())
    assert.ok(waiting.some((j: { kind: string; id: number }) => j.kind === 'kbis' && j.id === ids.compliance!.kbis[0]!.id))
    assert.ok(waiting.some((j: { kind: string; id: number }) => j.kind === 'identite' && j.id === ids.compliance!.identity[0]!.id))
  },
  complianceJustificatif: async ({ ids }, call) => assert.is(ok(await call()).version, ids.compliance!.kbis[0]!.version),
  complianceJustificatifFile: async ({ ids }, call) => {
    const res = await call()
    assert.is(res.headers.etag, ids.compliance!.identity[0]!.version)
    assert.ok(isPdf(ok(res)))
  },
  complianceValidateJustificatif: async (_, call) => {
    assert.is(ok(await call()).justificatif.status, 'validé')
  },
  complianceRefuseJustificatif: async (_, call) => {
    const refused = ok(await call())
    assert.equal([refused.justificatif.status, refused.justificatif.refusal.text, refused.notified], ['refusé', 'document illisible', true])
  },
  complianceLegalSubmissions: async (_, call) => assert.ok(ok(await call()).length > 0),
  complianceMoveLegalSubmission: async (_, call) => assert.is(ok(await call()).status, 'En cours'),
  operatorConversations: async ({ ids }, call) =>
    assert.ok(ok(await call()).some((c: { id: number }) => c.id === ids.messages!.conversation)),
  operatorConversation: async ({ ids }, call) => assert.is(ok(await call()).id, ids.messages!.conversation),
  operatorReplyConversation: async ({ t }, call) => {
    const mailsBefore = t.mails.length
    const conversation = ok(await call())
    assert.equal(conversation.messages.at(-1).author, { kind: 'operator', name: 'Inès Garnier' })
    assert.is(conversation.waitingSince, null, 'answered')
    assert.ok(t.mails.slice(mailsBefore).some((m) => m.to === 'demo@example.com' && m.text.includes('/mes-echanges/')))
  },
  operatorCloseConversation: async (_, call) => assert.is(ok(await call()).status, 'closed'),
  operatorReopenConversation: async (_, call) => assert.is(ok(await call()).status, 'open'),
  operatorTerminations: async ({ ids }, call) =>
    assert.ok(ok(await call()).some((r: { id: number }) => ids.messages!.terminationsToAccept.includes(r.id))),
  operatorAcceptTermination: async (_, call) => {
    const done = ok(await call())
    assert.is(done.state, 'acceptée')
    assert.is(done.endDate, TERMINATION_DATE)
  },
  operatorContactTermination: async (_, call) => assert.ok(ok(await call()).conversationId),
}

const test = suite<Ctx>('every route of spec §7: happy path')

test.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db, { compliance: true, messages: true })
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.kbis = await tinyPdf()
  ctx.admin = await operatorLogin(ctx.t)
})
test.after(async (ctx) => ctx.t?.close())

test('the happy-path table covers the whole route table', () => {
  assert.equal(Object.keys(happy).sort(), Object.keys(routes).sort())
})

for (const [name, check] of Object.entries(happy) as [RouteName, Check][]) {
  test(`${routes[name].method} ${routes[name].path}`, async (ctx) => {
    const base = sampleFor(name, ctx.ids, ctx.kbis)
    await check(ctx, (sample = {}, token = tokenFor(name, ctx.camille, ctx.admin)) =>
      send(ctx.t.app, name, { ...base, ...sample }, routes[name].auth === 'none' ? null : token),
    )
  })
}

// Legal pages: whatever the calls above sent (resets, invitations, letters, notices…) ends with the one legal footer.
test('every e-mail these calls sent ends with the legal footer and its four links', ({ t }) => {
  const footer = legalFooter(t.deps.config.legal)
  const subjects = new Set(t.mails.map((mail) => mail.subject))
  assert.ok(subjects.size >= 5, `${subjects.size} kinds of e-mail`)
  for (const mail of t.mails) {
    assert.ok(mail.text.endsWith(`\n\n${footer}\n`), mail.subject)
    for (const { path } of LEGAL_PAGES) assert.match(mail.text, `http://localhost:8080${path}`, mail.subject)
  }
})

test.run()
