// npm run backup / npm run restore (docs/BACKUPS.md): the database and every stored file in one directory, with a
// manifest of each table's rows and each file's size and SHA-256; restored only into an empty instance, then checked
// against that manifest. Files go through the Storage interface only, so the directory store and S3 are alike.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { sql } from 'kysely'
import pg from 'pg'
import { countRows, listTables, MIGRATOR_TABLES, migrationLevel, referencedKeys, runOn, type RunSql } from '../db/catalog.ts'
import { connect, lockDataDir } from '../db/connect.ts'
import { moveDatabase } from '../db/move.ts'
import { digestOf } from './checked-storage.ts'
import type { Storage } from './storage.ts'

export const MANIFEST = 'manifest.json'
const FILES = 'files'
/** Before any date a store can hold: listOlderThan lists every key. */
const EVERY_KEY = new Date(8.64e15)

export interface ManifestFile {
  key: string
  bytes: number
  sha256: string
}

export interface BackupManifest {
  format: 1
  createdAt: string
  database: {
    kind: 'pglite' | 'postgres'
    /** database.tar.gz (PGlite's dumpDataDir) or database.dump (pg_dump's custom format), beside the manifest. */
    file: string
    bytes: number
    sha256: string
    /** The last migration applied. */
    migration: string | null
    tables: Record<string, number>
  }
  files: ManifestFile[]
  tools: Record<string, string>
}

/** A refusal or a failure told to the operator as it is (French), with exit code 1. */
export class BackupError extends Error {}

/** Where the database comes from: PGlite's dump (the running server's, or the data directory's), or a PostgreSQL. */
export type BackupSource = { kind: 'pglite'; dump: () => Promise<Blob> } | { kind: 'postgres'; url: string; schema?: string }

/** Where a restore writes: an embedded database's directory (DATA_DIR), or a PostgreSQL. */
export type RestoreTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; schema?: string }

const pgliteVersion = async () => {
  const main = fileURLToPath(import.meta.resolve('@electric-sql/pglite'))
  return (JSON.parse(await readFile(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version
}

/** pg_dump and pg_restore: PG_BIN if set, else the newest of Debian's /usr/lib/postgresql/<n>/bin, else the PATH. */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  if (process.env.PG_BIN) return join(process.env.PG_BIN, name)
  const base = '/usr/lib/postgresql'
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : []
  return versions[0] ? join(base, versions[0], 'bin', name) : name
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('error', (error) => reject(new BackupError(`${command} introuvable ou impossible à lancer : ${error.message}`)))
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new BackupError(`${command} a échoué (code ${code}) : ${err.trim()}`))))
  })
}

/** A stream's bytes through SHA-256 as they pass. */
function hashing() {
  const hash = createHash('sha256')
  let bytes = 0
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      bytes += chunk.length
      done(null, chunk)
    },
  })
  return { tap, result: () => ({ bytes, sha256: hash.digest('hex') }) }
}

const hashFile = (path: string) => digestOf(createReadStream(path))

/** Files handled this many at a time: an S3 store answers each call in tens of milliseconds, most of it waiting. */
export const FILES_AT_ONCE = 8

async function eachAtOnce<T>(items: readonly T[], body: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await body(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, items.length) }, lane))
}

/** A key as the stores write them, and so a path inside the backup's files/ (a manifest edited by hand gets no further). */
const SAFE_KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/
const fileOf = (dir: string, key: string) => {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new BackupError(`clé de fichier invalide dans la sauvegarde : ${key}`)
  return join(dir, FILES, ...key.split('/'))
}

/** One object of the store copied into the backup, hashed on the way; null when it is gone (deleted meanwhile). */
async function copyObject(storage: Storage, dir: string, key: string): Promise<ManifestFile | null> {
  const object = await storage.read(key)
  if (!object) return null
  const path = fileOf(dir, key)
  await mkdir(dirname(path), { recursive: true })
  const { tap, result } = hashing()
  await pipeline(object.stream, tap, createWriteStream(path))
  const copied = result()
  if (copied.bytes !== object.bytes)
    throw new BackupError(`Le fichier ${key} a été lu incomplet (${copied.bytes} octets sur ${object.bytes}) : relancez la sauvegarde.`)
  return { key, ...copied }
}

