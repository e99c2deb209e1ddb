// The operators area: the back office's people (roles, sign-in with a second factor, enrolment), the journal of what
// they and the machines did, and the machines' API keys. Schemas and the area's entries of the route table (routes.ts).
import { Type, type Static } from 'typebox'
import { DateTime, Email, Id, IdParams, IsoDate, Line, LinkToken, MessageReply, NewPassword, Nullable, ShortText } from './common.ts'
import { ok, OPERATOR_ROLES, type OperatorRole, type RouteDef } from './route-def.ts'
import { Passkey } from './people.ts'
import { AuthenticationCredential, RegistrationCredential, WebAuthnOptions } from './session.ts'
import { LEGAL_FORMS } from './rules/company.ts'

export const OperatorRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('courrier'), Type.Literal('conformite')])
// Spelt out, the union's type is exactly OperatorRole; checked against OPERATOR_ROLES below.
export const OperatorRoles = Type.Array(OperatorRoleSchema, { minItems: 1, maxItems: OPERATOR_ROLES.length, uniqueItems: true })

const sameRoles: readonly OperatorRole[] = OPERATOR_ROLES satisfies readonly Static<typeof OperatorRoleSchema>[]
void sameRoles

export const OperatorMe = Type.Object({ id: Id, email: Type.String(), name: Type.String(), roles: OperatorRoles })
export type OperatorMe = Static<typeof OperatorMe>

export const OperatorSummary = Type.Object({
  id: Id,
  email: Type.String(),
  name: Type.String(),
  roles: OperatorRoles,
  active: Type.Boolean(),
  /** Password chosen and authenticator app enrolled. */
  enrolled: Type.Boolean(),
  createdAt: DateTime,
  deactivatedAt: Nullable(DateTime),
})
export type OperatorSummary = Static<typeof OperatorSummary>

const TotpCode = Type.String({ pattern: '^[0-9]{6}$' })

export const OperatorPasswordBody = Type.Object(
  { email: Line({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export const OperatorTicket = Type.Object({ ticket: Type.String(), expiresAt: DateTime })

export const OperatorCodeBody = Type.Object({ ticket: LinkToken, code: TotpCode }, { additionalProperties: false })
/** The second factor by a passkey instead of the code: the ticket, then the browser's signed answer. */
export const OperatorPasskeyOptionsBody = Type.Object({ ticket: LinkToken }, { additionalProperties: false })
export const OperatorPasskeyBody = Type.Object({ ticket: LinkToken, credential: AuthenticationCredential }, { additionalProperties: false })
/** An operator's key, registered from « Mes clés d’accès » (the customers' shape: name, added, last used). */
export const OperatorPasskey = Passkey
export type OperatorPasskey = Static<typeof OperatorPasskey>
export const OperatorPasskeyRegistrationBody = Type.Object(
  {
    credential: RegistrationCredential,
    /** Named after the device; the server names it when left out. */
    name: Type.Optional(ShortText(60)),
  },
  { additionalProperties: false },
)
export const OperatorSignedIn = Type.Object({ token: Type.String(), idleMinutes: Type.Integer(), operator: OperatorMe })

export const OperatorEnrolment = Type.Object({
  email: Type.String(),
  name: Type.String(),
  /** The TOTP secret in base32, to type into the app, and the otpauth:// URI a QR code carries. */
  totpSecret: Type.String(),
  otpauthUri: Type.String(),
  expiresAt: DateTime,
})
export const OperatorEnrolBody = Type.Object({ password: NewPassword, code: TotpCode }, { additionalProperties: false })
const TokenParams = Type.Object({ token: LinkToken })

export const InviteOperatorBody = Type.Object({ email: Email, name: ShortText(120), roles: OperatorRoles }, { additionalProperties: false })
export const InvitedOperator = Type.Object({ operator: OperatorSummary, enrolmentUrl: Type.String(), enrolmentExpiresAt: DateTime })
export const OperatorRolesBody = Type.Object({ roles: OperatorRoles }, { additionalProperties: false })

// --- The journal

export const JournalQuery = Type.Object(
  {
    operatorId: Type.Optional(Id),
    apiKeyId: Type.Optional(Id),
    orderId: Type.Optional(Id),
    action: Type.Optional(Line({ minLength: 1, maxLength: 60 })),
    /** Days in Paris time, both included. */
    from: Type.Optional(IsoDate),
    to: Type.Optional(IsoDate),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  },
  { additionalProperties: false },
)
export type JournalQuery = Static<typeof JournalQuery>
export const JournalExportQuery = Type.Omit(JournalQuery, ['page'], { additionalProperties: false })

export const JournalEntry = Type.Object({
  id: Id,
  at: DateTime,
  /** The operator who made the change; null for a machine's call. */
  operator: Nullable(Type.Object({ id: Id, name: Type.String(), email: Type.String() })),
  /** The API key of a machine's call; null for an operator's change, and for the bootstrap OPERATOR_TOKEN (both null). */
  apiKey: Nullable(Type.Object({ id: Id, name: Type.String(), prefix: Type.String() })),
  /** Written by no one of the provider: who, in words (the automatic mail retention, a customer closing their account). */
  automatic: Type.Optional(Type.String()),
  action: Type.String(),
  orderId: Nullable(Id),
  summary: Type.String(),
  /** Small JSON pictures of what changed (null when there is nothing to show). */
  before: Type.Unknown(),
  after: Type.Unknown(),
})
export type JournalEntry = Static<typeof JournalEntry>
export const JournalPage = Type.Object({
  entries: Type.Array(JournalEntry),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer(),
})
// --- API keys

export const ApiKeySummary = Type.Object({
  id: Id,
  name: Type.String(),
  /** The key's first characters, to recognise it; never the key. */
  prefix: Type.String(),
  createdAt: DateTime,
  createdBy: Type.String(),
  revokedAt: Nullable(DateTime),
  lastUsedAt: Nullable(DateTime),
})
export type ApiKeySummary = Static<typeof ApiKeySummary>
export const NewApiKeyBody = Type.Object({ name: ShortText(80) }, { additionalProperties: false })
export const NewApiKey = Type.Object({ apiKey: ApiKeySummary, key: Type.String() })

export const CsvFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })
/** The embedded database's dump (npm run backup, docs/BACKUPS.md). */
export const BackupFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })

