// The notifications area, the back office's side: Messages, the conversations every « Signaler un problème » starts,
// for operators with the Conformité role (and administrators). Schemas and route entries, spread into the route table
// by routes.ts; the back office's SPA takes its client types from them.
import { Type, type Static } from 'typebox'
import { DateTime, Id, IdParams, Nullable } from './common.ts'
import { ConversationListed, ConversationMessage, ConversationStatus, ReplyBody } from './notifications.ts'
import { ok, type OperatorRole, type RouteDef } from './route-def.ts'

const COMPLIANCE: readonly OperatorRole[] = ['admin', 'conformite']
const TAG = 'Back-office : conformité'

export const ConversationsQuery = Type.Object(
  { status: Type.Optional(ConversationStatus), orderId: Type.Optional(Id) },
  { additionalProperties: false },
)
export type ConversationsQuery = Static<typeof ConversationsQuery>

export const ConversationSummary = Type.Object({
  ...ConversationListed.properties,
  /** Since when the customer's last message waits for the provider's answer; null once answered. */
  waitingSince: Nullable(DateTime),
  messageCount: Type.Integer({ minimum: 0 }),
})
export type ConversationSummary = Static<typeof ConversationSummary>

export const OperatorConversation = Type.Object({
  ...ConversationSummary.properties,
  closedAt: Nullable(DateTime),
  closedBy: Nullable(Type.String()),
  messages: Type.Array(ConversationMessage),
})
export type OperatorConversation = Static<typeof OperatorConversation>

export const notificationsBackofficeRoutes = {
  operatorConversations: {
    method: 'GET',
    path: '/api/backoffice/conversations',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'Messages: the conversations, open ones first, the one waiting longest first (200 at most).',
    schema: { querystring: ConversationsQuery, response: ok(Type.Array(ConversationSummary)) },
  },
  operatorConversation: {
    method: 'GET',
    path: '/api/backoffice/conversations/{id}',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'One conversation with its messages, oldest first, each saying who wrote it.',
    schema: { params: IdParams, response: ok(OperatorConversation) },
  },
  operatorReplyConversation: {
    method: 'POST',
    path: '/api/backoffice/conversations/{id}/messages',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary:
      'Answers an open conversation: the customers who wrote in it are e-mailed and the bell of its order rings (« Nouvelle réponse »).',
    schema: { params: IdParams, body: ReplyBody, response: ok(OperatorConversation) },
  },
  operatorCloseConversation: {
    method: 'POST',
    path: '/api/backoffice/conversations/{id}:close',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'Closes a conversation (a customer’s answer reopens it).',
    schema: { params: IdParams, response: ok(OperatorConversation) },
  },
  operatorReopenConversation: {
    method: 'POST',
    path: '/api/backoffice/conversations/{id}:reopen',
    auth: 'operatorSession',
    roles: COMPLIANCE,
    tags: [TAG],
    summary: 'Reopens a closed conversation.',
    schema: { params: IdParams, response: ok(OperatorConversation) },
  },
} as const satisfies Record<string, RouteDef>
