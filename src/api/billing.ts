// The billing area's calls (spec §7): subscription, options, card and payment, unpaid invoices, termination,
// certificates and the contract PDF, invoices and credit notes; the two /stripe calls carry no token (spec §6). And the
// local test payment provider's own card form endpoint (server/contract/test-provider.ts): the card number goes to the
// provider, never to our API routes, and never with our token, as Stripe.js would send it to Stripe.
import type { PaymentMethod } from '../../server/contract/billing.ts'
import type { TestCardBody } from '../../server/contract/test-provider.ts'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { sha1 } from '@noble/hashes/legacy.js'
import { type Body, call, type CallOptions, encode, type Query, type Reply, swallow } from './client.ts'

const contract = (id: number) => `/api-protected/contracts/${encode(id)}`

export const getUnpaidStatus = (options?: CallOptions) =>
  call<Reply<'unpaidStatus'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user-unpaid-status' }, options)

export const payUnpaidInvoice = (body: Body<'payUnpaidInvoice'>, options?: CallOptions) =>
  call<Reply<'payUnpaidInvoice'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/pay-unpaid-invoice', body }, options)

/** billing: the domiciliation contract, as a PDF. */
export const getContractFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'bearer', method: 'GET', path: `${contract(id)}/file`, responseType: 'blob' }, options)

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

export const getInvoiceYears = (options?: CallOptions) =>
  call<Reply<'invoiceYears'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/years' }, options)

export const getShareInvoiceYears = (options?: CallOptions) =>
  call<Reply<'shareInvoiceYears'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/years/share' }, options)

export const getInvoices = (query: Query<'invoices'> = {}, options?: CallOptions) =>
  call<Reply<'invoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices', query }, options)

export const getShareInvoices = (query: Query<'shareInvoices'> = {}, options?: CallOptions) =>
  call<Reply<'shareInvoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/share', query }, options)

export const getCreditNotesByYear = (query: Query<'creditNotesByYear'> = {}, options?: CallOptions) =>
  call<Reply<'creditNotesByYear'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/creditnotes-by-year', query }, options)

export const getShareCreditNotesByYear = (query: Query<'shareCreditNotesByYear'> = {}, options?: CallOptions) =>
  call<Reply<'shareCreditNotesByYear'>>(
    { auth: 'apiToken', method: 'GET', path: '/api-protected/creditnotes-by-year/share', query },
    options,
  )

/** Calendar-invoice errors are ignored (spec §8): the list is empty, and the customer was told. */
export const getCalendarInvoices = (options?: CallOptions) =>
  swallow(
    call<Reply<'calendarInvoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/cal' }, options),
    [] as Reply<'calendarInvoices'>,
  )

export const getInvoiceFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/invoices/${encode(id)}/file`, responseType: 'blob' }, options)

export const getCreditNoteFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/creditnotes/${encode(id)}/file`, responseType: 'blob' }, options)

export const sendDextInvoices = (body: Body<'sendDextInvoices'>, options?: CallOptions) =>
  call<Reply<'sendDextInvoices'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/send-dext-invoices', body }, options)

export const TEST_PROVIDER_PATH = '/test-provider/v1/payment_methods'

/** Makes a payment method of a public test card; its `pm_…` id is then attached by PUT …/payment-method {pm}. */
export const createTestPaymentMethod = (card: TestCardBody, options?: CallOptions) =>
  call<PaymentMethod>({ auth: 'none', method: 'POST', path: TEST_PROVIDER_PATH, body: card }, options)
