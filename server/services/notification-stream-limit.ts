// At most STREAMS_PER_USER live notification streams per user, across every server instance on the database: a new
// stream takes the place of the user's oldest, wherever it is open. Each stream holds a connection of the balancer and
// of an instance for as long as its client likes: unbounded, one account could hold them all.
// The open streams are rows of `live_streams` (the database is what the instances share). Opening one takes the user's
// lock, adds its row and deletes the rows past the newest STREAMS_PER_USER, in one transaction that also NOTIFYs the
// ids deleted on STREAMS_CHANNEL: the instance holding each of those streams ends it. An instance that stops without
// cleaning up (killed, its host lost) leaves rows behind: each running instance moves its rows' `seen_at` on every
// REFRESH_MS, and a row not moved for STALE_MS holds no place (deleted at the user's next stream, and by any instance's
// refresh). The same refresh ends a stream whose row is gone (taken over while this instance's LISTEN was away).
// On PGlite (one process, one connection) the same rows and NOTIFY hold the same rule.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { Listen } from '../db/connect.ts'
import {
  deleteLiveStreams,
  deleteLiveStreamsBeyond,
  deleteStaleLiveStreams,
  insertLiveStream,
  touchLiveStreams,
} from '../db/repositories/notifications.ts'
import type { Db } from '../db/schema.ts'

export const STREAMS_PER_USER = 5
export const STREAMS_CHANNEL = 'portal_streams'
/** How often an instance marks its streams' rows alive. */
export const REFRESH_MS = 10_000
/** A row not marked alive for this long is a stopped instance's: three refreshes missed, and some. */
export const STALE_MS = 35_000

/** Why a stream is ended by the limit: its place taken by a newer stream of its user, or its row gone without a word. */
export type EndReason = 'replaced' | 'lost'

/** What crosses NOTIFY: the rows deleted (their streams are to end), and the schema, as test schemas share one PostgreSQL. */
interface TakenOverSignal {
  schema: string
  ids: number[]
}

export interface StreamLimitOptions {
  perUser?: number
  refreshMs?: number
  staleMs?: number
  /** This instance's name in `live_streams` (a new one per process: rows of a process that stopped are never taken for another's). */
  instance?: string
}

export function streamLimit(db: Db, listen: Listen, log: Pick<Logger, 'error'>, options: StreamLimitOptions = {}) {
  const perUser = options.perUser ?? STREAMS_PER_USER
  const refreshMs = options.refreshMs ?? REFRESH_MS
  const staleMs = options.staleMs ?? STALE_MS
  const instance = options.instance ?? randomUUID()
  /** The streams this instance holds, by row: how to end each one, and whether its row is committed (the refresh looks only at those). */
  const held = new Map<number, { end: (reason: EndReason) => void; committed: boolean }>()
  let started: Promise<void> | null = null
  let unlisten: (() => Promise<void>) | null = null
  let schema = ''
  let closed = false
  let timer: ReturnType<typeof setInterval> | null = null
  let refreshing = false

  function drop(id: number) {
    held.delete(id)
    if (!held.size && timer) {
      clearInterval(timer)
      timer = null
    }
  }

  /** Ends the streams of these rows held here (already deleted from the table). */
  function endHeld(ids: Iterable<number>, reason: EndReason) {
    for (const id of ids) {
      const place = held.get(id)
      if (!place) continue
      drop(id)
      place.end(reason)
    }
  }

  function onPayload(payload: string) {
    let signal: TakenOverSignal
    try {
      signal = JSON.parse(payload) as TakenOverSignal
    } catch {
      return
    }
    if (signal.schema !== schema || !Array.isArray(signal.ids)) return
    endHeld(signal.ids.filter(Number.isInteger), 'replaced')
  }

  // One statement for all the instance's streams, one for every instance's stale rows. A row gone was taken over while
  // this instance did not hear it (LISTEN away), or went stale while the database was out of reach: its stream ends.
  async function refresh() {
    if (refreshing || closed) return
    refreshing = true
    try {
      const ids = [...held].filter(([, place]) => place.committed).map(([id]) => id)
      const alive = await touchLiveStreams(db, ids)
      endHeld(
        ids.filter((id) => !alive.has(id)),
        'lost',
      )
      await deleteStaleLiveStreams(db, staleMs)
    } finally {
      refreshing = false
    }
  }

  return {
    instance,
    /** Listens from the first stream on (TakenOverSignal); resolves once LISTEN is in place. */
    start(): Promise<void> {
      if (closed) return Promise.reject(new Error('serveur en cours d’arrêt'))
      started ??= (async () => {
        schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
        unlisten = await listen(STREAMS_CHANNEL, onPayload)
      })().catch((error: unknown) => {
        started = null
        throw error
      })
      return started
    },
    /**
     * A place for a new stream of this user (before its answer starts: a database that fails is an ordinary 503). The
     * user's oldest streams past the limit end, here or on their instance; `end` ends this one when its turn comes.
     */
    async take(userId: number, end: (reason: EndReason) => void): Promise<{ release(): void }> {
      if (closed) throw new Error('serveur en cours d’arrêt')
      let id = 0
      const endedHere = await db
        .transaction()
        .execute(async (trx) => {
          // One user's streams are counted one opening at a time, in every instance (two keys: the schema's and the user).
          await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.' || ${STREAMS_CHANNEL}), ${userId}::int)`.execute(trx)
          id = await insertLiveStream(trx, userId, instance)
          // Known before the commit: a NOTIFY ending it cannot come before it is listed here.
          held.set(id, { end, committed: false })
          const ended = await deleteLiveStreamsBeyond(trx, userId, perUser, staleMs)
          const elsewhere = ended.filter((other) => !held.has(other))
          if (elsewhere.length)
            await sql`select pg_notify(${STREAMS_CHANNEL}, json_build_object('schema', current_schema(), 'ids', ${JSON.stringify(elsewhere)}::json)::text)`.execute(
              trx,
            )
          return ended.filter((other) => held.has(other))
        })
        .catch((error: unknown) => {
          if (id) held.delete(id)
          throw error
        })
      const place = held.get(id)
      if (place) place.committed = true
      timer ??= setInterval(() => {
        refresh().catch((error: unknown) => log.error({ err: error }, 'flux en direct non rafraîchis'))
      }, refreshMs)
      endHeld(endedHere, 'replaced')
      return {
        /** The stream ended (its connection closed, or ended by the server): its row goes, unless already gone. */
        release() {
          if (!held.has(id)) return
          drop(id)
          if (!closed) deleteLiveStreams(db, [id]).catch((error: unknown) => log.error({ err: error }, 'flux en direct non retiré'))
        },
      }
    },
    /** The server closes (its streams ended by the hub just before): this instance's rows go in one statement. */
    async close() {
      closed = true
      if (timer) clearInterval(timer)
      timer = null
      const ids = [...held.keys()]
      held.clear()
      await deleteLiveStreams(db, ids).catch((error: unknown) => log.error({ err: error }, 'flux en direct non retirés'))
    },
    async stop() {
      closed = true
      await started?.catch(() => undefined)
      await unlisten?.()
      unlisten = null
    },
  }
}

export type StreamLimit = ReturnType<typeof streamLimit>
