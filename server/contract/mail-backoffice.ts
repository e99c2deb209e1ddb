// The mail area, the back office's side: the mail room (Numérisation, Colis, Réexpéditions), for operators with the
// Courrier role (and administrators). Schemas and route entries, spread into the route table by routes.ts; the
// back office's SPA takes its client types from them.
import { Type, type Static } from 'typebox'
import { DateTime, FreeText, Id, IdParams, Line, MessageReply, Nullable, ShortText } from './common.ts'
import { DocumentKind, DocumentPageParams, MailDocument, Package } from './mail.ts'
import { ok, PdfFile, type OperatorRole, type RouteDef } from './route-def.ts'
import { TRACKING_NUMBER_PATTERN } from './rules/carriers.ts'

const MAIL_ROOM: readonly OperatorRole[] = ['admin', 'courrier']
const TAG = 'Back-office : courrier'

/** A PDF, JPEG or PNG as a data URL (data:application/pdf;base64,…), 10 MB at most once decoded. */
const DataUrlFile = Type.String({ minLength: 1, maxLength: 15_000_000 })
const ImageFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })

// --- The orders an operator picks from

export const MailRoomOrdersQuery = Type.Object(
  {
    /** Words of the company name or the owner's name, a SIREN (spaces or not) or an order number; absent, the first ones by name. */
    q: Type.Optional(Line({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
)
export type MailRoomOrdersQuery = Static<typeof MailRoomOrdersQuery>

export const MailRoomOrder = Type.Object({
  id: Id,
  raisonSociale: Type.String(),
  siren: Nullable(Type.String()),
  ownerName: Type.String(),
  /** The day the domiciliation ends or ended (YYYY-MM-DD, Paris), from its termination request; null when none. */
  terminationDate: Nullable(Type.String({ format: 'date' })),
  /** Past its termination date: no letter is published nor package registered for it any more. */
  terminated: Type.Boolean(),
})
export type MailRoomOrder = Static<typeof MailRoomOrder>

// --- Numérisation

export const ScanUploadBody = Type.Object(
  {
    /** The scanned file's name, shown in the queue (« scan-0042.pdf »). */
    fileName: ShortText(200),
    /** The scan: data:application/pdf;base64,… (a complete PDF of 10 MB at most, checked by its content). */
    file: DataUrlFile,
  },
  { additionalProperties: false },
)
export type ScanUploadBody = Static<typeof ScanUploadBody>

export const ScanReading = Type.Union([Type.Literal('en cours'), Type.Literal('terminée'), Type.Literal('échouée')])
export const SuggestionConfidence = Type.Union([Type.Literal('sûr'), Type.Literal('probable'), Type.Literal('possible')])

export const MailScan = Type.Object({
  id: Id,
  fileName: Type.String(),
  pages: Type.Integer({ minimum: 1 }),
  uploadedAt: DateTime,
  uploadedBy: Type.Object({ id: Id, name: Type.String() }),
  /** The pipeline's reading (page images, text layer or OCR): 'échouée' when the file could not be read (no text, no image). */
  reading: ScanReading,
  /** Page images ready (GET …/scans/{id}/pages/{page}); 0 while reading. */
  pageImages: Type.Integer({ minimum: 0 }),
  /** What the reading suggests (null while reading): the order with why (« SIREN 823 456 785 trouvé page 1 »), or none and why. */
  suggestion: Nullable(
    Type.Object({
      orderId: Nullable(Id),
      raisonSociale: Nullable(Type.String()),
      confidence: Nullable(SuggestionConfidence),
      reason: Type.String(),
    }),
  ),
  /** The sender read from the letterhead, null when none was recognised. */
  suggestedSender: Nullable(Type.String()),
  /** The order, sender and kind it will be published with: the suggestion until an operator changes them. */
  orderId: Nullable(Id),
  raisonSociale: Nullable(Type.String()),
  sender: Nullable(Type.String()),
  kind: DocumentKind,
  /** Confirmed by an operator: « Publier tous les confirmés » takes it. */
  confirmed: Type.Boolean(),
  /** Why it is « À vérifier » (no order recognised or chosen, or the order terminated); null otherwise. */
  toCheck: Nullable(Type.String()),
  /** Once published: when, by whom, and the letter it became. */
  published: Nullable(Type.Object({ at: DateTime, by: Type.String(), documentId: Id })),
})
export type MailScan = Static<typeof MailScan>

export const ScanReviewBody = Type.Object(
  {
    orderId: Id,
    sender: ShortText(200),
    kind: DocumentKind,
    /** true: ready to publish; false: kept aside (the choice saved, not confirmed). */
    confirmed: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type ScanReviewBody = Static<typeof ScanReviewBody>

export const PublishedScan = Type.Object({
  scan: MailScan,
  /** The letter as the customer's API shows it (pages and text already read: searchable at once when text was found). */
  document: MailDocument,
  /** The letter's link in the portal, as e-mailed. */
  link: Type.String(),
  /** Who was told by e-mail (« Nouveau courrier de … »). */
  notified: Type.Array(Type.String()),
})
export type PublishedScan = Static<typeof PublishedScan>

export const PublishScansBody = Type.Object(
  {
    /** The scans to publish; absent, every confirmed scan of the queue. Each is published once, by whoever takes it first. */
    scanIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true })),
  },
  { additionalProperties: false },
)
export type PublishScansBody = Static<typeof PublishScansBody>

export const PublishScansReply = Type.Object({
  published: Type.Array(PublishedScan),
  /** The scans not published by this call, each with why (published by another operator meanwhile, not confirmed…). */
  skipped: Type.Array(Type.Object({ scanId: Id, message: Type.String() })),
})
export type PublishScansReply = Static<typeof PublishScansReply>

// --- Colis

export const PackageArrivalBody = Type.Object(
  {
    orderId: Id,
    carrier: ShortText(100),
    sender: ShortText(200),
    /** A photo of the package: data:image/jpeg;base64,… (JPEG, PNG or PDF, 10 MB at most, checked by its content). */
    photo: Type.Optional(DataUrlFile),
  },
  { additionalProperties: false },
)
export type PackageArrivalBody = Static<typeof PackageArrivalBody>

export const MailRoomPackage = Type.Object({
  ...Package.properties,
  /** A photo was taken at its arrival (GET …/packages/{id}/photo). */
  hasPhoto: Type.Boolean(),
})
export type MailRoomPackage = Static<typeof MailRoomPackage>

export const WaitingPackagesQuery = Type.Object({ orderId: Type.Optional(Id) }, { additionalProperties: false })
export type WaitingPackagesQuery = Static<typeof WaitingPackagesQuery>

export const WaitingPackages = Type.Array(
  Type.Object({
    orderId: Id,
    raisonSociale: Type.String(),
    /** Oldest first. */
    packages: Type.Array(MailRoomPackage),
  }),
)
export type WaitingPackages = Static<typeof WaitingPackages>

export const PackageCollector = Type.Object({
  kind: Type.Union([Type.Literal('titulaire'), Type.Literal('mandataire')]),
  /** The representative's id (kind 'mandataire'); null for the owner. */
  mandataireId: Nullable(Id),
  name: Type.String(),
})
export type PackageCollector = Static<typeof PackageCollector>

export const HandOverBody = Type.Object(
  {
    /** Who collects it, from GET …/packages/{id}/collectors: the order's owner or one of its representatives. */
    collector: Type.Union([
      Type.Object({ kind: Type.Literal('titulaire') }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal('mandataire'), mandataireId: Id }, { additionalProperties: false }),
    ]),
    /** The operator has checked the collector's identity document: required (true). */
    identityChecked: Type.Boolean(),
    /** When it was collected; absent, now. Neither in the future nor before its arrival. */
    collectedAt: Type.Optional(DateTime),
  },
  { additionalProperties: false },
)
export type HandOverBody = Static<typeof HandOverBody>

// --- Réexpéditions

export const ForwardingLetter = Type.Object({ id: Id, sender: Type.String(), kind: DocumentKind, receivedAt: DateTime })

export const ForwardingRequest = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  createdAt: DateTime,
  letterCount: Type.Integer({ minimum: 0 }),
  /** The letters the request names (a request made before letters were named has none: its letterCount only). */
  letters: Type.Array(ForwardingLetter),
  /** The order's forwarding address, one line per part; null when the customer has none. */
  forwardingAddress: Nullable(Type.Array(Type.String(), { minItems: 1 })),
})
export type ForwardingRequest = Static<typeof ForwardingRequest>

