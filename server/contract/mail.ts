// The mail area: letters and their pages, search, deadlines and history, folders, packages, forwarding requests; the
// operators' scanned letters, packages and forwarded letters.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { DateTime, Email, FreeText, Id, IdParams, Line, MessageReply, Nullable, OrderIdQuery, ShortText } from './common.ts'
import { ok, PdfFile, type RouteDef } from './route-def.ts'

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
  /** Handed over at the desk (status 'Retiré'): when, and to whom (the owner or a representative, as named then). */
  collectedAt: Nullable(DateTime),
  collectedBy: Nullable(Type.String()),
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
  /**
   * What the mail room did with a forwarding request (status 'traitée'): sent by a carrier, with its tracking number and
   * the carrier's tracking page when it is one we know; or impossible, with the reason the customer reads. Null while
   * it waits, and for a request processed before the back office recorded it.
   */
  outcome: Nullable(
    Type.Union([
      Type.Object({
        kind: Type.Literal('expédiée'),
        at: DateTime,
        carrier: Type.String(),
        trackingNumber: Type.String(),
        trackingUrl: Nullable(Type.String()),
      }),
      Type.Object({ kind: Type.Literal('impossible'), at: DateTime, reason: Type.String() }),
    ]),
  ),
})
export type CourierRequest = Static<typeof CourierRequest>
export type CourierRequestOutcome = NonNullable<CourierRequest['outcome']>

export const RemoveCourierRequestBody = Type.Object({ orderId: Id, id: Id }, { additionalProperties: false })
export type RemoveCourierRequestBody = Static<typeof RemoveCourierRequestBody>

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

export const mailRoutes = {
  packages: {
    method: 'GET',
    path: '/api-protected/user-packages',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Courrier'],
    summary: "Packages of the user's own orders (one order with orderId).",
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(Package)) },
  },

  sharePackages: {
    method: 'GET',
    path: '/api-protected/user-packages/share',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Packages of the orders shared with the user (one order with orderId).',
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(Package)) },
  },

  courierRequests: {
    method: 'GET',
    path: '/api-protected/user-demandes-courrier',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Courrier'],
    summary: "Courier requests of the user's own orders.",
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(CourierRequest)) },
  },

  shareCourierRequests: {
    method: 'GET',
    path: '/api-protected/user-demandes-courrier/share',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Courier requests of the orders shared with the user.',
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(CourierRequest)) },
  },

  removeCourierRequest: {
    method: 'POST',
    path: '/api-protected/user-demandes-courrier/remove',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Cancel a pending courier request.',
    schema: { body: RemoveCourierRequestBody, response: ok(MessageReply) },
  },

  documents: {
    method: 'GET',
    path: '/api-protected/documents',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Scanned letters (of one order with orderId, else of every order the user can see).',
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(MailDocument)) },
  },

  updateDocument: {
    method: 'PUT',
    path: '/api-protected/documents/{id}',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Mark a letter read or unread, or file it in a folder.',
    schema: { params: IdParams, body: DocumentUpdateBody, response: ok(MailDocument) },
  },

  documentFile: {
    method: 'GET',
    path: '/api-protected/documents/{id}/file',
    auth: 'apiToken',
    access: 'member',
    kind: 'file',
    tags: ['Courrier'],
    summary: 'The scan of a letter, as a PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  sendDocuments: {
    method: 'POST',
    path: '/api-protected/send-documents',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'E-mail letters to a recipient.',
    schema: { body: SendDocumentsBody, response: ok(MessageReply) },
  },

  folders: {
    method: 'GET',
    path: '/api-protected/folders',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Courrier'],
    summary: "Folders of the user's own orders (one order with domiciliationOrderId).",
    schema: { querystring: FoldersQuery, response: ok(Type.Array(Folder)) },
  },

  shareFolders: {
    method: 'GET',
    path: '/api-protected/share-folders',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Folders of the orders shared with the user.',
    schema: { response: ok(Type.Array(Folder)) },
  },

  createFolder: {
    method: 'POST',
    path: '/api-protected/folders',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Create a folder.',
    schema: { body: FolderCreateBody, response: ok(Folder) },
    perUserHourly: 60,
  },

  updateFolder: {
    method: 'PUT',
    path: '/api-protected/folders/{id}',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Rename a folder.',
    schema: { params: IdParams, body: FolderUpdateBody, response: ok(Folder) },
  },

  deleteFolder: {
    method: 'DELETE',
    path: '/api-protected/folders/{id}',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'Delete a folder; its letters stay, unfiled.',
    schema: { params: IdParams, response: ok(MessageReply) },
  },

  operatorAddDocument: {
    method: 'POST',
    path: '/api/operator/domiciliation-orders/{id}/documents',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary:
      'Add a scanned letter (a PDF as a data URL, checked by content) and e-mail "Nouveau courrier de {sender}" to the owner and the collaborators. With an `Idempotency-Key` header, a retry with the same key makes and sends nothing again and answers the first letter (`Idempotent-Replayed: true`).',
    schema: { params: IdParams, body: OperatorDocumentBody, response: ok(OperatorDocumentReply) },
  },

  operatorAddPackage: {
    method: 'POST',
    path: '/api/operator/domiciliation-orders/{id}/packages',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary:
      "Register a package received for an order (status 'À retirer'). With an `Idempotency-Key` header, a retry with the same key answers the first package and makes nothing.",
    schema: { params: IdParams, body: OperatorPackageBody, response: ok(Package) },
  },

  documentPage: {
    method: 'GET',
    path: '/api-protected/documents/{id}/pages/{page}',
    auth: 'apiToken',
    access: 'member',
    kind: 'file',
    fileType: 'image/webp',
    tags: ['Courrier'],
    summary: 'One page of a letter as an image (WebP, about 1240 px wide), page 1 first; 404 until the pages are rendered.',
    schema: { params: DocumentPageParams, response: ok(Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })) },
  },

  documentSearch: {
    method: 'GET',
    path: '/api-protected/documents/search',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary:
      "Full-text search (French, accents ignored) of the letters' sender, kind and text, best first, at most 50, with the matching passage.",
    schema: { querystring: DocumentSearchQuery, response: ok(DocumentSearchReply) },
  },

  letterDeadlines: {
    method: 'GET',
    path: '/api-protected/letter-deadlines',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: 'The deadlines found in the letters (of one order with orderId, else of every order the user can see), by date.',
    schema: { querystring: OrderIdQuery, response: ok(LetterDeadlinesReply) },
  },

  letterHistory: {
    method: 'GET',
    path: '/api-protected/documents/{id}/history',
    auth: 'apiToken',
    access: 'member',
    tags: ['Courrier'],
    summary: "A letter's history, oldest first: received, scanned, opened (by whom), sent by e-mail (to whom), filed, forwarded.",
    schema: { params: IdParams, response: ok(LetterHistory) },
  },

  operatorLetterForwarded: {
    method: 'POST',
    path: '/api/operator/documents/{id}/forwarded',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary: "Record that a letter was forwarded (sent on by post) to an address: it joins the letter's history ('Réexpédié à …').",
    schema: { params: IdParams, body: LetterForwardedBody, response: ok(LetterForwardedReply) },
  },
} as const satisfies Record<string, RouteDef>
