import { existsSync } from 'node:fs'
import { cp, mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
// mail pipeline: accents ignored by the full-text search (migration 005)
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { type DatabaseIntrospector, Kysely, PostgresDialect, sql, type LogConfig, type TableMetadata } from 'kysely'
import pg from 'pg'
import { destroyConnection, endConnection, isQueryTimeout, KEEP_ALIVE } from './dead-connections.ts'
import { inProcessOneAtATime, postgresOneAtATime, type OneAtATime } from './one-at-a-time.ts'
import { preparedTexts } from './prepared.ts'
import type { Database } from './schema.ts'

/**
 * Subscribes to a PostgreSQL NOTIFY channel; resolves once listening, with the way to stop. `onGap` is called when
 * listening again after the connection was lost: what was notified in between never came (PGlite never loses it).
 */
export type Listen = (channel: string, onPayload: (payload: string) => void, onGap?: () => void) => Promise<() => Promise<void>>

export interface DbHandle {
  db: Kysely<Database>
  kind: 'pglite' | 'postgres'
  /** notifications: LISTEN on this database (PGlite: in-process; PostgreSQL: one dedicated connection). */
  listen: Listen
  /** One call at a time per key, in every instance on this database (one-at-a-time.ts). */
  oneAtATime: OneAtATime
  /**
   * Runs `body` with no QUERY_TIMEOUT_MS on the pool's statements (PostgreSQL): the migrations at start, where building
   * an index on a large table, or waiting for another instance's migrations, may legitimately take minutes.
   */
  withoutQueryTimeout<T>(body: () => Promise<T>): Promise<T>
  /**
   * PGlite only: its data directory as a gzipped tar (dumpDataDir), taken between two statements, so as a crash at that
   * instant would leave it (what was committed, nothing else); `new PGlite({ loadDataDir })` opens it (backups).
   */
  dump?(): Promise<Blob>
  close(): Promise<void>
}

export interface ConnectOptions {
  /** postgres://… : a real PostgreSQL; otherwise the embedded PGlite. */
  databaseUrl?: string
  /** PGlite's data directory; omitted: in memory (tests). */
  dataDir?: string
  /**
   * PGlite in memory only: start from this dump of a data directory (PGlite's dumpDataDir) instead of running initdb.
   * The tests give every app a migrated template made once per run (test/util/pglite-template.ts): loading it takes
   * about a third of initdb's CPU, and the migrations are already in it.
   */
  loadDataDir?: Blob
  /** PostgreSQL only: work inside this schema (created if missing), so parallel test files never meet. */
  schema?: string
  poolSize?: number
  /** Kysely's log hook: tests count the statements a request runs. */
  log?: LogConfig
  /**
   * PostgreSQL only: a connection lost while idle in the pool (a restart, a failover, a backend terminated, a network
   * cut), or the LISTEN connection's. The pool drops it and opens another at the next query; without this listener
   * the pool's 'error' event would end the process (node-postgres), every instance at once on a database restart.
   */
  onConnectionLost?: (error: Error) => void
  /**
   * How long a query waits for a connection (PostgreSQL: a new one to open, or one of the pool to free up; PGlite: its
   * only connection to be handed back).
   */
  connectTimeoutMs?: number
  /** How long a call waits for a key another call holds (oneAtATime), ONE_AT_A_TIME_WAIT_MS by default; tests shorten it. */
  oneAtATimeWaitMs?: number
  /** PostgreSQL only: QUERY_TIMEOUT_MS by default; tests shorten it (and the lock connection's LOCK_STATEMENT_TIMEOUT_MS with it). */
  queryTimeoutMs?: number
}

/** A database that does not answer fails the request (a French 503, http/errors.ts) instead of holding it. */
export const CONNECT_TIMEOUT_MS = 10_000

/**
 * PostgreSQL: how long one statement may wait for its answer before its connection is held dead (a host that vanished
 * without closing it: a network cut, a host powered off). The connection is then cut and dropped from the pool, and the
 * request answers the French 503; without it, the statement waited for the operating system's TCP time-outs (many
 * minutes), and so did every request handed that connection after it. 30 s is far above any statement of a running
 * server: a request's take milliseconds, the prune's deletes (every 15 minutes) and the job worker's claims well under a
 * second, and the transactions that others may wait for (row locks, the events' and invoice numbers' advisory locks)
 * do database work only, no e-mail, no file, no PDF (the PDF jobs draw outside any statement). The migrations, the one
 * thing that may take minutes (an index built on a large table, another instance's migrations waited for), run
 * without it (withoutQueryTimeout). Below a balancer's usual 60 s, so the client gets the 503 rather than the balancer's.
 */
export const QUERY_TIMEOUT_MS = 30_000

export async function connect(options: ConnectOptions): Promise<DbHandle> {
  if (options.databaseUrl) return connectPostgres(options.databaseUrl, options)
  let pglite: PGlite
  let unlock = async () => {}
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true })
    unlock = await lockDataDir(options.dataDir)
    try {
      const dir = join(options.dataDir, 'pglite')
      await copyTemplateIfNew(dir)
      pglite = new PGlite(dir, { extensions: { unaccent } })
      await pglite.waitReady
    } catch (error) {
      await unlock()
      throw error
    }
  } else {
    pglite = new PGlite({ extensions: { unaccent }, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) })
    await pglite.waitReady
  }
  // Through node-postgres, as PostgreSQL is (PGlite's own adapter, one connection): the hot statements are then named
  // prepared statements here too, parsed and planned once instead of at every call (user/me's statement
  // ran in about 0.3 ms on PGlite, 0.09 ms once prepared), and rows come back typed by the same driver.
  // One connection, so a query waits for whatever holds it. Bounded as on PostgreSQL: a statement sent on `db` from
  // inside a transaction (which holds that connection) would otherwise wait for ever, and every request after it; it
  // now fails (a French 503), the transaction rolls back and the connection is free again. PGlite is ready before the
  // first connection (waitReady above): a connection that took longer than the bound would be ended by node-postgres,
  // and PGlite's adapter has only the one, shared by every client of the pool.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS })
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: namingPool(pool) }),
    ...(options.log ? { log: options.log } : {}),
  })
  return {
    db,
    kind: 'pglite',
    listen: (channel, onPayload) => pglite.listen(checkedChannel(channel), onPayload),
    oneAtATime: inProcessOneAtATime(options.oneAtATimeWaitMs),
    // In the process: no connection whose host may vanish.
    withoutQueryTimeout: (body) => body(),
    dump: () => pglite.dumpDataDir('gzip'),
    async close() {
      await db.destroy()
      await pglite.close()
      await unlock()
    },
  }
}

