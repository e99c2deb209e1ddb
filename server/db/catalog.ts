// What a database holds, read from its catalog in the connection's schema: its tables and their rows, its migration
// level, the storage keys its rows point at. Backups write it to their manifest and check a restore against it; the
// move to PostgreSQL compares both sides with it (db/move.ts).
import { sql, type Kysely } from 'kysely'
import { STORED_FILE_COLUMNS } from './repositories/stored-files.ts'

/** Runs one statement, answers its rows: Kysely's or a bare node-postgres client's (a backup's snapshot). */
export type RunSql = <R>(text: string) => Promise<R[]>

export const runOn =
  (db: Kysely<any>): RunSql =>
  async <R>(text: string) =>
    (await sql.raw<R>(text).execute(db)).rows

/** Kysely's own tables: the migrator's record, set by the migrations themselves on any target. */
export const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock']

export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The ordinary tables of the connection's schema, by name. */
export async function listTables(run: RunSql): Promise<string[]> {
  const rows = await run<{ name: string }>(
    `select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname = current_schema() order by c.relname`,
  )
  return rows.map((row) => row.name)
}

/** Each table's row count. */
export async function countRows(run: RunSql, tables?: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of tables ?? (await listTables(run))) {
    const [row] = await run<{ n: string }>(`select count(*) as n from ${quoted(table)}`)
    counts[table] = Number(row!.n)
  }
  return counts
}

/** The last migration applied (names sort in their order), null on a database never migrated. */
export async function migrationLevel(run: RunSql): Promise<string | null> {
  if (!(await listTables(run)).includes('kysely_migration')) return null
  const [row] = await run<{ name: string | null }>('select max(name) as name from kysely_migration')
  return row?.name ?? null
}

/** Every storage key a row points at (stored-files.ts lists the columns). */
export async function referencedKeys(run: RunSql): Promise<Set<string>> {
  const keys = new Set<string>()
  for (const [table, column] of STORED_FILE_COLUMNS) {
    const rows = await run<{ key: string }>(
      `select distinct ${quoted(column)} as key from ${quoted(table)} where ${quoted(column)} is not null`,
    )
    for (const row of rows) keys.add(row.key)
  }
  return keys
}

/** The tables that hold rows, Kysely's own aside: a target with any is not empty. */
export async function tablesWithRows(run: RunSql): Promise<string[]> {
  const counts = await countRows(run)
  return Object.entries(counts)
    .filter(([table, n]) => n > 0 && !MIGRATOR_TABLES.includes(table))
    .map(([table]) => table)
}
