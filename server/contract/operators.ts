// The operators area: the back office's people (roles, sign-in with a second factor, enrolment), the journal of what
// they and the machines did, and the machines' API keys. Schemas and the area's entries of the route table (routes.ts).
import { Type, type Static } from 'typebox'
import { DateTime, Email, Id, IdParams, IsoDate, Line, LinkToken, MessageReply, NewPassword, Nullable, ShortText } from './common.ts'
import { ok, OPERATOR_ROLES, type OperatorRole, type RouteDef } from './route-def.ts'

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
} as const satisfies Record<string, RouteDef>
