// The back office's typed client against a local HTTP server: method, path, headers and body of every call, checked
// against the contract's route table, so that every back-office route has its call and neither side can drift.
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from '../../src/api/errors.ts'
import { configureBackOfficeApi } from '../../src/backoffice/api/client.ts'
import * as company from '../../src/backoffice/api/company.ts'
import * as mail from '../../src/backoffice/api/mail.ts'
import * as notifications from '../../src/backoffice/api/notifications.ts'
import * as billing from '../../src/backoffice/api/billing.ts'
import * as operators from '../../src/backoffice/api/operators.ts'
import { type RouteDef, type RouteName, routes } from '../../server/contract/routes.ts'

/** Every client function of the back office, whichever area's file it is in. */
const api = { ...operators, ...mail, ...company, ...notifications, ...billing }

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

const unauthorized: ApiError[] = []
const configure = () => configureBackOfficeApi({ baseURL, getToken: () => 'op_secret', onUnauthorized: (e) => void unauthorized.push(e) })

const newClient = {
  raisonSociale: 'Verger Nouveau SAS',
  siren: '732 829 320',
  legalForm: 'SAS' as const,
  owner: { firstname: 'Alice', lastname: 'Durand', email: 'alice@example.com' },
  plan: 'domiciliation-mensuelle' as const,
  options: ['scan' as const],
  startDate: '2026-12-01',
}