// Set by the pre-built server only (esbuild.server.mjs): the migrated empty database beside the bundle (template.ts).
declare const __PGLITE_TEMPLATE_DIR__: string | undefined

/**
 * The migrated empty database a new data directory starts from: the pre-built server's, beside its bundle; otherwise
 * PGLITE_TEMPLATE_DIR's, which the test runner's processes set to the run's copy (test/util/pglite-template.ts), so
 * that a server or command a test starts on a new data directory does not run initdb (3.4 s of a core each).
 */
function templateDir(): string | undefined {
  if (typeof __PGLITE_TEMPLATE_DIR__ === 'string') return join(import.meta.dirname, __PGLITE_TEMPLATE_DIR__)
  return process.env.PGLITE_TEMPLATE_DIR?.trim() || undefined
}

/**
 * When this data directory holds no database yet, the template's files are copied in (Node's file copy: PGlite's own
 * loadDataDir unpacked the same files through its WebAssembly file system, about a second); PGlite then opens them
 * like any existing database. Copied beside, then renamed: a crash mid-copy leaves no half database. Without a
 * template (tsx) PGlite runs initdb as before.
 */
async function copyTemplateIfNew(dir: string): Promise<void> {
  const template = templateDir()
  if (!template || existsSync(join(dir, 'PG_VERSION'))) return
  if (!existsSync(join(template, 'PG_VERSION'))) return
  // An empty directory is no database; anything else is left for PGlite to judge, as before.
  if (existsSync(dir)) {
    if ((await readdir(dir)).length) return
    await rmdir(dir)
  }
  const partial = `${dir}.copie-${process.pid}`
  await rm(partial, { recursive: true, force: true })
  await cp(template, partial, { recursive: true })
  await rename(partial, dir)
}

