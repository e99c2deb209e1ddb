// The app's services for view tests: the real wiring (src/wiring: the statecharts with their effects
// provided exactly as in the browser), built on a fake API that answers from fixtures and records
// every call as the server would receive it.
import { render } from '@testing-library/react'
import { act } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import type {
  CertificateVerification,
  CreditNote,
  PaymentMethod,
  SendDextBody,
  SubscriptionOption,
  TerminationRequestBody,
  TerminationStatus,
} from '../../server/contract/billing.ts'
import type {
  ContractAddressBody,
  IdentityUploadReply,
  UploadedDocument,
  LegalSubmission,
  LegalSubmissionBody,
} from '../../server/contract/company.ts'
import type { DocumentSearchResult, LetterDeadline, MailDocument } from '../../server/contract/mail.ts'
import type { InvitationInfo, Mandataire, Passkey, Session, Share } from '../../server/contract/people.ts'
import type { DataExport } from '../../server/contract/people-exports.ts'
import type { Order } from '../../server/contract/session.ts'
// notifications
import type { LetterEvent } from '../../server/contract/mail.ts'
import type { EmailPreference, PortalConversation, PortalNotification } from '../../server/contract/notifications.ts'
import type { Contract, User } from '../../server/contract/session.ts'
import type { TestCardBody } from '../../server/contract/test-provider.ts'
import { ApiError } from '../../src/api/errors.ts'
import { subscriptionKey } from '../../src/api/billing.ts'
import type { HostedCard } from '../../src/machines/billing/cardReplacement.machine.ts'
import type { CheckAnswers } from '../../src/machines/company/formalityOrder.machine.ts'
import type { PortalData, Resource } from '../../src/machines/session/portalData.machine.ts'
import type { SessionRef } from '../../src/machines/session/session.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import type { StoredChoice } from '../../src/machines/session/startup.machine.ts'
import { App } from '../../src/views/App.tsx'
import type { Api } from '../../src/wiring/api.ts'
import { portalOf, type WiringDeps } from '../../src/wiring/deps.ts'
import { createBillingFlows } from '../../src/wiring/billing.ts'
import { createCompanyFlows } from '../../src/wiring/company.ts'
import { createFirstScreenFlows } from '../../src/wiring/first-screen.ts'
import type { AllFlows, FlowArea } from '../../src/wiring/flows.ts'
import { built } from '../../src/wiring/later.ts'
import { createMailFlows } from '../../src/wiring/mail.ts'
import { createNotificationFlows } from '../../src/wiring/notifications.ts'
import { createPeopleFlows } from '../../src/wiring/people.ts'
import { createSessionFlows } from '../../src/wiring/session.ts'
import { createStartup } from '../../src/wiring/portal.ts'
import type { AppServices } from '../../src/wiring/services.ts'
import { createSessionActor } from '../../src/wiring/session-actor.ts'
import { DEXT_EMAIL_KEY, writeStoredChoice, writeStoredUser } from '../../src/wiring/storage.ts'
import * as F from './fixtures.ts'

export interface Scenario {
  // notifications
  notifications?: NotificationScenario
  orders?: Order[]
  /** The user fetch fails (an expired token). */
  userFails?: boolean
  /** The orders never arrive (the startup stays loading). */
  ordersPending?: boolean
  /** The orders' answer waits for this (the startup held before it is ready, as on a slow network). */
  ordersHeld?: Promise<unknown>
  /** The orders fetch fails once (a 500's message), then answers. */
  ordersFailOnce?: boolean
  /** The portal's code cannot be loaded (offline). */
  portalFails?: boolean
  /** The answer of the Kbis upload: the stored path, or null (a failure). */
  kbisAnswer?: string | null
  /** The problem report fails. */
  problemFails?: boolean
  /** /missing-document: the server still says the file is incomplete once every document is sent. */
  identityIncomplete?: boolean
  /** /missing-document: what was already sent for an order, by order id (uploaded-documents). */
  uploadedDocuments?: Record<number, UploadedDocument[]>
  /**
   * The file completed meanwhile (an earlier answer lost, another tab): an upload answers 409 DOCUMENTS_COMPLETE, and the orders then say
   * so.
   */
  identityCompletedElsewhere?: boolean
  loginFails?: boolean
  data?: Partial<PortalData>
  /** Resources whose load fails (once each, then answers: 'Réessayer' works). */
  failing?: Resource[]
  /** Resources whose load never answers (the loading state); the test may add and remove some as it goes. */
  pending?: Resource[]
  /** Resources whose next load fails: each entry fails one call, then is taken off (pushed by the test as it goes). */
  failNext?: Resource[]
  /** Resources whose next load answers 401 (the session expired meanwhile), taken off likewise. */
  expireNext?: Resource[]
  /** Mail effects that fail. */
  mailFails?: ('read' | 'file' | 'move' | 'send' | 'folder' | 'dext' | 'cancel' | 'pay')[]
  unpaid?: { hasUnpaid: boolean; count: number; amountInclTaxCents: number }
  /** How many times user-unpaid-status fails before it answers. */
  unpaidStatusFails?: number
  /** The accounting inbox address kept in this browser from an earlier export, by the signed-in user unless… */
  dextEmail?: string | null
  /** …another person (this user id) made that export on this browser. */
  dextEmailOf?: number
  // --- people
  people?: PeopleScenario
  /** billing: what the billing calls answer. */
  billing?: BillingScenario
  /** company area: the legal submissions on the server, the order checks by order, and the calls that fail. */
  company?: {
    submissions?: LegalSubmission[]
    checks?: Record<number, CheckAnswers>
    /** Calls that never answer. */
    pending?: ('submissions' | 'checks')[]
    fails?: ('qonto' | 'shine' | 'comptable' | 'submissions' | 'order' | 'invoiceFile')[]
  }
  /** mail pipeline: the search's answers, the letters' deadlines, the page images; calls that fail once or never answer. */
  mailPipeline?: MailPipelineScenario
  /** Calls held until the test settles this promise, then answered as usual: what the screen does while a call runs. */
  held?: Partial<Record<keyof Api, Promise<unknown>>>
}

// --- mail pipeline
export interface MailPipelineScenario {
  /** What the search answers, by query (trimmed); any other query finds nothing. */
  searches?: Record<string, DocumentSearchResult[]>
  deadlines?: LetterDeadline[]
  /** Calls that fail once (then answer), pages that always fail, searches that never answer. */
  fails?: ('search' | 'deadlines')[]
  failingPages?: number[]
  pendingSearches?: string[]
}

