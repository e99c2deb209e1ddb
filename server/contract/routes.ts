// The route table of the provider API (spec §7): one entry per call, with its exact method and path.
// The server registers its handlers against it, the OpenAPI document and the access-control test
// matrix are generated from it, and the SPA's client takes its types from it (type-only import).
import { Type, type TSchema } from 'typebox'
import * as S from './schemas.ts'

export type Auth =
  | 'none' // no token at all
  | 'apiToken' // header `apiToken: <token>`
  | 'bearer' // header `Authorization: Bearer <token>` (contract calls)
  | 'operator' // header `Authorization: Bearer <OPERATOR_TOKEN>` (the provider's operators)

/** Who may use a route that names an order (directly or through a document, folder…). */
export type Access = 'owner' | 'member'

export interface RouteSchema {
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  response: Record<number, TSchema>
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** OpenAPI-style path: `{name}` is a parameter, every other character is literal (`:` included). */
  path: string
  auth: Auth
  /** owner: only the order's owner; member: the owner and the collaborators of a shared order. */
  access?: Access
  /** json (default), file (answers a PDF), multipart (form upload), stream (Server-Sent Events, notifications). */
  kind?: 'json' | 'file' | 'multipart' | 'stream'
  /** mail pipeline (issue 14): what a file route answers when it is not a PDF. */
  fileType?: string
  summary: string
  tags: string[]
  schema: RouteSchema
  /**
   * A write that stores something, limited per signed-in user: past this many successful calls an hour, a French 429
   * and nothing done (server/http/define-route.ts counts a call once it has succeeded). The access tests check it.
   */
  perUserHourly?: number
}

const ok = <T extends TSchema>(schema: T) => ({ 200: schema })
const PdfFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })

