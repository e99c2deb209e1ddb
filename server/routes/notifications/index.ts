// Notifications: the bell's list and read marks (each person his own), its live stream, the e-mail preferences per
// order. A problem reported on an order: problems.ts.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import {
  emailPreference,
  findNotification,
  listNotifications,
  markAllRead,
  markRead,
  notificationsAfter,
  setEmailPreference,
  unreadCount,
} from '../../db/repositories/notifications.ts'
import { orderIdsInScope, requireOrder } from '../../db/repositories/company-orders.ts'
import { HEARTBEAT_MS, notificationHub, type LiveStream } from '../../services/notification-stream.ts'
import { STREAMS_PER_USER, streamLimit, type EndReason, type StreamLimitOptions } from '../../services/notification-stream-limit.ts'
import { problemRoutes } from './problems.ts'
import { conversationBackofficeRoutes } from './backoffice-conversations.ts'

/** What a stream following on sends of what it missed: read by pages of MISSED_PAGE, MISSED_MAX at most. */
export const MISSED_PAGE = 100
export const MISSED_MAX = 1_000

/** The SSE Last-Event-ID header: the id of the last notification the client has, or none. */
export function lastEventId(header: string | string[] | undefined): number | null {
  if (header === undefined || header === '') return null
  if (typeof header !== 'string' || !/^\d{1,10}$/.test(header) || Number(header) > 2_147_483_647) {
    throw badRequest('L’en-tête Last-Event-ID doit être le numéro d’une notification.')
  }
  return Number(header)
}

/**
 * What a stream whose place a newer one took is sent before it ends: the SPA waits for its tab to be looked at again
 * before following again (a tab that came back at once would take the place of another, and so on in a loop); `retry`
 * asks a plain EventSource to wait 5 minutes.
 */
export const REPLACED_EVENT = `event: replaced\nretry: 300000\ndata: ${JSON.stringify({
  message: `Notifications en direct suivies ailleurs : ${STREAMS_PER_USER} onglets ou appareils au plus par compte. Elles reprendront ici à votre retour sur cet onglet.`,
})}\n\n`

export function notificationRoutes(
  define: DefineRoute,
  deps: AppDeps,
  app: FastifyInstance,
  heartbeatMs = HEARTBEAT_MS,
  limitOptions: StreamLimitOptions = {},
) {
  const { db, clock } = deps
  const hub = notificationHub(db, deps.listen, app.log, { clock, heartbeatMs })
  const limit = streamLimit(db, deps.listen, app.log, {
    ...(deps.config.instanceName ? { instance: `${deps.config.instanceName}:${randomUUID()}` } : {}),
    ...limitOptions,
  })
  // Open streams end first, or closing would wait for them forever, and their places go; then this instance stops listening.
  app.addHook('preClose', async () => {
    hub.endStreams()
    await limit.close()
  })
  app.addHook('onClose', async () => {
    await hub.stop()
    await limit.stop()
  })

  const visibleOrders = (userId: number) => orderIdsInScope(db, userId, 'all')

  define('notifications', async ({ user }) => {
    const orderIds = await visibleOrders(user.id)
    const [notifications, unread] = await Promise.all([listNotifications(db, user.id, orderIds), unreadCount(db, user.id, orderIds)])
    return { unread, notifications }
  })

  define('readNotification', async ({ user, params }) => {
    const notification = await findNotification(db, params.id)
    const orderIds = await visibleOrders(user.id)
    if (!notification || !orderIds.includes(notification.order_id)) throw notFound('Notification')
    await markRead(db, user.id, notification.id)
    return { unread: await unreadCount(db, user.id, orderIds) }
  })

  define('readAllNotifications', async ({ user }) => {
    const orderIds = await visibleOrders(user.id)
    await markAllRead(db, user.id, orderIds)
    return { unread: await unreadCount(db, user.id, orderIds) }
  })

  define('notificationStream', async ({ user, req, reply }) => {
    const after = lastEventId(req.headers['last-event-id'])
    await hub.start()
    await limit.start()
    // The stream's place among its user's STREAMS_PER_USER, taken before the answer starts (a failure is an ordinary
    // answer); the oldest past them end, on whichever instance. This one ends when a newer one takes its place.
    let endedEarly: EndReason | null = null
    let endByLimit = (reason: EndReason) => {
      endedEarly = reason
    }
    const place = await limit.take(user.id, (reason) => endByLimit(reason))
    reply.hijack()
    const raw = reply.raw
    // The security headers set so far, then the stream's own; never compressed (each event must leave at once).
    const headers = Object.fromEntries(
      Object.entries(reply.getHeaders()).filter((e): e is [string, string | number | string[]] => e[1] !== undefined),
    )
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    })
    // The stream's one write: nothing once it has ended or its connection is gone (a write after the end would be an
    // uncaught ERR_STREAM_WRITE_AFTER_END when the client is not reading, and the process would stop).
    const ended = () => raw.writableEnded || raw.destroyed
    const write = (text: string) => {
      if (ended()) return
      raw.write(text)
    }
    write(': connecté\n\n')
    // The hub sends the events and the heartbeat while the session of this token lasts (checked at each event and
    // each heartbeat), and ends the stream once it has ended. Every end goes through the hub, which takes the
    // stream off first: nothing is written to it after.
    const stream: LiveStream = {
      userId: user.id,
      tokenHash: user.tokenHash,
      send: (notification) => write(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`),
      ping: () => write(': ping\n\n'),
      end: () => {
        if (!ended()) raw.end()
      },
    }
    const done = () => {
      hub.remove(stream)
      place.release()
    }
    req.raw.once('close', done)
    raw.once('close', done)
    hub.add(stream)
    // Its place taken by a newer stream of its user: told so (the SPA then waits before following again), then ended.
    endByLimit = (reason) => {
      if (reason === 'replaced') write(REPLACED_EVENT)
      hub.end(stream)
    }
    if (endedEarly) endByLimit(endedEarly)
    // Gone before its close listeners were in place: off the hub at once.
    if (raw.destroyed) done()
    // Following on from a notification: what was raised since is sent first, oldest first, page by page. The
    // stream is listed before this read, so whatever commits after it arrives live (an event both read and live
    // is sent twice; the bell keeps one per id). Past MISSED_MAX the stream ends: the bell reads its list again,
    // which gives the newest and the exact unread count, and follows on from there.
    if (after !== null) {
      try {
        const orderIds = await visibleOrders(user.id)
        let from = after
        for (let sent = 0; !ended(); ) {
          const page = await notificationsAfter(db, user.id, orderIds, from, MISSED_PAGE)
          for (const notification of page) stream.send(notification)
          sent += page.length
          if (page.length < MISSED_PAGE) break
          if (sent >= MISSED_MAX) {
            hub.end(stream)
            break
          }
          from = page.at(-1)!.id
        }
      } catch (error) {
        app.log.error({ err: error }, 'notifications manquées non relues')
        hub.end(stream)
      }
    }
    return undefined as never
  })

  define('notificationPreferences', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    return { email: await emailPreference(db, user.id, order.id) }
  })

  define('updateNotificationPreferences', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    await setEmailPreference(db, user.id, order.id, body.email)
    return { email: body.email }
  })

  problemRoutes(define, deps)
  conversationBackofficeRoutes(define, deps)
}
