// The people area's calls beyond spec §7: invitation links, signed-in devices and passkeys (WebAuthn
// options and answers pass through as the browser and @simplewebauthn need them).
import { type Body, type CallOptions, call, encode, type Reply } from './client.ts'

const invitation = (token: string) => `/invitations/${encode(token)}`

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

export const getPasskeyLoginOptions = (options?: CallOptions) =>
  call<Reply<'passkeyLoginOptions'>>({ auth: 'none', method: 'POST', path: '/api/passkeys/login-options' }, options)

export const loginWithPasskey = (body: Body<'passkeyLogin'>, options?: CallOptions) =>
  call<Reply<'passkeyLogin'>>({ auth: 'none', method: 'POST', path: '/api/passkeys/login', body }, options)