/** One row per back-office route: the route it must hit, how to call it, the path and body expected. */
/** The browser's answers to WebAuthn (@simplewebauthn/browser), passed through as they are. */
const credential = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln' },
}
const registration = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'YXR0' },
}
const calls: [RouteName, () => Promise<unknown>, string, unknown?][] = [
  [
    'operatorPassword',
    () => api.submitPassword({ email: 'operateur@example.com', password: 'Demo1234!' }),
    '/api/operator-auth/password',
    { email: 'operateur@example.com', password: 'Demo1234!' },
  ],
  ['operatorCode', () => api.submitCode({ ticket: 'tk_1', code: '123456' }), '/api/operator-auth/code', { ticket: 'tk_1', code: '123456' }],
  [
    'operatorPasskeyOptions',
    () => api.getPasskeySignInOptions({ ticket: 'tk_1' }),
    '/api/operator-auth/passkey/options',
    { ticket: 'tk_1' },
  ],
  [
    'operatorPasskey',
    () => api.submitPasskey({ ticket: 'tk_1', credential }),
    '/api/operator-auth/passkey',
    { ticket: 'tk_1', credential },
  ],
  ['operatorEnrolment', () => api.getEnrolment('abc_DEF-1'), '/api/operator-auth/enrolment/abc_DEF-1'],
  [
    'operatorEnrol',
    () => api.enrol('abc', { password: 'trois mots au hasard', code: '654321' }),
    '/api/operator-auth/enrolment/abc',
    { password: 'trois mots au hasard', code: '654321' },
  ],
  ['operatorMe', () => api.getMe(), '/api/backoffice/me'],
  ['operatorSignOut', () => api.signOut(), '/api/backoffice/sign-out'],
  ['operatorMyPasskeys', () => api.getMyPasskeys(), '/api/backoffice/me/passkeys'],
  ['operatorPasskeyRegistrationOptions', () => api.getPasskeyRegistrationOptions(), '/api/backoffice/me/passkeys/registration-options'],
  [
    'operatorRegisterPasskey',
    () => api.registerPasskey({ credential: registration, name: 'Clé USB' }),
    '/api/backoffice/me/passkeys',
    { credential: registration, name: 'Clé USB' },
  ],
  ['operatorDeletePasskey', () => api.deletePasskey(7), '/api/backoffice/me/passkeys/7'],
  ['operatorList', () => api.getOperators(), '/api/backoffice/operators'],
  [
    'operatorInvite',
    () => api.inviteOperator({ email: 'lea@example.com', name: 'Léa Fontaine', roles: ['courrier', 'conformite'] }),
    '/api/backoffice/operators',
    { email: 'lea@example.com', name: 'Léa Fontaine', roles: ['courrier', 'conformite'] },
  ],
  ['operatorSetRoles', () => api.setOperatorRoles(3, { roles: ['admin'] }), '/api/backoffice/operators/3/roles', { roles: ['admin'] }],
  ['operatorDeactivate', () => api.deactivateOperator(3), '/api/backoffice/operators/3:deactivate'],
  ['operatorJournal', () => api.getJournal({}), '/api/backoffice/journal'],
  [
    'operatorJournal',
    () => api.getJournal({ operatorId: 2, orderId: 4, action: 'apiKey.created', from: '2026-11-01', to: '2026-11-30', page: 3 }),
    '/api/backoffice/journal?operatorId=2&orderId=4&action=apiKey.created&from=2026-11-01&to=2026-11-30&page=3',
  ],
  ['operatorJournalCsv', () => api.getJournalCsv({ action: 'operator.invited' }), '/api/backoffice/journal.csv?action=operator.invited'],
  ['operatorApiKeys', () => api.getApiKeys(), '/api/backoffice/api-keys'],
  ['operatorCreateApiKey', () => api.createApiKey({ name: 'Scanner salle 2' }), '/api/backoffice/api-keys', { name: 'Scanner salle 2' }],
  ['operatorRevokeApiKey', () => api.revokeApiKey(5), '/api/backoffice/api-keys/5:revoke'],
  ['operatorClientSearch', () => api.searchClients({}), '/api/backoffice/clients'],
  [
    'operatorClientSearch',
    () => api.searchClients({ q: 'Boulangerie des Lilas', page: 2 }),
    '/api/backoffice/clients?q=Boulangerie+des+Lilas&page=2',
  ],
  ['operatorCreateClient', () => api.createClient(newClient), '/api/backoffice/clients', newClient],
  ['operatorClientOrder', () => api.getClientOrder(12), '/api/backoffice/orders/12'],
  ['operatorOrderTimeline', () => api.getOrderTimeline(12, {}), '/api/backoffice/orders/12/timeline'],
  ['operatorOrderTimeline', () => api.getOrderTimeline(12, { page: 3 }), '/api/backoffice/orders/12/timeline?page=3'],
  ['operatorDashboard', () => api.getDashboard(), '/api/backoffice/dashboard'],
  ['mailRoomOrders', () => api.getMailRoomOrders({ q: 'lilas' }), '/api/backoffice/mail-room/orders?q=lilas'],
  [
    'mailRoomUploadScan',
    () => api.uploadScan({ fileName: 'scan-0001.pdf', file: 'data:application/pdf;base64,JVBERi0=' }),
    '/api/backoffice/scans',
    { fileName: 'scan-0001.pdf', file: 'data:application/pdf;base64,JVBERi0=' },
  ],
  ['mailRoomScans', () => api.getScans(), '/api/backoffice/scans'],
  ['mailRoomScan', () => api.getScan(4), '/api/backoffice/scans/4'],
  ['mailRoomScanFile', () => api.getScanFile(4), '/api/backoffice/scans/4/file'],
  ['mailRoomScanPage', () => api.getScanPage(4, 2), '/api/backoffice/scans/4/pages/2'],
  [
    'mailRoomReviewScan',
    () => api.reviewScan(4, { orderId: 12, sender: 'URSSAF', kind: 'administratif', confirmed: true }),
    '/api/backoffice/scans/4',
    { orderId: 12, sender: 'URSSAF', kind: 'administratif', confirmed: true },
  ],
  ['mailRoomDeleteScan', () => api.deleteScan(4), '/api/backoffice/scans/4'],
  ['mailRoomPublishScan', () => api.publishScan(4), '/api/backoffice/scans/4:publish'],
  ['mailRoomPublishScans', () => api.publishScans({}), '/api/backoffice/scans/publish', {}],
  [
    'mailRoomRegisterPackage',
    () => api.registerPackage({ orderId: 12, carrier: 'Colissimo', sender: 'Moulins Bourgeois' }),
    '/api/backoffice/packages',
    { orderId: 12, carrier: 'Colissimo', sender: 'Moulins Bourgeois' },
  ],
  ['mailRoomWaitingPackages', () => api.getWaitingPackages({}), '/api/backoffice/packages'],
  ['mailRoomPackagePhoto', () => api.getPackagePhoto(8), '/api/backoffice/packages/8/photo'],
  ['mailRoomPackageCollectors', () => api.getPackageCollectors(8), '/api/backoffice/packages/8/collectors'],
  [
    'mailRoomHandOverPackage',
    () => api.handOverPackage(8, { collector: { kind: 'mandataire', mandataireId: 7 }, identityChecked: true }),
    '/api/backoffice/packages/8:hand-over',
    { collector: { kind: 'mandataire', mandataireId: 7 }, identityChecked: true },
  ],
  ['mailRoomForwardingRequests', () => api.getForwardingRequests(), '/api/backoffice/forwarding-requests'],
  [
    'mailRoomForwardingShipped',
    () => api.markForwardingShipped(3, { carrier: 'Colissimo', trackingNumber: '6A12345678901' }),
    '/api/backoffice/forwarding-requests/3:shipped',
    { carrier: 'Colissimo', trackingNumber: '6A12345678901' },
  ],
  [
    'mailRoomForwardingImpossible',
    () => api.markForwardingImpossible(3, { reason: 'Adresse incomplète' }),
    '/api/backoffice/forwarding-requests/3:impossible',
    { reason: 'Adresse incomplète' },
  ],
  ['complianceJustificatifs', () => api.getJustificatifs(), '/api/backoffice/justificatifs'],
  ['complianceJustificatif', () => api.getJustificatif('kbis', 4), '/api/backoffice/justificatifs/kbis/4'],
  ['complianceJustificatifFile', () => api.getJustificatifFile('identite', 9), '/api/backoffice/justificatifs/identite/9/file'],
  [
    'complianceValidateJustificatif',
    () => api.validateJustificatif('kbis', 4, { version: '"v1"' }),
    '/api/backoffice/justificatifs/kbis/4:validate',
    { version: '"v1"' },
  ],
  [
    'complianceRefuseJustificatif',
    () => api.refuseJustificatif('identite', 9, { version: '"v2"', reason: 'autre', detail: 'Pièce expirée' }),
    '/api/backoffice/justificatifs/identite/9:refuse',
    { version: '"v2"', reason: 'autre', detail: 'Pièce expirée' },
  ],
  ['complianceLegalSubmissions', () => api.getLegalSubmissions(), '/api/backoffice/legal-submissions'],
  [
    'complianceMoveLegalSubmission',
    () => api.moveLegalSubmission(7, { status: 'En cours' }),
    '/api/backoffice/legal-submissions/7/status',
    { status: 'En cours' },
  ],
  ['operatorConversations', () => api.getConversations({ status: 'open' }), '/api/backoffice/conversations?status=open'],
  ['operatorConversation', () => api.getConversation(4), '/api/backoffice/conversations/4'],
  [
    'operatorReplyConversation',
    () => api.replyConversation(4, { message: 'Bonjour' }),
    '/api/backoffice/conversations/4/messages',
    { message: 'Bonjour' },
  ],
  ['operatorCloseConversation', () => api.closeConversation(4), '/api/backoffice/conversations/4:close'],
  ['operatorReopenConversation', () => api.reopenConversation(4), '/api/backoffice/conversations/4:reopen'],
  ['operatorTerminations', () => api.getTerminations(), '/api/backoffice/terminations'],
  [
    'operatorAcceptTermination',
    () => api.acceptTermination(2, { endDate: '2027-01-31' }),
    '/api/backoffice/terminations/2:accept',
    { endDate: '2027-01-31' },
  ],
  [
    'operatorContactTermination',
    () => api.contactTermination(2, { message: 'Bonjour' }),
    '/api/backoffice/terminations/2:contact',
    { message: 'Bonjour' },
  ],
]

