// The typed client against a local HTTP server: method, path, headers and body of every call,
// checked against the contract's route table so that client and server cannot drift apart.
import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as billing from '../../src/api/billing.ts'
import { configureApi } from '../../src/api/client.ts'
import * as company from '../../src/api/company.ts'
import { ApiError } from '../../src/api/errors.ts'
import * as mail from '../../src/api/mail.ts'
import * as notifications from '../../src/api/notifications.ts'
import * as people from '../../src/api/people.ts'
import * as session from '../../src/api/session.ts'
import { testProviderRoute } from '../../server/contract/test-provider.ts'
import { type RouteDef, type RouteName, routes } from '../../server/contract/routes.ts'

/** Every client function, whichever area's file it is in. */
const api = { ...session, ...people, ...mail, ...billing, ...company, ...notifications }

interface Recorded {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

const recorded: Recorded[] = []
let reply: { status: number; body: unknown; type?: string } = { status: 200, body: {} }
const server = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body })
    res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' })
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
  })
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const swallowed: ApiError[] = []
const unauthorized: ApiError[] = []
const configure = () =>
  configureApi({
    baseURL,
    getToken: () => 'tok_secret',
    onSwallowedError: (e) => void swallowed.push(e),
    onUnauthorized: (e) => void unauthorized.push(e),
  })

const pdfBlob = new Blob(['%PDF-1.7'], { type: 'application/pdf' })
const form = new FormData()
form.set('orderId', '4')
form.set('identity_manager', new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'cni.pdf')

const passkeyAnswer = { id: 'AQ', rawId: 'AQ', type: 'public-key' as const, response: { clientDataJSON: 'e30', attestationObject: 'oA' } }
const signInAnswer = {
  id: 'AQ',
  rawId: 'AQ',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
}

