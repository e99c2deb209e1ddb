// The billing area: subscription and options, card and payment, unpaid invoices, termination, certificates and the
// contract PDF, invoices and credit notes (shaped like the card-payment provider's objects); the operators' invoices.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { DateTime, Email, FreeText, Id, IdParams, IsoDate, Line, Nullable, OrderIdParams, ShortText } from './common.ts'
import { ok, PdfFile, type RouteDef } from './route-def.ts'

export const UnpaidStatus = Type.Object({
  hasUnpaid: Type.Boolean(),
  count: Type.Integer({ minimum: 0 }),
  amountInclTaxCents: Type.Integer({ minimum: 0 }),
})
export type UnpaidStatus = Static<typeof UnpaidStatus>

export const PayUnpaidBody = Type.Object(
  {
    orderId: Type.Optional(Id),
    /**
     * Beyond the spec: the total (TTC, cents) the customer confirmed. When given, nothing is charged unless it is what
     * would be (409 AMOUNT_CHANGED otherwise): an invoice issued between the confirmation and the click is never paid unseen.
     * Any total user-unpaid-status may report (a sum of invoices): one over what a card payment carries is then refused
     * in French (422 AMOUNT_TOO_LARGE), not by this schema.
     */
    expectedAmountInclTaxCents: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  },
  { additionalProperties: false },
)
export type PayUnpaidBody = Static<typeof PayUnpaidBody>

export const PayUnpaidReply = Type.Object({ paidCount: Type.Integer({ minimum: 0 }), message: Type.String() })
export type PayUnpaidReply = Static<typeof PayUnpaidReply>

export const Plan = Type.Object({
  id: Type.String(),
  nickname: Type.String(),
  amount: Type.Integer({ minimum: 0 }),
  currency: Type.String(),
  interval: Type.Union([Type.Literal('month'), Type.Literal('year')]),
  product: Type.String(),
})
export type Plan = Static<typeof Plan>

export const Subscription = Type.Object({
  id: Type.String(),
  object: Type.Literal('subscription'),
  status: Type.String(),
  current_period_end: Type.Integer(),
  cancel_at_period_end: Type.Boolean(),
  items: Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(Type.Object({ id: Type.String(), plan: Plan, quantity: Type.Integer() })),
  }),
})
export type Subscription = Static<typeof Subscription>

export const SubscriptionInfoQuery = Type.Object({ key: Line({ minLength: 40, maxLength: 40 }) }, { additionalProperties: false })

export const AddOptionSubscriptionBody = Type.Object({ contractId: Id, planId: ShortText(100) }, { additionalProperties: false })
export type AddOptionSubscriptionBody = Static<typeof AddOptionSubscriptionBody>

export const AddOptionBody = Type.Object(
  { option: ShortText(100), key: Line({ minLength: 40, maxLength: 40 }) },
  { additionalProperties: false },
)
export type AddOptionBody = Static<typeof AddOptionBody>

export const AddOptionReply = Type.Object({ message: Type.String(), planId: Type.String(), expiresAt: DateTime })
export type AddOptionReply = Static<typeof AddOptionReply>

export const PaymentMethod = Type.Object({
  id: Type.String(),
  brand: Type.String(),
  last4: Type.String(),
  expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
  expYear: Type.Integer(),
})
export type PaymentMethod = Static<typeof PaymentMethod>

export const MaybePaymentMethod = Nullable(PaymentMethod)

export const PaymentMethodBody = Type.Object({ pm: Line({ minLength: 3, maxLength: 255 }) }, { additionalProperties: false })
export type PaymentMethodBody = Static<typeof PaymentMethodBody>

