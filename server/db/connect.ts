import { mkdir } from 'node:fs/promises'
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
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true })
    pglite = new PGlite(join(options.dataDir, 'pglite'))
  } else {
    pglite = new PGlite()
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  return { db, kind: 'pglite', close: () => db.destroy() }
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
