// The company area: the Kbis and the contract's address, identity documents (/missing-document), bank partners and the
// accountant offer, legal submissions; the operators' Kbis check and order list.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { DateTime, FreeText, Id, IdParams, Line, Nullable, OrderIdQuery, ShortText } from './common.ts'
import { Contract, RefusalReasonSchema } from './session.ts'
import { ok, PdfFile, type RouteDef } from './route-def.ts'

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
  /** The provider's check (back office, Justificatifs): waiting, validated, or refused (send it again). */
  status: Type.Union([Type.Literal('à vérifier'), Type.Literal('validé'), Type.Literal('refusé')]),
  /** Why it was refused, in the words the customer reads (« document illisible »); null unless refused. */
  refusal: Nullable(Type.Object({ reason: RefusalReasonSchema, text: Type.String() })),
})
export type UploadedDocument = Static<typeof UploadedDocument>

export const IdentityUploadReply = Type.Object({
  uploaded: Type.Array(UploadedDocument),
  /** The order's file is complete: every document validated by the provider (an upload alone never completes it). */
  complete: Type.Boolean(),
  missingDocumentsValidatedAt: Nullable(DateTime),
})
export type IdentityUploadReply = Static<typeof IdentityUploadReply>

export const SetQontoBody = Type.Object({ qonto: Type.Boolean() }, { additionalProperties: false })

export const SetShineBody = Type.Object({ shine: Type.Boolean() }, { additionalProperties: false })

export const QontoReply = Type.Object({ qonto: Type.Boolean() })

export const ShineReply = Type.Object({ shine: Type.Boolean() })
export type SetQontoBody = Static<typeof SetQontoBody>
export type SetShineBody = Static<typeof SetShineBody>

export const WantComptableReply = Type.Object({ wantComptable: Type.Boolean(), message: Type.String() })
export type WantComptableReply = Static<typeof WantComptableReply>

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

export const KbisStatusBody = Type.Object({ status: Type.Literal('validé') }, { additionalProperties: false })
export type KbisStatusBody = Static<typeof KbisStatusBody>

export const KbisStatusReply = Type.Object({ contractId: Id, orderId: Id, validatedAt: DateTime })
export type KbisStatusReply = Static<typeof KbisStatusReply>

export const companyRoutes = {
  uploadedDocuments: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/uploaded-documents',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Domiciliations'],
    summary: 'The identity documents uploaded for the order.',
    schema: { params: IdParams, response: ok(Type.Array(UploadedDocument)) },
  },

  setQonto: {
    method: 'POST',
    path: '/api/domiciliation-orders/{id}:set-qonto',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Suivi comptable'],
    summary: 'Interest in the Qonto bank partner.',
    schema: { params: IdParams, body: SetQontoBody, response: ok(QontoReply) },
  },

  setShine: {
    method: 'POST',
    path: '/api/domiciliation-orders/{id}:set-shine',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Suivi comptable'],
    summary: 'Interest in the Shine bank partner.',
    schema: { params: IdParams, body: SetShineBody, response: ok(ShineReply) },
  },

  wantComptable: {
    method: 'GET',
    path: '/api-protected/want-comptable/{id}',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Suivi comptable'],
    summary: "Register the order's interest in the accountant offer (idempotent).",
    schema: { params: IdParams, response: ok(WantComptableReply) },
  },

  updateContract: {
    method: 'PUT',
    path: '/api-protected/contracts/{id}',
    auth: 'bearer',
    access: 'owner',
    tags: ['Contrats'],
    summary: 'Update a contract: the Kbis (a data URL), the forwarding address, or both.',
    schema: { params: IdParams, body: ContractUpdateBody, response: ok(Contract) },
  },

  contractKbis: {
    method: 'GET',
    path: '/api-protected/contracts/{id}/kbis',
    auth: 'bearer',
    access: 'owner',
    kind: 'file',
    tags: ['Contrats'],
    summary: 'The Kbis filed for a contract, as a PDF.',
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  uploadIdentity: {
    method: 'POST',
    path: '/step-upload-identity',
    auth: 'apiToken',
    access: 'owner',
    kind: 'multipart',
    tags: ['Contrats'],
    summary: 'Upload the missing identity documents (multipart: orderId, then one file per document type).',
    schema: { response: ok(IdentityUploadReply) },
  },

  operatorOrders: {
    method: 'GET',
    path: '/api/operator/domiciliation-orders',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary: 'Every domiciliation order with its owner, to find the id to ingest mail for.',
    schema: { response: ok(Type.Array(OperatorOrder)) },
  },

  legalSubmissions: {
    method: 'GET',
    path: '/api-protected/legal-submissions',
    auth: 'apiToken',
    access: 'member',
    tags: ['Formalités'],
    summary: 'The legal formalities requested for one order (orderId), or for every order the user reaches, newest first.',
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(LegalSubmission)) },
  },

  createLegalSubmission: {
    method: 'POST',
    path: '/api-protected/legal-submissions',
    auth: 'apiToken',
    access: 'owner',
    tags: ['Formalités'],
    summary:
      "Order a legal formality for an order (status 'Reçue'); refused (409) when the order checks do not allow it or the same one is under way.",
    schema: { body: LegalSubmissionBody, response: ok(LegalSubmission) },
    perUserHourly: 20,
  },

  operatorLegalSubmissions: {
    method: 'GET',
    path: '/api/operator/legal-submissions',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary: 'Every legal formality requested, newest first, for the jurists.',
    schema: { response: ok(Type.Array(LegalSubmission)) },
  },

  operatorUpdateLegalSubmission: {
    method: 'PUT',
    path: '/api/operator/legal-submissions/{id}/status',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary: "Move a legal formality on ('En cours', 'Déposée au greffe', 'Terminée'; never back) and e-mail the order's owner.",
    schema: { params: IdParams, body: LegalSubmissionStatusBody, response: ok(LegalSubmission) },
  },

  operatorKbis: {
    method: 'GET',
    path: '/api/operator/contracts/{id}/kbis',
    auth: 'operator',
    kind: 'file',
    tags: ['Opérateurs'],
    summary: "The Kbis filed for a contract, as a PDF, to be checked; its `ETag` names this very file, for the validation's `If-Match`.",
    schema: { params: IdParams, response: ok(PdfFile) },
  },

  operatorKbisStatus: {
    method: 'PUT',
    path: '/api/operator/contracts/{id}/kbis-status',
    auth: 'operator',
    tags: ['Opérateurs'],
    summary:
      "Validate the Kbis a customer filed for a contract, the one read: `If-Match` with the `ETag` of GET …/kbis (428 without it, 412 when the customer has filed another since); 409 when none is filed or it is already validated; the order's people are notified.",
    schema: { params: IdParams, body: KbisStatusBody, response: ok(KbisStatusReply) },
  },
} as const satisfies Record<string, RouteDef>