/** people: what the account, collaborator, representative and invitation calls answer. */
export interface PeopleScenario {
  shares?: Share[]
  representatives?: Mandataire[]
  passkeys?: Passkey[]
  sessions?: Session[]
  /** The invitation behind a link, or the French refusal of an expired or used one (410). */
  invitation?: InvitationInfo | string
  /** The first read of the invitation meets the service unavailable (503). */
  invitationUnavailableOnce?: boolean
  /** « Ce n’était pas vous ? »: what the revert link answers, the server's message or its refusal (a status and message). */
  emailRevert?: { status?: undefined; message: string } | { status: number; message: string }
  /** « Fermer mon compte »: the refusal (409 ORDERS_ACTIVE) of a domiciliation still active; unset, the demo password closes it. */
  closeRefusal?: string
  /** « Quitter cette domiciliation »: the server's refusal (a French 409) instead of leaving. */
  leaveRefusal?: string
  /** Calls that fail with the server's French message. */
  fails?: ('invite' | 'removeShare' | 'addRepresentative' | 'loadShares' | 'loadRepresentatives' | 'loadSessions' | 'referral')[]
  /**
   * « Mes données »: the latest export on the server (none: never prepared); what each read of it answers next, in turn (then the
   * last one again); whether its download answers 410 (expired).
   */
  dataExport?: DataExport
  dataExportChecks?: DataExport[]
  dataExportGone?: boolean
}

// --- billing
export interface BillingScenario {
  options?: SubscriptionOption[]
  /** The option request is refused with this message. */
  optionRefused?: string
  termination?: TerminationStatus
  /** The termination request is refused: 409 (already one) or another status. */
  terminationRefused?: { status: number; message: string }
  /** How "Payer" ends (the dashboard's 'Régler' keeps its own `mailFails: ['pay']`). */
  payOutcome?: 'paid' | 'declined' | 'noCard' | 'tooLarge'
  /** The test provider declines the card. */
  cardDeclined?: boolean
  years?: number[]
  shareYears?: number[]
  creditNotes?: CreditNote[]
  verification?: CertificateVerification | { status: 404 | 429; message: string }
  /** The contract update fails (swallowed: null). */
  addressFails?: boolean
  /** The certificate is refused with this message. */
  certificateRefused?: string
  /** The contracts the server answers (fixtures' by default); the test may change them as it goes (a Kbis validated). */
  contracts?: Contract[]
  /** The Kbis download fails with this message. */
  kbisFileFails?: string
  /** The real provider (STRIPE_SECRET_KEY): the card dialog gets a SetupIntent and Stripe.js's field (a fake here). */
  hosted?: { loadFails?: boolean; declines?: string[] }
}

export interface BillingCalls {
  optionRequests: { orderId: number; option: string; key: string }[]
  optionConfirmations: { contractId: number; planId: string }[]
  terminations: TerminationRequestBody[]
  payments: number[]
  providerCards: TestCardBody[]
  attached: { orderId: number | null; pm: string }[]
  addresses: { contractId: number; address: ContractAddressBody }[]
  downloads: string[]
  verifications: string[]
  /** The hosted card field: where it was drawn, the client secrets confirmed, how many times it was let go. */
  hostedCard: { mounted: HTMLElement[]; confirmed: string[]; destroyed: number; setups: { orderId?: number }[] }
}

/** The server's answer to a total over what one card payment carries (routes/billing amountTooLargeMessage, for 1 000 000,00 €). */
export const TOO_LARGE_FOR_ONE_PAYMENT =
  'Le montant à régler, 1\u202f000\u202f000,00\u00a0€ TTC, dépasse ce qu’un paiement par carte peut prélever en une fois (999\u202f999,99\u00a0€). Rien n’a été prélevé : écrivez à support@example.com pour convenir d’un autre moyen de paiement.'
const withStatus = (status: number, message: string, code?: string) => Object.assign(new Error(message), { status, code })
const yearOf = (iso: string) => new Date(iso).getUTCFullYear()

export interface Calls {
  /** The areas whose flows the views asked for (src/wiring/flows.ts), in order, once each. */
  flowAreas: FlowArea[]
  notices: Notice[]
  kbisUploads: { contractId: number; kbis: string }[]
  problems: { orderId: number; message: string }[]
  resetRequests: Record<string, string>[]
  /** The usernames /login sent (the sign-in calls of invitations included). */
  logins: string[]
  /** The startup's first calls sent early by each sign-in (the session's startEarly): its token and the page it leads to. */
  early: [token: string, page: string][]
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
  payments: { orderId: number | null; expectedAmountInclTaxCents: number | null }[]
  /** people: every account, collaborator, representative and invitation call, as [name, ...arguments]. */
  people: unknown[][]
  billing: BillingCalls
  // company area
  interests: { orderId: number; partner: 'qonto' | 'shine' | 'expert-comptable' }[]
  checks: number[]
  submissionLoads: (number | null)[]
  legalSubmissions: LegalSubmissionBody[]
  // mail pipeline
  searches: { q: string; orderId: number | null }[]
  pageLoads: { documentId: number; page: number }[]
  deadlineLoads: (number | null)[]
  // notifications: every call as [name, ...arguments]; the open stream, to push events into,
  // end, end as replaced by a newer stream (another tab), or pass by (`missed`: raised on the server while the stream
  // is down, listed but never sent)
  notifications: unknown[][]
  live: {
    push(notification: PortalNotification): void
    missed(notification: PortalNotification): void
    end(): void
    replaced(): void
  } | null
}

/** A promise React's use() reads at once, without suspending. */
function settled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value })
}

