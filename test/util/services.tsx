// The app's services for view tests: the real wiring (src/wiring: the statecharts with their effects
// provided exactly as in the browser), built on a fake API that answers from fixtures and records
// every call as the server would receive it.
import { render } from '@testing-library/react'
import { act } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import type { IdentityUploadReply, LegalSubmission, LegalSubmissionBody, MailDocument, Order, SendDextBody } from '../../server/contract/schemas.ts'
import type { CheckAnswers } from '../../src/machines/formalityOrder.machine.ts'
import type { PortalData, Resource } from '../../src/machines/portalData.machine.ts'
import type { SessionRef } from '../../src/machines/session.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import type { StoredChoice } from '../../src/machines/startup.machine.ts'
import { App } from '../../src/views/App.tsx'
import type { Api } from '../../src/wiring/api.ts'
import { portalOf, type WiringDeps } from '../../src/wiring/deps.ts'
import { createFlows } from '../../src/wiring/flows.ts'
import { createStartup } from '../../src/wiring/portal.ts'
import type { AppServices } from '../../src/wiring/services.ts'
import { createSessionActor } from '../../src/wiring/session.ts'
import { DEXT_EMAIL_KEY, writeStoredChoice, writeStoredUser } from '../../src/wiring/storage.ts'
import * as F from './fixtures.ts'

export interface Scenario {
  orders?: Order[]
  /** The user fetch fails (an expired token). */
  userFails?: boolean
  /** The orders never arrive (the startup stays loading). */
  ordersPending?: boolean
  /** The portal's code cannot be loaded (offline). */
  portalFails?: boolean
  /** The answer of the Kbis upload: the stored path, or null (a failure). */
  kbisAnswer?: string | null
  /** The problem report fails. */
  problemFails?: boolean
  loginFails?: boolean
  data?: Partial<PortalData>
  /** Resources whose load fails (once each, then answers: 'Réessayer' works). */
  failing?: Resource[]
  /** Resources whose load never answers (the loading state). */
  pending?: Resource[]
  /** Mail effects that fail. */
  mailFails?: ('read' | 'file' | 'move' | 'send' | 'folder' | 'dext' | 'cancel' | 'pay')[]
  unpaid?: { hasUnpaid: boolean; count: number; amountInclTaxCents: number }
  /** The accounting inbox address kept in this browser from an earlier export. */
  dextEmail?: string | null
  /** company area: the legal submissions on the server, the order checks by order, and the calls that fail. */
  company?: {
    submissions?: LegalSubmission[]
    checks?: Record<number, CheckAnswers>
    /** Calls that never answer. */
    pending?: ('submissions' | 'checks')[]
    fails?: ('qonto' | 'shine' | 'comptable' | 'submissions' | 'order' | 'invoiceFile')[]
  }
}

export interface Calls {
  notices: Notice[]
  kbisUploads: { contractId: number; kbis: string }[]
  problems: { orderId: number; message: string }[]
  resetRequests: Record<string, string>[]
  passwordResets: Record<string, string>[]
  identityUploads: { orderId: number; documentType: string; fileName: string }[]
  navigations: string[]
  loads: { resource: Resource; orderId: number | null }[]
  documentUpdates: { documentId: number; readFlag?: boolean; folderId?: number | null }[]
  files: number[]
  sentDocuments: { email: string; message?: string; documentIds: number[] }[]
  folderSaves: Record<string, unknown>[]
  folderDeletes: number[]
  dextSends: SendDextBody[]
  cancelled: { orderId: number; id: number }[]
  payments: { orderId: number | null }[]
  // company area
  interests: { orderId: number; partner: 'qonto' | 'shine' | 'expert-comptable' }[]
  checks: number[]
  submissionLoads: (number | null)[]
  legalSubmissions: LegalSubmissionBody[]
  invoiceFiles: number[]
}

/** A promise React's use() reads at once, without suspending. */
function settled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value })
}

const emptyData = (): PortalData => ({
  card: null, documents: [], subscriptions: [], packages: [], courierRequests: [], folders: [], invoices: [], calendarInvoices: [],
})

type Owned = { orderId?: number; domId?: number; domiciliationOrderId?: number }
const orderOf = (item: Owned) => item.orderId ?? item.domId ?? item.domiciliationOrderId

