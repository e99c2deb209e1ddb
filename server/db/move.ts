// npm run db:move: an embedded database's rows copied onto an empty PostgreSQL, migrated by the same migrations. Rows go
// across as JSON built by the source and read back by the target (json_agg, json_populate_recordset), so that every type
// keeps its exact text (numeric, timestamps, bytea, arrays, jsonb) whatever the two servers' versions; in one transaction
// of the target, so that a failure leaves it as it was (migrated and empty).
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import { countRows, listTables, MIGRATOR_TABLES, quoted, runOn, tablesWithRows, type RunSql } from './catalog.ts'
import { migrateToLatest } from './migrate.ts'

/** Rows read and written at a time: a letter's text is at most a few hundred KB, a batch a few MB. */
export const MOVE_BATCH_ROWS = 500

export class MoveRefused extends Error {}

export interface MoveReport {
  /** Rows copied, per table, equal on both sides. */
  tables: Record<string, number>
  /** Each sequence's next value on the target. */
  sequences: Record<string, number>
}

/** The tables ordered so that each comes after those it references (its foreign keys); a cycle is refused. */
export async function dependencyOrder(run: RunSql, tables: readonly string[]): Promise<string[]> {
  const edges = await run<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_catalog.pg_constraint k
       join pg_catalog.pg_class c on c.oid = k.conrelid join pg_catalog.pg_class p on p.oid = k.confrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = current_schema()`,
  )
  const parents = new Map(tables.map((table) => [table, new Set<string>()]))
  // A table that references itself is copied in its primary key's order, parents first as they were made.
  for (const { child, parent } of edges) if (child !== parent) parents.get(child)?.add(parent)
  const ordered: string[] = []
  const placed = new Set<string>()
  while (ordered.length < tables.length) {
    const next = tables.filter((table) => !placed.has(table) && [...parents.get(table)!].every((parent) => placed.has(parent)))
    if (!next.length) throw new Error(`dépendances circulaires entre les tables : ${tables.filter((t) => !placed.has(t)).join(', ')}`)
    for (const table of next) {
      ordered.push(table)
      placed.add(table)
    }
  }
  return ordered
}

/** The primary key's columns, and whether it is one integer column (then read by keyset: each batch after the last id). */
async function primaryKey(run: RunSql, table: string): Promise<{ columns: string[]; integer: boolean }> {
  const rows = await run<{ name: string; type: string }>(
    `select a.attname as name, format_type(a.atttypid, null) as type from pg_catalog.pg_index i
       join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indrelid = '${quoted(table).replaceAll("'", "''")}'::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
  )
  return {
    columns: rows.map((row) => row.name),
    integer: rows.length === 1 && ['integer', 'bigint', 'smallint'].includes(rows[0]!.type),
  }
}

/** The columns a row is written with: generated ones (documents.search_vector) are the target's to compute. */
async function writableColumns(run: RunSql, table: string): Promise<{ columns: string[]; identityAlways: boolean }> {
  const rows = await run<{ name: string; generated: string; identity: string | null }>(
    `select column_name as name, is_generated as generated, identity_generation as identity from information_schema.columns
     where table_schema = current_schema() and table_name = '${table.replaceAll("'", "''")}' order by ordinal_position`,
  )
  return {
    columns: rows.filter((row) => row.generated !== 'ALWAYS').map((row) => row.name),
    identityAlways: rows.some((row) => row.identity === 'ALWAYS'),
  }
}

/**
 * Copies every row of `from` into `to` (PostgreSQL, empty): both migrated to the latest level first, the tables in
 * dependency order and in batches, the target's own triggers held off while its rows arrive as they were (a Kbis's
 * filing time, the lists' versions), each sequence set past the largest id, then every count compared. `log` hears
 * each table as it is done.
 */
export async function moveDatabase(
  from: Kysely<any>,
  to: Kysely<any>,
  log: (line: string) => void = () => {},
  batchRows = MOVE_BATCH_ROWS,
): Promise<MoveReport> {
  const full = await tablesWithRows(runOn(to))
  if (full.length)
    throw new MoveRefused(
      `La base PostgreSQL cible n’est pas vide (des lignes dans ${full.slice(0, 5).join(', ')}${full.length > 5 ? '…' : ''}) : ` +
        'le déplacement n’écrase rien. Indiquez une base neuve (createdb) ou vide.',
    )
  await migrateToLatest(from)
  await migrateToLatest(to)
  const source = runOn(from)
  const tables = (await listTables(source)).filter((table) => !MIGRATOR_TABLES.includes(table))
  const targetTables = new Set(await listTables(runOn(to)))
  const absent = tables.filter((table) => !targetTables.has(table))
  if (absent.length) throw new Error(`tables absentes de la cible après ses migrations : ${absent.join(', ')}`)
  const order = await dependencyOrder(source, tables)
  return to.transaction().execute(async (tx) => {
    const target = runOn(tx)
    for (const table of order) await copyTable(from, tx, table, batchRows, log)
    const sequences = await setSequences(source, target)
    const expected = await countRows(source, tables)
    const got = await countRows(target, tables)
    const wrong = tables.filter((table) => expected[table] !== got[table])
    if (wrong.length)
      throw new Error(`comptes différents après la copie : ${wrong.map((t) => `${t} ${expected[t]} → ${got[t]}`).join(', ')}`)
    return { tables: got, sequences }
  })
}