const emptyData = (): PortalData => ({
  card: null,
  documents: [],
  subscriptions: [],
  packages: [],
  courierRequests: [],
  folders: [],
  invoices: [],
  calendarInvoices: [],
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
  let dataExport = scenario.dataExport
  const checks = [...(scenario.dataExportChecks ?? [])]
  const now = '2026-11-22T10:00:00.000Z'
  return {
    // The account calls swallow their errors (spec §8): the client tells the reason in a toast and answers undefined.
    updateEmail: async (body) => {
      record('updateEmail', body)
      if (body.newEmail === 'associe@example.com')
        return (notify({ kind: 'error', message: 'Cette adresse e-mail est déjà utilisée par un autre compte.' }), undefined)
      return { ...F.user, email: body.newEmail }
    },
    updatePassword: async (body) => {
      record('updatePassword', body)
      if (body.currentPassword !== 'Demo1234!')
        return (notify({ kind: 'error', message: 'Le mot de passe actuel est incorrect.' }), undefined)
      return { message: 'Votre mot de passe a été modifié.' }
    },
    getPasskeys: async () => (record('getPasskeys'), passkeys),
    getPasskeyRegistrationOptions: async () => (
      record('getPasskeyRegistrationOptions'),
      {
        challenge: 'AAAA',
        rp: { name: 'Domicilium', id: 'localhost' },
        user: { id: 'dQ', name: 'demo@example.com', displayName: 'Camille Martin' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }
    ),
    renamePasskey: async (id, body) => {
      record('renamePasskey', id, body)
      passkeys = passkeys.map((p) => (p.id === id ? { ...p, name: body.name } : p))
      return passkeys.find((p) => p.id === id)!
    },
    deletePasskey: async (id) => (record('deletePasskey', id), (passkeys = passkeys.filter((p) => p.id !== id)), { message: 'ok' }),
    getPasskeyLoginOptions: async () => (record('getPasskeyLoginOptions'), { challenge: 'AAAA', rpId: 'localhost' }),
    closeAccount: async (body) => {
      record('closeAccount', body)
      if (body.password !== 'Demo1234!')
        throw new ApiError('Le mot de passe est incorrect : votre compte n’a pas été fermé.', 400, 'BAD_PASSWORD')
      if (scenario.closeRefusal) throw new ApiError(scenario.closeRefusal, 409, 'ORDERS_ACTIVE')
      return { message: 'Votre compte est fermé. Un e-mail de confirmation vous a été envoyé.' }
    },
    getSessions: async () => {
      record('getSessions')
      if (fails('loadSessions')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return scenario.sessions ?? []
    },
    signOutOtherSessions: async () => (record('signOutOtherSessions'), { signedOut: 1, message: 'L’autre appareil a été déconnecté.' }),
    signOut: async (options) => (record('signOut', options?.apiToken), { message: 'Vous êtes déconnecté.' }),
    getShares: async (orderId) => {
      record('getShares', orderId)
      if (fails('loadShares')) throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
      return shares
    },
    inviteCollaborators: async (orderId, body) => {
      record('invite', orderId, body)
      if (fails('invite')) throw new Error('Trop d’invitations envoyées en peu de temps : réessayez dans une heure.')
      // As the server: a pending invitation typed again gets a new link (sent now, for 7 days); the answer is the addresses typed.
      const link = { invitationSentAt: new Date().toISOString(), invitationExpiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() }
      const known = (email: string) => shares.find((x) => x.email.toLowerCase() === email.toLowerCase())
      shares = shares.map((x) =>
        x.status === 'invitée' && body.emails.some((e) => e.toLowerCase() === x.email.toLowerCase()) ? { ...x, ...link } : x,
      )
      const added = body.emails
        .filter((email) => !known(email))
        .map(
          (email, i): Share => ({
            id: 500 + shares.length + i,
            email,
            firstname: null,
            lastname: null,
            status: 'invitée',
            createdAt: now,
            acceptedAt: null,
            ...link,
          }),
        )
      shares = [...shares, ...added]
      return body.emails.map((email) => known(email)!)
    },
    deleteShare: async (orderId, shareId) => {
      record('deleteShare', orderId, shareId)
      if (fails('removeShare')) throw new Error('Collaborateur introuvable.')
      shares = shares.filter((x) => x.id !== shareId)
      return { message: 'ok' }
    },
    sendInvite: async (body) => {
      record('sendInvite', body)
      if (fails('referral')) throw new Error('Une erreur interne est survenue, veuillez réessayer dans quelques instants.')
      return { message: `Votre recommandation a été envoyée à ${body.email}.` }
    },
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
      if (scenario.invitationUnavailableOnce && calls.people.filter(([name]) => name === 'getInvitation').length === 1) {
        throw withStatus(
          503,
          'Le service est momentanément indisponible : veuillez réessayer dans quelques instants.',
          'DATABASE_UNAVAILABLE',
        )
      }
      if (typeof scenario.invitation === 'string') throw withStatus(410, scenario.invitation, 'INVITATION_EXPIRED')
      if (!scenario.invitation) throw withStatus(404, 'Invitation introuvable.', 'INVITATION_UNKNOWN')
      return scenario.invitation
    },
    createInvitationAccount: async (token, body) => (
      record('createInvitationAccount', token, body),
      {
        user: { ...F.authUser, email: 'nina@example.com', firstname: body.firstname },
        orderId: 2,
        raisonSociale: 'Boulangerie des Lilas SAS',
      }
    ),
    acceptInvitation: async (token, options) => (
      record('acceptInvitation', token, options?.apiToken ?? null),
      { orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', message: 'ok' }
    ),
    getDataExports: async () => (record('getDataExports'), dataExport ? [dataExport] : []),
    startDataExport: async () => {
      record('startDataExport')
      dataExport = {
        id: 9,
        state: 'preparing',
        progress: 0,
        createdAt: now,
        readyAt: null,
        expiresAt: null,
        bytes: null,
        letters: null,
        file: null,
      }
      return dataExport
    },
    getDataExport: async (id) => {
      record('getDataExport', id)
      dataExport = checks.shift() ?? dataExport!
      return dataExport
    },
    getDataExportFile: async (id) => {
      record('getDataExportFile', id)
      if (scenario.dataExportGone)
        throw withStatus(410, 'Ce lien a expiré le 29 novembre 2026 : vos données ne restent disponibles que 7 jours.', 'EXPORT_EXPIRED')
      return new Blob(['PK'], { type: 'application/zip' })
    },
    revertEmailChange: async (token) => {
      record('revertEmailChange', token)
      const answer = scenario.emailRevert ?? { status: 404, message: 'Ce lien de rétablissement d’adresse est inconnu.' }
      if (answer.status !== undefined) throw withStatus(answer.status, answer.message)
      return { message: answer.message }
    },
  }
}

function fakeApi(scenario: Scenario, orders: Order[], calls: Calls, notify: (notice: Notice) => void): Api {
  const fails = (what: NonNullable<Scenario['mailFails']>[number]) => scenario.mailFails?.includes(what)
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  const data = { ...emptyData(), ...scenario.data }
  const shared = new Set(orders.filter((o) => o.isShareOrder).map((o) => o.id))
  /** The orders whose file an upload found complete already (scenario.identityCompletedElsewhere). */
  const completedElsewhere = new Set<number>()
  const failedOnce = new Set<Resource>()
  /** What the session gave the client (configureApi): a 401 tells it, as src/api/client.ts does. */
  const hooks: Parameters<Api['configureApi']>[0] = {}
  const unauthorized = (message: string) => {
    const error = new ApiError(message, 401)
    hooks.onUnauthorized?.(error)
    return error
  }

  /** One call of a portal-data list: pending, failing once, or the fixtures of that order (own or shared). */
  function list<R extends Resource>(resource: R, scope: { orderId?: number | undefined; share: boolean }): Promise<PortalData[R]> {
    calls.loads.push({ resource, orderId: scope.orderId ?? null })
    if (scenario.pending?.includes(resource)) return new Promise<never>(() => {})
    const next = scenario.failNext?.indexOf(resource) ?? -1
    if (next >= 0) {
      scenario.failNext!.splice(next, 1)
      return Promise.reject(unavailable())
    }
    const expired = scenario.expireNext?.indexOf(resource) ?? -1
    if (expired >= 0) {
      scenario.expireNext!.splice(expired, 1)
      return Promise.reject(unauthorized('Session expirée ou invalide, veuillez vous reconnecter.'))
    }
    if (scenario.failing?.includes(resource) && !failedOnce.has(resource)) {
      failedOnce.add(resource)
      return Promise.reject(unavailable())
    }
    const value = data[resource]
    if (!Array.isArray(value)) return Promise.resolve(value)
    // Like the server: one order's list, or every own (or every shared) order's with 'Tous'.
    return Promise.resolve(
      (value as Owned[]).filter((item) => {
        const id = orderOf(item)
        if (id === undefined) return true
        return scope.orderId !== undefined ? id === scope.orderId : shared.has(id) === scope.share
      }) as PortalData[R],
    )
  }

  /** Who user/me answers for: the stored user (F.user), until someone signs in with the form. */
  let signedInAs: User = F.user
  const api: Partial<Api> = {
    configureApi: (next) => void Object.assign(hooks, next),
    login: async (body) => {
      calls.logins.push(body.username)
      if (scenario.loginFails || body.password !== 'Demo1234!') throw new Error('Identifiants incorrects')
      signedInAs = body.username === F.associate.email ? F.associate : F.user
      return signedInAs === F.associate ? F.associateAuth : F.authUser
    },
    getCurrentUser: async () => {
      if (scenario.userFails) throw unauthorized('Session expirée ou invalide, veuillez vous reconnecter.')
      return signedInAs
    },
    // As the server: the order left is no longer among the person's.
    leaveSharedOrder: async (id) => {
      calls.people.push(['leaveSharedOrder', id])
      if (scenario.people?.leaveRefusal) throw new ApiError(scenario.people.leaveRefusal, 409, 'OWNER_CANNOT_LEAVE')
      const left = orders.findIndex((o) => o.id === id)
      const [order] = orders.splice(left, 1)
      return { message: `Vous n’avez plus accès au courrier de ${order!.raisonSociale}.` }
    },
    getContracts: async () => structuredClone(scenario.billing?.contracts ?? F.contracts),
    getMyOrders: async () => {
      await scenario.ordersHeld
      return scenario.ordersPending
        ? new Promise<Order[]>(() => {})
        : scenario.ordersFailOnce && !failedOnce.has('orders' as Resource)
          ? (failedOnce.add('orders' as Resource), Promise.reject(new Error('Une erreur interne est survenue.')))
          : Promise.resolve(
              orders.map((o) => (completedElsewhere.has(o.id) ? { ...o, missingDocumentsValidatedAt: '2026-11-22T09:00:00.000Z' } : o)),
            )
    },

    getPaymentMethod: (orderId) => list('card', { orderId, share: false }),
    getCreditCard: () => list('card', { share: false }),
    getDocuments: (query = {}) => list('documents', { orderId: query.orderId, share: false }),
    getSubscriptionInformations: async (orderId) =>
      (await list('subscriptions', { orderId, share: false }))[0]?.subscription ?? (null as never),
    getPackages: (query = {}) => list('packages', { orderId: query.orderId, share: false }),
    getSharePackages: (query = {}) => list('packages', { orderId: query.orderId, share: true }),
    getCourierRequests: (query = {}) => list('courierRequests', { orderId: query.orderId, share: false }),
    getShareCourierRequests: (query = {}) => list('courierRequests', { orderId: query.orderId, share: true }),
    getFolders: (query = {}) => list('folders', { orderId: query.domiciliationOrderId, share: false }),
    getShareFolders: () => list('folders', { share: true }),
    getInvoices: async (query = {}) =>
      (await list('invoices', { share: false })).filter((i) => !query.year || yearOf(i.date) === query.year),
    getShareInvoices: async (query = {}) =>
      (await list('invoices', { share: true })).filter((i) => !query.year || yearOf(i.date) === query.year),
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
    getUploadedDocuments: async (id) => scenario.uploadedDocuments?.[id] ?? [],
    uploadIdentity: async (form): Promise<IdentityUploadReply> => {
      const [documentType, file] = [...form.entries()].find(([key]) => key !== 'orderId')!
      calls.identityUploads.push({ orderId: Number(form.get('orderId')), documentType, fileName: (file as File).name })
      if (scenario.identityIncomplete) return { uploaded: [], complete: false, missingDocumentsValidatedAt: null }
      if (scenario.identityCompletedElsewhere) {
        completedElsewhere.add(Number(form.get('orderId')))
        throw new ApiError(
          'Vos documents ont déjà tous été reçus : le dossier de cette domiciliation est complet, aucun autre envoi n’est nécessaire.',
          409,
          'DOCUMENTS_COMPLETE',
        )
      }
      return { uploaded: [], complete: true, missingDocumentsValidatedAt: '2026-11-22T10:00:00.000Z' }
    },
    requestPasswordReset: async (body) => void calls.resetRequests.push(body) as never,
    resetPassword: async (body) => {
      calls.passwordResets.push(body)
      // As the server: a link used or expired is refused (400); 'indisponible' meets the database restarting once (503).
      if (body.token === 'expire')
        throw withStatus(
          400,
          'Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.',
          'INVALID_RESET_TOKEN',
        )
      if (body.token === 'indisponible' && calls.passwordResets.length === 1) {
        throw withStatus(
          503,
          'Le service est momentanément indisponible : veuillez réessayer dans quelques instants.',
          'DATABASE_UNAVAILABLE',
        )
      }
      // 'coupure': the first send saved the password but its answer was lost (status 0); the link is spent for the next.
      if (body.token === 'coupure') {
        throw calls.passwordResets.length === 1
          ? withStatus(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.', 'NETWORK')
          : withStatus(
              400,
              'Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.',
              'INVALID_RESET_TOKEN',
            )
      }
      // The account had passkeys: the server's reply says they went (server/routes/account/index.ts).
      if (body.token === 'avec-cles')
        return {
          message:
            'Votre mot de passe a été modifié, vous pouvez vous connecter. Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».',
        }
      return undefined as never
    },

    getDocumentFile: async (documentId) => {
      calls.files.push(documentId)
      // Each letter's first load only: 'Réessayer' brings the scan.
      if (fails('file') && calls.files.filter((id) => id === documentId).length === 1) throw unavailable()
      return new Blob(['%PDF-1.7 courrier'], { type: 'application/pdf' })
    },
    updateDocument: async (documentId, body): Promise<MailDocument> => {
      calls.documentUpdates.push({ documentId, ...body })
      const document = data.documents.find((d) => d.id === documentId)!
      if (fails(body.readFlag !== undefined ? 'read' : 'move')) throw new Error('Le service est momentanément indisponible.')
      // Like the server: a folder deleted meanwhile (in another tab) is refused.
      if (typeof body.folderId === 'number' && !data.folders.some((f) => f.id === body.folderId))
        throw withStatus(404, 'Dossier introuvable.')
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
      if (fails('folder')) throw withStatus(409, 'Un dossier porte déjà ce nom pour cette domiciliation.')
      return { id: 900 + calls.folderSaves.length, name: body.name, domiciliationOrderId: body.domiciliationOrderId, documentCount: 0 }
    },
    updateFolder: async (folderId, body) => {
      calls.folderSaves.push({ folderId, ...body })
      if (fails('folder')) throw withStatus(409, 'Un dossier porte déjà ce nom pour cette domiciliation.')
      if (!data.folders.some((f) => f.id === folderId)) throw withStatus(404, 'Dossier introuvable.')
      return { ...data.folders.find((f) => f.id === folderId)!, name: body.name }
    },
    deleteFolder: async (folderId) => {
      calls.folderDeletes.push(folderId)
      if (fails('folder')) throw withStatus(404, 'Dossier introuvable.')
      return { message: 'ok' }
    },
    sendDextInvoices: async (body) => {
      calls.dextSends.push(body)
      if (fails('dext'))
        return {
          sent: body.documentIds.length,
          failed: body.invoiceIds.map((id) => ({ kind: 'invoice' as const, id, reason: 'Facture introuvable.' })),
          message: 'partiel',
        }
      return { sent: body.invoiceIds.length + body.documentIds.length, failed: [], message: 'ok' }
    },
    removeCourierRequest: async (body) => {
      calls.cancelled.push(body)
      if (fails('cancel')) throw withStatus(409, 'Seule une demande en attente peut être annulée.')
      return { message: 'ok' }
    },
    getUnpaidStatus: async () => {
      if (scenario.unpaidStatusFails && scenario.unpaidStatusFails-- > 0) throw new Error('Le service est momentanément indisponible.')
      return { ...(scenario.unpaid ?? { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }) }
    },
    payUnpaidInvoice: async (body) => {
      calls.payments.push({ orderId: body.orderId ?? null, expectedAmountInclTaxCents: body.expectedAmountInclTaxCents ?? null })
      if (fails('pay')) throw withStatus(402, 'Aucune carte enregistrée : ajoutez un moyen de paiement.', 'NO_CARD')
      // Like the server: the total shown, or nothing charged.
      const owed = scenario.unpaid?.amountInclTaxCents ?? 0
      if (body.expectedAmountInclTaxCents !== undefined && owed > 0 && body.expectedAmountInclTaxCents !== owed) {
        throw withStatus(
          409,
          'Le montant à régler a changé depuis votre confirmation. Rien n’a été prélevé : vérifiez le nouveau montant puis confirmez.',
          'AMOUNT_CHANGED',
        )
      }
      scenario.unpaid = { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }
      return { paidCount: 1, message: '1 facture réglée.' }
    },
    ...peopleApi(scenario.people ?? {}, calls, notify),
    ...billingApi(scenario, data, orders, calls),

    // --- company area: partners, the accountant, the order checks, legal submissions, invoices of bookings
    ...companyApi(scenario, orders, calls),

    // --- mail pipeline: search, page images, letters' deadlines
    ...mailPipelineApi(scenario.mailPipeline ?? {}, calls),
    // --- notifications
    ...notificationsApi(scenario.notifications ?? {}, calls),
  }
  // A call the scenario does not answer is a test that reaches further than it set up: say so.
  return new Proxy(api, {
    get: (target, name) => {
      const answer =
        target[name as keyof Api] ?? (() => Promise.reject(new Error(`fake API: ${String(name)} is not answered in this test`)))
      const held = scenario.held?.[name as keyof Api]
      // A held call given a signal is aborted by it, as ofetch's: nothing reaches the server, the caller gets an AbortError.
      return held
        ? async (...args: unknown[]) => {
            const signal = (args.at(-1) as { signal?: AbortSignal } | undefined)?.signal
            await (signal ? Promise.race([held, abortOf(signal)]) : held)
            return (answer as (...a: unknown[]) => unknown)(...args)
          }
        : answer
    },
  }) as Api
}

const abortOf = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    const abort = () => reject(new DOMException('This operation was aborted', 'AbortError'))
    if (signal.aborted) abort()
    else signal.addEventListener('abort', abort, { once: true })
  })

/** The company area's calls, answered like the server: one list of submissions that "Commander" adds to. */
function companyApi(scenario: Scenario, orders: Order[], calls: Calls): Partial<Api> {
  const company = scenario.company ?? {}
  const fails = (what: NonNullable<typeof company.fails>[number]) => company.fails?.includes(what)
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  const submissions = company.submissions ?? []
  const checksOf = (orderId: number): CheckAnswers =>
    company.checks?.[orderId] ?? { completeKbis: true, waitingContract: false, attenteCourrierOrFinalise: true }
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
    wantComptable: async (orderId) => (
      await interest('expert-comptable', !!fails('comptable'), orderId), { wantComptable: true, message: 'ok' }
    ),
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
      if (fails('order'))
        throw new Error('Une demande de cette formalité est déjà en cours pour cette société : suivez-la dans « Formalités ».')
      const order = orders.find((o) => o.id === body.orderId)!
      const created: LegalSubmission = {
        id: 500 + submissions.length,
        orderId: order.id,
        raisonSociale: order.raisonSociale,
        kind: body.kind,
        status: 'Reçue',
        comment: body.comment ?? null,
        receivedAt: '2026-11-23T10:00:00.000Z',
        startedAt: null,
        filedAt: null,
        completedAt: null,
      }
      submissions.unshift(created)
      return created
    },
    // An invoice that cannot be fetched; otherwise the billing fake answers (and records it in calls.billing.downloads).
    ...(fails('invoiceFile')
      ? {
          getInvoiceFile: async () => {
            throw new Error('Facture introuvable.')
          },
        }
      : {}),
  }
}