/** The fake API: what each call answers in this scenario, and the record of what it was sent. */
function fakeApi(scenario: Scenario, orders: Order[], calls: Calls): Api {
  const fails = (what: NonNullable<Scenario['mailFails']>[number]) => scenario.mailFails?.includes(what)
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  const data = { ...emptyData(), ...scenario.data }
  const shared = new Set(orders.filter((o) => o.isShareOrder).map((o) => o.id))
  const failedOnce = new Set<Resource>()

  /** One call of a portal-data list: pending, failing once, or the fixtures of that order (own or shared). */
  function list<R extends Resource>(resource: R, scope: { orderId?: number | undefined; share: boolean }): Promise<PortalData[R]> {
    calls.loads.push({ resource, orderId: scope.orderId ?? null })
    if (scenario.pending?.includes(resource)) return new Promise<never>(() => {})
    if (scenario.failing?.includes(resource) && !failedOnce.has(resource)) {
      failedOnce.add(resource)
      return Promise.reject(unavailable())
    }
    const value = data[resource]
    if (!Array.isArray(value)) return Promise.resolve(value)
    // Like the server: one order's list, or every own (or every shared) order's with 'Tous'.
    return Promise.resolve((value as Owned[]).filter((item) => {
      const id = orderOf(item)
      if (id === undefined) return true
      return scope.orderId !== undefined ? id === scope.orderId : shared.has(id) === scope.share
    }) as PortalData[R])
  }

  const api: Partial<Api> = {
    configureApi: () => {},
    login: async (body) => {
      if (scenario.loginFails || body.password !== 'Demo1234!') throw new Error('Identifiants incorrects')
      return F.authUser
    },
    getCurrentUser: async () => {
      if (scenario.userFails) throw new Error('Session expirée ou invalide, veuillez vous reconnecter.')
      return F.user
    },
    getContracts: async () => F.contracts,
    getMyOrders: () => (scenario.ordersPending ? new Promise<Order[]>(() => {}) : Promise.resolve(orders)),

    getPaymentMethod: (orderId) => list('card', { orderId, share: false }),
    getCreditCard: () => list('card', { share: false }),
    getDocuments: (query = {}) => list('documents', { orderId: query.orderId, share: false }),
    getSubscriptionInformations: async (orderId) => (await list('subscriptions', { orderId, share: false }))[0]?.subscription ?? (null as never),
    getPackages: (query = {}) => list('packages', { orderId: query.orderId, share: false }),
    getSharePackages: (query = {}) => list('packages', { orderId: query.orderId, share: true }),
    getCourierRequests: (query = {}) => list('courierRequests', { orderId: query.orderId, share: false }),
    getShareCourierRequests: (query = {}) => list('courierRequests', { orderId: query.orderId, share: true }),
    getFolders: (query = {}) => list('folders', { orderId: query.domiciliationOrderId, share: false }),
    getShareFolders: () => list('folders', { share: true }),
    getInvoices: () => list('invoices', { share: false }),
    getShareInvoices: () => list('invoices', { share: true }),
    getCalendarInvoices: () => list('calendarInvoices', { share: false }),

    uploadKbis: async (contractId, kbis) => {
      calls.kbisUploads.push({ contractId, kbis })
      return scenario.kbisAnswer === undefined ? '/api-protected/contracts/101/kbis' : scenario.kbisAnswer
    },
    sendProblem: async (orderId, { message }) => {
      calls.problems.push({ orderId, message })
      if (scenario.problemFails) throw new Error('Le service est momentanément indisponible.')
      return { message: 'ok' }
    },
    uploadIdentity: async (form): Promise<IdentityUploadReply> => {
      const [documentType, file] = [...form.entries()].find(([key]) => key !== 'orderId')!
      calls.identityUploads.push({ orderId: Number(form.get('orderId')), documentType, fileName: (file as File).name })
      return { uploaded: [], complete: true, missingDocumentsValidatedAt: '2026-11-22T10:00:00.000Z' }
    },
    requestPasswordReset: async (body) => void calls.resetRequests.push(body) as never,
    resetPassword: async (body) => {
      calls.passwordResets.push(body)
      if (body.token === 'expire') throw new Error('Ce lien a expiré. Demandez un nouveau lien.')
      return undefined as never
    },

    getDocumentFile: async (documentId) => {
      calls.files.push(documentId)
      if (fails('file')) throw new Error('Le courrier numérisé n’a pas pu être chargé.')
      return new Blob(['%PDF-1.7 courrier'], { type: 'application/pdf' })
    },
    updateDocument: async (documentId, body): Promise<MailDocument> => {
      calls.documentUpdates.push({ documentId, ...body })
      const document = data.documents.find((d) => d.id === documentId)!
      if (fails(body.readFlag !== undefined ? 'read' : 'move')) throw new Error('Le service est momentanément indisponible.')
      const { readFlag, ...rest } = body
      return { ...document, ...rest, ...(readFlag !== undefined ? { read: readFlag } : {}) }
    },
    sendDocuments: async (body) => {
      calls.sentDocuments.push(body)
      if (fails('send')) throw new Error('Le service est momentanément indisponible.')
      return { message: `Envoyé à ${body.email}.` }
    },
    createFolder: async (body) => {
      calls.folderSaves.push(body)
      if (fails('folder')) throw new Error('Un dossier porte déjà ce nom pour cette domiciliation.')
      return { id: 900 + calls.folderSaves.length, name: body.name, domiciliationOrderId: body.domiciliationOrderId, documentCount: 0 }
    },
    updateFolder: async (folderId, body) => {
      calls.folderSaves.push({ folderId, ...body })
      if (fails('folder')) throw new Error('Un dossier porte déjà ce nom pour cette domiciliation.')
      return { ...data.folders.find((f) => f.id === folderId)!, name: body.name }
    },
    deleteFolder: async (folderId) => {
      calls.folderDeletes.push(folderId)
      if (fails('folder')) throw new Error('Dossier introuvable.')
      return { message: 'ok' }
    },
    sendDextInvoices: async (body) => {
      calls.dextSends.push(body)
      if (fails('dext')) return { sent: body.documentIds.length, failed: body.invoiceIds.map((id) => ({ kind: 'invoice' as const, id, reason: 'Facture introuvable.' })), message: 'partiel' }
      return { sent: body.invoiceIds.length + body.documentIds.length, failed: [], message: 'ok' }
    },
    removeCourierRequest: async (body) => {
      calls.cancelled.push(body)
      if (fails('cancel')) throw new Error('Seule une demande en attente peut être annulée.')
      return { message: 'ok' }
    },
    getUnpaidStatus: async () => scenario.unpaid ?? { hasUnpaid: false, count: 0, amountInclTaxCents: 0 },
    payUnpaidInvoice: async (body) => {
      calls.payments.push({ orderId: body.orderId ?? null })
      if (fails('pay')) throw new Error('Aucune carte enregistrée : ajoutez un moyen de paiement.')
      scenario.unpaid = { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }
      return { paidCount: 1, message: '1 facture réglée.' }
    },

    // --- company area: partners, the accountant, the order checks, legal submissions, invoices of bookings
    ...companyApi(scenario, orders, calls),
  }
  // A call the scenario does not answer is a test that reaches further than it set up: say so.
  return new Proxy(api, {
    get: (target, name) => target[name as keyof Api] ?? (() => Promise.reject(new Error(`fake API: ${String(name)} is not answered in this test`))),
  }) as Api
}