export const routes = {
  // --- Authentication and account
  login: {
    method: 'POST', path: '/api/login', auth: 'none', tags: ['Compte'],
    summary: 'Se connecter : answers the user object with its apiToken.',
    schema: { body: S.LoginBody, response: ok(S.AuthUser) },
  },
  resetPasswordRequest: {
    method: 'POST', path: '/reset-password-request', auth: 'none', tags: ['Compte'],
    summary: 'Ask for a password-reset e-mail; always the same answer.',
    schema: { body: S.ResetPasswordRequestBody, response: ok(S.MessageReply) },
  },
  resetPassword: {
    method: 'POST', path: '/reset-password', auth: 'none', tags: ['Compte'],
    summary: 'Set a new password with a single-use token.',
    schema: { body: S.ResetPasswordBody, response: ok(S.MessageReply) },
  },
  currentUser: {
    method: 'GET', path: '/api-protected/user/me', auth: 'apiToken', tags: ['Compte'],
    summary: 'The signed-in user.',
    schema: { response: ok(S.User) },
  },
  contracts: {
    method: 'GET', path: '/api-protected/contracts', auth: 'bearer', tags: ['Contrats'],
    summary: "The contracts of the user's own orders.",
    schema: { response: ok(Type.Array(S.Contract)) },
  },
  updateEmail: {
    method: 'PUT', path: '/api-protected/users/me/email', auth: 'apiToken', tags: ['Compte'],
    summary: 'Change the e-mail address.',
    schema: { body: S.UpdateEmailBody, response: ok(S.User) },
  },
  updatePassword: {
    method: 'PUT', path: '/api-protected/users/me/password', auth: 'apiToken', tags: ['Compte'],
    summary: 'Change the password (current and new).',
    schema: { body: S.UpdatePasswordBody, response: ok(S.MessageReply) },
  },
  // « Ce n’était pas vous ? » (beyond the spec): the link mailed to the address left at each change gives the account back
  revertEmailChange: {
    method: 'POST', path: '/api/email-change-reverts/{token}', auth: 'none', tags: ['Compte'],
    summary: 'Undo an e-mail change with the link mailed to the former address: that address comes back, every session, passkey and reset link ends, and a reset link is mailed to it (404 unknown, 410 used or expired, 409 the address taken meanwhile).',
    schema: { params: S.EmailChangeRevertParams, response: ok(S.MessageReply) },
  },
  // --- people: invitation links, sessions ("Appareils connectés"), passkeys ("Clés d'accès")
  invitation: {
    method: 'GET', path: '/api/invitations/{token}', auth: 'none', tags: ['Collaborateurs'],
    summary: "What an invitation link's holder sees before accepting: the order, who invited, whether the address has an account (410 once expired or used).",
    schema: { params: S.InvitationParams, response: ok(S.InvitationInfo) },
  },
  createInvitationAccount: {
    method: 'POST', path: '/api/invitations/{token}/account', auth: 'none', tags: ['Collaborateurs'],
    summary: 'Accept an invitation by creating the account of the invited address: signed in at once, the order shared.',
    schema: { params: S.InvitationParams, body: S.InvitationAccountBody, response: ok(S.InvitationAccountReply) },
  },
  acceptInvitation: {
    method: 'POST', path: '/api-protected/invitations/{token}/accept', auth: 'apiToken', tags: ['Collaborateurs'],
    summary: 'Accept an invitation with the signed-in account of the invited address: access to the order starts now.',
    schema: { params: S.InvitationParams, response: ok(S.InvitationAccepted) },
  },
  sessions: {
    method: 'GET', path: '/api-protected/users/me/sessions', auth: 'apiToken', tags: ['Compte'],
    summary: "The user's signed-in devices (browser, last use), this one flagged current.",
    schema: { response: ok(Type.Array(S.Session)) },
  },
  signOutOtherSessions: {
    method: 'DELETE', path: '/api-protected/users/me/sessions', auth: 'apiToken', tags: ['Compte'],
    summary: 'Sign out every other device; this session stays.',
    schema: { response: ok(S.SignedOutReply) },
  },
  signOut: {
    method: 'DELETE', path: '/api-protected/users/me/sessions/current', auth: 'apiToken', tags: ['Compte'],
    summary: "Sign out this device: its session ends here (the SPA's « Se déconnecter »), not only in the browser.",
    schema: { response: ok(S.MessageReply) },
  },
  passkeys: {
    method: 'GET', path: '/api-protected/users/me/passkeys', auth: 'apiToken', tags: ['Compte'],
    summary: "The user's passkeys (name, added, last used).",
    schema: { response: ok(Type.Array(S.Passkey)) },
  },
  passkeyRegistrationOptions: {
    method: 'POST', path: '/api-protected/users/me/passkeys/registration-options', auth: 'apiToken', tags: ['Compte'],
    summary: 'Start adding a passkey: WebAuthn creation options with a single-use challenge (5 minutes).',
    schema: { response: ok(S.WebAuthnOptions) },
    perUserHourly: 20,
  },
  registerPasskey: {
    method: 'POST', path: '/api-protected/users/me/passkeys', auth: 'apiToken', tags: ['Compte'],
    summary: "Finish adding a passkey: the browser's answer, checked against the stored challenge.",
    schema: { body: S.PasskeyRegistrationBody, response: ok(S.Passkey) },
    perUserHourly: 20,
  },
  renamePasskey: {
    method: 'PUT', path: '/api-protected/users/me/passkeys/{id}', auth: 'apiToken', tags: ['Compte'],
    summary: 'Rename a passkey.',
    schema: { params: S.IdParams, body: S.PasskeyRenameBody, response: ok(S.Passkey) },
  },
  deletePasskey: {
    method: 'DELETE', path: '/api-protected/users/me/passkeys/{id}', auth: 'apiToken', tags: ['Compte'],
    summary: 'Remove a passkey (the password stays).',
    schema: { params: S.IdParams, response: ok(S.MessageReply) },
  },
  passkeyLoginOptions: {
    method: 'POST', path: '/api/passkeys/login-options', auth: 'none', tags: ['Compte'],
    summary: 'Start signing in with a passkey: WebAuthn request options with a single-use challenge (5 minutes).',
    schema: { response: ok(S.WebAuthnOptions) },
  },
  passkeyLogin: {
    method: 'POST', path: '/api/passkeys/login', auth: 'none', tags: ['Compte'],
    summary: "Sign in with a passkey: the browser's signed answer; answers the user object with its apiToken, as login does.",
    schema: { body: S.PasskeyLoginBody, response: ok(S.AuthUser) },
  },
  // --- (end of people)
  unpaidStatus: {
    method: 'GET', path: '/api-protected/user-unpaid-status', auth: 'apiToken', tags: ['Factures'],
    summary: 'Whether the user has unpaid invoices.',
    schema: { response: ok(S.UnpaidStatus) },
  },
  payUnpaidInvoice: {
    method: 'POST', path: '/api-protected/pay-unpaid-invoice', auth: 'apiToken', access: 'owner', tags: ['Factures'],
    summary: 'Pay the unpaid invoices (of one order, or all) with the card on file.',
    schema: { body: S.PayUnpaidBody, response: ok(S.PayUnpaidReply) },
  },

  // --- Orders, problems, invitations
  myOrders: {
    method: 'GET', path: '/api-protected/my-domiciliation-orders', auth: 'apiToken', tags: ['Domiciliations'],
    summary: 'The orders the user owns and those shared with them.',
    schema: { response: ok(Type.Array(S.Order)) },
  },
  sendProblem: {
    method: 'POST', path: '/api-protected/domiciliation-orders/{id}:send-problem', auth: 'apiToken', access: 'member', tags: ['Domiciliations'],
    summary: 'Report a problem about an order.',
    schema: { params: S.IdParams, body: S.SendProblemBody, response: ok(S.MessageReply) },
  },
  sendInvite: {
    method: 'POST', path: '/api-protected/send-invite', auth: 'apiToken', tags: ['Domiciliations'],
    summary: 'Recommend the service to someone (referral e-mail).',
    schema: { body: S.SendInviteBody, response: ok(S.MessageReply) },
  },
  isAttenteCourrierOrFinalise: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/is-attente-courrier-or-finalise', auth: 'apiToken', access: 'member', tags: ['Domiciliations'],
    summary: 'Whether the order is waiting for mail or finalised.',
    schema: { params: S.IdParams, response: ok(S.BooleanResult) },
  },
  isCompleteKbis: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/is-complete-kbis', auth: 'apiToken', access: 'member', tags: ['Domiciliations'],
    summary: 'Whether the identity-registration documents are complete.',
    schema: { params: S.IdParams, response: ok(S.BooleanResult) },
  },
  isWaitingContract: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/is-waiting-contract', auth: 'apiToken', access: 'member', tags: ['Domiciliations'],
    summary: 'Whether the order is waiting for its contract.',
    schema: { params: S.IdParams, response: ok(S.BooleanResult) },
  },
  uploadedDocuments: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/uploaded-documents', auth: 'apiToken', access: 'owner', tags: ['Domiciliations'],
    summary: 'The identity documents uploaded for the order.',
    schema: { params: S.IdParams, response: ok(Type.Array(S.UploadedDocument)) },
  },
  shares: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/shares', auth: 'apiToken', access: 'owner', tags: ['Collaborateurs'],
    summary: 'The collaborators the order is shared with.',
    schema: { params: S.IdParams, response: ok(Type.Array(S.Share)) },
  },
  deleteShare: {
    method: 'DELETE', path: '/api-protected/domiciliation-orders/{id}/share-delete/{shareId}', auth: 'apiToken', access: 'owner', tags: ['Collaborateurs'],
    summary: 'Stop sharing the order with a collaborator.',
    schema: { params: S.ShareParams, response: ok(S.MessageReply) },
  },
  invite: {
    method: 'POST', path: '/api-protected/domiciliation-orders/{id}/invite', auth: 'apiToken', access: 'owner', tags: ['Collaborateurs'],
    summary: 'Share the order with collaborators, by e-mail.',
    schema: { params: S.IdParams, body: S.InviteBody, response: ok(Type.Array(S.Share)) },
  },
  mandataires: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires', auth: 'apiToken', access: 'owner', tags: ['Représentants'],
    summary: 'The authorised recipients (mandataires) of the order.',
    schema: { params: S.IdParams, response: ok(Type.Array(S.Mandataire)) },
  },
  deleteMandataire: {
    method: 'DELETE', path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires-delete/{mandataireId}', auth: 'apiToken', access: 'owner', tags: ['Représentants'],
    summary: 'Remove an authorised recipient.',
    schema: { params: S.MandataireParams, response: ok(S.MessageReply) },
  },
  addMandataire: {
    method: 'POST', path: '/api-protected/domiciliation-orders/{id}/destinataire-mandataires', auth: 'apiToken', access: 'owner', tags: ['Représentants'],
    summary: 'Add an authorised recipient; refused (409) when the order has one of the same first and last name (case ignored).',
    schema: { params: S.IdParams, body: S.MandataireBody, response: ok(S.Mandataire) },
    perUserHourly: 30,
  },
  setQonto: {
    method: 'POST', path: '/api/domiciliation-orders/{id}:set-qonto', auth: 'apiToken', access: 'owner', tags: ['Suivi comptable'],
    summary: 'Interest in the Qonto bank partner.',
    schema: { params: S.IdParams, body: S.SetQontoBody, response: ok(S.QontoReply) },
  },
  setShine: {
    method: 'POST', path: '/api/domiciliation-orders/{id}:set-shine', auth: 'apiToken', access: 'owner', tags: ['Suivi comptable'],
    summary: 'Interest in the Shine bank partner.',
    schema: { params: S.IdParams, body: S.SetShineBody, response: ok(S.ShineReply) },
  },
  wantComptable: {
    method: 'GET', path: '/api-protected/want-comptable/{id}', auth: 'apiToken', access: 'owner', tags: ['Suivi comptable'],
    summary: "Register the order's interest in the accountant offer (idempotent).",
    schema: { params: S.IdParams, response: ok(S.WantComptableReply) },
  },

  // --- Mail
  packages: {
    method: 'GET', path: '/api-protected/user-packages', auth: 'apiToken', access: 'owner', tags: ['Courrier'],
    summary: "Packages of the user's own orders (one order with orderId).",
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.Package)) },
  },
  sharePackages: {
    method: 'GET', path: '/api-protected/user-packages/share', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Packages of the orders shared with the user (one order with orderId).',
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.Package)) },
  },
  courierRequests: {
    method: 'GET', path: '/api-protected/user-demandes-courrier', auth: 'apiToken', access: 'owner', tags: ['Courrier'],
    summary: "Courier requests of the user's own orders.",
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.CourierRequest)) },
  },
  shareCourierRequests: {
    method: 'GET', path: '/api-protected/user-demandes-courrier/share', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Courier requests of the orders shared with the user.',
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.CourierRequest)) },
  },
  removeCourierRequest: {
    method: 'POST', path: '/api-protected/user-demandes-courrier/remove', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Cancel a pending courier request.',
    schema: { body: S.RemoveCourierRequestBody, response: ok(S.MessageReply) },
  },
  documents: {
    method: 'GET', path: '/api-protected/documents', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Scanned letters (of one order with orderId, else of every order the user can see).',
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.MailDocument)) },
  },
  updateDocument: {
    method: 'PUT', path: '/api-protected/documents/{id}', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Mark a letter read or unread, or file it in a folder.',
    schema: { params: S.IdParams, body: S.DocumentUpdateBody, response: ok(S.MailDocument) },
  },
  documentFile: {
    method: 'GET', path: '/api-protected/documents/{id}/file', auth: 'apiToken', access: 'member', kind: 'file', tags: ['Courrier'],
    summary: 'The scan of a letter, as a PDF.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  sendDocuments: {
    method: 'POST', path: '/api-protected/send-documents', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'E-mail letters to a recipient.',
    schema: { body: S.SendDocumentsBody, response: ok(S.MessageReply) },
  },
  folders: {
    method: 'GET', path: '/api-protected/folders', auth: 'apiToken', access: 'owner', tags: ['Courrier'],
    summary: "Folders of the user's own orders (one order with domiciliationOrderId).",
    schema: { querystring: S.FoldersQuery, response: ok(Type.Array(S.Folder)) },
  },
  shareFolders: {
    method: 'GET', path: '/api-protected/share-folders', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Folders of the orders shared with the user.',
    schema: { response: ok(Type.Array(S.Folder)) },
  },
  createFolder: {
    method: 'POST', path: '/api-protected/folders', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Create a folder.',
    schema: { body: S.FolderCreateBody, response: ok(S.Folder) },
    perUserHourly: 60,
  },
  updateFolder: {
    method: 'PUT', path: '/api-protected/folders/{id}', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Rename a folder.',
    schema: { params: S.IdParams, body: S.FolderUpdateBody, response: ok(S.Folder) },
  },
  deleteFolder: {
    method: 'DELETE', path: '/api-protected/folders/{id}', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'Delete a folder; its letters stay, unfiled.',
    schema: { params: S.IdParams, response: ok(S.MessageReply) },
  },

  // --- Subscription and payment
  subscriptionInformations: {
    method: 'GET', path: '/stripe/subscription-informations/{orderId}', auth: 'none', tags: ['Abonnement'],
    summary: 'The subscription of an order; key = SHA-1 of order id followed by subscription id.',
    schema: { params: S.OrderIdParams, querystring: S.SubscriptionInfoQuery, response: ok(S.Subscription) },
  },
  addOptionSubscription: {
    method: 'POST', path: '/stripe/add-option-subscription', auth: 'none', tags: ['Abonnement'],
    summary: 'Confirm an option the owner requested with :add-option shortly before.',
    schema: { body: S.AddOptionSubscriptionBody, response: ok(S.Subscription) },
  },
  addOption: {
    method: 'POST', path: '/api-protected/domiciliation-orders/{id}:add-option', auth: 'apiToken', access: 'owner', tags: ['Abonnement'],
    summary: 'Request an option for the subscription (confirmed by add-option-subscription).',
    schema: { params: S.IdParams, body: S.AddOptionBody, response: ok(S.AddOptionReply) },
  },
  paymentMethod: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/payment-method', auth: 'apiToken', access: 'owner', tags: ['Paiement'],
    summary: "The card paying for the order's subscription.",
    schema: { params: S.IdParams, response: ok(S.MaybePaymentMethod) },
  },
  creditCard: {
    method: 'GET', path: '/api-protected/credit-card', auth: 'apiToken', tags: ['Paiement'],
    summary: "The user's default card.",
    schema: { response: ok(S.MaybePaymentMethod) },
  },
  updatePaymentMethod: {
    method: 'PUT', path: '/api-protected/domiciliation-orders/{id}/payment-method', auth: 'apiToken', access: 'owner', tags: ['Paiement'],
    summary: "Replace the card paying for the order's subscription.",
    schema: { params: S.IdParams, body: S.PaymentMethodBody, response: ok(S.PaymentMethod) },
  },
  updateCreditCardWeb: {
    method: 'PUT', path: '/api-protected/credit-card-web', auth: 'apiToken', tags: ['Paiement'],
    summary: "Replace the user's default card.",
    schema: { body: S.PaymentMethodBody, response: ok(S.PaymentMethod) },
  },
  terminationRequest: {
    method: 'POST', path: '/api-protected/termination-requests', auth: 'apiToken', access: 'owner', tags: ['Abonnement'],
    summary: 'Request the termination of a domiciliation.',
    schema: { body: S.TerminationRequestBody, response: ok(S.TerminationRequestReply) },
    perUserHourly: 20,
  },

  // --- billing (issue 10): options on offer, termination status, certificates and their public check, the contract PDF
  subscriptionOptions: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/subscription-options', auth: 'apiToken', access: 'owner', tags: ['Abonnement'],
    summary: 'The options the subscription does not hold yet, with their price at its interval.',
    schema: { params: S.IdParams, response: ok(Type.Array(S.SubscriptionOption)) },
  },
  terminationStatus: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/termination-request', auth: 'apiToken', access: 'owner', tags: ['Abonnement'],
    summary: "The order's termination request if one was made, and the earliest date one may take effect.",
    schema: { params: S.IdParams, response: ok(S.TerminationStatus) },
  },
  issueCertificate: {
    method: 'POST', path: '/api-protected/domiciliation-orders/{id}/certificates', auth: 'apiToken', access: 'owner', tags: ['Attestations'],
    summary: 'Issue a domiciliation certificate (a verification code, its QR code, the PDF).',
    schema: { params: S.IdParams, response: ok(S.Certificate) },
    perUserHourly: 20,
  },
  certificateFile: {
    method: 'GET', path: '/api-protected/certificates/{code}/file', auth: 'apiToken', access: 'owner', kind: 'file', tags: ['Attestations'],
    summary: 'A certificate issued to the user, as a PDF.',
    schema: { params: S.CodeParams, response: ok(PdfFile) },
  },
  certificateVerification: {
    method: 'GET', path: '/api/certificates/{code}', auth: 'none', tags: ['Attestations'],
    summary: 'Public check of a certificate (rate-limited): valid with the company and issue date, or no longer valid; 404 for an unknown code.',
    schema: { params: S.CodeParams, response: ok(S.CertificateVerification) },
  },
  contractFile: {
    method: 'GET', path: '/api-protected/contracts/{id}/file', auth: 'bearer', access: 'owner', kind: 'file', tags: ['Contrats'],
    summary: 'The domiciliation contract, as a PDF.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  // billing: the hosted card element of the real provider (STRIPE_SECRET_KEY); the test provider answers {provider: 'test'}.
  cardSetup: {
    method: 'POST', path: '/api-protected/card-setup-intents', auth: 'apiToken', access: 'owner', tags: ['Paiement'],
    summary: "Start taking a card in Stripe's hosted element: a SetupIntent of the user's customer (the order's when orderId is given). With the local test provider, {provider: 'test'}: its own card form takes the card.",
    schema: { body: S.CardSetupBody, response: ok(S.CardSetup) },
    perUserHourly: 30,
  },

  // --- Invoices
  invoiceYears: {
    method: 'GET', path: '/api-protected/invoices/years', auth: 'apiToken', tags: ['Factures'],
    summary: "Years with invoices on the user's own orders.",
    schema: { response: ok(Type.Array(Type.Integer())) },
  },
  shareInvoiceYears: {
    method: 'GET', path: '/api-protected/invoices/years/share', auth: 'apiToken', tags: ['Factures'],
    summary: 'Years with invoices on the orders shared with the user.',
    schema: { response: ok(Type.Array(Type.Integer())) },
  },
  invoices: {
    method: 'GET', path: '/api-protected/invoices', auth: 'apiToken', tags: ['Factures'],
    summary: "Invoices of the user's own orders (of one year with year).",
    schema: { querystring: S.YearQuery, response: ok(Type.Array(S.Invoice)) },
  },
  shareInvoices: {
    method: 'GET', path: '/api-protected/invoices/share', auth: 'apiToken', tags: ['Factures'],
    summary: 'Invoices of the orders shared with the user.',
    schema: { querystring: S.YearQuery, response: ok(Type.Array(S.Invoice)) },
  },
  creditNotesByYear: {
    method: 'GET', path: '/api-protected/creditnotes-by-year', auth: 'apiToken', tags: ['Factures'],
    summary: "Credit notes of the user's own orders (of one year with year).",
    schema: { querystring: S.YearQuery, response: ok(Type.Array(S.CreditNote)) },
  },
  shareCreditNotesByYear: {
    method: 'GET', path: '/api-protected/creditnotes-by-year/share', auth: 'apiToken', tags: ['Factures'],
    summary: 'Credit notes of the orders shared with the user.',
    schema: { querystring: S.YearQuery, response: ok(Type.Array(S.CreditNote)) },
  },
  calendarInvoices: {
    method: 'GET', path: '/api-protected/invoices/cal', auth: 'apiToken', tags: ['Factures'],
    summary: 'Meeting-room bookings and their invoices.',
    schema: { response: ok(Type.Array(S.CalendarInvoice)) },
  },
  invoiceFile: {
    method: 'GET', path: '/api-protected/invoices/{id}/file', auth: 'apiToken', kind: 'file', tags: ['Factures'],
    summary: 'An invoice, as a PDF.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  creditNoteFile: {
    method: 'GET', path: '/api-protected/creditnotes/{id}/file', auth: 'apiToken', kind: 'file', tags: ['Factures'],
    summary: 'A credit note, as a PDF.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  sendDextInvoices: {
    method: 'POST', path: '/api-protected/send-dext-invoices', auth: 'apiToken', tags: ['Factures'],
    summary: "Send invoices and letters to the customer's accounting inbox (Dext).",
    schema: { body: S.SendDextBody, response: ok(S.SendDextReply) },
  },

  // --- Contracts and identity
  updateContract: {
    method: 'PUT', path: '/api-protected/contracts/{id}', auth: 'bearer', access: 'owner', tags: ['Contrats'],
    summary: 'Update a contract: the Kbis (a data URL), the forwarding address, or both.',
    schema: { params: S.IdParams, body: S.ContractUpdateBody, response: ok(S.Contract) },
  },
  contractKbis: {
    method: 'GET', path: '/api-protected/contracts/{id}/kbis', auth: 'bearer', access: 'owner', kind: 'file', tags: ['Contrats'],
    summary: 'The Kbis filed for a contract, as a PDF.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  uploadIdentity: {
    method: 'POST', path: '/step-upload-identity', auth: 'apiToken', access: 'owner', kind: 'multipart', tags: ['Contrats'],
    summary: 'Upload the missing identity documents (multipart: orderId, then one file per document type).',
    schema: { response: ok(S.IdentityUploadReply) },
  },

  // --- Operators: the provider's staff add scanned letters, packages and invoices (Authorization: Bearer <OPERATOR_TOKEN>)
  operatorOrders: {
    method: 'GET', path: '/api/operator/domiciliation-orders', auth: 'operator', tags: ['Opérateurs'],
    summary: 'Every domiciliation order with its owner, to find the id to ingest mail for.',
    schema: { response: ok(Type.Array(S.OperatorOrder)) },
  },
  operatorAddDocument: {
    method: 'POST', path: '/api/operator/domiciliation-orders/{id}/documents', auth: 'operator', tags: ['Opérateurs'],
    summary: 'Add a scanned letter (a PDF as a data URL, checked by content) and e-mail "Nouveau courrier de {sender}" to the owner and the collaborators. With an `Idempotency-Key` header, a retry with the same key makes and sends nothing again and answers the first letter (`Idempotent-Replayed: true`).',
    schema: { params: S.IdParams, body: S.OperatorDocumentBody, response: ok(S.OperatorDocumentReply) },
  },
  operatorAddPackage: {
    method: 'POST', path: '/api/operator/domiciliation-orders/{id}/packages', auth: 'operator', tags: ['Opérateurs'],
    summary: "Register a package received for an order (status 'À retirer'). With an `Idempotency-Key` header, a retry with the same key answers the first package and makes nothing.",
    schema: { params: S.IdParams, body: S.OperatorPackageBody, response: ok(S.Package) },
  },
  operatorAddInvoice: {
    method: 'POST', path: '/api/operator/domiciliation-orders/{id}/invoices', auth: 'operator', tags: ['Opérateurs'],
    summary: 'Issue an invoice for an order (its PDF as a data URL, checked by content; its number unique): listed on /factures and announced in the bell ("Nouvelle facture"). With an `Idempotency-Key` header, a retry with the same key answers the first invoice and makes nothing (`Idempotent-Replayed: true`); without one, a retry meets 409 like another invoice of that number.',
    schema: { params: S.IdParams, body: S.OperatorInvoiceBody, response: ok(S.Invoice) },
  },

  // --- Company area: legal submissions (customers order, the provider's jurists move them on)
  legalSubmissions: {
    method: 'GET', path: '/api-protected/legal-submissions', auth: 'apiToken', access: 'member', tags: ['Formalités'],
    summary: 'The legal formalities requested for one order (orderId), or for every order the user reaches, newest first.',
    schema: { querystring: S.OrderIdQuery, response: ok(Type.Array(S.LegalSubmission)) },
  },
  createLegalSubmission: {
    method: 'POST', path: '/api-protected/legal-submissions', auth: 'apiToken', access: 'owner', tags: ['Formalités'],
    summary: "Order a legal formality for an order (status 'Reçue'); refused (409) when the order checks do not allow it or the same one is under way.",
    schema: { body: S.LegalSubmissionBody, response: ok(S.LegalSubmission) },
    perUserHourly: 20,
  },
  operatorLegalSubmissions: {
    method: 'GET', path: '/api/operator/legal-submissions', auth: 'operator', tags: ['Opérateurs'],
    summary: 'Every legal formality requested, newest first, for the jurists.',
    schema: { response: ok(Type.Array(S.LegalSubmission)) },
  },
  operatorUpdateLegalSubmission: {
    method: 'PUT', path: '/api/operator/legal-submissions/{id}/status', auth: 'operator', tags: ['Opérateurs'],
    summary: "Move a legal formality on ('En cours', 'Déposée au greffe', 'Terminée'; never back) and e-mail the order's owner.",
    schema: { params: S.IdParams, body: S.LegalSubmissionStatusBody, response: ok(S.LegalSubmission) },
  },

  // --- mail pipeline (issue 14)
  documentPage: {
    method: 'GET', path: '/api-protected/documents/{id}/pages/{page}', auth: 'apiToken', access: 'member', kind: 'file', fileType: 'image/webp', tags: ['Courrier'],
    summary: 'One page of a letter as an image (WebP, about 1240 px wide), page 1 first; 404 until the pages are rendered.',
    schema: { params: S.DocumentPageParams, response: ok(Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })) },
  },
  documentSearch: {
    method: 'GET', path: '/api-protected/documents/search', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: "Full-text search (French, accents ignored) of the letters' sender, kind and text, best first, at most 50, with the matching passage.",
    schema: { querystring: S.DocumentSearchQuery, response: ok(S.DocumentSearchReply) },
  },
  letterDeadlines: {
    method: 'GET', path: '/api-protected/letter-deadlines', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'The deadlines found in the letters (of one order with orderId, else of every order the user can see), by date.',
    schema: { querystring: S.OrderIdQuery, response: ok(S.LetterDeadlinesReply) },
  },

  // --- notifications (issue 14)
  notifications: {
    method: 'GET', path: '/api-protected/notifications', auth: 'apiToken', tags: ['Notifications'],
    summary: 'What happened on the orders the user owns or that are shared with him: unread first, newest first, at most 50, with the unread count.',
    schema: { response: ok(S.NotificationList) },
  },
  readNotification: {
    method: 'POST', path: '/api-protected/notifications/{id}/read', auth: 'apiToken', tags: ['Notifications'],
    summary: 'Mark one notification read for the signed-in user (each person has his own read marks).',
    schema: { params: S.IdParams, response: ok(S.UnreadCount) },
  },
  readAllNotifications: {
    method: 'POST', path: '/api-protected/notifications/read-all', auth: 'apiToken', tags: ['Notifications'],
    summary: 'Mark every notification read for the signed-in user.',
    schema: { response: ok(S.UnreadCount) },
  },
  notificationStream: {
    method: 'GET', path: '/api-protected/notifications/stream', auth: 'apiToken', kind: 'stream', tags: ['Notifications'],
    summary: 'Server-Sent Events: `event: notification` with one notification as JSON (its `id:` the notification\'s), a comment heartbeat every 25 s. Fed by PostgreSQL LISTEN/NOTIFY, so events raised on any server instance arrive. With a `Last-Event-ID` header (a notification id), what was raised after it is sent first. At most 5 streams per user, on every server instance together: a new one ends the oldest, which is sent `event: replaced` (its `data` a French `message`, with `retry: 300000`) before it ends; the portal then waits until its tab is looked at again before following again.',
    schema: { querystring: S.NoQuery, response: ok(Type.String()) },
  },
  notificationPreferences: {
    method: 'GET', path: '/api-protected/domiciliation-orders/{id}/notification-preferences', auth: 'apiToken', access: 'member', tags: ['Notifications'],
    summary: "The signed-in user's e-mail choice for one order: each event, a daily digest, or none.",
    schema: { params: S.IdParams, response: ok(S.NotificationPreferences) },
  },
  updateNotificationPreferences: {
    method: 'PUT', path: '/api-protected/domiciliation-orders/{id}/notification-preferences', auth: 'apiToken', access: 'member', tags: ['Notifications'],
    summary: "Set the signed-in user's e-mail choice for one order.",
    schema: { params: S.IdParams, body: S.NotificationPreferences, response: ok(S.NotificationPreferences) },
  },
  letterHistory: {
    method: 'GET', path: '/api-protected/documents/{id}/history', auth: 'apiToken', access: 'member', tags: ['Courrier'],
    summary: 'A letter\'s history, oldest first: received, scanned, opened (by whom), sent by e-mail (to whom), filed, forwarded.',
    schema: { params: S.IdParams, response: ok(S.LetterHistory) },
  },
  operatorLetterForwarded: {
    method: 'POST', path: '/api/operator/documents/{id}/forwarded', auth: 'operator', tags: ['Opérateurs'],
    summary: "Record that a letter was forwarded (sent on by post) to an address: it joins the letter's history ('Réexpédié à …').",
    schema: { params: S.IdParams, body: S.LetterForwardedBody, response: ok(S.LetterForwardedReply) },
  },
  operatorKbis: {
    method: 'GET', path: '/api/operator/contracts/{id}/kbis', auth: 'operator', kind: 'file', tags: ['Opérateurs'],
    summary: 'The Kbis filed for a contract, as a PDF, to be checked; its `ETag` names this very file, for the validation\'s `If-Match`.',
    schema: { params: S.IdParams, response: ok(PdfFile) },
  },
  operatorKbisStatus: {
    method: 'PUT', path: '/api/operator/contracts/{id}/kbis-status', auth: 'operator', tags: ['Opérateurs'],
    summary: 'Validate the Kbis a customer filed for a contract, the one read: `If-Match` with the `ETag` of GET …/kbis (428 without it, 412 when the customer has filed another since); 409 when none is filed or it is already validated; the order\'s people are notified.',
    schema: { params: S.IdParams, body: S.KbisStatusBody, response: ok(S.KbisStatusReply) },
  },

  // --- Operations
  health: {
    method: 'GET', path: '/health', auth: 'none', tags: ['Exploitation'],
    summary: 'Liveness and database check for load balancers (503 when the database does not answer).',
    schema: { response: { 200: S.HealthReply, 503: S.ApiErrorBody } },
  },
} as const satisfies Record<string, RouteDef>

export type Routes = typeof routes
export type RouteName = keyof Routes