/** One row per call of spec §7: the route it must hit, how to call it, the path and body expected. */
const calls: [RouteName, () => Promise<unknown>, string, unknown?][] = [
  [
    'login',
    () => api.login({ username: 'demo@example.com', password: 'Demo1234!' }),
    '/api/login',
    { username: 'demo@example.com', password: 'Demo1234!' },
  ],
  [
    'resetPasswordRequest',
    () => api.requestPasswordReset({ email: 'demo@example.com', domain: 'https://portail.test' }),
    '/reset-password-request',
    { email: 'demo@example.com', domain: 'https://portail.test' },
  ],
  [
    'resetPassword',
    () => api.resetPassword({ token: 'abc', password: 'Nouveau1234!' }),
    '/reset-password',
    { token: 'abc', password: 'Nouveau1234!' },
  ],
  ['currentUser', () => api.getCurrentUser(), '/api-protected/user/me'],
  ['contracts', () => api.getContracts(), '/api-protected/contracts'],
  [
    'updateEmail',
    () => api.updateEmail({ newEmail: 'camille@example.com' }),
    '/api-protected/users/me/email',
    { newEmail: 'camille@example.com' },
  ],
  [
    'updatePassword',
    () => api.updatePassword({ currentPassword: 'a', newPassword: 'Nouveau1234!' }),
    '/api-protected/users/me/password',
    { currentPassword: 'a', newPassword: 'Nouveau1234!' },
  ],
  ['revertEmailChange', () => api.revertEmailChange('AbC-12_x'), '/api/email-change-reverts/AbC-12_x'],
  ['unpaidStatus', () => api.getUnpaidStatus(), '/api-protected/user-unpaid-status'],
  ['payUnpaidInvoice', () => api.payUnpaidInvoice({ orderId: 2 }), '/api-protected/pay-unpaid-invoice', { orderId: 2 }],
  ['myOrders', () => api.getMyOrders(), '/api-protected/my-domiciliation-orders'],
  [
    'sendProblem',
    () => api.sendProblem(2, { message: 'Bonjour' }),
    '/api-protected/domiciliation-orders/2:send-problem',
    { message: 'Bonjour' },
  ],
  ['sendInvite', () => api.sendInvite({ email: 'ami@example.com' }), '/api-protected/send-invite', { email: 'ami@example.com' }],
  ['conversations', () => api.getConversations(2), '/api-protected/conversations?orderId=2'],
  ['conversations', () => api.getConversations(null), '/api-protected/conversations'],
  ['conversation', () => api.getConversation(4), '/api-protected/conversations/4'],
  [
    'answerConversation',
    () => api.answerConversation(4, { message: 'Merci' }),
    '/api-protected/conversations/4/messages',
    { message: 'Merci' },
  ],
  [
    'isAttenteCourrierOrFinalise',
    () => api.isAttenteCourrierOrFinalise(2),
    '/api-protected/domiciliation-orders/2/is-attente-courrier-or-finalise',
  ],
  ['isCompleteKbis', () => api.isCompleteKbis(2), '/api-protected/domiciliation-orders/2/is-complete-kbis'],
  ['isWaitingContract', () => api.isWaitingContract(2), '/api-protected/domiciliation-orders/2/is-waiting-contract'],
  ['uploadedDocuments', () => api.getUploadedDocuments(4), '/api-protected/domiciliation-orders/4/uploaded-documents'],
  ['shares', () => api.getShares(2), '/api-protected/domiciliation-orders/2/shares'],
  ['deleteShare', () => api.deleteShare(2, 7), '/api-protected/domiciliation-orders/2/share-delete/7'],
  [
    'invite',
    () => api.inviteCollaborators(2, { emails: ['a@example.com', 'b@example.com'] }),
    '/api-protected/domiciliation-orders/2/invite',
    { emails: ['a@example.com', 'b@example.com'] },
  ],
  ['mandataires', () => api.getMandataires(2), '/api-protected/domiciliation-orders/2/destinataire-mandataires'],
  ['deleteMandataire', () => api.deleteMandataire(2, 5), '/api-protected/domiciliation-orders/2/destinataire-mandataires-delete/5'],
  [
    'addMandataire',
    () => api.addMandataire(2, { firstname: 'Léa', lastname: 'Roux', email: 'lea@example.com', phone: '0601020304' }),
    '/api-protected/domiciliation-orders/2/destinataire-mandataires',
    { firstname: 'Léa', lastname: 'Roux', email: 'lea@example.com', phone: '0601020304' },
  ],
  ['setQonto', () => api.setQonto(2, { qonto: true }), '/api/domiciliation-orders/2:set-qonto', { qonto: true }],
  ['setShine', () => api.setShine(2, { shine: true }), '/api/domiciliation-orders/2:set-shine', { shine: true }],
  ['wantComptable', () => api.wantComptable(2), '/api-protected/want-comptable/2'],
  ['packages', () => api.getPackages({ orderId: 2 }), '/api-protected/user-packages?orderId=2'],
  ['sharePackages', () => api.getSharePackages({ orderId: 3 }), '/api-protected/user-packages/share?orderId=3'],
  ['courierRequests', () => api.getCourierRequests({ orderId: 2 }), '/api-protected/user-demandes-courrier?orderId=2'],
  ['shareCourierRequests', () => api.getShareCourierRequests({ orderId: 3 }), '/api-protected/user-demandes-courrier/share?orderId=3'],
  [
    'removeCourierRequest',
    () => api.removeCourierRequest({ orderId: 2, id: 9 }),
    '/api-protected/user-demandes-courrier/remove',
    { orderId: 2, id: 9 },
  ],
  ['documents', () => api.getDocuments({ orderId: 2 }), '/api-protected/documents?orderId=2'],
  ['updateDocument', () => api.updateDocument(12, { readFlag: true }), '/api-protected/documents/12', { readFlag: true }],
  ['documentFile', () => api.getDocumentFile(12), '/api-protected/documents/12/file'],
  // mail pipeline
  ['documentPage', () => api.getDocumentPage(12, 2), '/api-protected/documents/12/pages/2'],
  [
    'documentSearch',
    () => api.searchDocuments({ q: 'loyer impayé', orderId: 2 }),
    '/api-protected/documents/search?q=loyer+impay%C3%A9&orderId=2',
  ],
  ['letterDeadlines', () => api.getLetterDeadlines({ orderId: 2 }), '/api-protected/letter-deadlines?orderId=2'],
  [
    'sendDocuments',
    () => api.sendDocuments({ email: 'compta@example.com', documentIds: [12, 13] }),
    '/api-protected/send-documents',
    { email: 'compta@example.com', documentIds: [12, 13] },
  ],
  ['folders', () => api.getFolders({ domiciliationOrderId: 2 }), '/api-protected/folders?domiciliationOrderId=2'],
  ['shareFolders', () => api.getShareFolders(), '/api-protected/share-folders'],
  [
    'createFolder',
    () => api.createFolder({ name: 'Banque', domiciliationOrderId: 2 }),
    '/api-protected/folders',
    { name: 'Banque', domiciliationOrderId: 2 },
  ],
  ['updateFolder', () => api.updateFolder(4, { name: 'Impôts' }), '/api-protected/folders/4', { name: 'Impôts' }],
  ['deleteFolder', () => api.deleteFolder(4), '/api-protected/folders/4'],
  [
    'subscriptionInformations',
    () => api.getSubscriptionInformations(1, '23'),
    '/stripe/subscription-informations/1?key=40bd001563085fc35165329ea1ff5c5ecbdbbeef',
  ],
  [
    'addOptionSubscription',
    () => api.addOptionSubscription({ contractId: 101, planId: 'plan_scan' }),
    '/stripe/add-option-subscription',
    { contractId: 101, planId: 'plan_scan' },
  ],
  [
    'addOption',
    () => api.addOption(1, { option: 'plan_scan', key: '40bd001563085fc35165329ea1ff5c5ecbdbbeef' }),
    '/api-protected/domiciliation-orders/1:add-option',
    { option: 'plan_scan', key: '40bd001563085fc35165329ea1ff5c5ecbdbbeef' },
  ],
  ['paymentMethod', () => api.getPaymentMethod(2), '/api-protected/domiciliation-orders/2/payment-method'],
  ['creditCard', () => api.getCreditCard(), '/api-protected/credit-card'],
  [
    'updatePaymentMethod',
    () => api.updatePaymentMethod(2, { pm: 'pm_card_visa' }),
    '/api-protected/domiciliation-orders/2/payment-method',
    { pm: 'pm_card_visa' },
  ],
  ['cardSetup', () => api.createCardSetup({ orderId: 2 }), '/api-protected/card-setup-intents', { orderId: 2 }],
  ['updateCreditCardWeb', () => api.updateCreditCardWeb({ pm: 'pm_card_visa' }), '/api-protected/credit-card-web', { pm: 'pm_card_visa' }],
  [
    'terminationRequest',
    () => api.createTerminationRequest({ orderId: 2, reason: 'Déménagement', date: '2027-01-31' }),
    '/api-protected/termination-requests',
    { orderId: 2, reason: 'Déménagement', date: '2027-01-31' },
  ],
  ['invoiceYears', () => api.getInvoiceYears(), '/api-protected/invoices/years'],
  ['shareInvoiceYears', () => api.getShareInvoiceYears(), '/api-protected/invoices/years/share'],
  ['invoices', () => api.getInvoices({ year: 2026 }), '/api-protected/invoices?year=2026'],
  ['shareInvoices', () => api.getShareInvoices({ year: 2026 }), '/api-protected/invoices/share?year=2026'],
  ['creditNotesByYear', () => api.getCreditNotesByYear({ year: 2026 }), '/api-protected/creditnotes-by-year?year=2026'],
  ['shareCreditNotesByYear', () => api.getShareCreditNotesByYear({ year: 2026 }), '/api-protected/creditnotes-by-year/share?year=2026'],
  ['calendarInvoices', () => api.getCalendarInvoices(), '/api-protected/invoices/cal'],
  ['invoiceFile', () => api.getInvoiceFile(8), '/api-protected/invoices/8/file'],
  ['creditNoteFile', () => api.getCreditNoteFile(3), '/api-protected/creditnotes/3/file'],
  [
    'sendDextInvoices',
    () => api.sendDextInvoices({ email: 'x@dext.cc', invoiceIds: [8], documentIds: [12] }),
    '/api-protected/send-dext-invoices',
    { email: 'x@dext.cc', invoiceIds: [8], documentIds: [12] },
  ],
  [
    'updateContract',
    () => api.uploadKbis(101, 'data:application/pdf;base64,JVBERi0='),
    '/api-protected/contracts/101',
    { kbis: 'data:application/pdf;base64,JVBERi0=' },
  ],
  [
    'updateContract',
    () => api.updateContract(101, { villePostaleExpedition: 'Lyon' }),
    '/api-protected/contracts/101',
    { villePostaleExpedition: 'Lyon' },
  ],
  [
    'updateContract',
    () =>
      api.updateContractAddress(101, {
        adressePostaleExpedition: '3 rue Victor Hugo',
        codePostaleExpedition: '69002',
        villePostaleExpedition: 'Lyon',
        paysPostaleExpedition: 'France',
      }),
    '/api-protected/contracts/101',
    {
      adressePostaleExpedition: '3 rue Victor Hugo',
      codePostaleExpedition: '69002',
      villePostaleExpedition: 'Lyon',
      paysPostaleExpedition: 'France',
    },
  ],
  ['contractKbis', () => api.getKbisFile(101), '/api-protected/contracts/101/kbis'],
  // billing
  ['subscriptionOptions', () => api.getSubscriptionOptions(2), '/api-protected/domiciliation-orders/2/subscription-options'],
  ['terminationStatus', () => api.getTerminationStatus(2), '/api-protected/domiciliation-orders/2/termination-request'],
  ['issueCertificate', () => api.issueCertificate(2), '/api-protected/domiciliation-orders/2/certificates'],
  ['certificateFile', () => api.getCertificateFile('K7QM-2XPA-9D4F'), '/api-protected/certificates/K7QM-2XPA-9D4F/file'],
  ['certificateVerification', () => api.getCertificateVerification('K7QM-2XPA-9D4F'), '/api/certificates/K7QM-2XPA-9D4F'],
  ['contractFile', () => api.getContractFile(101), '/api-protected/contracts/101/file'],
  ['uploadIdentity', () => api.uploadIdentity(form), '/step-upload-identity'],
  // people
  ['invitation', () => api.getInvitation('abc_DEF-1'), '/api/invitations/abc_DEF-1'],
  [
    'createInvitationAccount',
    () => api.createInvitationAccount('abc', { firstname: 'Nina', lastname: 'Roussel', password: 'trois mots au hasard' }),
    '/api/invitations/abc/account',
    { firstname: 'Nina', lastname: 'Roussel', password: 'trois mots au hasard' },
  ],
  ['acceptInvitation', () => api.acceptInvitation('abc'), '/api-protected/invitations/abc/accept'],
  ['sessions', () => api.getSessions(), '/api-protected/users/me/sessions'],
  ['signOutOtherSessions', () => api.signOutOtherSessions(), '/api-protected/users/me/sessions'],
  ['signOut', () => api.signOut(), '/api-protected/users/me/sessions/current'],
  ['closeAccount', () => api.closeAccount({ password: 'Demo1234!' }), '/api-protected/users/me/close', { password: 'Demo1234!' }],
  ['leaveSharedOrder', () => api.leaveSharedOrder(3), '/api-protected/domiciliation-orders/3/leave'],
  ['passkeys', () => api.getPasskeys(), '/api-protected/users/me/passkeys'],
  ['passkeyRegistrationOptions', () => api.getPasskeyRegistrationOptions(), '/api-protected/users/me/passkeys/registration-options'],
  [
    'registerPasskey',
    () => api.registerPasskey({ credential: passkeyAnswer, name: 'Téléphone' }),
    '/api-protected/users/me/passkeys',
    { credential: passkeyAnswer, name: 'Téléphone' },
  ],
  ['renamePasskey', () => api.renamePasskey(3, { name: 'Ordinateur' }), '/api-protected/users/me/passkeys/3', { name: 'Ordinateur' }],
  ['deletePasskey', () => api.deletePasskey(3), '/api-protected/users/me/passkeys/3'],
  // people: « Mes données »
  ['startDataExport', () => api.startDataExport(), '/api-protected/users/me/data-exports'],
  ['dataExports', () => api.getDataExports(), '/api-protected/users/me/data-exports'],
  ['dataExport', () => api.getDataExport(9), '/api-protected/users/me/data-exports/9'],
  ['dataExportFile', () => api.getDataExportFile(9), '/api-protected/users/me/data-exports/9/file'],
  ['passkeyLoginOptions', () => api.getPasskeyLoginOptions(), '/api/passkeys/login-options'],
  ['passkeyLogin', () => api.loginWithPasskey({ credential: signInAnswer }), '/api/passkeys/login', { credential: signInAnswer }],
  // company area
  ['legalSubmissions', () => api.getLegalSubmissions({ orderId: 2 }), '/api-protected/legal-submissions?orderId=2'],
  ['legalSubmissions', () => api.getLegalSubmissions(), '/api-protected/legal-submissions'],
  [
    'createLegalSubmission',
    () => api.createLegalSubmission({ orderId: 2, kind: 'transfert-siege' }),
    '/api-protected/legal-submissions',
    { orderId: 2, kind: 'transfert-siege' },
  ],
  // notifications
  ['notifications', () => api.getNotifications(), '/api-protected/notifications'],
  ['readNotification', () => api.readNotification(7), '/api-protected/notifications/7/read'],
  ['readAllNotifications', () => api.readAllNotifications(), '/api-protected/notifications/read-all'],
  ['notificationStream', () => api.followNotifications({ onNotification: () => {} }), '/api-protected/notifications/stream'],
  ['notificationPreferences', () => api.getNotificationPreferences(2), '/api-protected/domiciliation-orders/2/notification-preferences'],
  [
    'updateNotificationPreferences',
    () => api.updateNotificationPreferences(2, { email: 'digest' }),
    '/api-protected/domiciliation-orders/2/notification-preferences',
    { email: 'digest' },
  ],
  ['letterHistory', () => api.getLetterHistory(12), '/api-protected/documents/12/history'],
]