// --- notifications: the bell's list, its read marks, the live stream (pushed by the test
// through calls.live), the e-mail choices and the letters' histories.
export interface NotificationScenario {
  list?: PortalNotification[]
  fails?: ('load' | 'read' | 'readAll' | 'history' | 'preferences' | 'savePreference' | 'conversations' | 'answer')[]
  history?: Record<number, LetterEvent[]>
  preferences?: Record<number, EmailPreference>
  /** « Mes échanges »: the conversations with their messages (the list is their summaries, open ones first). */
  conversations?: PortalConversation[]
}

function notificationsApi(scenario: NotificationScenario, calls: Calls): Partial<Api> {
  const list = [...(scenario.list ?? [])]
  const fails = (what: NonNullable<NotificationScenario['fails']>[number]) => scenario.fails?.includes(what)
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  const unread = () => list.filter((n) => !n.read).length
  const preferences = { ...scenario.preferences }
  const conversations = [...(scenario.conversations ?? [])]
  let conversationLoads = 0
  let loads = 0
  return {
    getConversations: async (orderId) => {
      calls.notifications.push(['getConversations', orderId])
      if (fails('conversations') && conversationLoads++ === 0) throw unavailable()
      return conversations
        .filter((c) => orderId === null || c.orderId === orderId)
        .sort((a, b) => Number(b.status === 'open') - Number(a.status === 'open') || b.lastMessageAt.localeCompare(a.lastMessageAt))
        .map(({ closedAt: _c, messages: _m, ...summary }) => summary)
    },
    getConversation: async (id) => {
      calls.notifications.push(['getConversation', id])
      if (fails('conversations') && conversationLoads++ === 0) throw unavailable()
      const found = conversations.find((c) => c.id === id)
      if (!found) throw new ApiError('Conversation introuvable.', 404)
      return found
    },
    answerConversation: async (id, { message }) => {
      calls.notifications.push(['answerConversation', id, message])
      if (fails('answer')) throw unavailable()
      const i = conversations.findIndex((c) => c.id === id)
      const at = '2026-11-21T08:00:00.000Z'
      const before = conversations[i]!
      conversations[i] = {
        ...before,
        status: 'open',
        closedAt: null,
        lastAuthor: 'customer',
        lastMessage: message,
        lastMessageAt: at,
        messages: [
          ...before.messages,
          { id: 100 + before.messages.length, body: message, createdAt: at, author: { kind: 'customer', name: 'Camille Martin' } },
        ],
      }
      return conversations[i]!
    },
    getNotifications: async () => {
      calls.notifications.push(['getNotifications'])
      if (fails('load') && loads++ === 0) throw unavailable()
      return {
        unread: unread(),
        notifications: [...list].sort((a, b) => Number(a.read) - Number(b.read) || b.createdAt.localeCompare(a.createdAt)),
      }
    },
    readNotification: async (id) => {
      calls.notifications.push(['readNotification', id])
      if (fails('read')) throw unavailable()
      const i = list.findIndex((n) => n.id === id)
      if (i >= 0) list[i] = { ...list[i]!, read: true }
      return { unread: unread() }
    },
    readAllNotifications: async () => {
      calls.notifications.push(['readAllNotifications'])
      if (fails('readAll')) throw unavailable()
      list.forEach((n, i) => {
        list[i] = { ...n, read: true }
      })
      return { unread: 0 }
    },
    followNotifications: (handlers, options = {}) =>
      new Promise<void>((resolve) => {
        calls.notifications.push(['followNotifications'])
        handlers.onOpen?.()
        calls.live = {
          push: (notification) => {
            list.push(notification)
            handlers.onNotification(notification)
          },
          missed: (notification) => void list.push(notification),
          end: () => resolve(),
          replaced: () => {
            handlers.onReplaced?.()
            resolve()
          },
        }
        options.signal?.addEventListener('abort', () => resolve())
      }),
    getLetterHistory: async (documentId) => {
      calls.notifications.push(['getLetterHistory', documentId])
      if (fails('history')) throw unavailable()
      return { events: scenario.history?.[documentId] ?? [] }
    },
    getNotificationPreferences: async (orderId) => {
      calls.notifications.push(['getNotificationPreferences', orderId])
      if (fails('preferences')) throw unavailable()
      return { email: preferences[orderId] ?? 'each' }
    },
    updateNotificationPreferences: async (orderId, body) => {
      calls.notifications.push(['updateNotificationPreferences', orderId, body.email])
      if (fails('savePreference')) throw unavailable()
      preferences[orderId] = body.email
      return body
    },
  }
}

