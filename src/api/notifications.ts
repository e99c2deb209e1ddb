// The notifications area's calls: the bell, its live stream, e-mail preferences, a letter's history, and a problem
// reported on an order (« Signaler un problème »).
import type { PortalNotification } from '../../server/contract/notifications.ts'
import { type Body, type CallOptions, call, encode, openStream, type Reply } from './client.ts'

export const getNotifications = (options?: CallOptions) =>
  call<Reply<'notifications'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/notifications' }, options)

export const readNotification = (id: number, options?: CallOptions) =>
  call<Reply<'readNotification'>>({ auth: 'apiToken', method: 'POST', path: `/api-protected/notifications/${encode(id)}/read` }, options)

export const readAllNotifications = (options?: CallOptions) =>
  call<Reply<'readAllNotifications'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/notifications/read-all' }, options)

export const getNotificationPreferences = (orderId: number, options?: CallOptions) =>
  call<Reply<'notificationPreferences'>>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/domiciliation-orders/${encode(orderId)}/notification-preferences` },
    options,
  )

export const updateNotificationPreferences = (orderId: number, body: Body<'updateNotificationPreferences'>, options?: CallOptions) =>
  call<Reply<'updateNotificationPreferences'>>(
    { auth: 'apiToken', method: 'PUT', path: `/api-protected/domiciliation-orders/${encode(orderId)}/notification-preferences`, body },
    options,
  )

export const getLetterHistory = (documentId: number, options?: CallOptions) =>
  call<Reply<'letterHistory'>>({ auth: 'apiToken', method: 'GET', path: `/api-protected/documents/${encode(documentId)}/history` }, options)

/**
 * Follows the live stream until it ends (resolves) or breaks (rejects): each `event: notification` is
 * handed to onNotification as it arrives; `onOpen` once the server answered. With `after`, the server
 * first sends what was raised after that notification (the SSE Last-Event-ID header); 0 when the list read
 * was empty, so that what was raised between that read and the stream is sent too. `onReplaced` when the
 * server says, before ending it, that a newer stream of the same person took its place (`event: replaced`:
 * a few streams per account at most, on every tab and device).
 */
export async function followNotifications(
  handlers: { onOpen?: () => void; onNotification: (notification: PortalNotification) => void; onReplaced?: () => void },
  options: { after?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const response = await openStream('/api-protected/notifications/stream', {
    signal: options.signal,
    headers: options.after !== undefined ? { 'last-event-id': String(options.after) } : {},
  })
  handlers.onOpen?.()
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value.replace(/\r\n/g, '\n')
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      if (/^event: ?notification$/m.test(block) && data) handlers.onNotification(JSON.parse(data) as PortalNotification)
      else if (/^event: ?replaced$/m.test(block)) handlers.onReplaced?.()
    }
  }
}

export const sendProblem = (id: number, body: Body<'sendProblem'>, options?: CallOptions) =>
  call<Reply<'sendProblem'>>(
    { auth: 'apiToken', method: 'POST', path: `/api-protected/domiciliation-orders/${encode(id)}:send-problem`, body },
    options,
  )

/** « Mes échanges »: the conversations of the orders the person sees (of one of them with `orderId`), open ones first. */
export const getConversations = (orderId: number | null, options?: CallOptions) =>
  call<Reply<'conversations'>>(
    { auth: 'apiToken', method: 'GET', path: '/api-protected/conversations', query: { orderId: orderId ?? undefined } },
    options,
  )

export const getConversation = (id: number, options?: CallOptions) =>
  call<Reply<'conversation'>>({ auth: 'apiToken', method: 'GET', path: `/api-protected/conversations/${encode(id)}` }, options)

export const answerConversation = (id: number, body: Body<'answerConversation'>, options?: CallOptions) =>
  call<Reply<'answerConversation'>>(
    { auth: 'apiToken', method: 'POST', path: `/api-protected/conversations/${encode(id)}/messages`, body },
    options,
  )