export const TerminationRequestBody = Type.Object(
  {
    orderId: Id,
    reason: ShortText(500),
    date: Type.String({ format: 'date' }),
    comment: Type.Optional(FreeText({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)
export type TerminationRequestBody = Static<typeof TerminationRequestBody>

export const TerminationRequestReply = Type.Object({ id: Id, message: Type.String() })
export type TerminationRequestReply = Static<typeof TerminationRequestReply>

/** An option the subscription does not hold yet, at the subscription's own interval. */
export const SubscriptionOption = Type.Object({
  option: Type.String(),
  planId: Type.String(),
  nickname: Type.String(),
  interval: Type.Union([Type.Literal('month'), Type.Literal('year')]),
  amountExclTaxCents: Type.Integer({ minimum: 0 }),
  amountInclTaxCents: Type.Integer({ minimum: 0 }),
})
export type SubscriptionOption = Static<typeof SubscriptionOption>

export const TerminationStatus = Type.Object({
  /** The order's termination request, once made (one per order). */
  request: Nullable(
    Type.Object({
      date: IsoDate,
      reason: Type.String(),
      createdAt: DateTime,
      /** Accepted by the provider: the day the domiciliation ends (« Domiciliation résiliée au … »); null until then. */
      endDate: Nullable(IsoDate),
    }),
  ),
  /** The first date a termination may take effect: the end of the current billing period (or today). */
  earliestDate: IsoDate,
})
export type TerminationStatus = Static<typeof TerminationStatus>

/** A verification code: 12 characters of Crockford's base32 in three groups (60 random bits). */
/**
 * A certificate's code (Crockford's base32, server/services/certificate-code.ts), in either case: a person types it from paper; the routes
 * read it in capitals.
 */
export const CertificateCode = Type.String({
  minLength: 14,
  maxLength: 14,
  pattern: '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{4}-[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{4}-[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{4}$',
})

export const CodeParams = Type.Object({ code: CertificateCode })

export const Certificate = Type.Object({
  code: CertificateCode,
  orderId: Id,
  issuedAt: DateTime,
  /** The public page the QR code points to: {PUBLIC_URL}/verification/{code}. */
  verificationUrl: Type.String(),
  /** Where the PDF is downloaded (apiToken). */
  file: Type.String(),
})
export type Certificate = Static<typeof Certificate>

/** What anyone holding a code learns: valid with the company and the issue date, or no longer valid; nothing more. */
export const CertificateVerification = Type.Union([
  Type.Object({ status: Type.Literal('valid'), raisonSociale: Type.String(), issuedAt: DateTime }, { additionalProperties: false }),
  Type.Object({ status: Type.Literal('revoked') }, { additionalProperties: false }),
])
export type CertificateVerification = Static<typeof CertificateVerification>

/** For an order: the card will pay its subscription; without one ('Tous'): the account's default card. */
export const CardSetupBody = Type.Object({ orderId: Type.Optional(Id) }, { additionalProperties: false })
export type CardSetupBody = Static<typeof CardSetupBody>

/**
 * Which card form takes the card: with the real provider, what Stripe.js needs for its own element (the SetupIntent's
 * client secret and the publishable key); with the local test provider, its own test card form.
 */
export const CardSetup = Type.Union([
  Type.Object({ provider: Type.Literal('stripe'), clientSecret: Type.String(), publishableKey: Type.String() }),
  Type.Object({ provider: Type.Literal('test') }),
])
export type CardSetup = Static<typeof CardSetup>

export const Invoice = Type.Object({
  id: Id,
  domId: Id,
  raisonSociale: Type.String(),
  number: Type.String(),
  date: DateTime,
  amountExclTaxCents: Type.Integer(),
  amountInclTaxCents: Type.Integer(),
  paid: Type.Boolean(),
})
export type Invoice = Static<typeof Invoice>

export const CreditNote = Type.Object({
  id: Id,
  domId: Id,
  raisonSociale: Type.String(),
  number: Type.String(),
  date: DateTime,
  amountExclTaxCents: Type.Integer(),
  amountInclTaxCents: Type.Integer(),
  invoiceId: Nullable(Id),
})
export type CreditNote = Static<typeof CreditNote>

export const CalendarInvoice = Type.Object({
  id: Id,
  domId: Id,
  raisonSociale: Type.String(),
  date: DateTime,
  room: Type.String(),
  hours: Type.Number({ minimum: 0 }),
  amountInclTaxCents: Type.Integer(),
  paid: Type.Boolean(),
  /** company area: the invoice billing the booking (its PDF at /api-protected/invoices/{invoiceId}/file), when issued. */
  invoiceId: Nullable(Id),
  invoiceNumber: Nullable(Type.String()),
})
export type CalendarInvoice = Static<typeof CalendarInvoice>

export const YearQuery = Type.Object(
  { year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })) },
  { additionalProperties: false },
)
export type YearQuery = Static<typeof YearQuery>

export const SendDextBody = Type.Object(
  {
    email: Email,
    invoiceIds: Type.Array(Id, { maxItems: 200 }),
    documentIds: Type.Array(Id, { maxItems: 200 }),
  },
  { additionalProperties: false },
)
export type SendDextBody = Static<typeof SendDextBody>

export const SendDextReply = Type.Object({
  sent: Type.Integer({ minimum: 0 }),
  failed: Type.Array(
    Type.Object({ kind: Type.Union([Type.Literal('invoice'), Type.Literal('document')]), id: Type.Integer(), reason: Type.String() }),
  ),
  message: Type.String(),
})
export type SendDextReply = Static<typeof SendDextReply>

export const OperatorInvoiceBody = Type.Object(
  {
    /** The invoice's number as the billing system gave it (letters, digits, '.', '_' and '-'), unique; the Invoice's `number`.
     *  Not named `number`: no body field of ours may look like a card's (billing.test.ts). */
    reference: ShortText(40),
    /** When it was issued (now if absent). */
    date: Type.Optional(DateTime),
    amountExclTaxCents: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
    amountInclTaxCents: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
    /** Already settled (charged with the subscription): listed as paid, never offered to "Payer". */
    paid: Type.Optional(Type.Boolean()),
    /** The invoice as a data URL: data:application/pdf;base64,… (a complete PDF of 10 MB at most). */
    file: Type.String({ minLength: 1, maxLength: 15_000_000 }),
  },
  { additionalProperties: false },
)
export type OperatorInvoiceBody = Static<typeof OperatorInvoiceBody>

export const billingRoutes = {
  unpaidStatus: {
    method: 'GET',
    path: '/api-protected/user-unpaid-status',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: 'Whether the user has unpaid invoices.',
    schema: { response: ok(UnpaidStatus) },
  },

  payUnpaidInvoice: {
    method: 'POST',
    path: '/api-protected/pay-unpaid-invoice',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Factures'],
    summary: 'Pay the unpaid invoices (of one order, or all) with the card on file.',
    schema: { body: PayUnpaidBody, response: ok(PayUnpaidReply) },
  },

  subscriptionInformations: {
    method: 'GET',
    path: '/stripe/subscription-informations/{orderId}',
    auth: 'none',
    tags: ['Abonnement'],
    summary: 'The subscription of an order; key = SHA-1 of order id followed by subscription id.',
    schema: { params: OrderIdParams, querystring: SubscriptionInfoQuery, response: ok(Subscription) },
  },

  addOptionSubscription: {
    method: 'POST',
    path: '/stripe/add-option-subscription',
    auth: 'none',
    tags: ['Abonnement'],
    summary: 'Confirm an option the owner requested with :add-option shortly before.',
    schema: { body: AddOptionSubscriptionBody, response: ok(Subscription) },
  },

  addOption: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}:add-option',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Abonnement'],
    summary: 'Request an option for the subscription (confirmed by add-option-subscription).',
    schema: { params: IdParams, body: AddOptionBody, response: ok(AddOptionReply) },
  },

  paymentMethod: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/payment-method',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Paiement'],
    summary: "The card paying for the order's subscription.",
    schema: { params: IdParams, response: ok(MaybePaymentMethod) },
  },

  creditCard: {
    method: 'GET',
    path: '/api-protected/credit-card',
    auth: 'apiToken',
    tags: ['Paiement'],
    summary: "The user's default card.",
    schema: { response: ok(MaybePaymentMethod) },
  },

  updatePaymentMethod: {
    method: 'PUT',
    path: '/api-protected/domiciliation-orders/{id}/payment-method',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Paiement'],
    summary: "Replace the card paying for the order's subscription.",
    schema: { params: IdParams, body: PaymentMethodBody, response: ok(PaymentMethod) },
  },

  updateCreditCardWeb: {
    method: 'PUT',
    path: '/api-protected/credit-card-web',
    auth: 'apiToken',
    tags: ['Paiement'],
    summary: "Replace the user's default card.",
    schema: { body: PaymentMethodBody, response: ok(PaymentMethod) },
  },

  terminationRequest: {
    method: 'POST',
    path: '/api-protected/termination-requests',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Abonnement'],
    summary: 'Request the termination of a domiciliation.',
    schema: { body: TerminationRequestBody, response: ok(TerminationRequestReply) },
    perUserHourly: 20,
  },

  subscriptionOptions: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/subscription-options',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Abonnement'],
    summary: 'The options the subscription does not hold yet, with their price at its interval.',
    schema: { params: IdParams, response: ok(Type.Array(SubscriptionOption)) },
  },

  terminationStatus: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/termination-request',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Abonnement'],
    summary: "The order's termination request if one was made, and the earliest date one may take effect.",
    schema: { params: IdParams, response: ok(TerminationStatus) },
  },

  issueCertificate: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}/certificates',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Attestations'],
    summary: 'Issue a domiciliation certificate (a verification code, its QR code, the PDF).',
    schema: { params: IdParams, response: ok(Certificate) },
    perUserHourly: 20,
  },

  certificateFile: {
    method: 'GET',
    path: '/api-protected/certificates/{code}/file',
    auth: 'apiToken',
    access: 'owner',
    kind: 'file',
    tags: ['Attestations'],
    summary: 'A certificate issued to the user, as a PDF.',
    schema: { params: CodeParams, response: ok(PdfFile) },
  },

  certificateVerification: {
    method: 'GET',
    path: '/api/certificates/{code}',
    auth: 'none',
    tags: ['Attestations'],
    summary:
      'Public check of a certificate (rate-limited): valid with the company and issue date, or no longer valid; 404 for an unknown code.',
    schema: { params: CodeParams, response: ok(CertificateVerification) },
  },

  contractFile: {
    method: 'GET',
    path: '/api-protected/contracts/{id}/file',
    auth: 'bearer',
    access: 'owner',
    kind: 'file',
    tags: ['Contrats'],
    summary: 'The domiciliation contract, as a PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  // billing: the hosted card element of the real provider (STRIPE_SECRET_KEY); the test provider answers {provider: 'test'}.
  cardSetup: {
    method: 'POST',
    path: '/api-protected/card-setup-intents',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Paiement'],
    summary:
      "Start taking a card in Stripe's hosted element: a SetupIntent of the user's customer (the order's when orderId is given). With the local test provider, {provider: 'test'}: its own card form takes the card.",
    schema: { body: CardSetupBody, response: ok(CardSetup) },
    perUserHourly: 30,
  },

  invoiceYears: {
    method: 'GET',
    path: '/api-protected/invoices/years',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: "Years with invoices on the user's own orders.",
    schema: { response: ok(Type.Array(Type.Integer())) },
  },

  shareInvoiceYears: {
    method: 'GET',
    path: '/api-protected/invoices/years/share',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: 'Years with invoices on the orders shared with the user.',
    schema: { response: ok(Type.Array(Type.Integer())) },
  },

  invoices: {
    method: 'GET',
    path: '/api-protected/invoices',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: "Invoices of the user's own orders (of one year with year).",
    schema: { querystring: YearQuery, response: ok(Type.Array(Invoice)) },
  },

  shareInvoices: {
    method: 'GET',
    path: '/api-protected/invoices/share',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: 'Invoices of the orders shared with the user.',
    schema: { querystring: YearQuery, response: ok(Type.Array(Invoice)) },
  },

  creditNotesByYear: {
    method: 'GET',
    path: '/api-protected/creditnotes-by-year',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: "Credit notes of the user's own orders (of one year with year).",
    schema: { querystring: YearQuery, response: ok(Type.Array(CreditNote)) },
  },

  shareCreditNotesByYear: {
    method: 'GET',
    path: '/api-protected/creditnotes-by-year/share',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: 'Credit notes of the orders shared with the user.',
    schema: { querystring: YearQuery, response: ok(Type.Array(CreditNote)) },
  },

  calendarInvoices: {
    method: 'GET',
    path: '/api-protected/invoices/cal',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: 'Meeting-room bookings and their invoices.',
    schema: { response: ok(Type.Array(CalendarInvoice)) },
  },

  invoiceFile: {
    method: 'GET',
    path: '/api-protected/invoices/{id}/file',
    auth: 'apiToken',
    kind: 'file',
    tags: ['Factures'],
    summary: 'An invoice, as a PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  creditNoteFile: {
    method: 'GET',
    path: '/api-protected/creditnotes/{id}/file',
    auth: 'apiToken',
    kind: 'file',
    tags: ['Factures'],
    summary: 'A credit note, as a PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  sendDextInvoices: {
    method: 'POST',
    path: '/api-protected/send-dext-invoices',
    auth: 'apiToken',
    tags: ['Factures'],
    summary: "Send invoices and letters to the customer's accounting inbox (Dext).",
    schema: { body: SendDextBody, response: ok(SendDextReply) },
  },

  operatorAddInvoice: {
    method: 'POST',
    path: '/api/operator/domiciliation-orders/{id}/invoices',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary:
      'Issue an invoice for an order (its PDF as a data URL, checked by content; its number unique): listed on /factures and announced in the bell ("Nouvelle facture"). With an `Idempotency-Key` header, a retry with the same key answers the first invoice and makes nothing (`Idempotent-Replayed: true`); without one, a retry meets 409 like another invoice of that number.',
    schema: { params: IdParams, body: OperatorInvoiceBody, response: ok(Invoice) },
  },
} as const satisfies Record<string, RouteDef>