/** A path of the route table (`{id}`) matched against a concrete path. */
function matchesRoute(pattern: string, path: string): boolean {
  const regex = new RegExp('^' + pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/:]+') + '$')
  return regex.test(path)
}

const backOffice = (name: RouteName) => (routes[name] as RouteDef).tags.some((tag) => tag.startsWith('Back-office'))

const Calls = suite('back-office client: every back-office route of the contract, as the contract says')
Calls.before(configure)

Calls('every back-office route of the contract has a call, and every call is a back-office route', () => {
  const covered = new Set(calls.map(([name]) => name))
  assert.equal(
    (Object.keys(routes) as RouteName[]).filter((name) => backOffice(name) && !covered.has(name)),
    [],
  )
  assert.equal(
    [...covered].filter((name) => !backOffice(name)),
    [],
  )
})

for (const [name, invoke, expectedPath, expectedBody] of calls) {
  Calls(`${name}: ${routes[name].method} ${expectedPath}`, async () => {
    recorded.length = 0
    const route: RouteDef = routes[name]
    reply = route.kind === 'file' ? { status: 200, body: 'a;b\r\n', type: 'text/csv' } : { status: 200, body: {} }
    await invoke()
    assert.is(recorded.length, 1)
    const request = recorded[0]!
    assert.is(request.method, route.method)
    assert.is(request.url, expectedPath)
    assert.ok(matchesRoute(route.path, request.url.split('?')[0]!), `${request.url} is the route ${route.path}`)
    // The operator's session on its routes, nothing on the sign-in's and the enrolment's; never a customer's header.
    assert.ok(route.auth === 'operatorSession' || route.auth === 'none', `${name}: a route of a person of the back office`)
    assert.is(request.headers.authorization, route.auth === 'operatorSession' ? 'Bearer op_secret' : undefined)
    assert.is(request.headers.apitoken, undefined)
    if (expectedBody !== undefined) assert.equal(JSON.parse(request.body), expectedBody)
    else assert.is(request.body, '')
  })
}
Calls.run()

