// Entity and payload schemas of the provider API (spec §3, §7; PRODUCT.md "Data the server keeps").
// The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN } from './rules/text.ts'

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })
const DateTime = Type.String({ format: 'date-time' })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
/**
 * Every string a request sends is one of these (rules/text.ts), but passwords (never shown, only hashed), files (data
 * URLs) and fields held to a stricter pattern or format of their own: a single line, with no control character nor
 * bidi override; or free text, whose line breaks and tabs are kept.
 */
const Line = (options: { minLength?: number; maxLength: number }) => Type.String({ ...options, pattern: SINGLE_LINE_PATTERN })
const FreeText = (options: { minLength?: number; maxLength: number }) => Type.String({ ...options, pattern: MULTI_LINE_PATTERN })
const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, pattern: SINGLE_LINE_PATTERN })
const ShortText = (maxLength = 200) => Line({ minLength: 1, maxLength })

export const ApiErrorBody = Type.Object({
  message: Type.String(),
  statusCode: Type.Optional(Type.Integer()),
  code: Type.Optional(Type.String()),
})
export type ApiErrorBody = Static<typeof ApiErrorBody>

export const MessageReply = Type.Object({ message: Type.String() })
export type MessageReply = Static<typeof MessageReply>

export const BooleanResult = Type.Object({ result: Type.Boolean() })
export type BooleanResult = Static<typeof BooleanResult>

// --- Users and authentication
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

/** A password a person chooses: 12 characters at least (the common ones are refused by the handler). */
const NewPassword = Type.String({ minLength: 12, maxLength: 200 })

export const ResetPasswordBody = Type.Object(
  {
    token: Line({ minLength: 1, maxLength: 200 }),
    password: NewPassword,
  },
  { additionalProperties: false },
)
export type ResetPasswordBody = Static<typeof ResetPasswordBody>

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

// --- Domiciliation orders and contracts
export const MissingDocument = Type.Object({
  type: Type.String(),
  label: Type.String(),
})
export type MissingDocument = Static<typeof MissingDocument>

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

export const ContractAddressBody = Type.Object(
  {
    adressePostaleExpedition: ShortText(200),
    adresseComplementPostaleExpedition: Type.Optional(Nullable(Line({ maxLength: 200 }))),
    codePostaleExpedition: Line({ minLength: 2, maxLength: 12 }),
    villePostaleExpedition: ShortText(120),
    paysPostaleExpedition: ShortText(80),
  },
  { additionalProperties: false },
)
export type ContractAddressBody = Static<typeof ContractAddressBody>

/** PUT /api-protected/contracts/{id}: the Kbis, the forwarding address, or any subset of both. */
export const ContractUpdateBody = Type.Object(
  {
    kbis: Type.Optional(Type.String({ minLength: 1, maxLength: 15_000_000 })),
    adressePostaleExpedition: Type.Optional(ShortText(200)),
    adresseComplementPostaleExpedition: Type.Optional(Nullable(Line({ maxLength: 200 }))),
    codePostaleExpedition: Type.Optional(Line({ minLength: 2, maxLength: 12 })),
    villePostaleExpedition: Type.Optional(ShortText(120)),
    paysPostaleExpedition: Type.Optional(ShortText(80)),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type ContractUpdateBody = Static<typeof ContractUpdateBody>

export const UploadedDocument = Type.Object({
  id: Id,
  type: Type.String(),
  label: Type.String(),
  fileName: Type.String(),
  uploadedAt: DateTime,
})
export type UploadedDocument = Static<typeof UploadedDocument>

export const IdentityUploadReply = Type.Object({
  uploaded: Type.Array(UploadedDocument),
  complete: Type.Boolean(),
  missingDocumentsValidatedAt: Nullable(DateTime),
})
export type IdentityUploadReply = Static<typeof IdentityUploadReply>

export const SendProblemBody = Type.Object({ message: FreeText({ minLength: 1, maxLength: 5000 }) }, { additionalProperties: false })
export type SendProblemBody = Static<typeof SendProblemBody>

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

export const SetQontoBody = Type.Object({ qonto: Type.Boolean() }, { additionalProperties: false })
export const SetShineBody = Type.Object({ shine: Type.Boolean() }, { additionalProperties: false })
export const QontoReply = Type.Object({ qonto: Type.Boolean() })
export const ShineReply = Type.Object({ shine: Type.Boolean() })
export type SetQontoBody = Static<typeof SetQontoBody>
export type SetShineBody = Static<typeof SetShineBody>

export const WantComptableReply = Type.Object({ wantComptable: Type.Boolean(), message: Type.String() })
export type WantComptableReply = Static<typeof WantComptableReply>

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

// --- Mail
export const DocumentKind = Type.Union([Type.Literal('courrier'), Type.Literal('recommandé'), Type.Literal('administratif')])
export type DocumentKind = Static<typeof DocumentKind>

export const MailDocument = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  sender: Type.String(),
  kind: DocumentKind,
  receivedAt: DateTime,
  pages: Type.Integer({ minimum: 1 }),
  read: Type.Boolean(),
  deleted: Type.Boolean(),
  folderId: Nullable(Id),
  // mail pipeline
  /** How many page images the server has (0 until rendered, or when rendering failed). */
  pageImages: Type.Integer({ minimum: 0 }),
  /** The text (text layer or OCR) is stored and indexed. */
  searchable: Type.Boolean(),
  /** The deadline found in the text by server/contract/rules/deadlines.ts. */
  deadline: Nullable(Type.Object({ date: Type.String({ format: 'date' }), amountCents: Nullable(Type.Integer()) })),
})
export type MailDocument = Static<typeof MailDocument>

