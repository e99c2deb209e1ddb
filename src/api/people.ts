// The people area's calls: the account (e-mail, password, « Ce n’était pas vous ? », signed-in devices, passkeys),
// invitation links, collaborators, representatives and the referral (spec §7 and beyond). WebAuthn options and answers
// pass through as the browser and @simplewebauthn need them.
import { type Body, call, type CallOptions, encode, type Reply, swallow } from './client.ts'

const order = (id: number) => `/api-protected/domiciliation-orders/${encode(id)}`

const invitation = (token: string) => `/invitations/${encode(token)}`

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const updateEmail = (body: Body<'updateEmail'>, options?: CallOptions) =>
  swallow(call<Reply<'updateEmail'>>({ auth: 'apiToken', method: 'PUT', path: '/api-protected/users/me/email', body }, options), undefined)

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const updatePassword = (body: Body<'updatePassword'>, options?: CallOptions) =>
  swallow(
    call<Reply<'updatePassword'>>({ auth: 'apiToken', method: 'PUT', path: '/api-protected/users/me/password', body }, options),
    undefined,
  )

/** « Ce n’était pas vous ? » (beyond the spec): the link mailed to the address left by an e-mail change puts it back. */
export const revertEmailChange = (token: string, options?: CallOptions) =>
  call<Reply<'revertEmailChange'>>({ auth: 'none', method: 'POST', path: `/api/email-change-reverts/${encode(token)}` }, options)

export const sendInvite = (body: Body<'sendInvite'>, options?: CallOptions) =>
  call<Reply<'sendInvite'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/send-invite', body }, options)

export const getShares = (id: number, options?: CallOptions) =>
  call<Reply<'shares'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/shares` }, options)

export const deleteShare = (id: number, shareId: number, options?: CallOptions) =>
  call<Reply<'deleteShare'>>({ auth: 'apiToken', method: 'DELETE', path: `${order(id)}/share-delete/${encode(shareId)}` }, options)

export const inviteCollaborators = (id: number, body: Body<'invite'>, options?: CallOptions) =>
  call<Reply<'invite'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}/invite`, body }, options)

export const getMandataires = (id: number, options?: CallOptions) =>
  call<Reply<'mandataires'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/destinataire-mandataires` }, options)

export const deleteMandataire = (id: number, mandataireId: number, options?: CallOptions) =>
  call<Reply<'deleteMandataire'>>(
    { auth: 'apiToken', method: 'DELETE', path: `${order(id)}/destinataire-mandataires-delete/${encode(mandataireId)}` },
    options,
  )

export const addMandataire = (id: number, body: Body<'addMandataire'>, options?: CallOptions) =>
  call<Reply<'addMandataire'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}/destinataire-mandataires`, body }, options)

export const getInvitation = (token: string, options?: CallOptions) =>
  call<Reply<'invitation'>>({ auth: 'none', method: 'GET', path: `/api${invitation(token)}` }, options)

export const createInvitationAccount = (token: string, body: Body<'createInvitationAccount'>, options?: CallOptions) =>
  call<Reply<'createInvitationAccount'>>({ auth: 'none', method: 'POST', path: `/api${invitation(token)}/account`, body }, options)

export const acceptInvitation = (token: string, options?: CallOptions) =>
  call<Reply<'acceptInvitation'>>({ auth: 'apiToken', method: 'POST', path: `/api-protected${invitation(token)}/accept` }, options)

export const getSessions = (options?: CallOptions) =>
  call<Reply<'sessions'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/users/me/sessions' }, options)

export const signOutOtherSessions = (options?: CallOptions) =>
  call<Reply<'signOutOtherSessions'>>({ auth: 'apiToken', method: 'DELETE', path: '/api-protected/users/me/sessions' }, options)

export const getPasskeys = (options?: CallOptions) =>
  call<Reply<'passkeys'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/users/me/passkeys' }, options)

export const getPasskeyRegistrationOptions = (options?: CallOptions) =>
  call<Reply<'passkeyRegistrationOptions'>>(
    { auth: 'apiToken', method: 'POST', path: '/api-protected/users/me/passkeys/registration-options' },
    options,
  )

export const registerPasskey = (body: Body<'registerPasskey'>, options?: CallOptions) =>
  call<Reply<'registerPasskey'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/users/me/passkeys', body }, options)

export const renamePasskey = (id: number, body: Body<'renamePasskey'>, options?: CallOptions) =>
  call<Reply<'renamePasskey'>>({ auth: 'apiToken', method: 'PUT', path: `/api-protected/users/me/passkeys/${encode(id)}`, body }, options)

export const deletePasskey = (id: number, options?: CallOptions) =>
  call<Reply<'deletePasskey'>>({ auth: 'apiToken', method: 'DELETE', path: `/api-protected/users/me/passkeys/${encode(id)}` }, options)

/** RGPD art. 17 (beyond the spec): the account closed, the password typed again; a 409 names the domiciliation still active. */
export const closeAccount = (body: Body<'closeAccount'>, options?: CallOptions) =>
  call<Reply<'closeAccount'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/users/me/close', body }, options)

/** A collaborator leaves an order shared with them. */
export const leaveSharedOrder = (id: number, options?: CallOptions) =>
  call<Reply<'leaveSharedOrder'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}/leave` }, options)
/** « Mes données »: prepare the ZIP of the person's data (a background job); one being prepared is answered instead. */
export const startDataExport = (options?: CallOptions) =>
  call<Reply<'startDataExport'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/users/me/data-exports' }, options)

export const getDataExports = (options?: CallOptions) =>
  call<Reply<'dataExports'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/users/me/data-exports' }, options)

export const getDataExport = (id: number, options?: CallOptions) =>
  call<Reply<'dataExport'>>({ auth: 'apiToken', method: 'GET', path: `/api-protected/users/me/data-exports/${encode(id)}` }, options)

export const getDataExportFile = (id: number, options?: CallOptions) =>
  call<Blob>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/users/me/data-exports/${encode(id)}/file`, responseType: 'blob' },
    options,
  )
