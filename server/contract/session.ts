// The session area: signing in and out, a forgotten password, a passkey sign-in, and what the startup reads (spec §4):
// the current user, the contracts, the orders and their checks.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { BooleanResult, DateTime, Id, IdParams, Line, MessageReply, NewPassword, Nullable } from './common.ts'
import { ok, type RouteDef } from './route-def.ts'

export const User = Type.Object({
  id: Id,
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Nullable(Type.String()),
})
export type User = Static<typeof User>

/** What POST /api/login answers and what the browser keeps in local storage. */
export const AuthUser = Type.Object({
  id: Id,
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Nullable(Type.String()),
  apiToken: Type.String(),
  apiTokenExpiresAt: DateTime,
})
export type AuthUser = Static<typeof AuthUser>

export const LoginBody = Type.Object(
  {
    username: Line({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
)
export type LoginBody = Static<typeof LoginBody>

export const ResetPasswordRequestBody = Type.Object(
  {
    email: Line({ minLength: 1, maxLength: 254 }),
    domain: Line({ minLength: 1, maxLength: 300 }),
  },
  { additionalProperties: false },
)
export type ResetPasswordRequestBody = Static<typeof ResetPasswordRequestBody>

export const ResetPasswordBody = Type.Object(
  {
    token: Line({ minLength: 1, maxLength: 200 }),
    password: NewPassword,
  },
  { additionalProperties: false },
)
export type ResetPasswordBody = Static<typeof ResetPasswordBody>

export const MissingDocument = Type.Object({
  type: Type.String(),
  label: Type.String(),
})
export type MissingDocument = Static<typeof MissingDocument>

/** Why the provider refused a Kbis or an identity document (rules/justificatifs.ts: REFUSAL_REASONS, their French words). */
export const RefusalReasonSchema = Type.Union([
  Type.Literal('illisible'),
  Type.Literal('pas-au-nom'),
  Type.Literal('plus-de-trois-mois'),
  Type.Literal('autre'),
])

export const Order = Type.Object({
  id: Id,
  raisonSociale: Type.String(),
  orderDate: DateTime,
  status: Type.String(),
  hasKbis: Type.Boolean(),
  missingDocuments: Nullable(Type.Array(MissingDocument)),
  missingDocumentsValidatedAt: Nullable(DateTime),
  subscriptionId: Nullable(Type.String()),
  isShareOrder: Type.Boolean(),
  contractId: Nullable(Id),
  siren: Nullable(Type.String()),
  legalForm: Nullable(Type.String()),
  domiciliationAddress: Type.String(),
  qonto: Type.Boolean(),
  shine: Type.Boolean(),
  /** company area: the owner asked to be contacted by an accountant (want-comptable). */
  wantComptable: Type.Boolean(),
  /**
   * company area: the provider refused the Kbis on file (back office, Justificatifs), until another is sent; the Kbis
   * banner shows again with the reason (rules/justificatifs.ts: kbisRefusedText).
   */
  kbisRefusal: Nullable(
    Type.Object({
      at: DateTime,
      reason: RefusalReasonSchema,
      detail: Nullable(Type.String()),
    }),
  ),
})
export type Order = Static<typeof Order>

export const Contract = Type.Object({
  id: Id,
  domiciliationOrderId: Id,
  raisonSociale: Type.String(),
  adressePostaleExpedition: Nullable(Type.String()),
  adresseComplementPostaleExpedition: Nullable(Type.String()),
  codePostaleExpedition: Nullable(Type.String()),
  villePostaleExpedition: Nullable(Type.String()),
  paysPostaleExpedition: Nullable(Type.String()),
  /** Where the stored Kbis can be downloaded, or null while none was filed. */
  kbis: Nullable(Type.String()),
  /** When the provider's team validated the Kbis filed; null while none was, or it awaits their check. */
  kbisValidatedAt: Nullable(DateTime),
  signedAt: Nullable(DateTime),
})
export type Contract = Static<typeof Contract>

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON), passed through as they are. */
export const WebAuthnOptions = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })

export const Base64Url = (maxLength = 20_000) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$' })

/** What every WebAuthn answer of the browser holds (RegistrationResponseJSON, AuthenticationResponseJSON). */
export const credentialFields = {
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: Type.Literal('public-key'),
  clientExtensionResults: Type.Optional(Type.Object({})),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
}