export const OrderIdQuery = Type.Object({ orderId: Type.Optional(Id) }, { additionalProperties: false })
export type OrderIdQuery = Static<typeof OrderIdQuery>

export const DocumentUpdateBody = Type.Object(
  {
    readFlag: Type.Optional(Type.Boolean()),
    folderId: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type DocumentUpdateBody = Static<typeof DocumentUpdateBody>

export const SendDocumentsBody = Type.Object(
  {
    email: Email,
    message: Type.Optional(FreeText({ maxLength: 2000 })),
    documentIds: Type.Array(Id, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
)
export type SendDocumentsBody = Static<typeof SendDocumentsBody>

export const Folder = Type.Object({
  id: Id,
  name: Type.String(),
  domiciliationOrderId: Id,
  documentCount: Type.Integer({ minimum: 0 }),
})
export type Folder = Static<typeof Folder>

export const FoldersQuery = Type.Object({ domiciliationOrderId: Type.Optional(Id) }, { additionalProperties: false })
export const FolderCreateBody = Type.Object({ name: ShortText(80), domiciliationOrderId: Id }, { additionalProperties: false })
export const FolderUpdateBody = Type.Object({ name: ShortText(80) }, { additionalProperties: false })
export type FolderCreateBody = Static<typeof FolderCreateBody>
export type FolderUpdateBody = Static<typeof FolderUpdateBody>

export const PackageStatus = Type.Union([Type.Literal('À retirer'), Type.Literal('Réexpédié'), Type.Literal('Retiré')])
export const Package = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  receivedAt: DateTime,
  carrier: Type.String(),
  sender: Type.String(),
  status: PackageStatus,
})
export type Package = Static<typeof Package>

export const CourierRequest = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  createdAt: DateTime,
  kind: Type.Union([Type.Literal('réexpédition'), Type.Literal('scan')]),
  status: Type.Union([Type.Literal('en attente'), Type.Literal('traitée')]),
  letterCount: Type.Integer({ minimum: 0 }),
})
export type CourierRequest = Static<typeof CourierRequest>

export const RemoveCourierRequestBody = Type.Object({ orderId: Id, id: Id }, { additionalProperties: false })
export type RemoveCourierRequestBody = Static<typeof RemoveCourierRequestBody>

// --- Subscription and payment (shaped like the card-payment provider's objects)
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

// --- billing: options, termination, certificates
const IsoDate = Type.String({ format: 'date' })

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
  request: Nullable(Type.Object({ date: IsoDate, reason: Type.String(), createdAt: DateTime })),
  /** The first date a termination may take effect: the end of the current billing period (or today). */
  earliestDate: IsoDate,
})
export type TerminationStatus = Static<typeof TerminationStatus>

/** A verification code: 12 characters of Crockford's base32 in three groups (60 random bits). */
/** A certificate's code (Crockford's base32, server/services/certificate-code.ts), in either case: a person types it from paper; the routes read it in capitals. */
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

// --- billing: the provider's hosted card element (STRIPE_SECRET_KEY)
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

// --- Invoices
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

export const HealthReply = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  paymentProvider: Type.Union([Type.Literal('test'), Type.Literal('stripe')]),
})
export type HealthReply = Static<typeof HealthReply>

// --- Operators (the provider's staff, authenticated by OPERATOR_TOKEN)
export const OperatorOrder = Type.Object({
  id: Id,
  raisonSociale: Type.String(),
  status: Type.String(),
  ownerEmail: Type.String(),
  /** The order's contract (where its Kbis is filed), none before the contract exists. */
  contractId: Nullable(Id),
  /** Its Kbis: none filed, filed and waiting for an operator's check, or validated. */
  kbis: Type.Union([Type.Literal('aucun'), Type.Literal('à valider'), Type.Literal('validé')]),
})
export type OperatorOrder = Static<typeof OperatorOrder>

