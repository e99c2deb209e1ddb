// The session area's calls (spec §7): signing in and out, a forgotten password, a passkey sign-in, and the startup's
// (spec §4): the current user, the contracts, the orders and their checks.
import { type Body, call, type CallOptions, encode, type Reply, swallow } from './client.ts'

const order = (id: number) => `/api-protected/domiciliation-orders/${encode(id)}`

export const login = (body: Body<'login'>, options?: CallOptions) =>
  call<Reply<'login'>>({ auth: 'none', method: 'POST', path: '/api/login', body }, options)

/** « Se déconnecter »: this session ends on the server (`apiToken`: the token of the session being left). */
export const signOut = (options?: CallOptions) =>
  call<Reply<'signOut'>>({ auth: 'apiToken', method: 'DELETE', path: '/api-protected/users/me/sessions/current' }, options)

export const requestPasswordReset = (body: Body<'resetPasswordRequest'>, options?: CallOptions) =>
  call<Reply<'resetPasswordRequest'>>({ auth: 'none', method: 'POST', path: '/reset-password-request', body }, options)

export const resetPassword = (body: Body<'resetPassword'>, options?: CallOptions) =>
  call<Reply<'resetPassword'>>({ auth: 'none', method: 'POST', path: '/reset-password', body }, options)

export const getCurrentUser = (options?: CallOptions) =>
  call<Reply<'currentUser'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user/me' }, options)

export const getContracts = (options?: CallOptions) =>
  call<Reply<'contracts'>>({ auth: 'bearer', method: 'GET', path: '/api-protected/contracts' }, options)

export const getMyOrders = (options?: CallOptions) =>
  call<Reply<'myOrders'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/my-domiciliation-orders' }, options)

type OrderCheck = 'is-attente-courrier-or-finalise' | 'is-complete-kbis' | 'is-waiting-contract'
/** The order checks swallow errors (spec §8): undefined means unknown, and the customer was told. */
const check = (what: OrderCheck) => async (id: number, options?: CallOptions) => {
  const reply = await swallow(
    call<Reply<'isCompleteKbis'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/${what}` }, options),
    undefined,
  )
  return reply?.result
}
export const isAttenteCourrierOrFinalise = check('is-attente-courrier-or-finalise')
export const isCompleteKbis = check('is-complete-kbis')
export const isWaitingContract = check('is-waiting-contract')

export const getPasskeyLoginOptions = (options?: CallOptions) =>
  call<Reply<'passkeyLoginOptions'>>({ auth: 'none', method: 'POST', path: '/api/passkeys/login-options' }, options)

export const loginWithPasskey = (body: Body<'passkeyLogin'>, options?: CallOptions) =>
  call<Reply<'passkeyLogin'>>({ auth: 'none', method: 'POST', path: '/api/passkeys/login', body }, options)
