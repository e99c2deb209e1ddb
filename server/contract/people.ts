// The people area: the account (e-mail, password, « Ce n’était pas vous ? », signed-in devices, passkeys), invitation
// links, collaborators, representatives and the referral.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { DateTime, Email, Id, IdParams, LinkToken, MessageReply, NewPassword, Nullable, ShortText } from './common.ts'
import { AuthUser, RegistrationCredential, User, WebAuthnOptions } from './session.ts'
import { ok, type RouteDef } from './route-def.ts'

export const UpdateEmailBody = Type.Object({ newEmail: Email }, { additionalProperties: false })
export type UpdateEmailBody = Static<typeof UpdateEmailBody>

export const UpdatePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 200 }),
    newPassword: NewPassword,
  },
  { additionalProperties: false },
)
export type UpdatePasswordBody = Static<typeof UpdatePasswordBody>

export const SendInviteBody = Type.Object({ email: Email }, { additionalProperties: false })
export type SendInviteBody = Static<typeof SendInviteBody>

export const Share = Type.Object({
  id: Id,
  email: Type.String(),
  firstname: Nullable(Type.String()),
  lastname: Nullable(Type.String()),
  status: Type.Union([Type.Literal('invitée'), Type.Literal('active')]),
  createdAt: DateTime,
  /** When the invitation was accepted (access started); null while it waits. */
  acceptedAt: Nullable(DateTime),
  /** While it waits: when its last link was sent and until when that link holds (null once accepted, or never sent). */
  invitationSentAt: Nullable(DateTime),
  invitationExpiresAt: Nullable(DateTime),
})
export type Share = Static<typeof Share>

export const InviteBody = Type.Object({ emails: Type.Array(Email, { minItems: 1, maxItems: 20 }) }, { additionalProperties: false })
export type InviteBody = Static<typeof InviteBody>

export const Mandataire = Type.Object({
  id: Id,
  firstname: Type.String(),
  lastname: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  createdAt: DateTime,
})
export type Mandataire = Static<typeof Mandataire>

export const MandataireBody = Type.Object(
  {
    firstname: ShortText(100),
    lastname: ShortText(100),
    email: Email,
    phone: Type.String({ minLength: 6, maxLength: 30, pattern: '^[0-9+() .-]+$' }),
  },
  { additionalProperties: false },
)
export type MandataireBody = Static<typeof MandataireBody>

export const InvitationParams = Type.Object({ token: LinkToken })

/** « Ce n’était pas vous ? »: the token of the link mailed to the address left by an e-mail change. */
export const EmailChangeRevertParams = Type.Object({ token: LinkToken })

/** What the invitation link's holder (the invitee) may know before accepting. */
export const InvitationInfo = Type.Object({
  email: Type.String(),
  raisonSociale: Type.String(),
  /** Who invited: "Camille Martin". */
  invitedBy: Type.String(),
  /** Whether the invited address has an account already (sign in to accept) or not (create one). */
  hasAccount: Type.Boolean(),
})
export type InvitationInfo = Static<typeof InvitationInfo>

export const InvitationAccountBody = Type.Object(
  {
    firstname: ShortText(100),
    lastname: ShortText(100),
    password: NewPassword,
  },
  { additionalProperties: false },
)
export type InvitationAccountBody = Static<typeof InvitationAccountBody>

export const InvitationAccepted = Type.Object({ orderId: Id, raisonSociale: Type.String(), message: Type.String() })
export type InvitationAccepted = Static<typeof InvitationAccepted>

/** A new account made from an invitation: signed in at once, the order shared. */
export const InvitationAccountReply = Type.Object({ user: AuthUser, orderId: Id, raisonSociale: Type.String() })
export type InvitationAccountReply = Static<typeof InvitationAccountReply>

export const Session = Type.Object({
  id: Id,
  /** The browser and system, in words ("Chrome sur Android"). */
  device: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
  /** The session making this call. */
  current: Type.Boolean(),
})
export type Session = Static<typeof Session>

export const SignedOutReply = Type.Object({ signedOut: Type.Integer({ minimum: 0 }), message: Type.String() })
export type SignedOutReply = Static<typeof SignedOutReply>

export const Passkey = Type.Object({
  id: Id,
  name: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
})
export type Passkey = Static<typeof Passkey>

export const PasskeyRegistrationBody = Type.Object(
  {
    credential: RegistrationCredential,
    /** Named after the device; the server names it when left out. */
    name: Type.Optional(ShortText(60)),
  },
  { additionalProperties: false },
)
export type PasskeyRegistrationBody = Static<typeof PasskeyRegistrationBody>

export const PasskeyRenameBody = Type.Object({ name: ShortText(60) }, { additionalProperties: false })
export type PasskeyRenameBody = Static<typeof PasskeyRenameBody>

export const ShareParams = Type.Object({ id: Id, shareId: Id })

export const MandataireParams = Type.Object({ id: Id, mandataireId: Id })

/** Closing the account: the password, typed again. */
export const CloseAccountBody = Type.Object({ password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false })
export type CloseAccountBody = Static<typeof CloseAccountBody>