interface DatabaseDump {
  file: string
  migration: string | null
  tables: Record<string, number>
  keys: Set<string>
  tools: Record<string, string>
}

async function describe(run: RunSql) {
  const tables = await listTables(run)
  return { migration: await migrationLevel(run), tables: await countRows(run, tables), keys: await referencedKeys(run) }
}

/** PGlite: its dump written beside, then opened in memory to count what it holds (what a restore will get). */
async function dumpPglite(dir: string, dump: () => Promise<Blob>): Promise<DatabaseDump> {
  const blob = await dump()
  const file = 'database.tar.gz'
  await writeFile(join(dir, file), Buffer.from(await blob.arrayBuffer()))
  const copy = await connect({ loadDataDir: blob })
  try {
    return { file, ...(await describe(runOn(copy.db))), tools: { pglite: await pgliteVersion() } }
  } finally {
    await copy.close()
  }
}

/**
 * PostgreSQL: one repeatable-read transaction exports its snapshot; pg_dump dumps from that very snapshot while the
 * same transaction counts the rows and lists the keys, so the manifest says exactly what the dump holds.
 */
async function dumpPostgres(dir: string, url: string, schema: string | undefined): Promise<DatabaseDump> {
  const client = new pg.Client({ connectionString: url, ...(schema ? { options: `-c search_path=${schema}` } : {}) })
  await client.connect()
  try {
    await client.query('begin isolation level repeatable read read only')
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id')
    const file = 'database.dump'
    const dumped = run(pgTool('pg_dump'), [
      '--format=custom',
      `--snapshot=${rows[0]!.id}`,
      `--file=${join(dir, file)}`,
      ...(schema ? [`--schema=${schema}`] : []),
      `--dbname=${url}`,
    ])
    dumped.catch(() => {}) // awaited below, after the counts
    const runClient: RunSql = async (text) => (await client.query(text)).rows
    const described = await describe(runClient)
    await dumped
    const version = (await run(pgTool('pg_dump'), ['--version'])).trim()
    const [server] = (await client.query<{ v: string }>("select current_setting('server_version') as v")).rows
    await client.query('commit')
    return { file, ...described, tools: { pg_dump: version, postgresql: server?.v ?? '' } }
  } finally {
    await client.end()
  }
}

export interface BackupReport {
  manifest: BackupManifest
  /** Files copied after the database's dump: written between the first copy and the dump. */
  late: number
}

/**
 * The backup, safe while the server runs: (1) every object of the store copied, (2) the database dumped, (3) what the
 * dumped rows point at and (1) did not copy (written meanwhile) copied then. Files are never overwritten (a new key per
 * file), only deleted after their row: a file the dump points at and that is gone by (3) means its row was deleted after
 * the dump, so the backup is refused, to be run again, rather than kept with a hole in it.
 */
