// The live side of the bell (issue 14): one LISTEN per server instance on `portal_events`, fanned out
// to the instance's open Server-Sent Events streams, each getting only the events of orders its user
// may see (owner, or shared with him). NOTIFY is delivered at commit: a rolled-back action sends nothing.
import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { PortalNotification } from '../contract/index.ts'
import type { Listen } from '../db/connect.ts'
import { findNotification, toNotification } from '../db/repositories/notifications.ts'
import { peopleSeeingOrder } from '../db/repositories/orders.ts'
import type { Db } from '../db/schema.ts'
import { EVENTS_CHANNEL, type EventSignal } from './events.ts'

export const HEARTBEAT_MS = 25_000

export interface LiveStream {
  userId: number
  send(notification: PortalNotification): void
  end(): void
}

export function notificationHub(db: Db, listen: Listen, log: Pick<Logger, 'error'>) {
  const streams = new Set<LiveStream>()
  let started: Promise<void> | null = null
  let unlisten: (() => Promise<void>) | null = null
  let schema = ''
  let closed = false

  // Two reads per event, however many streams are open: the row, then who sees its order (not one read per stream).
  async function deliver(signal: EventSignal) {
    if (!streams.size) return
    const row = await findNotification(db, signal.id)
    if (!row) return
    const notification = toNotification(row, false)
    const audience = await peopleSeeingOrder(db, row.order_id)
    for (const stream of streams) if (audience.has(stream.userId)) stream.send(notification)
  }

  function endOpenStreams() {
    for (const stream of streams) stream.end()
    streams.clear()
  }

  function onPayload(payload: string) {
    let signal: EventSignal
    try {
      signal = JSON.parse(payload) as EventSignal
    } catch {
      return
    }
    // Other schemas of the same PostgreSQL (parallel test files) are other portals.
    if (signal.schema !== schema || !Number.isInteger(signal.id)) return
    deliver(signal).catch((error: unknown) => log.error({ err: error }, 'notification non transmise au flux'))
  }

  return {
    /** Listens from the first stream on; resolves once LISTEN is in place (so nothing committed after is missed). */
    start(): Promise<void> {
      if (closed) return Promise.reject(new Error('serveur en cours d’arrêt'))
      started ??= (async () => {
        schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
        // LISTEN lost and back (a database restart, a failover): what was raised in between never came. The open
        // streams are ended, so that each browser follows on from its Last-Event-ID and is sent what it missed.
        unlisten = await listen(EVENTS_CHANNEL, onPayload, endOpenStreams)
      })().catch((error: unknown) => {
        started = null
        throw error
      })
      return started
    },
    add(stream: LiveStream) {
      streams.add(stream)
    },
    remove(stream: LiveStream) {
      streams.delete(stream)
    },
    /** Ends every open stream (the server's close waits for open connections otherwise). */
    endStreams() {
      closed = true
      endOpenStreams()
    },
    async stop() {
      closed = true
      await started?.catch(() => undefined)
      await unlisten?.()
      unlisten = null
    },
  }
}

export type NotificationHub = ReturnType<typeof notificationHub>
