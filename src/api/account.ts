// Authentication and account calls (spec §7).
import { type Body, type CallOptions, call, encode, type Reply, swallow } from './client.ts'

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

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const updateEmail = (body: Body<'updateEmail'>, options?: CallOptions) =>
  swallow(call<Reply<'updateEmail'>>({ auth: 'apiToken', method: 'PUT', path: '/api-protected/users/me/email', body }, options), undefined)

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const updatePassword = (body: Body<'updatePassword'>, options?: CallOptions) =>
  swallow(
    call<Reply<'updatePassword'>>({ auth: 'apiToken', method: 'PUT', path: '/api-protected/users/me/password', body }, options),
    undefined,
  )

export const getUnpaidStatus = (options?: CallOptions) =>
  call<Reply<'unpaidStatus'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user-unpaid-status' }, options)

export const payUnpaidInvoice = (body: Body<'payUnpaidInvoice'>, options?: CallOptions) =>
  call<Reply<'payUnpaidInvoice'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/pay-unpaid-invoice', body }, options)

/** « Ce n’était pas vous ? » (beyond the spec): the link mailed to the address left by an e-mail change puts it back. */
export const revertEmailChange = (token: string, options?: CallOptions) =>
  call<Reply<'revertEmailChange'>>({ auth: 'none', method: 'POST', path: `/api/email-change-reverts/${encode(token)}` }, options)