/** Every area's flows at once, as the browser's services build each area's when it loads (src/wiring/services.ts). */
export function createAllFlows(deps: WiringDeps): AllFlows {
  return {
    firstScreen: built(createFirstScreenFlows(deps)),
    session: built(createSessionFlows(deps)),
    mail: built(createMailFlows(deps)),
    billing: built(createBillingFlows(deps)),
    people: built(createPeopleFlows(deps)),
    company: built(createCompanyFlows(deps)),
    notifications: built(createNotificationFlows(deps)),
  }
}

export function createTestServices(
  scenario: Scenario,
  navigate: (to: string, options?: { replace?: boolean }) => void,
  currentPath?: () => string,
) {
  const orders = scenario.orders ?? [F.atelier, F.boulangerie, F.studio, F.conseil]
  const calls: Calls = {
    flowAreas: [],
    notices: [],
    kbisUploads: [],
    problems: [],
    resetRequests: [],
    logins: [],
    early: [],
    passwordResets: [],
    identityUploads: [],
    navigations: [],
    loads: [],
    documentUpdates: [],
    files: [],
    sentDocuments: [],
    folderSaves: [],
    folderDeletes: [],
    dextSends: [],
    cancelled: [],
    payments: [],
    people: [],
    billing: {
      optionRequests: [],
      optionConfirmations: [],
      terminations: [],
      payments: [],
      providerCards: [],
      attached: [],
      addresses: [],
      downloads: [],
      verifications: [],
      hostedCard: { mounted: [], confirmed: [], destroyed: 0, setups: [] },
    },
    interests: [],
    checks: [],
    submissionLoads: [],
    legalSubmissions: [],
    searches: [],
    pageLoads: [],
    deadlineLoads: [],
    notifications: [],
    live: null,
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
    startEarly: (token, page) => void calls.early.push([token, page]),
    ...(currentPath ? { currentPath } : {}),
    loadPortal: async () => {
      if (scenario.portalFails) throw new Error('Failed to fetch dynamically imported module')
      return createStartup({ api, navigate: go })
    },
  })
  const flows = createAllFlows({
    api,
    notify,
    navigate: go,
    toPortal: portalOf(() => session),
    toSession: (event) => session.send(event),
    loadHostedCard: (publishableKey) => fakeHostedCard(scenario.billing?.hosted, publishableKey, calls.billing.hostedCard),
  })
  const services: AppServices = {
    navigate: go,
    notify,
    loadSession: () => settled(session),
    loadFlows: (area) => {
      if (!calls.flowAreas.includes(area)) calls.flowAreas.push(area)
      return settled(flows[area])
    },
  }
  return { services, session, calls }
}