/** Routes the SPA never calls: they exist for operators (OPERATOR_TOKEN) and load balancers. */
const serverOnly: RouteName[] = [
  'health',
  'operatorOrders',
  'operatorAddDocument',
  'operatorAddPackage',
  'operatorLegalSubmissions',
  'operatorUpdateLegalSubmission',
  // notifications
  'operatorKbis',
  'operatorKbisStatus',
  'operatorLetterForwarded',
  'operatorAddInvoice',
  // npm run backup: the embedded database's dump
  'operatorBackupDatabase',
  // npm run storage:check through a server holding the embedded database
  'operatorStorageCheck',
]

/** A path of the route table (`{id}`) matched against a concrete path. */
function matchesRoute(pattern: string, path: string): boolean {
  const regex = new RegExp('^' + pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/:]+') + '$')
  return regex.test(path)
}

const Calls = suite('api client: every call of spec §7, as the contract says')
Calls.before(configure)

Calls('every route of the contract has a client call', () => {
  const covered = new Set(calls.map(([name]) => name))
  // The back office's routes (its sign-in and its operators' sessions) are not the portal's: its own client
  // (src/backoffice/api) covers them, test/api/backoffice-client.test.ts.
  const backOffice = (name: RouteName) => (routes[name] as RouteDef).tags.some((tag) => tag.startsWith('Back-office'))
  const missing = (Object.keys(routes) as RouteName[]).filter(
    (name) => !covered.has(name) && !serverOnly.includes(name) && !backOffice(name),
  )
  assert.equal(missing, [])
})