/** A batch of rows as the source's JSON, how many, and the largest id among them. */
interface Batch {
  rows: string
  n: number
  last: string | null
}

async function copyTable(from: Kysely<any>, tx: Transaction<any>, table: string, batchRows: number, log: (line: string) => void) {
  const target = runOn(tx)
  const { columns, identityAlways } = await writableColumns(target, table)
  const key = await primaryKey(runOn(from), table)
  const orderBy = (key.columns.length ? key.columns : columns).map(quoted).join(', ')
  const list = columns.map(quoted).join(', ')
  // An integer id: each batch after the last one's largest (an index scan); otherwise by offset (small tables).
  const id = key.integer ? key.columns[0]! : null
  await target(`alter table ${quoted(table)} disable trigger user`)
  let copied = 0
  let last: string | null = null
  for (let offset = 0; ; offset += batchRows) {
    const after: RawBuilder<unknown> = id && last !== null ? sql`where ${sql.ref(id)} > ${last}` : sql``
    const skip = id ? sql`` : sql.raw(`offset ${offset}`)
    const page = await sql<Batch>`
      select coalesce(json_agg(t), '[]')::text as rows, count(*)::int as n, ${id ? sql`max(${sql.ref(id)})::text` : sql`null`} as last
      from (select * from ${sql.table(table)} ${after} order by ${sql.raw(orderBy)} limit ${sql.raw(String(batchRows))} ${skip}) t`.execute(
      from,
    )
    const batch: Batch | undefined = page.rows[0]
    if (!batch || batch.n === 0) break
    last = batch.last
    await sql`insert into ${sql.raw(quoted(table))} (${sql.raw(list)}) ${sql.raw(identityAlways ? 'overriding system value ' : '')}
      select ${sql.raw(list)} from json_populate_recordset(null::${sql.raw(quoted(table))}, ${batch.rows}::json)`.execute(tx)
    copied += batch.n
    if (batch.n < batchRows) break
  }
  await target(`alter table ${quoted(table)} enable trigger user`)
  log(`${table} : ${copied} ligne${copied > 1 ? 's' : ''}`)
}

/**
 * Every sequence of the target set as the source's stood (the ids already given are never given again, even those of
 * rows since deleted), and at least past the largest value of the column it feeds; answers each one's next value.
 */
async function setSequences(source: RunSql, target: RunSql): Promise<Record<string, number>> {
  const owned = await target<{ seq: string; tbl: string; col: string }>(
    `select s.relname as seq, t.relname as tbl, a.attname as col from pg_catalog.pg_class s
       join pg_catalog.pg_namespace n on n.oid = s.relnamespace
       join pg_catalog.pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
       join pg_catalog.pg_class t on t.oid = d.refobjid
       join pg_catalog.pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where s.relkind = 'S' and n.nspname = current_schema()`,
  )
  const sourceSequences = new Set(
    (
      await source<{ name: string }>(
        `select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'S' and n.nspname = current_schema()`,
      )
    ).map((row) => row.name),
  )
  const next: Record<string, number> = {}
  for (const { seq, tbl, col } of owned) {
    const [was] = sourceSequences.has(seq)
      ? await source<{ last: string; called: boolean }>(`select last_value as last, is_called as called from ${quoted(seq)}`)
      : [{ last: '1', called: false }]
    const [max] = await target<{ max: string | null }>(`select max(${quoted(col)})::text as max from ${quoted(tbl)}`)
    const used = Math.max(was!.called ? Number(was!.last) : Number(was!.last) - 1, Number(max?.max ?? 0))
    if (used > 0) await target(`select setval('${quoted(seq).replaceAll("'", "''")}', ${used}, true)`)
    else await target(`select setval('${quoted(seq).replaceAll("'", "''")}', 1, false)`)
    next[seq] = used + 1
  }
  return next
}
