// The operators area's calls (server/contract/operators.ts): sign-in in two steps, enrolment, the signed-in operator,
// sign-out, the operator's own passkeys, and the administrators' operators, journal and API keys. One function per call, nothing else.
import { type Body, type CallOptions, call, encode, type Query, type Reply } from './client.ts'

export const submitPassword = (body: Body<'operatorPassword'>, options?: CallOptions) =>
  call<Reply<'operatorPassword'>>({ auth: 'none', method: 'POST', path: '/api/operator-auth/password', body }, options)

export const submitCode = (body: Body<'operatorCode'>, options?: CallOptions) =>
  call<Reply<'operatorCode'>>({ auth: 'none', method: 'POST', path: '/api/operator-auth/code', body }, options)

/** The second step by a passkey instead of the code: the options for the ticket's operator's keys, then the signed answer. */
export const getPasskeySignInOptions = (body: Body<'operatorPasskeyOptions'>, options?: CallOptions) =>
  call<Reply<'operatorPasskeyOptions'>>({ auth: 'none', method: 'POST', path: '/api/operator-auth/passkey/options', body }, options)

export const submitPasskey = (body: Body<'operatorPasskey'>, options?: CallOptions) =>
  call<Reply<'operatorPasskey'>>({ auth: 'none', method: 'POST', path: '/api/operator-auth/passkey', body }, options)

export const getEnrolment = (token: string, options?: CallOptions) =>
  call<Reply<'operatorEnrolment'>>({ auth: 'none', method: 'GET', path: `/api/operator-auth/enrolment/${encode(token)}` }, options)

export const enrol = (token: string, body: Body<'operatorEnrol'>, options?: CallOptions) =>
  call<Reply<'operatorEnrol'>>({ auth: 'none', method: 'POST', path: `/api/operator-auth/enrolment/${encode(token)}`, body }, options)

export const getMe = (options?: CallOptions) =>
  call<Reply<'operatorMe'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/me' }, options)

export const signOut = (options?: CallOptions) =>
  call<Reply<'operatorSignOut'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/sign-out' }, options)

// --- « Mes clés d’accès »: the signed-in operator's passkeys

export const getMyPasskeys = (options?: CallOptions) =>
  call<Reply<'operatorMyPasskeys'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/me/passkeys' }, options)

export const getPasskeyRegistrationOptions = (options?: CallOptions) =>
  call<Reply<'operatorPasskeyRegistrationOptions'>>(
    { auth: 'session', method: 'POST', path: '/api/backoffice/me/passkeys/registration-options' },
    options,
  )

export const registerPasskey = (body: Body<'operatorRegisterPasskey'>, options?: CallOptions) =>
  call<Reply<'operatorRegisterPasskey'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/me/passkeys', body }, options)

export const deletePasskey = (id: number, options?: CallOptions) =>
  call<Reply<'operatorDeletePasskey'>>({ auth: 'session', method: 'DELETE', path: `/api/backoffice/me/passkeys/${encode(id)}` }, options)

// --- Administration: operators

export const getOperators = (options?: CallOptions) =>
  call<Reply<'operatorList'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/operators' }, options)

export const inviteOperator = (body: Body<'operatorInvite'>, options?: CallOptions) =>
  call<Reply<'operatorInvite'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/operators', body }, options)

export const setOperatorRoles = (id: number, body: Body<'operatorSetRoles'>, options?: CallOptions) =>
  call<Reply<'operatorSetRoles'>>({ auth: 'session', method: 'PUT', path: `/api/backoffice/operators/${encode(id)}/roles`, body }, options)

export const deactivateOperator = (id: number, options?: CallOptions) =>
  call<Reply<'operatorDeactivate'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/operators/${encode(id)}:deactivate` },
    options,
  )

// --- Administration: the journal

export const getJournal = (query: Query<'operatorJournal'>, options?: CallOptions) =>
  call<Reply<'operatorJournal'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/journal', query }, options)

export const getJournalCsv = (query: Query<'operatorJournalCsv'>, options?: CallOptions) =>
  call<Blob>({ auth: 'session', method: 'GET', path: '/api/backoffice/journal.csv', query, responseType: 'blob' }, options)

// --- Administration: API keys

export const getApiKeys = (options?: CallOptions) =>
  call<Reply<'operatorApiKeys'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/api-keys' }, options)

export const createApiKey = (body: Body<'operatorCreateApiKey'>, options?: CallOptions) =>
  call<Reply<'operatorCreateApiKey'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/api-keys', body }, options)

export const revokeApiKey = (id: number, options?: CallOptions) =>
  call<Reply<'operatorRevokeApiKey'>>({ auth: 'session', method: 'POST', path: `/api/backoffice/api-keys/${encode(id)}:revoke` }, options)

// --- Clients: the search, an order's page and timeline, « Nouveau client »

export const searchClients = (query: Query<'operatorClientSearch'>, options?: CallOptions) =>
  call<Reply<'operatorClientSearch'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/clients', query }, options)

export const createClient = (body: Body<'operatorCreateClient'>, options?: CallOptions) =>
  call<Reply<'operatorCreateClient'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/clients', body }, options)

export const getClientOrder = (id: number, options?: CallOptions) =>
  call<Reply<'operatorClientOrder'>>({ auth: 'session', method: 'GET', path: `/api/backoffice/orders/${encode(id)}` }, options)

export const getOrderTimeline = (id: number, query: Query<'operatorOrderTimeline'>, options?: CallOptions) =>
  call<Reply<'operatorOrderTimeline'>>(
    { auth: 'session', method: 'GET', path: `/api/backoffice/orders/${encode(id)}/timeline`, query },
    options,
  )

// --- The dashboard

export const getDashboard = (options?: CallOptions) =>
  call<Reply<'operatorDashboard'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/dashboard' }, options)