for (const [name, invoke, expectedPath, expectedBody] of calls) {
  Calls(`${name}: ${routes[name].method} ${expectedPath}`, async () => {
    recorded.length = 0
    reply =
      (routes[name] as RouteDef).kind === 'file'
        ? { status: 200, body: '%PDF-1.7', type: 'application/pdf' }
        : { status: 200, body: name === 'updateContract' ? { kbis: '/k' } : {} }
    await invoke()
    assert.is(recorded.length, 1)
    const request = recorded[0]!
    const route: RouteDef = routes[name]
    assert.is(request.method, route.method)
    assert.is(request.url, expectedPath)
    assert.ok(matchesRoute(route.path, request.url.split('?')[0]!), `${request.url} is the route ${route.path}`)
    // Spec §6: apiToken header on protected calls, Bearer on contract calls, nothing on the two /stripe calls.
    if (route.auth === 'apiToken') {
      assert.is(request.headers.apitoken, 'tok_secret')
      assert.is(request.headers.authorization, undefined)
    } else if (route.auth === 'bearer') {
      assert.is(request.headers.authorization, 'Bearer tok_secret')
      assert.is(request.headers.apitoken, undefined)
    } else {
      assert.is(request.headers.apitoken, undefined)
      assert.is(request.headers.authorization, undefined)
    }
    if (expectedBody !== undefined) assert.equal(JSON.parse(request.body), expectedBody)
    if (route.kind === 'multipart') {
      assert.match(String(request.headers['content-type']), /^multipart\/form-data; boundary=/)
      assert.match(request.body, /name="orderId"\r\n\r\n4/)
      assert.match(request.body, /name="identity_manager"; filename="cni.pdf"/)
    }
  })
}
Calls.run()