/** The session of the app rendered last: like a closed tab's, it is stopped when the next one renders. */
let lastSession: SessionRef | undefined

/**
 * Renders the whole app at a path, signed in (with a kept default order) or not. `onCalls` gets the calls' record before
 * the first render: a screen may paint before this resolves.
 */
export async function renderApp(
  path: string,
  options: Scenario & {
    signedIn?: boolean
    defaultOrder?: StoredChoice
    onCalls?: (calls: ReturnType<typeof createTestServices>['calls']) => void
    /** As a reload of the tab: its sessionStorage kept (a new tab's is empty). */
    reload?: boolean
    /**
     * As main.tsx for a stored user: the first render once the signed-in code is there, the session's startup made
     * (reading the page it lands on) before any route has been drawn.
     */
    startupBeforeRender?: boolean
  } = {},
) {
  lastSession?.stop()
  localStorage.clear()
  if (!options.reload) sessionStorage.clear()
  if (options.signedIn) writeStoredUser(F.authUser)
  if (options.defaultOrder !== undefined) writeStoredChoice(F.authUser.id, options.defaultOrder)
  if (options.dextEmail) localStorage.setItem(DEXT_EMAIL_KEY, JSON.stringify({ [options.dextEmailOf ?? F.authUser.id]: options.dextEmail }))
  const location = memoryLocation({ path, record: true })
  const { services, session, calls } = createTestServices(
    options,
    (to, navigation) => location.navigate(to, navigation),
    () => location.history.at(-1) ?? path,
  )
  lastSession = session
  options.onCalls?.(calls)
  if (options.startupBeforeRender)
    await new Promise<void>((resolve) => {
      const made = () => session.getSnapshot().context.startup !== null
      if (made()) return resolve()
      const watch = session.subscribe(() => made() && (watch.unsubscribe(), resolve()))
    })
  let view!: ReturnType<typeof render>
  await act(async () => {
    view = render(<App services={services} hook={location.hook} />)
  })
  return { ...view, location, services, session, calls, currentPath: () => location.history.at(-1) }
}