/** The company area's calls, answered like the server: one list of submissions that "Commander" adds to. */
function companyApi(scenario: Scenario, orders: Order[], calls: Calls): Partial<Api> {
  const company = scenario.company ?? {}
  const fails = (what: NonNullable<typeof company.fails>[number]) => company.fails?.includes(what)
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  const submissions = company.submissions ?? []
  const checksOf = (orderId: number): CheckAnswers => company.checks?.[orderId] ?? { completeKbis: true, waitingContract: false, attenteCourrierOrFinalise: true }
  const check = (key: keyof CheckAnswers) => async (orderId: number) => {
    if (key === 'completeKbis') calls.checks.push(orderId)
    if (company.pending?.includes('checks')) return new Promise<never>(() => {})
    return checksOf(orderId)[key]
  }
  const interest = (partner: Calls['interests'][number]['partner'], fail: boolean, orderId: number) => {
    calls.interests.push({ orderId, partner })
    if (fail) return Promise.reject(unavailable())
    return Promise.resolve()
  }
  return {
    setQonto: async (orderId, body) => (await interest('qonto', !!fails('qonto'), orderId), { qonto: body.qonto }),
    setShine: async (orderId, body) => (await interest('shine', !!fails('shine'), orderId), { shine: body.shine }),
    wantComptable: async (orderId) => (await interest('expert-comptable', !!fails('comptable'), orderId), { wantComptable: true, message: 'ok' }),
    isCompleteKbis: check('completeKbis'),
    isWaitingContract: check('waitingContract'),
    isAttenteCourrierOrFinalise: check('attenteCourrierOrFinalise'),
    getLegalSubmissions: async (query = {}) => {
      calls.submissionLoads.push(query.orderId ?? null)
      if (company.pending?.includes('submissions')) return new Promise<never>(() => {})
      if (fails('submissions') && calls.submissionLoads.length === 1) throw unavailable()
      return submissions.filter((s) => query.orderId === undefined || s.orderId === query.orderId)
    },
    createLegalSubmission: async (body) => {
      calls.legalSubmissions.push(body)
      if (fails('order')) throw new Error('Une demande de cette formalité est déjà en cours pour cette société : suivez-la dans « Formalités ».')
      const order = orders.find((o) => o.id === body.orderId)!
      const created: LegalSubmission = {
        id: 500 + submissions.length, orderId: order.id, raisonSociale: order.raisonSociale, kind: body.kind, status: 'Reçue', comment: body.comment ?? null,
        receivedAt: '2026-11-23T10:00:00.000Z', startedAt: null, filedAt: null, completedAt: null,
      }
      submissions.unshift(created)
      return created
    },
    getInvoiceFile: async (invoiceId) => {
      calls.invoiceFiles.push(invoiceId)
      if (fails('invoiceFile')) throw new Error('Facture introuvable.')
      return new Blob(['%PDF-1.7 facture'], { type: 'application/pdf' })
    },
  }
}