export const ForwardingShippedBody = Type.Object(
  {
    /** The carrier: La Poste, Colissimo, Chronopost, DHL, UPS, FedEx, GLS, DPD have a tracking link; another name is kept as typed. */
    carrier: ShortText(100),
    trackingNumber: Type.String({ pattern: TRACKING_NUMBER_PATTERN, minLength: 4, maxLength: 40 }),
  },
  { additionalProperties: false },
)
export type ForwardingShippedBody = Static<typeof ForwardingShippedBody>

export const ForwardingImpossibleBody = Type.Object(
  { /** What the customer reads: why it could not be sent. */ reason: FreeText({ minLength: 3, maxLength: 500 }) },
  { additionalProperties: false },
)
export type ForwardingImpossibleBody = Static<typeof ForwardingImpossibleBody>

export const ForwardingDone = Type.Object({
  id: Id,
  orderId: Id,
  status: Type.Literal('traitée'),
  outcome: Type.Union([
    Type.Object({
      kind: Type.Literal('expédiée'),
      at: DateTime,
      carrier: Type.String(),
      trackingNumber: Type.String(),
      trackingUrl: Nullable(Type.String()),
    }),
    Type.Object({ kind: Type.Literal('impossible'), at: DateTime, reason: Type.String() }),
  ]),
})
export type ForwardingDone = Static<typeof ForwardingDone>

