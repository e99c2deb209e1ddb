// The live side of the bell: one LISTEN per server instance on `portal_events`, fanned out
// to the instance's open Server-Sent Events streams, each getting only the events of orders its user
// may see (owner, or shared with him). NOTIFY is delivered at commit: a rolled-back action sends nothing.
// A stream lives as long as its session: a session ended (by any instance: "déconnecter les autres appareils", a
// password change or reset) or expired is found at the next event or heartbeat, and its stream ends.
import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { PortalNotification } from '../contract/notifications.ts'
import type { Listen } from '../db/connect.ts'
import { findNotification, toNotification } from '../db/repositories/notifications.ts'
import { peopleSeeingOrder } from '../db/repositories/company-orders.ts'
import { validSessionHashes } from '../db/repositories/session.ts'
import type { Db } from '../db/schema.ts'
import type { Clock } from '../deps.ts'
import { EVENTS_CHANNEL, type EventSignal } from './events.ts'

export const HEARTBEAT_MS = 25_000

export interface LiveStream {
  userId: number
  /** The SHA-256 of the token the stream was opened with (`api_tokens.token_hash`): the stream lives as long as that session. */
  tokenHash: string
  send(notification: PortalNotification): void
  /** The heartbeat (a comment), which keeps proxies from cutting a quiet stream. */
  ping(): void
  end(): void
}

export interface HubOptions {
  /** What "now" is for a session's expiry (the app's clock, as the auth hook uses). */
  clock?: Clock
  /** Every heartbeatMs: one session check for all the instance's streams, then a ping to each one still signed in. */
  heartbeatMs?: number
}

export function notificationHub(db: Db, listen: Listen, log: Pick<Logger, 'error'>, options: HubOptions = {}) {
  const clock = options.clock ?? { now: () => new Date() }
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS
  const streams = new Set<LiveStream>()
  let started: Promise<void> | null = null
  let unlisten: (() => Promise<void>) | null = null
  let schema = ''
  let closed = false
  let heartbeat: ReturnType<typeof setInterval> | null = null
  let beating = false

  /** Takes the stream off the hub at once (no event, no heartbeat after this), then ends it. */
  function endStream(stream: LiveStream) {
    removeStream(stream)
    stream.end()
  }

  function removeStream(stream: LiveStream) {
    streams.delete(stream)
    if (!streams.size && heartbeat) {
      clearInterval(heartbeat)
      heartbeat = null
    }
  }

  /** Of these streams, those whose session is still valid (one statement); the others are ended. */
  async function signedIn(candidates: LiveStream[]): Promise<LiveStream[]> {
    const valid = await validSessionHashes(
      db,
      candidates.map((s) => s.tokenHash),
      clock.now(),
    )
    const kept: LiveStream[] = []
    for (const stream of candidates) {
      if (!streams.has(stream)) continue // ended or closed meanwhile
      if (valid.has(stream.tokenHash)) kept.push(stream)
      else endStream(stream)
    }
    return kept
  }

  // Three reads per event at most, however many streams are open: the row, who sees its order, and which of those
  // streams' sessions are still valid (not one read per stream). A stream whose session has ended gets nothing and ends.
  async function deliver(signal: EventSignal) {
    if (!streams.size) return
    const row = await findNotification(db, signal.id)
    if (!row) return
    const notification = toNotification(row, false)
    const audience = await peopleSeeingOrder(db, row.order_id)
    const candidates = [...streams].filter((s) => audience.has(s.userId))
    if (!candidates.length) return
    for (const stream of await signedIn(candidates)) stream.send(notification)
  }

  // One statement per heartbeat round for all the instance's streams: an idle stream whose session has ended (on any
  // instance) or expired ends within a heartbeat. Should the check fail (the database out of reach), the streams
  // are pinged all the same; the next round checks again.
  async function beat() {
    if (beating || !streams.size) return
    beating = true
    try {
      let alive = [...streams]
      try {
        alive = await signedIn(alive)
      } catch (error) {
        log.error({ err: error }, 'sessions des flux non vérifiées')
      }
      for (const stream of alive) if (streams.has(stream)) stream.ping()
    } finally {
      beating = false
    }
  }

  function endOpenStreams() {
    for (const stream of [...streams]) endStream(stream)
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
      // Opened while the server closes (after preClose ended the others): ended at once, or closing would wait for it.
      if (closed) return stream.end()
      streams.add(stream)
      heartbeat ??= setInterval(() => {
        beat().catch((error: unknown) => log.error({ err: error }, 'battement des flux'))
      }, heartbeatMs)
    },
    /** The stream's connection closed: off the hub. */
    remove(stream: LiveStream) {
      removeStream(stream)
    },
    /** Ends one stream (off the hub first: nothing is sent to it after). */
    end(stream: LiveStream) {
      endStream(stream)
    },
    /** Ends every open stream (the server's close waits for open connections otherwise). */
    endStreams() {
      closed = true
      endOpenStreams()
    },
    async stop() {
      closed = true
      endOpenStreams()
      await started?.catch(() => undefined)
      await unlisten?.()
      unlisten = null
    },
  }
}

export type NotificationHub = ReturnType<typeof notificationHub>
