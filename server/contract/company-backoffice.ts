// The company area, the back office's side: Justificatifs (the Kbis and identity documents waiting for a check,
// validated or refused with a reason) and Formalités juridiques (the legal submissions moved on, step by step), for
// operators with the Conformité role (and administrators). Spread into the route table by routes.ts; the back
// office's SPA takes its client types from them.
import { Type, type Static } from 'typebox'
import { DateTime, FreeText, Id, Line, Nullable } from './common.ts'
import { LegalSubmission, LegalSubmissionStatusBody } from './company.ts'
import { RefusalReasonSchema } from './session.ts'
import { ok, PdfFile, type OperatorRole, type RouteDef } from './route-def.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']
const TAG = 'Back-office : conformité'

/** kbis: a contract's Kbis (its id is the contract's); identite: an identity document of /missing-document. */
export const JustificatifKind = Type.Union([Type.Literal('kbis'), Type.Literal('identite')])
export type JustificatifKind = Static<typeof JustificatifKind>

export const JustificatifParams = Type.Object({ kind: JustificatifKind, id: Id })
export type JustificatifParams = Static<typeof JustificatifParams>

export const Justificatif = Type.Object({
  kind: JustificatifKind,
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  siren: Nullable(Type.String()),
  /** « Kbis », or the identity document's label (« Pièce d’identité du gérant »). */
  label: Type.String(),
  fileName: Type.String(),
  contentType: Type.String(),
  filedAt: DateTime,
  /** The file's version (its ETag): a decision names it, and is refused (412) when the customer has sent another since. */
  version: Type.String(),
  status: Type.Union([Type.Literal('à vérifier'), Type.Literal('validé'), Type.Literal('refusé')]),
  /** When it was validated or refused (null while waiting). */
  decidedAt: Nullable(DateTime),
  refusal: Nullable(Type.Object({ reason: RefusalReasonSchema, detail: Nullable(Type.String()), text: Type.String() })),
})
export type Justificatif = Static<typeof Justificatif>

export const JustificatifValidateBody = Type.Object(
  {
    /** The version of the file read (Justificatif.version, or the file's ETag). */ version: Line({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
)
export type JustificatifValidateBody = Static<typeof JustificatifValidateBody>

export const JustificatifRefuseBody = Type.Object(
  {
    version: Line({ minLength: 1, maxLength: 100 }),
    reason: RefusalReasonSchema,
    /** Required with « autre »: the customer reads it. */
    detail: Type.Optional(FreeText({ maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type JustificatifRefuseBody = Static<typeof JustificatifRefuseBody>

export const JustificatifDecision = Type.Object({
  justificatif: Justificatif,
  /** Identity documents: the order's file is now complete (missingDocumentsValidatedAt set), the customer leaves /missing-document. */
  orderValidatedAt: Nullable(DateTime),
  /** Whether the customer was e-mailed (a refusal); false when the e-mail could not leave (the portal shows it all the same). */
  notified: Type.Boolean(),
})
export type JustificatifDecision = Static<typeof JustificatifDecision>

export const companyBackofficeRoutes = {
  complianceJustificatifs: {
    method: 'GET',
    path: '/api/backoffice/justificatifs',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'The Kbis and identity documents waiting for a check, oldest first, each with its order’s company name and SIREN.',
    schema: { response: ok(Type.Array(Justificatif)) },
  },
  complianceJustificatif: {
    method: 'GET',
    path: '/api/backoffice/justificatifs/{kind}/{id}',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'One Kbis (by its contract) or identity document, waiting or decided, with the version of the file on record.',
    schema: { params: JustificatifParams, response: ok(Justificatif) },
  },
  complianceJustificatifFile: {
    method: 'GET',
    path: '/api/backoffice/justificatifs/{kind}/{id}/file',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    kind: 'file',
    fileType: 'application/octet-stream',
    tags: [TAG],
    summary: 'The file (PDF, JPEG or PNG, as sent); its `ETag` is the version a decision names.',
    schema: { params: JustificatifParams, response: ok(PdfFile) },
  },
  complianceValidateJustificatif: {
    method: 'POST',
    path: '/api/backoffice/justificatifs/{kind}/{id}:validate',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      'Validates the file read (`version`; 412 when the customer has sent another since, 409 when already decided); identity documents all validated set the order’s missingDocumentsValidatedAt.',
    schema: { params: JustificatifParams, body: JustificatifValidateBody, response: ok(JustificatifDecision) },
  },
  complianceRefuseJustificatif: {
    method: 'POST',
    path: '/api/backoffice/justificatifs/{kind}/{id}:refuse',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      'Refuses the file read with a reason (illisible, pas-au-nom, plus-de-trois-mois, autre with `detail`); the customer is e-mailed, and the portal shows the reason (the Kbis banner, /missing-document) until another file is sent.',
    schema: { params: JustificatifParams, body: JustificatifRefuseBody, response: ok(JustificatifDecision) },
  },
  complianceLegalSubmissions: {
    method: 'GET',
    path: '/api/backoffice/legal-submissions',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'Every legal formality requested: those under way first (oldest first), then those finished (newest first).',
    schema: { response: ok(Type.Array(LegalSubmission)) },
  },
  complianceMoveLegalSubmission: {
    method: 'PUT',
    path: '/api/backoffice/legal-submissions/{id}/status',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: "Moves a legal formality on to the step named (forward only, dated); the order's owner is told (bell, e-mail).",
    schema: { params: Type.Object({ id: Id }), body: LegalSubmissionStatusBody, response: ok(LegalSubmission) },
  },
} as const satisfies Record<string, RouteDef>