/** Another process (the server, or `npm run ingest`) has the embedded database of this DATA_DIR open. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `La base embarquée de ${dataDir} est déjà ouverte par un autre processus (pid ${pid}) : PGlite n’accepte qu’un seul processus à la fois. ` +
        'Si c’est le serveur, ajoutez le courrier par l’API opérateur (POST /api/operator/…) ou arrêtez-le avant de recommencer.',
    )
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite is one database inside one process: two processes on the same files would corrupt them.
 * A lock file holding the owner's pid keeps a second one out; a lock left by a dead process is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'pglite.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => rm(path, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim())
      // This very process counts too: a second PGlite on the same files would corrupt them just as well.
      if (Number.isInteger(pid) && pid > 0 && (pid === process.pid || alive(pid))) throw new DataDirBusyError(dataDir, pid)
      await rm(path, { force: true })
    }
  }
  throw new DataDirBusyError(dataDir, 0)
}

async function connectPostgres(url: string, options: ConnectOptions): Promise<DbHandle> {
  const {
    schema,
    poolSize: max = 10,
    log,
    onConnectionLost = () => {},
    connectTimeoutMs: connectionTimeoutMillis = CONNECT_TIMEOUT_MS,
  } = options
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`nom de schéma invalide : ${schema}`)
  // Every connection of a schema's handle is named after it (pg_stat_activity.application_name): a test that ends
  // connections, as a restart does, ends its own and never those of the test files running beside it.
  const connectionString = schema ? namedConnection(url, schema) : url
  if (schema) {
    const admin = new pg.Client({ connectionString, connectionTimeoutMillis })
    await admin.connect()
    try {
      await admin.query(`create schema if not exists ${schema}`)
    } finally {
      await admin.end()
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis,
    ...KEEP_ALIVE,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  pool.on('error', onConnectionLost)
  // A connection lost while checked out (a query running, a transaction open, the job worker's poll) has no listener
  // of the pool's: node-postgres then emits an 'error' no one hears, which ends the process. Its queries fail on their
  // own (a French 503) and the pool drops it on release; this listener only keeps the process alive.
  pool.on('connect', (client) => client.on('error', () => {}))
  const queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS
  /** How many withoutQueryTimeout bodies run (the migrations at start, before the server serves anything). */
  let unbounded = 0
  const bound: QueryBound = { ms: () => (unbounded ? 0 : queryTimeoutMs), onTimeout: onConnectionLost }
  const db = new Kysely<Database>({ dialect: new OneSchemaPostgresDialect({ pool: namingPool(pool, bound) }), ...(log ? { log } : {}) })
  const listener = postgresListener(connectionString, (error) => onConnectionLost(error as Error), connectionTimeoutMillis)
  // One more connection of its own, opened at the first use: the advisory locks of oneAtATime.
  const locks = postgresOneAtATime(connectionString, {
    schema,
    waitMs: options.oneAtATimeWaitMs,
    connectionTimeoutMillis,
    onError: onConnectionLost,
    ...(options.queryTimeoutMs ? { statementTimeoutMs: options.queryTimeoutMs } : {}),
  })
  return {
    db,
    kind: 'postgres',
    listen: listener.listen,
    oneAtATime: locks.oneAtATime,
    async withoutQueryTimeout(body) {
      unbounded++
      try {
        return await body()
      } finally {
        unbounded--
      }
    },
    async close() {
      await listener.close()
      await locks.close()
      await db.destroy()
    },
  }
}

const checkedChannel = (channel: string) => {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`canal NOTIFY invalide : ${channel}`)
  return channel
}

/**
 * The wait before listening again after the LISTEN connection was lost: 250 ms, doubled at each failure, at most 5 s.
 * Not more: the database back, the live streams stay deaf until this connection is (then they are ended and follow
 * on from their Last-Event-ID). At 30 s, a 10 s restart left them deaf 5 s longer, a minute's outage up to 30 s;
 * one connection per process tried every 5 s costs the database nothing.
 */
