import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.ts'

export interface DbHandle {
  db: Kysely<Database>
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
}

export interface ConnectOptions {
  /** postgres://… : a real PostgreSQL; otherwise the embedded PGlite. */
  databaseUrl?: string
  /** PGlite's data directory; omitted: in memory (tests). */
  dataDir?: string
  /** PostgreSQL only: work inside this schema (created if missing), so parallel test files never meet. */
  schema?: string
  poolSize?: number
}

export async function connect(options: ConnectOptions): Promise<DbHandle> {
  if (options.databaseUrl) return connectPostgres(options.databaseUrl, options.schema, options.poolSize)
  let pglite: PGlite
  let unlock = async () => {}
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true })
    unlock = await lockDataDir(options.dataDir)
    try {
      pglite = new PGlite(join(options.dataDir, 'pglite'))
    } catch (error) {
      await unlock()
      throw error
    }
  } else {
    pglite = new PGlite()
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy()
      await unlock()
    },
  }
}

/** Another process (the server, or `npm run ingest`) has the embedded database of this DATA_DIR open. */
export class DataDirBusyError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`La base embarquée de ${dataDir} est déjà ouverte par un autre processus (pid ${pid}) : PGlite n’accepte qu’un seul processus à la fois. `
      + 'Si c’est le serveur, ajoutez le courrier par l’API opérateur (POST /api/operator/…) ou arrêtez-le avant de recommencer.')
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

async function connectPostgres(connectionString: string, schema: string | undefined, max = 10): Promise<DbHandle> {
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`nom de schéma invalide : ${schema}`)
  if (schema) {
    const admin = new pg.Client({ connectionString })
    await admin.connect()
    try {
      await admin.query(`create schema if not exists ${schema}`)
    } finally {
      await admin.end()
    }
  }
  const pool = new pg.Pool({ connectionString, max, ...(schema ? { options: `-c search_path=${schema}` } : {}) })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { db, kind: 'postgres', close: () => db.destroy() }
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