export const OperatorDocumentBody = Type.Object(
  {
    sender: ShortText(200),
    kind: Type.Optional(DocumentKind),
    /** The scan as a data URL: data:application/pdf;base64,… (a complete PDF of 10 MB at most). */
    file: Type.String({ minLength: 1, maxLength: 15_000_000 }),
    receivedAt: Type.Optional(DateTime),
  },
  { additionalProperties: false },
)
export type OperatorDocumentBody = Static<typeof OperatorDocumentBody>

export const OperatorDocumentReply = Type.Object({
  document: MailDocument,
  /** The deep link of the letter in the portal, as written in the notification. */
  link: Type.String(),
  /** Who was told by e-mail ("Nouveau courrier de …"). */
  notified: Type.Array(Type.String()),
})
export type OperatorDocumentReply = Static<typeof OperatorDocumentReply>

export const OperatorPackageBody = Type.Object(
  {
    carrier: ShortText(100),
    sender: ShortText(200),
    receivedAt: Type.Optional(DateTime),
  },
  { additionalProperties: false },
)
export type OperatorPackageBody = Static<typeof OperatorPackageBody>

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

// --- people: invitations, sessions, passkeys
/** The secret of an invitation link (256 random bits, base64url). */
const LinkToken = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' })
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

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON), passed through as they are. */
export const WebAuthnOptions = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })
const Base64Url = (maxLength = 20_000) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$' })
/** What every WebAuthn answer of the browser holds (RegistrationResponseJSON, AuthenticationResponseJSON). */
const credentialFields = {
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: Type.Literal('public-key'),
  clientExtensionResults: Type.Optional(Type.Object({})),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
}
/** The browser's answer to "create a passkey", checked by @simplewebauthn/server. */
const RegistrationCredential = Type.Object({
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
const AuthenticationCredential = Type.Object({
  ...credentialFields,
  response: Type.Object({
    clientDataJSON: Base64Url(),
    authenticatorData: Base64Url(),
    signature: Base64Url(),
    userHandle: Type.Optional(Base64Url(200)),
  }),
})

export const PasskeyRegistrationBody = Type.Object(
  {
    credential: RegistrationCredential,
    /** Named after the device; the server names it when left out. */
    name: Type.Optional(ShortText(60)),
  },
  { additionalProperties: false },
)
export type PasskeyRegistrationBody = Static<typeof PasskeyRegistrationBody>

export const PasskeyLoginBody = Type.Object({ credential: AuthenticationCredential }, { additionalProperties: false })
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>

export const PasskeyRenameBody = Type.Object({ name: ShortText(60) }, { additionalProperties: false })
export type PasskeyRenameBody = Static<typeof PasskeyRenameBody>

// --- Params
export const IdParams = Type.Object({ id: Id })
export const OrderIdParams = Type.Object({ orderId: Id })
export const ShareParams = Type.Object({ id: Id, shareId: Id })
export const MandataireParams = Type.Object({ id: Id, mandataireId: Id })

// --- Company area: legal submissions (the formalities customers order, followed by the provider's jurists)
export const LegalSubmissionKind = Type.Union([
  Type.Literal('creation'),
  Type.Literal('transfert-siege'),
  Type.Literal('changement-dirigeant'),
  Type.Literal('modification-denomination-objet'),
  Type.Literal('modification-capital'),
  Type.Literal('dissolution-liquidation'),
])
export type LegalSubmissionKind = Static<typeof LegalSubmissionKind>

/** The steps of a request, in order: the jurists move it forward through the operator API. */
export const LegalSubmissionStatus = Type.Union([
  Type.Literal('Reçue'),
  Type.Literal('En cours'),
  Type.Literal('Déposée au greffe'),
  Type.Literal('Terminée'),
])
export type LegalSubmissionStatus = Static<typeof LegalSubmissionStatus>

export const LegalSubmission = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  kind: LegalSubmissionKind,
  status: LegalSubmissionStatus,
  comment: Nullable(Type.String()),
  /** When each step was reached (null: not yet, or skipped). */
  receivedAt: DateTime,
  startedAt: Nullable(DateTime),
  filedAt: Nullable(DateTime),
  completedAt: Nullable(DateTime),
})
export type LegalSubmission = Static<typeof LegalSubmission>