export const mailBackofficeRoutes = {
  mailRoomOrders: {
    method: 'GET',
    path: '/api/backoffice/mail-room/orders',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'The orders to choose from for a scan or a package, by company name, owner, SIREN or order number (50 at most, by name).',
    schema: { querystring: MailRoomOrdersQuery, response: ok(Type.Array(MailRoomOrder)) },
  },
  mailRoomUploadScan: {
    method: 'POST',
    path: '/api/backoffice/scans',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary:
      'Adds one scanned PDF to the queue (a batch is sent one request per file); checked by its content, then read in the background (text layer or OCR) and given a suggested order and sender.',
    schema: { body: ScanUploadBody, response: ok(MailScan) },
  },
  mailRoomScans: {
    method: 'GET',
    path: '/api/backoffice/scans',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'The queue shared by every operator: the scans not yet published, oldest first.',
    schema: { response: ok(Type.Array(MailScan)) },
  },
  mailRoomScan: {
    method: 'GET',
    path: '/api/backoffice/scans/{id}',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'One scan, published or not.',
    schema: { params: IdParams, response: ok(MailScan) },
  },
  mailRoomScanFile: {
    method: 'GET',
    path: '/api/backoffice/scans/{id}/file',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    kind: 'file',
    tags: [TAG],
    summary: 'The scanned PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },
  mailRoomScanPage: {
    method: 'GET',
    path: '/api/backoffice/scans/{id}/pages/{page}',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    kind: 'file',
    fileType: 'image/webp',
    tags: [TAG],
    summary: 'One page of a scan as an image (WebP, about 1240 px wide); 404 until read.',
    schema: { params: DocumentPageParams, response: ok(ImageFile) },
  },
  mailRoomReviewScan: {
    method: 'PUT',
    path: '/api/backoffice/scans/{id}',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'Sets the order, sender and kind a scan will be published with, confirmed or not (a terminated order is refused).',
    schema: { params: IdParams, body: ScanReviewBody, response: ok(MailScan) },
  },
  mailRoomDeleteScan: {
    method: 'DELETE',
    path: '/api/backoffice/scans/{id}',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'Removes a scan not yet published, with its file and page images.',
    schema: { params: IdParams, response: ok(MessageReply) },
  },
  mailRoomPublishScan: {
    method: 'POST',
    path: '/api/backoffice/scans/{id}:publish',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary:
      'Publishes a confirmed scan as a letter, as ingestion does (the letter, its pages and text, the bell, the e-mail); once only: a second press, on any instance, is a 409.',
    schema: { params: IdParams, response: ok(PublishedScan) },
  },
  mailRoomPublishScans: {
    method: 'POST',
    path: '/api/backoffice/scans/publish',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'Publishes every confirmed scan (or those named), each once, oldest first; says which were not and why.',
    schema: { body: PublishScansBody, response: ok(PublishScansReply) },
  },
  mailRoomRegisterPackage: {
    method: 'POST',
    path: '/api/backoffice/packages',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary:
      "Registers a package's arrival for an order ('À retirer'), with an optional photo; the customer is told as for the operator API.",
    schema: { body: PackageArrivalBody, response: ok(MailRoomPackage) },
  },
  mailRoomWaitingPackages: {
    method: 'GET',
    path: '/api/backoffice/packages',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: "The packages waiting to be collected ('À retirer'), per order (the order waiting longest first).",
    schema: { querystring: WaitingPackagesQuery, response: ok(WaitingPackages) },
  },
  mailRoomPackagePhoto: {
    method: 'GET',
    path: '/api/backoffice/packages/{id}/photo',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    kind: 'file',
    fileType: 'image/jpeg',
    tags: [TAG],
    summary: "The photo taken at a package's arrival (JPEG, PNG or PDF, as sent).",
    schema: { params: IdParams, response: ok(ImageFile) },
  },
  mailRoomPackageCollectors: {
    method: 'GET',
    path: '/api/backoffice/packages/{id}/collectors',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: "Who may collect a package: its order's owner, then its representatives (mandataires).",
    schema: { params: IdParams, response: ok(Type.Array(PackageCollector)) },
  },
  mailRoomHandOverPackage: {
    method: 'POST',
    path: '/api/backoffice/packages/{id}:hand-over',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary:
      "Records a package collected ('Retiré'): by the owner or one of the order's representatives only, identity document checked; the customer reads « Retiré le … par … ».",
    schema: { params: IdParams, body: HandOverBody, response: ok(MailRoomPackage) },
  },
  mailRoomForwardingRequests: {
    method: 'GET',
    path: '/api/backoffice/forwarding-requests',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: 'The pending forwarding requests of every customer, oldest first, with their letters and the forwarding address.',
    schema: { response: ok(Type.Array(ForwardingRequest)) },
  },
  mailRoomForwardingShipped: {
    method: 'POST',
    path: '/api/backoffice/forwarding-requests/{id}:shipped',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary:
      "Records a forwarding request sent ('traitée'), with its carrier and tracking number, which the customer sees with the carrier's tracking link.",
    schema: { params: IdParams, body: ForwardingShippedBody, response: ok(ForwardingDone) },
  },
  mailRoomForwardingImpossible: {
    method: 'POST',
    path: '/api/backoffice/forwarding-requests/{id}:impossible',
    auth: 'operatorSession',
    roles: MAIL_ROOM,
    tags: [TAG],
    summary: "Records a forwarding request that cannot be sent ('traitée'), with the reason the customer reads.",
    schema: { params: IdParams, body: ForwardingImpossibleBody, response: ok(ForwardingDone) },
  },
} as const satisfies Record<string, RouteDef>
