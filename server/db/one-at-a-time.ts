// One call at a time per key, in every API instance on this database: what a call writes, e-mails, then takes back
// when the e-mail cannot leave (http/send-or-undo.ts) must not be seen half-way by an identical call, which would then
// answer « enregistrée » for a write about to be undone. The identical call waits for the first one's outcome instead.
// Not a transaction held across the send: PGlite has one connection (every other request would wait on the send), and
// a pooled connection held by each waiting call could leave none for the calls holding the keys. So: a key held in
// this process (PGlite is one process), and on PostgreSQL also a session-level advisory lock taken on one connection
// of this process's own, outside the pool, tried again until free (a blocked `pg_advisory_lock` would hold up every
// other key of this process on that connection).
import pg from 'pg'
import { destroyConnection, endConnection, isQueryTimeout, KEEP_ALIVE } from './dead-connections.ts'

/**
 * Runs `body` once no other call holds `key` (this process; on PostgreSQL any instance on the same schema). A call
 * still waiting after the handle's wait (`ONE_AT_A_TIME_WAIT_MS`) is rejected with a KeyBusyError and runs nothing.
 */
export type OneAtATime = <T>(key: string, body: () => Promise<T>) => Promise<T>

export class KeyBusyError extends Error {
  constructor(readonly key: string) {
    super(`« ${key} » est tenu par un autre appel`)
  }
}

/**
 * How long an identical call waits: longer than an e-mail usually takes to leave, far shorter than a stuck mail
 * server's time-outs (nodemailer's are minutes).
 */
export const ONE_AT_A_TIME_WAIT_MS = 15_000
/** How often a key held by another instance is tried again. */
const RETRY_MS = 25
/**
 * How long a lock statement may wait for its answer (`pg_try_advisory_lock` and the unlock never wait for a lock:
 * milliseconds). Longer, the host has vanished without closing the connection (a network cut): it is cut and another
 * opens at the next call, instead of this call, and every call after it, waiting for the TCP time-outs.
 */
export const LOCK_STATEMENT_TIMEOUT_MS = 10_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether `promise` settles before `deadline` (a time in ms). */
async function settlesBefore(promise: Promise<void>, deadline: number): Promise<boolean> {
  const ms = deadline - Date.now()
  if (ms <= 0) return false
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true), late])
  } finally {
    clearTimeout(timer)
  }
}

/** The keys held in this process: takes one once free (or throws KeyBusyError at `deadline`); answers its release. */
function processKeys() {
  const held = new Map<string, Promise<void>>()
  return async (key: string, deadline: number): Promise<() => void> => {
    for (let current = held.get(key); current; current = held.get(key)) {
      if (!(await settlesBefore(current, deadline))) throw new KeyBusyError(key)
    }
    let release!: () => void
    held.set(
      key,
      new Promise<void>((resolve) => {
        release = resolve
      }),
    )
    return () => {
      held.delete(key)
      release()
    }
  }
}

/** PGlite: one process holds the database, so the keys held in it are all there is. */
export function inProcessOneAtATime(waitMs = ONE_AT_A_TIME_WAIT_MS): OneAtATime {
  const take = processKeys()
  return async (key, body) => {
    const release = await take(key, Date.now() + waitMs)
    try {
      return await body()
    } finally {
      release()
    }
  }
}

export interface PostgresOneAtATimeOptions {
  /** The test schema the pool works in: the keys are this schema's (advisory locks are the whole database's). */
  schema?: string
  waitMs?: number
  connectionTimeoutMillis?: number
  /** The lock connection lost, or a release that failed (the connection is then closed: its locks go with it). */
  onError?: (error: Error) => void
  /** LOCK_STATEMENT_TIMEOUT_MS by default; tests shorten it. */
  statementTimeoutMs?: number
}

/**
 * PostgreSQL: the process's key first (so that one instance tries the database for a key once at a time), then
 * `pg_try_advisory_lock` on this process's lock connection, tried again every 25 ms until the wait runs out. The lock
 * is the connection's: lost with it (a database restart), when another instance may then take the key early; opened
 * again at the next call.
 */
export function postgresOneAtATime(connectionString: string, options: PostgresOneAtATimeOptions = {}) {
  const {
    schema,
    waitMs = ONE_AT_A_TIME_WAIT_MS,
    connectionTimeoutMillis,
    onError = () => {},
    statementTimeoutMs = LOCK_STATEMENT_TIMEOUT_MS,
  } = options
  const take = processKeys()
  let client: pg.Client | null = null
  let connecting: Promise<pg.Client> | null = null
  let closed = false

  const open = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis,
      ...KEEP_ALIVE,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    })
    const lost = (error?: Error) => {
      if (client === next) client = null
      if (error) onError(error)
      void endConnection(next)
    }
    next.on('error', lost)
    next.on('end', () => lost())
    try {
      await next.connect()
    } catch (error) {
      await next.end().catch(() => undefined)
      throw error
    }
    if (closed) {
      await next.end().catch(() => undefined)
      throw new Error('connexion des verrous fermée')
    }
    client = next
    return next
  }
  const connected = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client)
    connecting ??= open().finally(() => {
      connecting = null
    })
    return connecting
  }
  /** A lock statement, bounded: run out, the connection is cut (its locks go with it) and dropped. */
  const ask = async (holder: pg.Client, text: string, key: string) => {
    try {
      return await holder.query<{ locked: boolean }>({ text, values: [key], query_timeout: statementTimeoutMs } as pg.QueryConfig<[string]>)
    } catch (error) {
      if (isQueryTimeout(error)) {
        if (client === holder) client = null
        onError(error as Error)
        destroyConnection(holder)
      }
      throw error
    }
  }
  // current_schema(): the same key in two test schemas of one database is two keys.
  const lockId = `hashtextextended(current_schema() || '.one-at-a-time.' || $1::text, 0)`

  const oneAtATime: OneAtATime = async (key, body) => {
    const deadline = Date.now() + waitMs
    const release = await take(key, deadline)
    try {
      let holder: pg.Client
      for (;;) {
        holder = await connected()
        const { rows } = await ask(holder, `select pg_try_advisory_lock(${lockId}) as locked`, key)
        if (rows[0]!.locked) break
        if (Date.now() + RETRY_MS > deadline) throw new KeyBusyError(key)
        await sleep(RETRY_MS)
      }
      try {
        return await body()
      } finally {
        // Lost meanwhile, the connection took the lock with it; otherwise a release that fails closes it, so that no
        // key stays held for ever.
        if (client === holder) {
          await ask(holder, `select pg_advisory_unlock(${lockId})`, key).catch((error: Error) => {
            if (client === holder) {
              onError(error)
              client = null
            }
            void endConnection(holder)
          })
        }
      }
    } finally {
      release()
    }
  }
  return {
    oneAtATime,
    async close() {
      closed = true
      await connecting?.catch(() => undefined)
      const last = client
      client = null
      if (last) await endConnection(last)
    },
  }
}