const TestProvider = suite('api client: the test provider’s card form (billing)')
TestProvider.before(configure)

TestProvider('posts the card to the provider’s own endpoint, with no token of ours', async () => {
  recorded.length = 0
  reply = { status: 200, body: { id: 'pm_x', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } }
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' }
  assert.equal(await api.createTestPaymentMethod(card), reply.body)
  const [request] = recorded
  assert.equal([request!.method, request!.url], ['POST', testProviderRoute.path])
  assert.is(request!.headers.apitoken, undefined)
  assert.is(request!.headers.authorization, undefined)
  assert.equal(JSON.parse(request!.body), card)
  assert.not.ok(
    Object.values(routes).some((r) => (r.path as string) === api.TEST_PROVIDER_PATH),
    'not a route of our API',
  )
})
TestProvider.run()

const Key = suite('subscription key (spec §9)')

Key('lowercase hex SHA-1 of the order id followed by the subscription id', () => {
  assert.is(api.subscriptionKey(1, '23'), '40bd001563085fc35165329ea1ff5c5ecbdbbeef')
  const expected = createHash('sha1').update('42sub_1PqR7sLkdIwHu7ix').digest('hex')
  assert.is(api.subscriptionKey(42, 'sub_1PqR7sLkdIwHu7ix'), expected)
  assert.match(api.subscriptionKey(42, 'sub_x'), /^[0-9a-f]{40}$/)
})
Key.run()