// --- Clients: the search, an order's page and its timeline, a new client

export const ClientSearchQuery = Type.Object(
  {
    /**
     * A company name, a SIREN (with or without spaces), an e-mail address (owner or collaborator), a person's name (owner,
     * collaborator, representative) or an order number; case and accents ignored. Absent: every order, newest first.
     */
    q: Type.Optional(Line({ minLength: 1, maxLength: 100 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
)
export type ClientSearchQuery = Static<typeof ClientSearchQuery>

/** What of an order the search found. */
export const ClientMatchField = Type.Union([
  Type.Literal('orderNumber'),
  Type.Literal('siren'),
  Type.Literal('raisonSociale'),
  Type.Literal('ownerName'),
  Type.Literal('ownerEmail'),
  Type.Literal('collaboratorName'),
  Type.Literal('collaboratorEmail'),
  Type.Literal('representativeName'),
  Type.Literal('representativeEmail'),
])
export type ClientMatchField = Static<typeof ClientMatchField>

export const ClientSearchResult = Type.Object({
  orderId: Id,
  raisonSociale: Type.String(),
  /** Written as people read it: "823 456 785". */
  siren: Nullable(Type.String()),
  legalForm: Nullable(Type.String()),
  status: Type.String(),
  orderDate: DateTime,
  owner: Type.Object({ userId: Id, name: Type.String(), email: Type.String() }),
  /** Why the order is in the list (empty without a search): the field and the text found there. */
  matches: Type.Array(Type.Object({ field: ClientMatchField, value: Type.String() })),
})
export type ClientSearchResult = Static<typeof ClientSearchResult>
export const ClientSearchPage = Type.Object({
  results: Type.Array(ClientSearchResult),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer(),
})
export type ClientSearchPage = Static<typeof ClientSearchPage>

const SubscriptionItemSummary = Type.Object({
  planId: Type.String(),
  label: Type.String(),
  /** Excluding tax, per interval. */
  amountCents: Type.Integer(),
  interval: Type.Union([Type.Literal('month'), Type.Literal('year')]),
})

export const ClientOrder = Type.Object({
  id: Id,
  raisonSociale: Type.String(),
  siren: Nullable(Type.String()),
  legalForm: Nullable(Type.String()),
  /** The portal's status: 'En attente de KBIS', 'Finalisé'… */
  status: Type.String(),
  orderDate: DateTime,
  /** The day the domiciliation starts, for an order made in the back office (null for the others). */
  startsOn: Nullable(IsoDate),
  domiciliationAddress: Type.String(),
  owner: Type.Object({
    userId: Id,
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    /** The owner followed a link mailed to the address (a first password chosen, a reset). */
    emailVerified: Type.Boolean(),
    createdAt: DateTime,
  }),
  collaborators: Type.Array(
    Type.Object({
      shareId: Id,
      email: Type.String(),
      /** The collaborator's name once they have an account; null while invited. */
      name: Nullable(Type.String()),
      /** active: shared with an account; invited: an invitation not accepted yet. */
      state: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
      createdAt: DateTime,
    }),
  ),
  representatives: Type.Array(
    Type.Object({
      id: Id,
      firstname: Type.String(),
      lastname: Type.String(),
      email: Type.String(),
      phone: Type.String(),
      createdAt: DateTime,
    }),
  ),
  subscription: Nullable(
    Type.Object({
      id: Type.String(),
      /** The provider's word: active, trialing, past_due, canceled… */
      status: Type.String(),
      currentPeriodEnd: DateTime,
      cancelAtPeriodEnd: Type.Boolean(),
      items: Type.Array(SubscriptionItemSummary),
    }),
  ),
  /** The payment provider did not answer: the subscription could not be read this time (null above). */
  subscriptionUnavailable: Type.Boolean(),
  termination: Nullable(Type.Object({ requestedAt: DateTime, date: IsoDate, reason: Type.String(), comment: Nullable(Type.String()) })),
  invoices: Type.Array(
    Type.Object({
      id: Id,
      number: Type.String(),
      date: DateTime,
      amountExclTaxCents: Type.Integer(),
      amountInclTaxCents: Type.Integer(),
      paidAt: Nullable(DateTime),
    }),
  ),
  creditNotes: Type.Array(Type.Object({ id: Id, number: Type.String(), date: DateTime, amountInclTaxCents: Type.Integer() })),
  documents: Type.Object({
    kbis: Type.Object({
      contractId: Nullable(Id),
      /** A Kbis is on file (hasKbis in the portal). */
      filed: Type.Boolean(),
      filedAt: Nullable(DateTime),
      validatedAt: Nullable(DateTime),
    }),
    identity: Type.Object({
      /** The documents asked of the customer (the portal's /missing-document); empty when none was asked. */
      required: Type.Array(Type.Object({ type: Type.String(), label: Type.String() })),
      validatedAt: Nullable(DateTime),
      uploaded: Type.Array(
        Type.Object({ id: Id, type: Type.String(), label: Type.String(), fileName: Type.String(), uploadedAt: DateTime }),
      ),
    }),
  }),
  /** The contract's forwarding address, one line; null when none is given. */
  forwardingAddress: Nullable(Type.String()),
  counts: Type.Object({
    letters: Type.Integer(),
    packagesWaiting: Type.Integer(),
    pendingCourierRequests: Type.Integer(),
  }),
})
export type ClientOrder = Static<typeof ClientOrder>

export const TimelineKind = Type.Union([
  Type.Literal('order'),
  Type.Literal('contract'),
  Type.Literal('document'),
  Type.Literal('letter'),
  Type.Literal('package'),
  Type.Literal('courierRequest'),
  Type.Literal('invoice'),
  Type.Literal('payment'),
  Type.Literal('creditNote'),
  Type.Literal('subscription'),
  Type.Literal('certificate'),
  Type.Literal('problem'),
  Type.Literal('termination'),
  Type.Literal('formality'),
  Type.Literal('people'),
  Type.Literal('journal'),
])
export type TimelineKind = Static<typeof TimelineKind>

export const TimelineEntry = Type.Object({
  at: DateTime,
  kind: TimelineKind,
  /** One short French line: « Courrier reçu de URSSAF Île-de-France ». */
  label: Type.String(),
  /** A second line when there is more to say (the problem's text, an address, an amount…). */
  detail: Nullable(Type.String()),
  /** Who did it, when it is known: a customer, an operator, a machine's API key. */
  by: Nullable(Type.String()),
})
export type TimelineEntry = Static<typeof TimelineEntry>
export const TimelineQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) },
  { additionalProperties: false },
)
export const OrderTimelinePage = Type.Object({
  entries: Type.Array(TimelineEntry),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer(),
})
export type OrderTimelinePage = Static<typeof OrderTimelinePage>

// Spelt out, so that its type is the union of the forms (a mapped list types as never); checked against LEGAL_FORMS.
export const LegalForm = Type.Union([
  Type.Literal('SAS'),
  Type.Literal('SASU'),
  Type.Literal('SARL'),
  Type.Literal('EURL'),
  Type.Literal('SA'),
  Type.Literal('SCI'),
  Type.Literal('SNC'),
  Type.Literal('SCOP'),
  Type.Literal('SELARL'),
  Type.Literal('EI'),
  Type.Literal('Association'),
])
const sameForms: readonly Static<typeof LegalForm>[] = LEGAL_FORMS
void sameForms
export const DomiciliationPlanId = Type.Union([Type.Literal('domiciliation-mensuelle'), Type.Literal('domiciliation-annuelle')])
export const DomiciliationOption = Type.Union([Type.Literal('reexpedition'), Type.Literal('scan'), Type.Literal('standard')])

export const NewClientBody = Type.Object(
  {
    raisonSociale: ShortText(200),
    /** Nine digits, spaces between groups allowed; its Luhn key is checked (SIREN_INVALID). */
    siren: Line({ minLength: 1, maxLength: 20 }),
    legalForm: LegalForm,
    owner: Type.Object({ firstname: ShortText(100), lastname: ShortText(100), email: Email }, { additionalProperties: false }),
    plan: DomiciliationPlanId,
    /** Options billed at the plan's interval (mensuelle or annuelle). */
    options: Type.Optional(Type.Array(DomiciliationOption, { maxItems: 3, uniqueItems: true })),
    /** Today (Paris) or a day of the coming year. */
    startDate: IsoDate,
    /** The provider's address the company is domiciled at; absent, the one most orders have. */
    domiciliationAddress: Type.Optional(ShortText(200)),
  },
  { additionalProperties: false },
)
export type NewClientBody = Static<typeof NewClientBody>
export const NewClient = Type.Object({
  orderId: Id,
  /** 'En attente de KBIS'. */
  status: Type.String(),
  owner: Type.Object({
    userId: Id,
    email: Type.String(),
    name: Type.String(),
    /** false: the address was already a customer's, whose account holds the new order (no new password asked). */
    newAccount: Type.Boolean(),
  }),
  subscriptionId: Type.String(),
  /** The e-mail to the owner left (an invitation to choose a password, or the notice of a new domiciliation). */
  ownerNotified: Type.Boolean(),
  message: Type.String(),
})
export type NewClient = Static<typeof NewClient>

// --- The dashboard

export const QueueId = Type.Union([
  Type.Literal('justificatifs'),
  Type.Literal('messages'),
  Type.Literal('reexpeditions'),
  Type.Literal('resiliations'),
  Type.Literal('numerisation'),
])
export type QueueId = Static<typeof QueueId>
export const DashboardQueue = Type.Object({
  id: QueueId,
  /** « Justificatifs ». */
  label: Type.String(),
  /** The back office's page of the queue: /operateur/justificatifs. */
  path: Type.String(),
  count: Type.Integer(),
  /** When the oldest item came in, and its age in minutes; null when the queue is empty. */
  oldestAt: Nullable(DateTime),
  oldestAgeMinutes: Nullable(Type.Integer()),
  /** The target in French (« 48 h », « 24 h ouvrées », « le jour prévu »), null when the queue has none. */
  target: Nullable(Type.String()),
  /** When the oldest item passes its target (null: empty queue or no target). */
  dueAt: Nullable(DateTime),
  /** The oldest item is past its target: shown in red. */
  late: Type.Boolean(),
})
export type DashboardQueue = Static<typeof DashboardQueue>
export const OperatorDashboard = Type.Object({ at: DateTime, queues: Type.Array(DashboardQueue) })
export type OperatorDashboard = Static<typeof OperatorDashboard>

export const operatorsRoutes = {
  operatorPassword: {
    method: 'POST',
    path: '/api/operator-auth/password',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary: 'Sign-in, first step: e-mail and password. Answers a short-lived ticket for the code, never a session.',
    schema: { body: OperatorPasswordBody, response: ok(OperatorTicket) },
  },
  operatorCode: {
    method: 'POST',
    path: '/api/operator-auth/code',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary: 'Sign-in, second step: the ticket and the 6-digit code of the authenticator app (TOTP). Answers the session token.',
    schema: { body: OperatorCodeBody, response: ok(OperatorSignedIn) },
  },
  operatorPasskeyOptions: {
    method: 'POST',
    path: '/api/operator-auth/passkey/options',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary:
      "Sign-in, second step with a passkey instead of the code: WebAuthn request options for the ticket's operator's keys (single-use challenge, 5 minutes).",
    schema: { body: OperatorPasskeyOptionsBody, response: ok(WebAuthnOptions) },
  },
  operatorPasskey: {
    method: 'POST',
    path: '/api/operator-auth/passkey',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary:
      "Sign-in, second step with a passkey: the ticket and the browser's signed answer, by one of the operator's keys. Answers the session token.",
    schema: { body: OperatorPasskeyBody, response: ok(OperatorSignedIn) },
  },
  operatorEnrolment: {
    method: 'GET',
    path: '/api/operator-auth/enrolment/{token}',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary: 'What an enrolment link is for: the operator, and the TOTP secret to enrol in an authenticator app.',
    schema: { params: TokenParams, response: ok(OperatorEnrolment) },
  },
  operatorEnrol: {
    method: 'POST',
    path: '/api/operator-auth/enrolment/{token}',
    auth: 'none',
    tags: ['Back-office : connexion'],
    summary: 'Follows an enrolment link once: the password chosen and a first code of the app; then the operator signs in.',
    schema: { params: TokenParams, body: OperatorEnrolBody, response: ok(MessageReply) },
  },
  operatorMe: {
    method: 'GET',
    path: '/api/backoffice/me',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: 'The signed-in operator and their roles.',
    schema: { response: ok(OperatorMe) },
  },
  operatorSignOut: {
    method: 'POST',
    path: '/api/backoffice/sign-out',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: 'Ends the session at once.',
    schema: { response: ok(MessageReply) },
  },
  operatorMyPasskeys: {
    method: 'GET',
    path: '/api/backoffice/me/passkeys',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: "The signed-in operator's passkeys (name, added, last used): their second factor beside the authenticator app.",
    schema: { response: ok(Type.Array(OperatorPasskey)) },
  },
  operatorPasskeyRegistrationOptions: {
    method: 'POST',
    path: '/api/backoffice/me/passkeys/registration-options',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: 'Start adding a passkey to the signed-in operator: WebAuthn creation options with a single-use challenge (5 minutes).',
    schema: { response: ok(WebAuthnOptions) },
  },
  operatorRegisterPasskey: {
    method: 'POST',
    path: '/api/backoffice/me/passkeys',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: "Finish adding a passkey: the browser's answer, checked against the stored challenge; journaled.",
    schema: { body: OperatorPasskeyRegistrationBody, response: ok(OperatorPasskey) },
  },
  operatorDeletePasskey: {
    method: 'DELETE',
    path: '/api/backoffice/me/passkeys/{id}',
    auth: 'operatorSession',
    tags: ['Back-office : connexion'],
    summary: "Remove one of the signed-in operator's passkeys (the authenticator app's code stays); journaled.",
    schema: { params: IdParams, response: ok(MessageReply) },
  },
  operatorList: {
    method: 'GET',
    path: '/api/backoffice/operators',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'Every operator, active or not.',
    schema: { response: ok(Type.Array(OperatorSummary)) },
  },
  operatorInvite: {
    method: 'POST',
    path: '/api/backoffice/operators',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'A new operator with their roles; answers the single-use enrolment link once (7 days).',
    schema: { body: InviteOperatorBody, response: ok(InvitedOperator) },
  },
  operatorSetRoles: {
    method: 'PUT',
    path: '/api/backoffice/operators/{id}/roles',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: "Replaces an operator's roles.",
    schema: { params: IdParams, body: OperatorRolesBody, response: ok(OperatorSummary) },
  },
  operatorDeactivate: {
    method: 'POST',
    path: '/api/backoffice/operators/{id}:deactivate',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'Deactivates an operator: their sessions end at once, they can no longer sign in.',
    schema: { params: IdParams, response: ok(OperatorSummary) },
  },
  operatorJournal: {
    method: 'GET',
    path: '/api/backoffice/journal',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'The journal, newest first, 50 rows a page, filtered by operator, order, action and days (Paris time).',
    schema: { querystring: JournalQuery, response: ok(JournalPage) },
  },
  operatorJournalCsv: {
    method: 'GET',
    path: '/api/backoffice/journal.csv',
    auth: 'operatorSession',
    roles: ['admin'],
    kind: 'file',
    fileType: 'text/csv',
    tags: ['Back-office : administration'],
    summary: 'The journal with the same filters as a CSV file for Excel (UTF-8 with BOM, semicolons, French headers), oldest first.',
    schema: { querystring: JournalExportQuery, response: ok(CsvFile) },
  },
  operatorApiKeys: {
    method: 'GET',
    path: '/api/backoffice/api-keys',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'Every API key, revoked or not, without the keys themselves.',
    schema: { response: ok(Type.Array(ApiKeySummary)) },
  },
  operatorCreateApiKey: {
    method: 'POST',
    path: '/api/backoffice/api-keys',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'A new named API key for a machine: the key is answered this once, then kept as its hash only.',
    schema: { body: NewApiKeyBody, response: ok(NewApiKey) },
  },
  operatorRevokeApiKey: {
    method: 'POST',
    path: '/api/backoffice/api-keys/{id}:revoke',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : administration'],
    summary: 'Revokes an API key: refused from the next call on.',
    schema: { params: IdParams, response: ok(ApiKeySummary) },
  },
  operatorBackupDatabase: {
    method: 'POST',
    path: '/api/operator/backups/database',
    auth: 'operator',
    kind: 'file',
    fileType: 'application/gzip',
    tags: ['Opérateurs'],
    summary:
      'The embedded database, dumped by the server that holds it (PGlite dumpDataDir, a gzipped tar) for `npm run backup` while it runs; only to a call from the server’s own machine (403 otherwise); 409 on PostgreSQL (pg_dump reads it directly). Journaled.',
    schema: { response: ok(BackupFile) },
  },
  operatorClientSearch: {
    method: 'GET',
    path: '/api/backoffice/clients',
    auth: 'operatorSession',
    tags: ['Back-office : clients'],
    summary:
      'Orders found by company name, SIREN, e-mail, person (owner, collaborator, representative) or order number; 20 a page, best first.',
    schema: { querystring: ClientSearchQuery, response: ok(ClientSearchPage) },
  },
  operatorCreateClient: {
    method: 'POST',
    path: '/api/backoffice/clients',
    auth: 'operatorSession',
    roles: ['admin'],
    tags: ['Back-office : clients'],
    summary:
      "« Nouveau client »: the company, its owner (invited to choose a password) and its subscription; the order starts 'En attente de KBIS'.",
    schema: { body: NewClientBody, response: ok(NewClient) },
  },
  operatorClientOrder: {
    method: 'GET',
    path: '/api/backoffice/orders/{id}',
    auth: 'operatorSession',
    tags: ['Back-office : clients'],
    summary: "An order's page: company, owner, collaborators, representatives, status, subscription, invoices and documents.",
    schema: { params: IdParams, response: ok(ClientOrder) },
  },
  operatorOrderTimeline: {
    method: 'GET',
    path: '/api/backoffice/orders/{id}/timeline',
    auth: 'operatorSession',
    tags: ['Back-office : clients'],
    summary:
      'Everything that happened to an order (letters, packages, payments, checks, formalities, operators’ actions), newest first, 50 a page.',
    schema: { params: IdParams, querystring: TimelineQuery, response: ok(OrderTimelinePage) },
  },
  operatorDashboard: {
    method: 'GET',
    path: '/api/backoffice/dashboard',
    auth: 'operatorSession',
    tags: ['Back-office : tableau de bord'],
    summary: "Each queue of the operator's roles: how many items wait, the oldest one's age, and whether it is past its target.",
    schema: { response: ok(OperatorDashboard) },
  },
} as const satisfies Record<string, RouteDef>
