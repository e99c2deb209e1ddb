// Subscription and payment (spec §7). The two /stripe calls carry no token (spec §6).
import { sha1 } from '@noble/hashes/legacy.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { type Body, type CallOptions, call, encode, type Reply } from './client.ts'

/** The subscription key of spec §9: lowercase hex SHA-1 of the order id followed by the subscription id. */
export const subscriptionKey = (orderId: number, subscriptionId: string) => bytesToHex(sha1(utf8ToBytes(`${orderId}${subscriptionId}`)))

export const getSubscriptionInformations = (orderId: number, subscriptionId: string, options?: CallOptions) =>
  call<Reply<'subscriptionInformations'>>(
    {
      auth: 'none',
      method: 'GET',
      path: `/stripe/subscription-informations/${encode(orderId)}`,
      query: { key: subscriptionKey(orderId, subscriptionId) },
    },
    options,
  )

export const addOptionSubscription = (body: Body<'addOptionSubscription'>, options?: CallOptions) =>
  call<Reply<'addOptionSubscription'>>({ auth: 'none', method: 'POST', path: '/stripe/add-option-subscription', body }, options)

export const addOption = (id: number, body: Body<'addOption'>, options?: CallOptions) =>
  call<Reply<'addOption'>>(
    { auth: 'apiToken', method: 'POST', path: `/api-protected/domiciliation-orders/${encode(id)}:add-option`, body },
    options,
  )

export const getPaymentMethod = (id: number, options?: CallOptions) =>
  call<Reply<'paymentMethod'>>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/domiciliation-orders/${encode(id)}/payment-method` },
    options,
  )

export const getCreditCard = (options?: CallOptions) =>
  call<Reply<'creditCard'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/credit-card' }, options)

export const updatePaymentMethod = (id: number, body: Body<'updatePaymentMethod'>, options?: CallOptions) =>
  call<Reply<'updatePaymentMethod'>>(
    { auth: 'apiToken', method: 'PUT', path: `/api-protected/domiciliation-orders/${encode(id)}/payment-method`, body },
    options,
  )

/** The real provider's SetupIntent for Stripe.js's card field; `{provider: 'test'}` with the local test provider. */
export const createCardSetup = (body: Body<'cardSetup'>, options?: CallOptions) =>
  call<Reply<'cardSetup'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/card-setup-intents', body }, options)

export const updateCreditCardWeb = (body: Body<'updateCreditCardWeb'>, options?: CallOptions) =>
  call<Reply<'updateCreditCardWeb'>>({ auth: 'apiToken', method: 'PUT', path: '/api-protected/credit-card-web', body }, options)

export const createTerminationRequest = (body: Body<'terminationRequest'>, options?: CallOptions) =>
  call<Reply<'terminationRequest'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/termination-requests', body }, options)

// --- billing: options on offer, termination status, certificates

export const getSubscriptionOptions = (id: number, options?: CallOptions) =>
  call<Reply<'subscriptionOptions'>>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/domiciliation-orders/${encode(id)}/subscription-options` },
    options,
  )

export const getTerminationStatus = (id: number, options?: CallOptions) =>
  call<Reply<'terminationStatus'>>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/domiciliation-orders/${encode(id)}/termination-request` },
    options,
  )

export const issueCertificate = (id: number, options?: CallOptions) =>
  call<Reply<'issueCertificate'>>(
    { auth: 'apiToken', method: 'POST', path: `/api-protected/domiciliation-orders/${encode(id)}/certificates` },
    options,
  )

export const getCertificateFile = (code: string, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/certificates/${encode(code)}/file`, responseType: 'blob' }, options)

/** The public check of a certificate (no token): valid, or no longer valid; an unknown code is a 404. */
export const getCertificateVerification = (code: string, options?: CallOptions) =>
  call<Reply<'certificateVerification'>>({ auth: 'none', method: 'GET', path: `/api/certificates/${encode(code)}` }, options)