export function createTestServices(scenario: Scenario, navigate: (to: string, options?: { replace?: boolean }) => void) {
  const orders = scenario.orders ?? [F.atelier, F.boulangerie, F.studio, F.conseil]
  const calls: Calls = {
    notices: [], kbisUploads: [], problems: [], resetRequests: [], passwordResets: [], identityUploads: [], navigations: [],
    loads: [], documentUpdates: [], files: [], sentDocuments: [], folderSaves: [], folderDeletes: [], dextSends: [], cancelled: [], payments: [],
    interests: [], checks: [], submissionLoads: [], legalSubmissions: [], invoiceFiles: [],
  }
  const api = fakeApi(scenario, orders, calls)
  const go: WiringDeps['navigate'] = (to, options) => {
    calls.navigations.push(to)
    navigate(to, options)
  }
  const notify = (notice: Notice) => void calls.notices.push(notice)
  const session: SessionRef = createSessionActor({
    api,
    notify,
    loadPortal: async () => {
      if (scenario.portalFails) throw new Error('Failed to fetch dynamically imported module')
      return createStartup({ api, navigate: go })
    },
  })
  const flows = createFlows({ api, notify, navigate: go, toPortal: portalOf(() => session) })
  const services: AppServices = { navigate: go, notify, loadSession: () => settled(session), loadFlows: () => settled(flows) }
  return { services, session, calls }
}

/** Renders the whole app at a path, signed in (with a kept default order) or not. */
export async function renderApp(path: string, options: Scenario & { signedIn?: boolean; defaultOrder?: StoredChoice } = {}) {
  localStorage.clear()
  if (options.signedIn) writeStoredUser(F.authUser)
  if (options.defaultOrder !== undefined) writeStoredChoice(options.defaultOrder)
  if (options.dextEmail) localStorage.setItem(DEXT_EMAIL_KEY, options.dextEmail)
  const location = memoryLocation({ path, record: true })
  const { services, session, calls } = createTestServices(options, (to, navigation) => location.navigate(to, navigation))
  let view!: ReturnType<typeof render>
  await act(async () => {
    view = render(<App services={services} hook={location.hook} />)
  })
  return { ...view, location, services, session, calls, currentPath: () => location.history.at(-1) }
}