export async function backup(
  dir: string,
  storage: Storage,
  source: BackupSource,
  log: (line: string) => void = () => {},
): Promise<BackupReport> {
  if (existsSync(dir) && (await readdir(dir)).length)
    throw new BackupError(`Le dossier ${dir} n’est pas vide : une sauvegarde s’écrit dans un dossier neuf (par exemple daté du jour).`)
  // The customers' files and data: readable by the account that makes the backup only.
  await mkdir(join(dir, FILES), { recursive: true, mode: 0o700 })
  const copied = new Map<string, ManifestFile>()
  await eachAtOnce(await storage.listOlderThan(EVERY_KEY), async (key) => {
    const file = await copyObject(storage, dir, key)
    if (file) copied.set(key, file)
  })
  log(`Fichiers copiés : ${copied.size}.`)
  const database = source.kind === 'pglite' ? await dumpPglite(dir, source.dump) : await dumpPostgres(dir, source.url, source.schema)
  log(`Base ${source.kind === 'pglite' ? 'embarquée' : 'PostgreSQL'} sauvegardée (${database.migration ?? 'sans migration'}).`)
  const late = [...database.keys].filter((key) => !copied.has(key))
  await eachAtOnce(late, async (key) => {
    const file = await copyObject(storage, dir, key)
    if (!file)
      throw new BackupError(
        `Sauvegarde incomplète : le fichier ${key}, cité par la base sauvegardée, est introuvable dans le stockage (supprimé pendant ` +
          'la sauvegarde, ou déjà perdu). Relancez la sauvegarde dans un dossier neuf ; si le même fichier manque encore, il était ' +
          'perdu avant elle (npm run storage:check liste les fichiers manquants).',
      )
    copied.set(key, file)
  })
  const dumpFile = await hashFile(join(dir, database.file))
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: { kind: source.kind, file: database.file, ...dumpFile, migration: database.migration, tables: database.tables },
    files: [...copied.values()].sort((a, b) => a.key.localeCompare(b.key)),
    tools: { node: process.version, ...database.tools },
  }
  // Written last, beside then renamed: a directory without its manifest is no backup.
  await writeFile(join(dir, `${MANIFEST}.tmp`), `${JSON.stringify(manifest, null, 1)}\n`)
  await rename(join(dir, `${MANIFEST}.tmp`), join(dir, MANIFEST))
  return { manifest, late: late.length }
}

export async function readManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as BackupManifest
  } catch {
    throw new BackupError(`${join(dir, MANIFEST)} est absent ou illisible : ce dossier n’est pas une sauvegarde complète.`)
  }
  if (manifest.format !== 1 || !['pglite', 'postgres'].includes(manifest.database?.kind))
    throw new BackupError(`${join(dir, MANIFEST)} : format de sauvegarde inconnu.`)
  return manifest
}

/** Every file of the backup against its manifest (size and SHA-256): a damaged backup is refused before anything is written. */
export async function verifyBackup(dir: string, manifest: BackupManifest): Promise<void> {
  const damaged: string[] = []
  const dump = await hashFile(join(dir, manifest.database.file)).catch(() => null)
  if (dump?.sha256 !== manifest.database.sha256) damaged.push(manifest.database.file)
  await eachAtOnce(manifest.files, async (file) => {
    const got = await hashFile(fileOf(dir, file.key)).catch(() => null)
    if (got?.sha256 !== file.sha256 || got.bytes !== file.bytes) damaged.push(file.key)
  })
  if (damaged.length)
    throw new BackupError(
      `La sauvegarde ${dir} est abîmée : ${damaged.length} fichier(s) absent(s) ou différent(s) du manifeste (${damaged.slice(0, 5).join(', ')}${damaged.length > 5 ? '…' : ''}). Rien n’a été restauré.`,
    )
}

export interface RestoreReport {
  tables: Record<string, number>
  files: number
  /** The embedded backup went onto PostgreSQL through db:move's copy. */
  moved: boolean
}

const notEmpty = (what: string) =>
  new BackupError(`${what} n’est pas vide : la restauration n’écrase rien. Restaurez dans une instance vide (base et fichiers).`)

/**
 * Restores a backup into an empty instance: the backup checked first, then the database and the files written, then
 * every table's count and every file's bytes (read back from the store) compared with the manifest. An embedded
 * backup may go onto PostgreSQL (its rows copied as db:move does); a PostgreSQL one only onto PostgreSQL.
 */