// --- billing: Stripe.js's card field, faked (this machine cannot reach js.stripe.com): it draws a marker, and confirms
// with a pm_… id unless told to decline (the declines are answered in turn).
async function fakeHostedCard(
  hosted: BillingScenario['hosted'],
  publishableKey: string,
  record: BillingCalls['hostedCard'],
): Promise<HostedCard> {
  if (hosted?.loadFails || publishableKey !== 'pk_test_fake') throw new Error('Failed to load Stripe.js')
  const declines = [...(hosted?.declines ?? [])]
  return {
    mount: (element) => {
      element.textContent = 'champ de carte Stripe'
      record.mounted.push(element)
    },
    confirm: async (clientSecret) => {
      record.confirmed.push(clientSecret)
      const decline = declines.shift()
      if (decline) throw new Error(decline)
      return 'pm_hosted'
    },
    destroy: () => void record.destroyed++,
  }
}

// --- billing: the fake answers of the billing calls, recorded in calls.billing.
function billingApi(scenario: Scenario, data: PortalData, orders: Order[], calls: Calls): Partial<Api> {
  const billing = scenario.billing ?? {}
  const record = calls.billing
  const downloaded = (what: string) => {
    record.downloads.push(what)
    return new Blob(['%PDF-1.7'], { type: 'application/pdf' })
  }
  const subscriptionOf = (orderId: number) => data.subscriptions.find((s) => s.orderId === orderId)!.subscription
  const ownedBy = (id: number) => orders.find((o) => o.id === id)
  return {
    subscriptionKey,
    getSubscriptionOptions: async () => billing.options ?? [],
    addOption: async (orderId, body) => {
      record.optionRequests.push({ orderId, ...body })
      if (billing.optionRefused) throw withStatus(409, billing.optionRefused)
      return {
        message: 'ok',
        planId: billing.options!.find((o) => o.option === body.option)!.planId,
        expiresAt: '2026-11-23T10:15:00.000Z',
      }
    },
    addOptionSubscription: async (body) => {
      record.optionConfirmations.push(body)
      const order = orders.find((o) => o.contractId === body.contractId)!
      const option = billing.options!.find((o) => o.planId === body.planId)!
      const subscription = subscriptionOf(order.id)
      return {
        ...subscription,
        items: {
          ...subscription.items,
          data: [
            ...subscription.items.data,
            {
              id: `si_${option.planId}`,
              quantity: 1,
              plan: {
                id: option.planId,
                nickname: option.nickname,
                amount: option.amountExclTaxCents,
                currency: 'eur',
                interval: option.interval,
                product: 'p',
              },
            },
          ],
        },
      }
    },
    getTerminationStatus: async () => billing.termination ?? { request: null, earliestDate: '2027-06-11' },
    createTerminationRequest: async (body) => {
      record.terminations.push(body)
      if (billing.terminationRefused) {
        // A 409: the request another tab made is on record.
        if (billing.terminationRefused.status === 409)
          billing.termination = {
            request: { date: '2027-08-31', reason: 'Autre motif', createdAt: '2026-11-22T10:00:00.000Z', endDate: null },
            earliestDate: '2027-06-11',
          }
        throw withStatus(billing.terminationRefused.status, billing.terminationRefused.message)
      }
      billing.termination = {
        request: { date: body.date, reason: body.reason, createdAt: '2026-11-23T10:00:00.000Z', endDate: null },
        earliestDate: '2027-06-11',
      }
      return { id: 1, message: 'ok' }
    },
    // Only when the scenario says how "Payer" ends; the dashboard's 'Régler' keeps its answer above.
    ...(billing.payOutcome
      ? {
          payUnpaidInvoice: async (body: { orderId?: number; expectedAmountInclTaxCents?: number }) => {
            record.payments.push(body.orderId!)
            // Like the server: the total confirmed, or nothing charged (the order's unpaid invoices, every year).
            const unpaid = data.invoices.filter((i) => i.domId === body.orderId && !i.paid)
            const total = unpaid.reduce((sum, i) => sum + i.amountInclTaxCents, 0)
            if (body.expectedAmountInclTaxCents !== undefined && unpaid.length && body.expectedAmountInclTaxCents !== total) {
              throw withStatus(
                409,
                `Le montant à régler a changé depuis votre confirmation : ${unpaid.length} factures impayées. Rien n’a été prélevé : vérifiez le nouveau montant puis confirmez.`,
                'AMOUNT_CHANGED',
              )
            }
            if (billing.payOutcome === 'noCard')
              throw withStatus(402, 'Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.', 'NO_CARD')
            if (billing.payOutcome === 'declined')
              throw withStatus(
                402,
                'Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.',
                'PAYMENT_FAILED',
              )
            if (billing.payOutcome === 'tooLarge') throw withStatus(422, TOO_LARGE_FOR_ONE_PAYMENT, 'AMOUNT_TOO_LARGE')
            return { paidCount: 1, message: 'Votre facture a été réglée.' }
          },
        }
      : {}),
    getInvoiceYears: async () => billing.years ?? [],
    getShareInvoiceYears: async () => billing.shareYears ?? [],
    getCreditNotesByYear: async (query = {}) =>
      (billing.creditNotes ?? []).filter((c) => !ownedBy(c.domId)?.isShareOrder && (!query.year || yearOf(c.date) === query.year)),
    getShareCreditNotesByYear: async (query = {}) =>
      (billing.creditNotes ?? []).filter((c) => ownedBy(c.domId)?.isShareOrder && (!query.year || yearOf(c.date) === query.year)),
    getInvoiceFile: async (id) => downloaded(`invoice ${id}`),
    getCreditNoteFile: async (id) => downloaded(`creditNote ${id}`),
    getContractFile: async (id) => downloaded(`contract ${id}`),
    getKbisFile: async (id) => {
      const file = downloaded(`kbis ${id}`)
      if (billing.kbisFileFails) throw withStatus(404, billing.kbisFileFails)
      return file
    },
    issueCertificate: async (orderId) => {
      record.downloads.push(`certificate ${orderId}`)
      if (billing.certificateRefused) throw withStatus(409, billing.certificateRefused)
      return {
        code: 'K7QM-2XPA-9D4F',
        orderId,
        issuedAt: '2026-11-23T10:00:00.000Z',
        verificationUrl: 'http://localhost/verification/K7QM-2XPA-9D4F',
        file: '/api-protected/certificates/K7QM-2XPA-9D4F/file',
      }
    },
    getCertificateFile: async (code) => downloaded(`certificate file ${code}`),
    getCertificateVerification: async (code) => {
      record.verifications.push(code)
      const answer = billing.verification ?? { status: 404, message: 'Aucune attestation ne correspond à ce code.' }
      if (typeof answer.status === 'number') throw withStatus(answer.status, (answer as { message: string }).message)
      return answer as CertificateVerification
    },
    createCardSetup: async (body) => {
      record.hostedCard.setups.push(body)
      if (!billing.hosted) return { provider: 'test' }
      return { provider: 'stripe', clientSecret: `seti_${record.hostedCard.setups.length}_secret`, publishableKey: 'pk_test_fake' }
    },
    createTestPaymentMethod: async (card) => {
      record.providerCards.push(card)
      if (billing.cardDeclined) throw withStatus(402, 'Votre carte a été refusée.')
      return {
        id: 'pm_new',
        brand: card.number.startsWith('5') ? 'mastercard' : 'visa',
        last4: card.number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
      } satisfies PaymentMethod
    },
    updatePaymentMethod: async (orderId, body) => {
      record.attached.push({ orderId, pm: body.pm })
      // The hosted field's card is not known here (Stripe keeps it): a test number stands for it.
      const card = record.providerCards.at(-1) ?? { number: '4242424242424242', expMonth: 12, expYear: 2030 }
      return { id: body.pm, brand: 'mastercard', last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear }
    },
    updateCreditCardWeb: async (body) => {
      record.attached.push({ orderId: null, pm: body.pm })
      const card = record.providerCards.at(-1)!
      return { id: body.pm, brand: 'visa', last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear }
    },
    updateContractAddress: async (contractId, address) => {
      record.addresses.push({ contractId, address })
      if (billing.addressFails) return null
      return {
        ...F.contracts.find((c) => c.id === contractId)!,
        ...address,
        adresseComplementPostaleExpedition: address.adresseComplementPostaleExpedition ?? null,
      }
    },
  }
}

// --- mail pipeline: the fake answers of the search, the page images and the letters' deadlines.
function mailPipelineApi(scenario: MailPipelineScenario, calls: Calls): Partial<Api> {
  const unavailable = () => new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  return {
    searchDocuments: async ({ q, orderId }, options) => {
      calls.searches.push({ q, orderId: orderId ?? null })
      if (scenario.pendingSearches?.includes(q)) {
        return new Promise<never>((_, reject) =>
          options?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
        )
      }
      if (scenario.fails?.includes('search') && calls.searches.length === 1) throw unavailable()
      return { results: scenario.searches?.[q] ?? [] }
    },
    getDocumentPage: async (documentId, page) => {
      calls.pageLoads.push({ documentId, page })
      if (scenario.failingPages?.includes(page)) throw new Error('Image de cette page introuvable.')
      return new Blob([`page ${page}`], { type: 'image/png' })
    },
    getLetterDeadlines: async (query = {}) => {
      calls.deadlineLoads.push(query.orderId ?? null)
      if (scenario.fails?.includes('deadlines') && calls.deadlineLoads.length === 1) throw unavailable()
      return { deadlines: (scenario.deadlines ?? []).filter((d) => query.orderId === undefined || d.orderId === query.orderId) }
    },
  }
}
