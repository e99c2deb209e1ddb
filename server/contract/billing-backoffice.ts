// The billing area, the back office's side: Résiliations, the termination requests of every customer, for operators
// with the Conformité role (and administrators). Schemas and route entries, spread into the route table by routes.ts;
// the back office's SPA takes its client types from them.
import { Type, type Static } from 'typebox'
import { DateTime, Id, IdParams, IsoDate, Nullable } from './common.ts'
import { ReplyBody } from './notifications.ts'
import { ok, type OperatorRole, type RouteDef } from './route-def.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']
const TAG = 'Back-office : conformité'

export const TerminationState = Type.Union([Type.Literal('en attente'), Type.Literal('acceptée')])
export type TerminationState = Static<typeof TerminationState>

export const BackofficeTermination = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  /** Who asked (the order's owner), as « Prénom Nom ». */
  requestedBy: Type.String(),
  reason: Type.String(),
  comment: Nullable(Type.String()),
  /** The day the customer asked for (YYYY-MM-DD). */
  requestedDate: IsoDate,
  createdAt: DateTime,
  state: TerminationState,
  /** Accepted: the day the domiciliation ends, when, and by whom. */
  endDate: Nullable(IsoDate),
  acceptedAt: Nullable(DateTime),
  acceptedBy: Nullable(Type.String()),
  /** The conversation « Contacter le client » opened, if any. */
  conversationId: Nullable(Id),
})
export type BackofficeTermination = Static<typeof BackofficeTermination>

export const AcceptTerminationBody = Type.Object({ endDate: IsoDate }, { additionalProperties: false })
export type AcceptTerminationBody = Static<typeof AcceptTerminationBody>

export const billingBackofficeRoutes = {
  operatorTerminations: {
    method: 'GET',
    path: '/api/backoffice/terminations',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      'Résiliations: the termination requests, waiting ones first (oldest first), then the accepted ones (latest first, 100 at most).',
    schema: { response: ok(Type.Array(BackofficeTermination)) },
  },
  operatorAcceptTermination: {
    method: 'POST',
    path: '/api/backoffice/terminations/{id}:accept',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      'Accepts a termination for an end date (today or later): the subscription is cancelled at that date at the payment provider, the portal says « Domiciliation résiliée au … », no certificate is issued nor letter forwarded past it; the owner is e-mailed.',
    schema: { params: IdParams, body: AcceptTerminationBody, response: ok(BackofficeTermination) },
  },
  operatorContactTermination: {
    method: 'POST',
    path: '/api/backoffice/terminations/{id}:contact',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      '« Contacter le client »: opens a conversation on the order with this first message (Messages; the customer reads it in « Mes échanges », e-mailed).',
    schema: { params: IdParams, body: ReplyBody, response: ok(BackofficeTermination) },
  },
} as const satisfies Record<string, RouteDef>