export const LegalSubmissionBody = Type.Object(
  {
    orderId: Id,
    kind: LegalSubmissionKind,
    comment: Type.Optional(FreeText({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)
export type LegalSubmissionBody = Static<typeof LegalSubmissionBody>

export const LegalSubmissionStatusBody = Type.Object({ status: LegalSubmissionStatus }, { additionalProperties: false })
export type LegalSubmissionStatusBody = Static<typeof LegalSubmissionStatusBody>

// --- mail pipeline: page images, search of the letters' text, deadlines
export const DocumentPageParams = Type.Object({ id: Id, page: Type.Integer({ minimum: 1, maximum: 10000 }) })
export type DocumentPageParams = Static<typeof DocumentPageParams>

export const DocumentSearchQuery = Type.Object(
  { q: Line({ minLength: 3, maxLength: 200 }), orderId: Type.Optional(Id) },
  { additionalProperties: false },
)
export type DocumentSearchQuery = Static<typeof DocumentSearchQuery>

export const DocumentSearchResult = Type.Object({
  document: MailDocument,
  rank: Type.Number(),
  /** The matching passage in plain-text parts; `match: true` parts are the words found (shown highlighted). */
  excerpt: Type.Array(Type.Object({ text: Type.String(), match: Type.Boolean() })),
})
export type DocumentSearchResult = Static<typeof DocumentSearchResult>
export const DocumentSearchReply = Type.Object({ results: Type.Array(DocumentSearchResult) })
export type DocumentSearchReply = Static<typeof DocumentSearchReply>

export const LetterDeadline = Type.Object({
  documentId: Id,
  orderId: Id,
  sender: Type.String(),
  kind: DocumentKind,
  receivedAt: DateTime,
  date: Type.String({ format: 'date' }),
  amountCents: Nullable(Type.Integer()),
})
export type LetterDeadline = Static<typeof LetterDeadline>
export const LetterDeadlinesReply = Type.Object({ deadlines: Type.Array(LetterDeadline) })
export type LetterDeadlinesReply = Static<typeof LetterDeadlinesReply>
// --- notifications: the bell, its live stream, e-mail preferences, each letter's history
export const NotificationKind = Type.Union([
  Type.Literal('letter'),
  Type.Literal('package'),
  Type.Literal('kbis'),
  Type.Literal('invoice'),
  Type.Literal('formality'),
])
export type NotificationKind = Static<typeof NotificationKind>

export const PortalNotification = Type.Object({
  id: Id,
  kind: NotificationKind,
  orderId: Id,
  title: Type.String(),
  body: Type.String(),
  createdAt: DateTime,
  read: Type.Boolean(),
  /** A portal path, e.g. '/mes-courriers/courriers?domiciliation=2&courrier=12'. */
  link: Type.String(),
})
export type PortalNotification = Static<typeof PortalNotification>

export const NotificationList = Type.Object({ unread: Type.Integer({ minimum: 0 }), notifications: Type.Array(PortalNotification) })
export type NotificationList = Static<typeof NotificationList>

export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) })
export type UnreadCount = Static<typeof UnreadCount>

/** No query at all: the default of every route that declares none (server/http/define-route.ts); the stream's token travels in the apiToken header, never in the URL. */
export const NoQuery = Type.Object({}, { additionalProperties: false })

export const EmailPreference = Type.Union([Type.Literal('each'), Type.Literal('digest'), Type.Literal('none')])
export type EmailPreference = Static<typeof EmailPreference>
export const NotificationPreferences = Type.Object({ email: EmailPreference }, { additionalProperties: false })
export type NotificationPreferences = Static<typeof NotificationPreferences>

export const LetterEventKind = Type.Union([
  Type.Literal('received'),
  Type.Literal('scanned'),
  Type.Literal('opened'),
  Type.Literal('emailed'),
  Type.Literal('moved'),
  Type.Literal('forwarded'),
])
export type LetterEventKind = Static<typeof LetterEventKind>
export const LetterEvent = Type.Object({
  kind: LetterEventKind,
  at: DateTime,
  /** "vous", the name of the person who did it, or null for the provider. */
  actor: Nullable(Type.String()),
  /** The e-mail address a letter was sent to, the folder it was filed in. */
  detail: Nullable(Type.String()),
})
export type LetterEvent = Static<typeof LetterEvent>
export const LetterHistory = Type.Object({ events: Type.Array(LetterEvent) })
export type LetterHistory = Static<typeof LetterHistory>

/** Where the provider sent the paper letter on: shown in its history as "Réexpédié à {address}" (one line; not blank: the handler). */
export const LetterForwardedBody = Type.Object({ address: Line({ minLength: 3, maxLength: 300 }) }, { additionalProperties: false })
export type LetterForwardedBody = Static<typeof LetterForwardedBody>
export const LetterForwardedReply = Type.Object({ documentId: Id, forwardedAt: DateTime })
export type LetterForwardedReply = Static<typeof LetterForwardedReply>
export const KbisStatusBody = Type.Object({ status: Type.Literal('validé') }, { additionalProperties: false })
export type KbisStatusBody = Static<typeof KbisStatusBody>
export const KbisStatusReply = Type.Object({ contractId: Id, orderId: Id, validatedAt: DateTime })
export type KbisStatusReply = Static<typeof KbisStatusReply>