// notifications
const Stream = suite('api client: the notifications stream')
Stream.before(configure)

Stream('reads each event as it comes, the token in the header and never in the URL; a 401 ends the session', async () => {
  recorded.length = 0
  const one = {
    id: 1,
    kind: 'letter',
    orderId: 2,
    title: 'Nouveau courrier de URSSAF',
    body: 'b',
    createdAt: '2026-11-20T10:00:00.000Z',
    read: false,
    link: '/x',
  }
  reply = {
    status: 200,
    type: 'text/event-stream',
    body: `: connecté\n\nevent: notification\ndata: ${JSON.stringify(one)}\n\n: ping\n\nevent: notification\r\ndata: ${JSON.stringify({ ...one, id: 2 })}\r\n\r\n`,
  }
  const got: number[] = []
  let opened = false
  await api.followNotifications({
    onOpen: () => {
      opened = true
    },
    onNotification: (n) => void got.push(n.id),
  })
  assert.ok(opened)
  assert.equal(got, [1, 2])
  assert.is(recorded[0]!.url, '/api-protected/notifications/stream')
  assert.is(recorded[0]!.headers.apitoken, 'tok_secret')
  assert.is(recorded[0]!.headers['last-event-id'], undefined, 'not following on from anything: no Last-Event-ID')
  // Followed on from the newest notification listed: its id in the SSE Last-Event-ID header.
  await api.followNotifications({ onNotification: () => {} }, { after: 41 })
  assert.is(recorded[1]!.headers['last-event-id'], '41')
  // An empty list: followed on from 0, so that what was raised between the list and the stream is sent.
  await api.followNotifications({ onNotification: () => {} }, { after: 0 })
  assert.is(recorded[2]!.headers['last-event-id'], '0')
  unauthorized.length = 0
  reply = { status: 401, body: { message: 'Votre session a expiré.' } }
  try {
    await api.followNotifications({ onNotification: () => {} })
    assert.unreachable('a 401 throws')
  } catch (error) {
    assert.is((error as ApiError).status, 401)
    assert.is((error as ApiError).message, 'Votre session a expiré.')
  }
  assert.is(unauthorized.length, 1)
})

