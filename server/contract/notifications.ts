// The notifications area: the bell, its live stream, e-mail preferences, and a problem reported on an order.
// Entity and payload schemas (spec §3, §7; PRODUCT.md "Data the server keeps") and the area's entries of the route table
// (routes.ts). The SPA imports these with `import type` only, so none of this reaches the browser bundle.
import { Type, type Static } from 'typebox'
import { DateTime, FreeText, Id, IdParams, MessageReply, NoQuery, Nullable, OrderIdQuery } from './common.ts'
import { ok, type RouteDef } from './route-def.ts'

export const SendProblemBody = Type.Object({ message: FreeText({ minLength: 1, maxLength: 5000 }) }, { additionalProperties: false })
export type SendProblemBody = Static<typeof SendProblemBody>

export const NotificationKind = Type.Union([
  Type.Literal('letter'),
  Type.Literal('package'),
  Type.Literal('kbis'),
  Type.Literal('invoice'),
  Type.Literal('formality'),
  Type.Literal('message'),
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

export const EmailPreference = Type.Union([Type.Literal('each'), Type.Literal('digest'), Type.Literal('none')])
export type EmailPreference = Static<typeof EmailPreference>

export const NotificationPreferences = Type.Object({ email: EmailPreference }, { additionalProperties: false })
export type NotificationPreferences = Static<typeof NotificationPreferences>

// --- « Mes échanges »: the conversations of an order with the provider (every « Signaler un problème » starts one)

export const ConversationStatus = Type.Union([Type.Literal('open'), Type.Literal('closed')])
export type ConversationStatus = Static<typeof ConversationStatus>

export const ConversationMessage = Type.Object({
  id: Id,
  body: Type.String(),
  createdAt: DateTime,
  /** Who wrote it: a person of the order, or the provider's operator (their name). */
  author: Type.Object({ kind: Type.Union([Type.Literal('customer'), Type.Literal('operator')]), name: Type.String() }),
})
export type ConversationMessage = Static<typeof ConversationMessage>

export const ReplyBody = Type.Object({ message: FreeText({ minLength: 1, maxLength: 5000 }) }, { additionalProperties: false })
export type ReplyBody = Static<typeof ReplyBody>

/** What both sides list of a conversation (the portal's « Mes échanges », the back office's Messages). */
export const ConversationListed = Type.Object({
  id: Id,
  orderId: Id,
  raisonSociale: Type.String(),
  subject: Type.String(),
  status: ConversationStatus,
  createdAt: DateTime,
  lastMessageAt: DateTime,
  /** The start of the last message, one line. */
  lastMessage: Type.String(),
})

export const PortalConversationSummary = Type.Object({
  ...ConversationListed.properties,
  /** Who wrote last: the provider's answer is what the customer has to read. */
  lastAuthor: Type.Union([Type.Literal('customer'), Type.Literal('operator')]),
})
export type PortalConversationSummary = Static<typeof PortalConversationSummary>

export const PortalConversation = Type.Object({
  ...PortalConversationSummary.properties,
  closedAt: Nullable(DateTime),
  messages: Type.Array(ConversationMessage),
})
export type PortalConversation = Static<typeof PortalConversation>

export const notificationsRoutes = {
  sendProblem: {
    method: 'POST',
    path: '/api-protected/domiciliation-orders/{id}:send-problem',
    auth: 'apiToken',
    access: 'member',
    tags: ['Domiciliations'],
    summary: 'Report a problem about an order.',
    schema: { params: IdParams, body: SendProblemBody, response: ok(MessageReply) },
  },

  conversations: {
    method: 'GET',
    path: '/api-protected/conversations',
    auth: 'apiToken',
    tags: ['Notifications'],
    summary:
      '« Mes échanges »: the conversations of the orders the user owns or that are shared with him (or of one of them), open ones first, the latest first.',
    schema: { querystring: OrderIdQuery, response: ok(Type.Array(PortalConversationSummary)) },
  },

  conversation: {
    method: 'GET',
    path: '/api-protected/conversations/{id}',
    auth: 'apiToken',
    access: 'member',
    tags: ['Notifications'],
    summary: 'One conversation of an order of the user, with its messages, oldest first.',
    schema: { params: IdParams, response: ok(PortalConversation) },
  },

  answerConversation: {
    method: 'POST',
    path: '/api-protected/conversations/{id}/messages',
    auth: 'apiToken',
    access: 'member',
    perUserHourly: 30,
    tags: ['Notifications'],
    summary: 'Answers a conversation of an order of the user; an answer reopens a closed conversation.',
    schema: { params: IdParams, body: ReplyBody, response: ok(PortalConversation) },
  },

  notifications: {
    method: 'GET',
    path: '/api-protected/notifications',
    auth: 'apiToken',
    tags: ['Notifications'],
    summary:
      'What happened on the orders the user owns or that are shared with him: unread first, newest first, at most 50, with the unread count.',
    schema: { response: ok(NotificationList) },
  },

  readNotification: {
    method: 'POST',
    path: '/api-protected/notifications/{id}/read',
    auth: 'apiToken',
    tags: ['Notifications'],
    summary: 'Mark one notification read for the signed-in user (each person has his own read marks).',
    schema: { params: IdParams, response: ok(UnreadCount) },
  },

  readAllNotifications: {
    method: 'POST',
    path: '/api-protected/notifications/read-all',
    auth: 'apiToken',
    tags: ['Notifications'],
    summary: 'Mark every notification read for the signed-in user.',
    schema: { response: ok(UnreadCount) },
  },

  notificationStream: {
    method: 'GET',
    path: '/api-protected/notifications/stream',
    auth: 'apiToken',
    kind: 'stream',
    tags: ['Notifications'],
    summary:
      "Server-Sent Events: `event: notification` with one notification as JSON (its `id:` the notification's), a comment heartbeat every 25 s. Fed by PostgreSQL LISTEN/NOTIFY, so events raised on any server instance arrive. With a `Last-Event-ID` header (a notification id), what was raised after it is sent first. At most 5 streams per user, on every server instance together: a new one ends the oldest, which is sent `event: replaced` (its `data` a French `message`, with `retry: 300000`) before it ends; the portal then waits until its tab is looked at again before following again.",
    schema: { querystring: NoQuery, response: ok(Type.String()) },
  },

  notificationPreferences: {
    method: 'GET',
    path: '/api-protected/domiciliation-orders/{id}/notification-preferences',
    auth: 'apiToken',
    access: 'member',
    tags: ['Notifications'],
    summary: "The signed-in user's e-mail choice for one order: each event, a daily digest, or none.",
    schema: { params: IdParams, response: ok(NotificationPreferences) },
  },

  updateNotificationPreferences: {
    method: 'PUT',
    path: '/api-protected/domiciliation-orders/{id}/notification-preferences',
    auth: 'apiToken',
    access: 'member',
    tags: ['Notifications'],
    summary: "Set the signed-in user's e-mail choice for one order.",
    schema: { params: IdParams, body: NotificationPreferences, response: ok(NotificationPreferences) },
  },
} as const satisfies Record<string, RouteDef>