const OnlyClient = suite('back-office client: the only way the back office speaks to the server')

OnlyClient('no module of src/backoffice but its client (src/backoffice/api) makes a request of its own', () => {
  // (dependency-cruiser leaves packages out of its graph: the import of ofetch is checked here, with the browser's own ways.)
  const root = join(import.meta.dirname, '../../src/backoffice')
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !file.startsWith('api/'))
  assert.ok(files.length >= 20, `${files.length} files`)
  const offending = files.filter((file) =>
    /from 'ofetch'|\bfetch\(|XMLHttpRequest|EventSource|sendBeacon|WebSocket/.test(readFileSync(join(root, file), 'utf8')),
  )
  assert.equal(offending, [])
})
OnlyClient.run()

const Failures = suite('back-office client: failures')
Failures.before(configure)
Failures.before.each(() => {
  unauthorized.length = 0
})

Failures('a failure carries the server’s French message, status and code', async () => {
  reply = { status: 401, body: { message: 'Ce code a déjà servi : attendez le suivant.', code: 'CODE_REPLAYED', statusCode: 401 } }
  const error = await api.submitCode({ ticket: 'tk', code: '123456' }).catch((e: unknown) => e)
  assert.instance(error, ApiError)
  assert.equal(
    [(error as ApiError).status, (error as ApiError).code, (error as ApiError).message],
    [401, 'CODE_REPLAYED', 'Ce code a déjà servi : attendez le suivant.'],
  )
  // A refused sign-in is no session ending.
  assert.is(unauthorized.length, 0)
})

Failures('a 401 on a route of the session ends the session (onUnauthorized), once', async () => {
  reply = { status: 401, body: { message: 'Votre session a expiré : reconnectez-vous.' } }
  const error = await api.getOperators().catch((e: unknown) => e)
  assert.is((error as ApiError).status, 401)
  assert.is(unauthorized.length, 1)
  assert.is(unauthorized[0]!.message, 'Votre session a expiré : reconnectez-vous.')
})