/** The browser's answer to "create a passkey", checked by @simplewebauthn/server. */
export const RegistrationCredential = Type.Object({
  ...credentialFields,
  response: Type.Object({
    clientDataJSON: Base64Url(),
    attestationObject: Base64Url(),
    authenticatorData: Type.Optional(Base64Url()),
    transports: Type.Optional(Type.Array(Line({ maxLength: 30 }), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(Base64Url()),
  }),
})

/** The browser's answer to "sign in with a passkey". */
export const AuthenticationCredential = Type.Object({
  ...credentialFields,
  response: Type.Object({
    clientDataJSON: Base64Url(),
    authenticatorData: Base64Url(),
    signature: Base64Url(),
    userHandle: Type.Optional(Base64Url(200)),
  }),
})

export const PasskeyLoginBody = Type.Object({ credential: AuthenticationCredential }, { additionalProperties: false })
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>

export const sessionRoutes = {
  login: {
    method: 'POST',
    path: '/api/login',
    auth: 'none',
    tags: ['Compte'],
    summary: 'Se connecter : answers the user object with its apiToken.',
    schema: { body: LoginBody, response: ok(AuthUser) },
  },

  resetPasswordRequest: {
    method: 'POST',
    path: '/reset-password-request',
    auth: 'none',
    tags: ['Compte'],
    summary: 'Ask for a password-reset e-mail; always the same answer.',
    schema: { body: ResetPasswordRequestBody, response: ok(MessageReply) },
  },

  resetPassword: {
    method: 'POST',
    path: '/reset-password',
    auth: 'none',
    tags: ['Compte'],
    summary: 'Set a new password with a single-use token.',
    schema: { body: ResetPasswordBody, response: ok(MessageReply) },
  },

  currentUser: {
    method: 'GET',
    path: '/api-protected/user/me',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'The signed-in user.',
    schema: { response: ok(User) },
  },

  contracts: {
    method: 'GET',
    path: '/api-protected/contracts',
    auth: 'bearer',
    tags: ['Contrats'],
    summary: "The contracts of the user's own orders.",
    schema: { response: ok(Type.Array(Contract)) },
  },

  signOut: {
    method: 'DELETE',
    path: '/api-protected/users/me/sessions/current',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "Sign out this device: its session ends here (the SPA's « Se déconnecter »), not only in the browser.",
    schema: { response: ok(MessageReply) },
  },

  passkeyLoginOptions: {
    method: 'POST',
    path: '/api/passkeys/login-options',
    auth: 'none',
    tags: ['Compte'],
    summary: 'Start signing in with a passkey: WebAuthn request options with a single-use challenge (5 minutes).',
    schema: { response: ok(WebAuthnOptions) },
  },

  passkeyLogin: {
    method: 'POST',
    path: '/api/passkeys/login',
    auth: 'none',
    tags: ['Compte'],
    summary: "Sign in with a passkey: the browser's signed answer; answers the user object with its apiToken, as login does.",
    schema: { body: PasskeyLoginBody, response: ok(AuthUser) },
  },

  myOrders: {
    method: 'GET',
    path: '/api-protected/my-domiciliation-orders',
    auth: 'apiToken',
    tags: ['Domiciliations'],
    summary: 'The orders the user owns and those shared with them.',
    schema: { response: ok(Type.Array(Order)) },
  },

  isAttenteCourrierOrFinalise: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/is-attente-courrier-or-finalise',
    auth: 'apiToken',
    access: 'member',
    tags: ['Domiciliations'],
    summary: 'Whether the order is waiting for mail or finalised.',
    schema: { params: IdParams, response: ok(BooleanResult) },
  },

  isCompleteKbis: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/is-complete-kbis',
    auth: 'apiToken',
    access: 'member',
    tags: ['Domiciliations'],
    summary: 'Whether the identity-registration documents are complete.',
    schema: { params: IdParams, response: ok(BooleanResult) },
  },

  isWaitingContract: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/is-waiting-contract',
    auth: 'apiToken',
    access: 'member',
    tags: ['Domiciliations'],
    summary: 'Whether the order is waiting for its contract.',
    schema: { params: IdParams, response: ok(BooleanResult) },
  },
} as const satisfies Record<string, RouteDef>
