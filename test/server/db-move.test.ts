// npm run db:move (docs/BACKUPS.md): an embedded database with the demo data copied onto an empty PostgreSQL, every
// table's rows the same, the sequences past the largest ids, a customer signs in on it through the app. With
// DATABASE_URL (test:server:pg) the command itself runs against a new database of that server; without it (npm test)
// the same copy runs onto a second, empty PGlite.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { main as dbMove } from '../../scripts/db-move.ts'
import { documentProvider, loadConfig } from '../../server/config.ts'
import { countRows, listTables, MIGRATOR_TABLES, quoted, runOn } from '../../server/db/catalog.ts'
import { connect, type DbHandle } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { moveDatabase } from '../../server/db/move.ts'
import { seedDemo } from '../../server/demo/seed.ts'
import { fsStorage } from '../../server/services/storage.ts'
import { appOn } from '../util/backup.ts'
import { login } from '../util/server.ts'

const databaseUrl = process.env.DATABASE_URL || undefined

interface Ctx {
  work: string
  dataDir: string
  storageDir: string
  /** PostgreSQL: the new database made for the move, and its address. */
  database?: string
  targetUrl?: string
  target?: DbHandle
  lines: string[]
}

const adminQuery = async (text: string) => {
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  try {
    await admin.query(text)
  } finally {
    await admin.end()
  }
}

/** Every row of a table as JSON text, in its primary key's order (the generated column left out: the target computes it). */
const contents = async (handle: DbHandle, table: string) => {
  const rows = await runOn(handle.db)<{ t: string | null }>(
    `select json_agg(to_jsonb(t) - 'search_vector' order by to_jsonb(t)::text)::text as t from ${quoted(table)} t`,
  )
  return rows[0]?.t ?? null
}

const test = suite<Ctx>('db:move: the embedded database with the demo data onto an empty PostgreSQL')

test.before(async (ctx) => {
  ctx.work = await mkdtemp(join(tmpdir(), 'portail-deplacement-'))
  ctx.dataDir = join(ctx.work, 'donnees')
  ctx.storageDir = join(ctx.work, 'stockage')
  ctx.lines = []
  const source = await connect({ dataDir: ctx.dataDir })
  try {
    await migrateToLatest(source.db)
    const config = loadConfig({})
    await seedDemo(source.db, fsStorage(ctx.storageDir), { now: new Date(), brandName: config.brandName, seller: documentProvider(config) })
  } finally {
    await source.close()
  }
})

test.after(async (ctx) => {
  await ctx.target?.close()
  if (ctx.database) await adminQuery(`drop database if exists ${ctx.database} with (force)`)
  await rm(ctx.work, { recursive: true, force: true })
})

test('the rows copied, counted the same on both sides, the sequences set', async (ctx) => {
  const out = { log: (line: string) => ctx.lines.push(line), error: (line: string) => ctx.lines.push(`ERREUR ${line}`) }
  if (databaseUrl) {
    ctx.database = `deplacement_${randomBytes(5).toString('hex')}`
    await adminQuery(`create database ${ctx.database}`)
    const url = new URL(databaseUrl)
    url.pathname = `/${ctx.database}`
    ctx.targetUrl = url.toString()
    const code = await dbMove(['--to', ctx.targetUrl], { DATA_DIR: ctx.dataDir, STORAGE_DIR: ctx.storageDir }, out)
    assert.is(code, 0, ctx.lines.join('\n'))
    assert.match(ctx.lines.at(-1)!, /^Base déplacée : \d+ tables, \d+ lignes, les mêmes comptes des deux côtés ; \d+ séquences/)
    assert.ok(ctx.lines.some((line) => /^ {2}documents : \d+ lignes$/.test(line)))
    ctx.target = await connect({ databaseUrl: ctx.targetUrl })
  } else {
    ctx.target = await connect({})
    const source = await connect({ dataDir: ctx.dataDir })
    try {
      await moveDatabase(source.db, ctx.target.db, (line) => ctx.lines.push(line), 7)
    } finally {
      await source.close()
    }
  }
  const source = await connect({ dataDir: ctx.dataDir })
  try {
    const tables = (await listTables(runOn(source.db))).filter((t) => !MIGRATOR_TABLES.includes(t))
    const counts = await countRows(runOn(source.db), tables)
    assert.equal(await countRows(runOn(ctx.target.db), tables), counts)
    assert.ok(counts.documents! > 0 && counts.contracts! > 0 && counts.journal! >= 0)
    // Every value as it was: the Kbis's filing time and the lists' versions (set by triggers), json, arrays, timestamps.
    for (const table of tables) assert.is(await contents(ctx.target, table), await contents(source, table), table)
    // The search column, computed again by the target.
    const searchable = (h: DbHandle) =>
      runOn(h.db)<{ n: string }>('select count(*) as n from documents where search_vector is not null').then((r) => Number(r[0]!.n))
    assert.is(await searchable(ctx.target), await searchable(source))
  } finally {
    await source.close()
  }
})

test('a customer signs in on the moved database through the app, and a new letter takes the next id', async (ctx) => {
  const app = await appOn(ctx.target!, fsStorage(ctx.storageDir))
  try {
    const token = await login(app)
    const orders = await app.inject({ method: 'GET', url: '/api-protected/my-domiciliation-orders', headers: { apitoken: token } })
    assert.is(orders.statusCode, 200)
    assert.ok(orders.json().length >= 2)
    const before = await runOn(ctx.target!.db)<{ max: number }>('select max(id) as max from documents')
    const inserted = await ctx
      .target!.db.insertInto('folders')
      .values({ order_id: orders.json()[0].id, name: 'Après le déplacement' })
      .returning('id')
      .executeTakeFirstOrThrow()
    assert.ok(inserted.id > 0)
    assert.ok(Number(before[0]!.max) > 0)
  } finally {
    await app.close()
  }
})

test('refused: a target that is not empty, a database the server holds', async (ctx) => {
  if (!databaseUrl) {
    const other = await connect({})
    const source = await connect({ dataDir: ctx.dataDir })
    try {
      await moveDatabase(source.db, other.db)
      const again = await moveDatabase(source.db, other.db).then(
        () => null,
        (error: Error) => error,
      )
      assert.match(
        again?.message ?? 'copied twice',
        /^La base PostgreSQL cible n’est pas vide \(des lignes dans .*\) : le déplacement n’écrase rien\./,
      )
    } finally {
      await source.close()
      await other.close()
    }
    return
  }
  const lines: string[] = []
  const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) }
  assert.is(await dbMove(['--to', ctx.targetUrl!], { DATA_DIR: ctx.dataDir }, out), 1)
  assert.match(lines.at(-1)!, /^La base PostgreSQL cible n’est pas vide \(des lignes dans .*\) : le déplacement n’écrase rien\./)
  const held = await connect({ dataDir: ctx.dataDir })
  try {
    assert.is(await dbMove(['--to', ctx.targetUrl!], { DATA_DIR: ctx.dataDir }, out), 1)
    assert.match(lines.at(-1)!, /Arrêtez le serveur avant de déplacer la base/)
  } finally {
    await held.close()
  }
  assert.is(await dbMove(['--to', 'mysql://x'], { DATA_DIR: ctx.dataDir }, out), 2)
})

test.run()