Stream('a stream whose place a newer one took is told so (event: replaced), and ends; a plain end is not', async () => {
  const one = {
    id: 7,
    kind: 'letter',
    orderId: 2,
    title: 'Nouveau courrier de URSSAF',
    body: 'b',
    createdAt: '2026-11-20T10:00:00.000Z',
    read: false,
    link: '/x',
  }
  const replaced = `event: replaced\nretry: 300000\ndata: ${JSON.stringify({ message: 'Notifications en direct suivies ailleurs…' })}\n\n`
  reply = {
    status: 200,
    type: 'text/event-stream',
    body: `: connecté\n\nid: 7\nevent: notification\ndata: ${JSON.stringify(one)}\n\n${replaced}`,
  }
  const got: number[] = []
  let told = 0
  await api.followNotifications({
    onNotification: (n) => void got.push(n.id),
    onReplaced: () => {
      told++
    },
  })
  assert.equal([got, told], [[7], 1])
  reply = { status: 200, type: 'text/event-stream', body: `: connecté\n\n: ping\n\n` }
  await api.followNotifications({
    onNotification: () => {},
    onReplaced: () => {
      told++
    },
  })
  assert.is(told, 1, 'ended without a word: not replaced')
})

Stream.run()

const Errors = suite('api client: failures become French ApiErrors')
Errors.before(configure)

Errors('the server message is kept, with the status', async () => {
  reply = { status: 409, body: { message: 'Ce dossier existe déjà.', statusCode: 409, code: 'FOLDER_EXISTS' } }
  try {
    await api.createFolder({ name: 'Banque', domiciliationOrderId: 2 })
    assert.unreachable()
  } catch (error) {
    assert.instance(error, ApiError)
    assert.is((error as ApiError).message, 'Ce dossier existe déjà.')
    assert.is((error as ApiError).status, 409)
    assert.is((error as ApiError).code, 'FOLDER_EXISTS')
  }
})