export const listenRetryDelay = (attempt: number) => Math.min(5_000, 250 * 2 ** attempt)

/**
 * How often the LISTEN connection is asked a `select 1`, answered within CONNECT_TIMEOUT_MS or held dead. It only
 * listens, and a connection whose host vanished without closing it (a network cut) tells nothing: the live streams
 * would hear nothing for ever. Cut, it is then listened again as after any loss (with the gap told). Every 30 s, one
 * statement of nothing per process: a stream is deaf at most about 40 s after such a cut, then follows on.
 */
export const LISTEN_CHECK_MS = 30_000

/**
 * One connection of its own per process (a pooled one would be handed back and lose its LISTEN):
 * opened at the first listen, reconnected with a growing delay when it drops, every channel listened again.
 * `check`: LISTEN_CHECK_MS and its time-out; tests shorten them.
 */
export function postgresListener(
  connectionString: string,
  onError: (error: unknown) => void = () => {},
  connectionTimeoutMillis = CONNECT_TIMEOUT_MS,
  check = { everyMs: LISTEN_CHECK_MS, timeoutMs: CONNECT_TIMEOUT_MS },
) {
  const handlers = new Map<string, Set<(payload: string) => void>>()
  /** Each listener's onGap, while it listens. */
  const gapHandlers = new Map<(payload: string) => void, () => void>()
  let client: pg.Client | null = null
  /** The connection was lost since the last one listened: the next one tells of the gap. */
  let gap = false
  let connecting: Promise<pg.Client> | null = null
  let retry: NodeJS.Timeout | null = null
  let attempt = 0
  let closed = false

  const open = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis, ...KEEP_ALIVE })
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '')
    })
    let checking: NodeJS.Timeout | undefined
    const lost = (error?: unknown) => {
      clearInterval(checking)
      if (client !== next) return
      client = null
      gap = true
      if (error) onError(error)
      void endConnection(next)
      if (!closed) reconnectLater()
    }
    next.on('error', lost)
    next.on('end', () => lost())
    try {
      await next.connect()
      for (const channel of handlers.keys()) await next.query(`listen ${channel}`)
    } catch (error) {
      await next.end().catch(() => undefined)
      throw error
    }
    if (closed) {
      await next.end().catch(() => undefined)
      throw new Error('connexion LISTEN fermée')
    }
    client = next
    attempt = 0
    let asking = false
    checking = setInterval(() => {
      if (asking) return
      asking = true
      next
        .query({ text: 'select 1', query_timeout: check.timeoutMs } as pg.QueryConfig)
        .then(
          () => undefined,
          (error: unknown) => {
            // A statement that fails otherwise comes with the loss of the connection ('error', 'end'), told there.
            if (isQueryTimeout(error)) {
              lost(error)
              destroyConnection(next)
            }
          },
        )
        .finally(() => {
          asking = false
        })
    }, check.everyMs)
    checking.unref()
    if (gap) {
      gap = false
      for (const onGap of gapHandlers.values()) onGap()
    }
    return next
  }

  const connected = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client)
    connecting ??= open().finally(() => {
      connecting = null
    })
    return connecting
  }

  function reconnectLater() {
    if (retry || closed) return
    const delay = listenRetryDelay(attempt++)
    retry = setTimeout(() => {
      retry = null
      connected().catch((error: unknown) => {
        onError(error)
        reconnectLater()
      })
    }, delay)
    retry.unref()
  }

  const listen: Listen = async (channel, onPayload, onGap) => {
    checkedChannel(channel)
    let set = handlers.get(channel)
    const first = !set
    if (!set) handlers.set(channel, (set = new Set()))
    set.add(onPayload)
    if (onGap) gapHandlers.set(onPayload, onGap)
    try {
      const c = await connected()
      // A connection opened just now already listens to every channel known then.
      if (first) await c.query(`listen ${channel}`)
    } catch (error) {
      set.delete(onPayload)
      gapHandlers.delete(onPayload)
      if (!set.size) handlers.delete(channel)
      throw error
    }
    return async () => {
      set.delete(onPayload)
      gapHandlers.delete(onPayload)
      if (set.size || handlers.get(channel) !== set) return
      handlers.delete(channel)
      await client?.query(`unlisten ${channel}`).catch(() => undefined)
    }
  }

  return {
    listen,
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      await connecting?.catch(() => undefined)
      const last = client
      client = null
      if (last) await endConnection(last)
    },
  }
}

