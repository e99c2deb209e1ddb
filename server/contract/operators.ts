// The operators area: the back office's people (roles, sign-in with a second factor, enrolment), the journal of what
// they and the machines did, and the machines' API keys. Schemas and the area's entries of the route table (routes.ts).
import { Type, type Static } from 'typebox'
import { DateTime, Email, Id, IdParams, Line, LinkToken, MessageReply, NewPassword, Nullable, ShortText } from './common.ts'
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
} as const satisfies Record<string, RouteDef>