Errors('without a server message, a French one by status', async () => {
  reply = { status: 502, body: 'Bad gateway', type: 'text/plain' }
  const error = await api.getUnpaidStatus().catch((e) => e)
  assert.instance(error, ApiError)
  assert.is(error.message, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
})

Errors('a server that cannot be reached is status 0 with a French message', async () => {
  configureApi({ baseURL: 'http://127.0.0.1:9' })
  const error = await api.getCurrentUser().catch((e) => e)
  configureApi({ baseURL })
  assert.instance(error, ApiError)
  assert.is(error.status, 0)
  assert.match(error.message, /Impossible de joindre le serveur/)
})

Errors('a 401 on an authenticated call ends the session; on login it does not', async () => {
  unauthorized.length = 0
  reply = { status: 401, body: { message: 'Session expirée ou invalide, veuillez vous reconnecter.' } }
  await api.getMyOrders().catch(() => {})
  assert.is(unauthorized.length, 1)
  reply = { status: 401, body: { message: 'Identifiants incorrects' } }
  const error = await api.login({ username: 'x', password: 'y' }).catch((e) => e)
  assert.is(error.message, 'Identifiants incorrects')
  assert.is(unauthorized.length, 1)
})

Errors('calls that swallow errors answer nothing and still tell the customer (spec §8, PRODUCT.md)', async () => {
  swallowed.length = 0
  reply = { status: 500, body: { message: 'Erreur interne.' } }
  assert.is(await api.updateEmail({ newEmail: 'x@example.com' }), undefined)
  assert.is(await api.updatePassword({ currentPassword: 'a', newPassword: 'Nouveau1234!' }), undefined)
  assert.is(await api.isCompleteKbis(2), undefined)
  assert.is(await api.getUploadedDocuments(2), undefined)
  assert.equal(await api.getCalendarInvoices(), [])
  assert.is(await api.uploadKbis(101, 'data:application/pdf;base64,JVBERi0='), null)
  assert.is(
    await api.updateContractAddress(101, {
      adressePostaleExpedition: 'a',
      codePostaleExpedition: '75001',
      villePostaleExpedition: 'Paris',
      paysPostaleExpedition: 'France',
    }),
    null,
  )
  assert.is(swallowed.length, 7)
  assert.ok(swallowed.every((e) => e.message === 'Erreur interne.'))
})

Errors('a swallowed failure answered after a sign-out, or once another person signed in, is told to nobody', async () => {
  reply = { status: 500, body: { message: 'Erreur interne.' } }
  for (const next of [null, 'tok_other']) {
    swallowed.length = 0
    let token: string | null = 'tok_secret'
    configureApi({ getToken: () => token })
    try {
      // The call leaves with the first token; the person changes before its answer.
      const pending = api.updateEmail({ newEmail: 'x@example.com' })
      token = next
      assert.is(await pending, undefined, 'still answers its fallback')
      assert.is(swallowed.length, 0, `told after the token became ${next}`)
    } finally {
      configure()
    }
  }
  // A 401 ends the session (onUnauthorized: the session machine leaves signedIn and forgets its user at once).
  swallowed.length = 0
  unauthorized.length = 0
  let token: string | null = 'tok_secret'
  configureApi({
    getToken: () => token,
    onUnauthorized: (e) => {
      unauthorized.push(e)
      token = null
    },
  })
  try {
    reply = { status: 401, body: { message: 'Votre session a expiré. Veuillez vous reconnecter.' } }
    assert.is(await api.isCompleteKbis(2), undefined)
    assert.is(unauthorized.length, 1)
    assert.is(swallowed.length, 0, 'the expiry is said once, by /login')
  } finally {
    configure()
  }
})

Errors('contract calls answer the kbis field, or null when the answer has none', async () => {
  reply = { status: 200, body: { id: 101, kbis: '/api-protected/contracts/101/kbis' } }
  assert.is(await api.uploadKbis(101, 'data:application/pdf;base64,JVBERi0='), '/api-protected/contracts/101/kbis')
  reply = { status: 200, body: { id: 101, kbis: null } }
  assert.is(await api.uploadKbis(101, 'data:application/pdf;base64,JVBERi0='), null)
})

Errors('an aborted call rejects with the abort, not an ApiError, and tells nobody', async () => {
  swallowed.length = 0
  const controller = new AbortController()
  controller.abort()
  const error = await api.updateEmail({ newEmail: 'x@example.com' }, { signal: controller.signal }).catch((e) => e)
  assert.not.instance(error, ApiError)
  assert.is(swallowed.length, 0)
})

Errors('a file call answers a Blob', async () => {
  reply = { status: 200, body: '%PDF-1.7 lettre', type: 'application/pdf' }
  const blob = await api.getDocumentFile(12)
  assert.instance(blob, Blob)
  assert.is(await blob.text(), '%PDF-1.7 lettre')
  void pdfBlob
})

Errors.after(() => {
  server.close()
})
Errors.run()