export const peopleRoutes = {
  updateEmail: {
    method: 'PUT',
    path: '/api-protected/users/me/email',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Change the e-mail address.',
    schema: { body: UpdateEmailBody, response: ok(User) },
  },

  updatePassword: {
    method: 'PUT',
    path: '/api-protected/users/me/password',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Change the password (current and new).',
    schema: { body: UpdatePasswordBody, response: ok(MessageReply) },
  },

  // « Ce n’était pas vous ? » (beyond the spec): the link mailed to the address left at each change gives the account back
  revertEmailChange: {
    method: 'POST',
    path: '/api/email-change-reverts/{token}',
    auth: 'none',
    tags: ['Compte'],
    summary:
      'Undo an e-mail change with the link mailed to the former address: that address comes back, every session, passkey and reset link ends, and a reset link is mailed to it (404 unknown, 410 used or expired, 409 the address taken meanwhile).',
    schema: { params: EmailChangeRevertParams, response: ok(MessageReply) },
  },

  invitation: {
    method: 'GET',
    path: '/api/invitations/{token}',
    auth: 'none',
    tags: ['Collaborateurs'],
    summary:
      "What an invitation link's holder sees before accepting: the order, who invited, whether the address has an account (410 once expired or used).",
    schema: { params: InvitationParams, response: ok(InvitationInfo) },
  },

  createInvitationAccount: {
    method: 'POST',
    path: '/api/invitations/{token}/account',
    auth: 'none',
    tags: ['Collaborateurs'],
    summary: 'Accept an invitation by creating the account of the invited address: signed in at once, the order shared.',
    schema: { params: InvitationParams, body: InvitationAccountBody, response: ok(InvitationAccountReply) },
  },

  acceptInvitation: {
    method: 'POST',
    path: '/api-protected/invitations/{token}/accept',
    auth: 'apiToken',
    tags: ['Collaborateurs'],
    summary: 'Accept an invitation with the signed-in account of the invited address: access to the order starts now.',
    schema: { params: InvitationParams, response: ok(InvitationAccepted) },
  },

  sessions: {
    method: 'GET',
    path: '/api-protected/users/me/sessions',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "The user's signed-in devices (browser, last use), this one flagged current.",
    schema: { response: ok(Type.Array(Session)) },
  },

  signOutOtherSessions: {
    method: 'DELETE',
    path: '/api-protected/users/me/sessions',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Sign out every other device; this session stays.',
    schema: { response: ok(SignedOutReply) },
  },

  passkeys: {
    method: 'GET',
    path: '/api-protected/users/me/passkeys',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "The user's passkeys (name, added, last used).",
    schema: { response: ok(Type.Array(Passkey)) },
  },

  passkeyRegistrationOptions: {
    method: 'POST',
    path: '/api-protected/users/me/passkeys/registration-options',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Start adding a passkey: WebAuthn creation options with a single-use challenge (5 minutes).',
    schema: { response: ok(WebAuthnOptions) },
    perUserHourly: 20,
  },

  registerPasskey: {
    method: 'POST',
    path: '/api-protected/users/me/passkeys',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: "Finish adding a passkey: the browser's answer, checked against the stored challenge.",
    schema: { body: PasskeyRegistrationBody, response: ok(Passkey) },
    perUserHourly: 20,
  },

  renamePasskey: {
    method: 'PUT',
    path: '/api-protected/users/me/passkeys/{id}',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Rename a passkey.',
    schema: { params: IdParams, body: PasskeyRenameBody, response: ok(Passkey) },
  },

  deletePasskey: {
    method: 'DELETE',
    path: '/api-protected/users/me/passkeys/{id}',
    auth: 'apiToken',
    tags: ['Compte'],
    summary: 'Remove a passkey (the password stays).',
    schema: { params: IdParams, response: ok(MessageReply) },
  },

  sendInvite: {
    method: 'POST',
    path: '/api-protected/send-invite',
    auth: 'apiToken',
    tags: ['Domiciliations'],
    summary: 'Recommend the service to someone (referral e-mail).',
    schema: { body: SendInviteBody, response: ok(MessageReply) },
  },

  shares: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/shares',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Collaborateurs'],
    summary: 'The collaborators the order is shared with.',
    schema: { params: IdParams, response: ok(Type.Array(Share)) },
  },

  deleteShare: {
    method: 'DELETE',
    path: '/api-protected/domiciliation-orders/{id}/share-delete/{shareId}',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Collaborateurs'],
    summary: 'Stop sharing the order with a collaborator.',
    schema: { params: ShareParams, response: ok(MessageReply) },
  },

  invite: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}/invite',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Collaborateurs'],
    summary: 'Share the order with collaborators, by e-mail.',
    schema: { params: IdParams, body: InviteBody, response: ok(Type.Array(Share)) },
  },

  mandataires: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Représentants'],
    summary: 'The authorised recipients (mandataires) of the order.',
    schema: { params: IdParams, response: ok(Type.Array(Mandataire)) },
  },

  deleteMandataire: {
    method: 'DELETE',
    path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires-delete/{mandataireId}',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Représentants'],
    summary: 'Remove an authorised recipient.',
    schema: { params: MandataireParams, response: ok(MessageReply) },
  },

  addMandataire: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Représentants'],
    summary: 'Add an authorised recipient; refused (409) when the order has one of the same first and last name (case ignored).',
    schema: { params: IdParams, body: MandataireBody, response: ok(Mandataire) },
    perUserHourly: 30,
  },

  // A person's rights (RGPD art. 17, beyond the spec): closing the account, leaving a shared order
  closeAccount: {
    method: 'POST',
    path: '/api-protected/users/me/close',
    auth: 'apiToken',
    tags: ['Compte'],
    summary:
      'Close the account, the password typed again: sessions, passkeys and personal data go, invoices and identity documents stay for their legal periods (400 wrong password, 409 a domiciliation owned still active, 503 the confirmation e-mail could not leave).',
    schema: { body: CloseAccountBody, response: ok(MessageReply) },
  },

  leaveSharedOrder: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}/leave',
    auth: 'apiToken',
    access: 'member',
    tags: ['Collaborateurs'],
    summary: 'A collaborator leaves an order shared with them: its mail is no longer theirs to see (409 for its owner).',
    schema: { params: IdParams, response: ok(MessageReply) },
  },
} as const satisfies Record<string, RouteDef>