/** The pool's bound on a statement (PostgreSQL): its length now (0: none), and who hears of a connection cut for it. */
interface QueryBound {
  ms(): number
  onTimeout(error: Error): void
}

/**
 * The pool as Kysely sees it, whose connections send the hot routes' statements (prepared.ts) as named prepared
 * statements: PostgreSQL parses and plans each once per connection instead of once per request.
 * With a bound (PostgreSQL), each statement has node-postgres's `query_timeout`. Run out, node-postgres rejects the
 * statement but keeps the connection waiting for its answer, and Kysely hands it back to the pool as sound (`release()`
 * without an error): the next request given it would queue behind that answer and hang the same. So the connection
 * is cut at once (dead-connections.ts), and handed back with an error, which makes the pool drop it rather than wait
 * for the cut to be noticed.
 */
function namingPool(pool: pg.Pool, bound?: QueryBound) {
  const named = new WeakSet<pg.PoolClient>()
  const dead = new WeakSet<pg.PoolClient>()
  return {
    async connect() {
      const client = await pool.connect()
      if (!named.has(client)) {
        named.add(client)
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
        client.query = ((text: unknown, values?: unknown[]) => {
          const name = typeof text === 'string' ? preparedTexts.get(text) : undefined
          const ms = typeof text === 'string' ? bound?.ms() : 0
          if (!ms) return name ? query({ name, text, values }) : query(text, values)
          return query({ ...(name ? { name } : {}), text, values, query_timeout: ms }).catch((error: unknown) => {
            if (isQueryTimeout(error) && !dead.has(client)) {
              dead.add(client)
              destroyConnection(client)
              bound!.onTimeout(error as Error)
            }
            throw error
          })
        }) as typeof client.query
      }
      // pg-pool gives each checkout its own release.
      const release = client.release
      client.release = ((error?: Error | boolean) =>
        release(error || (dead.has(client) ? new Error('connexion coupée : pas de réponse à temps') : undefined))) as typeof client.release
      return client
    },
    end: () => pool.end(),
    // Kysely reads these to open a control connection when a query is cancelled.
    options: pool.options,
    Client: pg.Client,
  }
}

/** The connection string with its application_name set (kept as written if it is not a URL). */
function namedConnection(connectionString: string, name: string): string {
  try {
    const url = new URL(connectionString)
    url.searchParams.set('application_name', name)
    return url.toString()
  } catch {
    return connectionString
  }
}

/**
 * PostgreSQL's dialect, with Kysely's introspection limited to the connection's schema (current_schema()). Only Kysely's
 * Migrator uses it, to find its own two tables in the schema it is pinned to (migrate.ts, migratorFor); Kysely's own
 * lists every table of every schema with its columns, and failed when another schema was dropped under it (« schema
 * … does not exist », « relation … does not exist »: test files migrating beside others that drop theirs, CI).
 */
class OneSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    const all = super.createIntrospector(db)
    const getTables = async (): Promise<TableMetadata[]> => {
      const { rows } = await sql<{ schema: string; name: string; isView: boolean; isForeign: boolean }>`
        select n.nspname as schema, c.relname as name, c.relkind in ('v', 'm') as "isView", c.relkind = 'f' as "isForeign"
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname = current_schema()`.execute(db)
      return rows.map((row) => ({ ...row, columns: [] }))
    }
    return { getSchemas: () => all.getSchemas(), getTables }
  }
}

/** Drops a test schema and everything in it. */
export async function dropSchema(connectionString: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString })
  await admin.connect()
  try {
    await admin.query(`drop schema if exists ${schema} cascade`)
  } finally {
    await admin.end()
  }
}

export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db)
}