Failures('an answer without a message, or no answer at all, gets the French message of its status', async () => {
  reply = { status: 503, body: '' }
  const down = await api.getApiKeys().catch((e: unknown) => e)
  assert.equal(
    [(down as ApiError).status, (down as ApiError).message],
    [503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.'],
  )
  configureBackOfficeApi({ baseURL: 'http://127.0.0.1:1' })
  const unreachable = await api.getMe().catch((e: unknown) => e)
  assert.equal(
    [(unreachable as ApiError).status, (unreachable as ApiError).message],
    [0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.'],
  )
  configureBackOfficeApi({ baseURL })
})

Failures('a journal query leaves out the filters left empty', async () => {
  recorded.length = 0
  reply = { status: 200, body: { entries: [], page: 1, pageSize: 50, total: 0 } }
  await api.getJournal({ action: '', page: 1 } as never)
  assert.is(recorded[0]!.url, '/api/backoffice/journal?page=1')
})
Failures.run()

/** A browser's XMLHttpRequest as far as the upload uses it: what was opened, set and sent; the test answers it. */
class FakeXhr {
  static last: FakeXhr | null = null
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body = ''
  status = 0
  response: unknown = null
  responseType = ''
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  constructor() {
    FakeXhr.last = this
  }
  open(method: string, url: string) {
    Object.assign(this, { method, url })
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: string) {
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  answer(status: number, response: unknown) {
    Object.assign(this, { status, response })
    this.onload?.()
  }
}

const Upload = suite('back-office client: a scan’s upload, with its progress (XMLHttpRequest in the browser)')
Upload.before(() => {
  configure()
  ;(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = FakeXhr
})
Upload.after(() => {
  delete (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest
  server.close()
})
Upload.before.each(() => {
  unauthorized.length = 0
})

Upload('one request: the route’s method and path, the session, JSON; the progress as the body leaves, then done', async () => {
  const progress: number[] = []
  const body = { fileName: 'scan-0001.pdf', file: 'data:application/pdf;base64,JVBERi0=' }
  const sent = api.uploadScan(body, { onProgress: (p) => progress.push(p) })
  const xhr = FakeXhr.last!
  const route = routes.mailRoomUploadScan
  assert.equal([xhr.method, xhr.url], [route.method, `${baseURL}${route.path}`])
  assert.equal(xhr.headers, { 'Content-Type': 'application/json', Authorization: 'Bearer op_secret' })
  assert.equal(JSON.parse(xhr.body), body)
  xhr.upload.onprogress!({ lengthComputable: true, loaded: 25, total: 100 })
  xhr.upload.onprogress!({ lengthComputable: false, loaded: 50, total: 0 })
  xhr.answer(200, { id: 4 })
  assert.equal(await sent, { id: 4 })
  assert.equal(progress, [0.25, 1])
})

Upload('a refusal carries the server’s French message and code; a 401 ends the session; no answer says so in French', async () => {
  const refused = api.uploadScan({ fileName: 'a.pdf', file: 'data:application/pdf;base64,AA==' }).catch((e: unknown) => e)
  FakeXhr.last!.answer(400, { message: 'Ce fichier n’est pas un PDF.', code: 'FILE_TYPE' })
  const error = (await refused) as ApiError
  assert.equal([error.status, error.code, error.message], [400, 'FILE_TYPE', 'Ce fichier n’est pas un PDF.'])
  const expired = api.uploadScan({ fileName: 'a.pdf', file: 'x' }).catch((e: unknown) => e)
  FakeXhr.last!.answer(401, { message: 'Votre session a expiré : reconnectez-vous.' })
  assert.is(((await expired) as ApiError).status, 401)
  assert.is(unauthorized.length, 1)
  const offline = api.uploadScan({ fileName: 'a.pdf', file: 'x' }).catch((e: unknown) => e)
  FakeXhr.last!.onerror!()
  assert.is(((await offline) as ApiError).message, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')
})

Upload('cancelled: the request aborted, the AbortError given back', async () => {
  const controller = new AbortController()
  const cancelled = api.uploadScan({ fileName: 'a.pdf', file: 'x' }, { signal: controller.signal }).catch((e: unknown) => e)
  controller.abort()
  assert.is(((await cancelled) as Error).name, 'AbortError')
})
Upload.run()
