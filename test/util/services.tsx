// The app's services for view tests: the real wiring (src/wiring: the statecharts with their effects
// provided exactly as in the browser), built on a fake API that answers from fixtures and records
// every call as the server would receive it.
import { render } from '@testing-library/react'
import { act } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import type { IdentityUploadReply, InvitationInfo, MailDocument, Mandataire, Order, Passkey, SendDextBody, Session, Share } from '../../server/contract/schemas.ts'
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
  // --- people
  people?: PeopleScenario
}

/** people: what the account, collaborator, representative and invitation calls answer. */
export interface PeopleScenario {
  shares?: Share[]
  representatives?: Mandataire[]
  passkeys?: Passkey[]
  sessions?: Session[]
  /** The invitation behind a link, or the French refusal of an expired or used one. */
  invitation?: InvitationInfo | string
  /** Calls that fail with the server's French message. */
  fails?: ('invite' | 'removeShare' | 'addRepresentative' | 'loadShares' | 'loadRepresentatives' | 'loadSessions')[]
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
  /** people: every account, collaborator, representative and invitation call, as [name, ...arguments]. */
  people: unknown[][]
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
// --- people: the fake answers of the account, passkey, device, collaborator, representative and invitation calls
function peopleApi(scenario: PeopleScenario, calls: Calls, notify: (notice: Notice) => void): Partial<Api> {
  const record = (name: string, ...args: unknown[]) => void calls.people.push([name, ...args])
  const fails = (what: NonNullable<PeopleScenario['fails']>[number]) => scenario.fails?.includes(what)
  let shares = [...(scenario.shares ?? [])]
  let passkeys = [...(scenario.passkeys ?? [])]
  const now = '2026-11-22T10:00:00.000Z'
  return {
    // The account calls swallow their errors (spec §8): the client tells the reason in a toast and answers undefined.
    updateEmail: async (body) => {
      record('updateEmail', body)
      if (body.newEmail === 'associe@example.com') return notify({ kind: 'error', message: 'Cette adresse e-mail est déjà utilisée par un autre compte.' }), undefined
      return { ...F.user, email: body.newEmail }
    },
    updatePassword: async (body) => {
      record('updatePassword', body)
      if (body.currentPassword !== 'Demo1234!') return notify({ kind: 'error', message: 'Le mot de passe actuel est incorrect.' }), undefined
      return { message: 'Votre mot de passe a été modifié.' }
    },
    getPasskeys: async () => (record('getPasskeys'), passkeys),
    getPasskeyRegistrationOptions: async () => (record('getPasskeyRegistrationOptions'), { challenge: 'AAAA', rp: { name: 'Domicilium', id: 'localhost' }, user: { id: 'dQ', name: 'demo@example.com', displayName: 'Camille Martin' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] }),
    renamePasskey: async (id, body) => {
      record('renamePasskey', id, body)
      passkeys = passkeys.map((p) => (p.id === id ? { ...p, name: body.name } : p))
      return passkeys.find((p) => p.id === id)!
    },
    deletePasskey: async (id) => (record('deletePasskey', id), (passkeys = passkeys.filter((p) => p.id !== id)), { message: 'ok' }),
    getPasskeyLoginOptions: async () => (record('getPasskeyLoginOptions'), { challenge: 'AAAA', rpId: 'localhost' }),
    getSessions: async () => {
      record('getSessions')
      if (fails('loadSessions')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return scenario.sessions ?? []
    },
    signOutOtherSessions: async () => (record('signOutOtherSessions'), { signedOut: 1, message: 'L’autre appareil a été déconnecté.' }),
    getShares: async (orderId) => {
      record('getShares', orderId)
      if (fails('loadShares')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return shares
    },
    inviteCollaborators: async (orderId, body) => {
      record('invite', orderId, body)
      if (fails('invite')) throw new Error('Trop d’invitations envoyées en peu de temps : réessayez dans une heure.')
      const added = body.emails.map((email, i) => ({ id: 500 + shares.length + i, email, firstname: null, lastname: null, status: 'invitée' as const, createdAt: now, acceptedAt: null }))
      shares = [...shares, ...added]
      return added
    },
    deleteShare: async (orderId, shareId) => {
      record('deleteShare', orderId, shareId)
      if (fails('removeShare')) throw new Error('Collaborateur introuvable.')
      shares = shares.filter((x) => x.id !== shareId)
      return { message: 'ok' }
    },
    sendInvite: async (body) => (record('sendInvite', body), { message: `Votre recommandation a été envoyée à ${body.email}.` }),
    getMandataires: async (orderId) => {
      record('getMandataires', orderId)
      if (fails('loadRepresentatives')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return scenario.representatives ?? []
    },
    addMandataire: async (orderId, body) => {
      record('addMandataire', orderId, body)
      if (fails('addRepresentative')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return { id: 77, ...body, createdAt: now }
    },
    deleteMandataire: async (orderId, id) => (record('deleteMandataire', orderId, id), { message: 'ok' }),
    getInvitation: async (token) => {
      record('getInvitation', token)
      if (typeof scenario.invitation === 'string' || !scenario.invitation) throw new Error(typeof scenario.invitation === 'string' ? scenario.invitation : 'Invitation introuvable.')
      return scenario.invitation
    },
    createInvitationAccount: async (token, body) => (record('createInvitationAccount', token, body), { user: { ...F.authUser, email: 'nina@example.com', firstname: body.firstname }, orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS' }),
    acceptInvitation: async (token, options) => (record('acceptInvitation', token, options?.apiToken ?? null), { orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', message: 'ok' }),
  }
}

function fakeApi(scenario: Scenario, orders: Order[], calls: Calls, notify: (notice: Notice) => void): Api {
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
    ...peopleApi(scenario.people ?? {}, calls, notify),
  }
  // A call the scenario does not answer is a test that reaches further than it set up: say so.
  return new Proxy(api, {
    get: (target, name) => target[name as keyof Api] ?? (() => Promise.reject(new Error(`fake API: ${String(name)} is not answered in this test`))),
  }) as Api
}

export function createTestServices(scenario: Scenario, navigate: (to: string, options?: { replace?: boolean }) => void) {
  const orders = scenario.orders ?? [F.atelier, F.boulangerie, F.studio, F.conseil]
  const calls: Calls = {
    notices: [], kbisUploads: [], problems: [], resetRequests: [], passwordResets: [], identityUploads: [], navigations: [],
    loads: [], documentUpdates: [], files: [], sentDocuments: [], folderSaves: [], folderDeletes: [], dextSends: [], cancelled: [], payments: [],
    people: [],
  }
  const api = fakeApi(scenario, orders, calls, (notice) => void calls.notices.push(notice))
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
  const flows = createFlows({ api, notify, navigate: go, toPortal: portalOf(() => session), toSession: (event) => session.send(event) })
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