export async function restore(
  dir: string,
  storage: Storage,
  target: RestoreTarget,
  log: (line: string) => void = () => {},
): Promise<RestoreReport> {
  const manifest = await readManifest(dir)
  if (manifest.database.kind === 'postgres' && target.kind === 'pglite')
    throw new BackupError(
      'Cette sauvegarde vient de PostgreSQL : elle se restaure dans PostgreSQL (DATABASE_URL), pas dans la base embarquée.',
    )
  await verifyBackup(dir, manifest)
  log(`Sauvegarde du ${manifest.createdAt} vérifiée : ${manifest.files.length} fichiers.`)
  if ((await storage.listOlderThan(EVERY_KEY)).length) throw notEmpty('Le stockage des fichiers')
  const dump = join(dir, manifest.database.file)
  let moved = false
  let tables: Record<string, number>
  if (target.kind === 'pglite') {
    tables = await restorePglite(target.dataDir, dump)
  } else {
    const handle = await connect({ databaseUrl: target.url, ...(target.schema ? { schema: target.schema } : {}), poolSize: 1 })
    try {
      const present = await listTables(runOn(handle.db))
      if (manifest.database.kind === 'postgres') {
        if (present.length) throw notEmpty(`La base PostgreSQL (${present.length} tables)`)
        // A schema of its own (the tests'): the dump makes it again, as connect() has just made it empty.
        if (target.schema) await sql`drop schema ${sql.id(target.schema)} restrict`.execute(handle.db)
        await run(pgTool('pg_restore'), [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${target.url}`,
          dump,
        ])
      } else {
        if (present.length) throw notEmpty(`La base PostgreSQL (${present.length} tables)`)
        const source = await connect({ loadDataDir: new Blob([await readFile(dump)]) })
        try {
          await handle.withoutQueryTimeout(() => moveDatabase(source.db, handle.db))
        } finally {
          await source.close()
        }
        moved = true
      }
      tables = await countRows(runOn(handle.db))
    } finally {
      await handle.close()
    }
  }
  log(`Base restaurée : ${Object.keys(tables).length} tables.`)
  await eachAtOnce(manifest.files, async (file) => {
    await storage.putStream(file.key, createReadStream(fileOf(dir, file.key)))
  })
  log(`Fichiers restaurés : ${manifest.files.length}.`)
  // The checks: each table's rows (the migrator's own aside when the rows were moved, its level is the code's), each file.
  const wrong = Object.entries(manifest.database.tables)
    .filter(([table, n]) => !(moved && MIGRATOR_TABLES.includes(table)) && tables[table] !== n)
    .map(([table, n]) => `${table} ${n} → ${tables[table] ?? 'absente'}`)
  await eachAtOnce(manifest.files, async (file) => {
    const object = await storage.read(file.key)
    const got = object ? await digestOf(object.stream) : null
    if (got?.sha256 !== file.sha256 || got.bytes !== file.bytes) wrong.push(`fichier ${file.key}`)
  })
  if (wrong.length)
    throw new BackupError(`Restauration différente de la sauvegarde : ${wrong.slice(0, 10).join(', ')}${wrong.length > 10 ? '…' : ''}.`)
  return { tables, files: manifest.files.length, moved }
}

/** The embedded database's files made from the dump, in an empty DATA_DIR (its lock held meanwhile); each table's rows. */
async function restorePglite(dataDir: string, dump: string): Promise<Record<string, number>> {
  await mkdir(dataDir, { recursive: true })
  const unlock = await lockDataDir(dataDir)
  try {
    const dir = join(dataDir, 'pglite')
    if (existsSync(dir) && (await readdir(dir)).length) throw notEmpty(`La base embarquée de ${dataDir}`)
    await rm(dir, { recursive: true, force: true })
    const pglite = new PGlite(dir, { extensions: { unaccent }, loadDataDir: new Blob([await readFile(dump)]) })
    await pglite.waitReady
    await pglite.query('checkpoint')
    await pglite.close()
  } finally {
    await unlock()
  }
  const handle = await connect({ dataDir })
  try {
    return await countRows(runOn(handle.db))
  } finally {
    await handle.close()
  }
}
