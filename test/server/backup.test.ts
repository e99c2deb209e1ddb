// npm run backup / restore (docs/BACKUPS.md): the demo data with letters ingested, a Kbis and a paid invoice, backed up
// while requests run, wiped, restored into an empty instance: every letter, invoice and Kbis downloads byte for byte,
// every table counts the same, a customer signs in. On PGlite (npm test) and on PostgreSQL (test:server:pg).
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { countRows, referencedKeys, runOn } from '../../server/db/catalog.ts'
import { connect, dropSchema, type DbHandle } from '../../server/db/connect.ts'
import { migrations } from '../../server/db/migrate.ts'
import { backup, BackupError, restore, type BackupManifest, type BackupSource, type RestoreTarget } from '../../server/services/backup.ts'
import { openObjectStore } from '../../server/services/open-storage.ts'
import { fsStorage, type Storage } from '../../server/services/storage.ts'
import { appOn } from '../util/backup.ts'
import { demoContext, sampleFor, send, type DemoContext } from '../util/server-samples.ts'
import { login, TEST_OPERATOR_TOKEN } from '../util/server.ts'

const databaseUrl = process.env.DATABASE_URL || undefined
/** An S3 server's STORAGE_URL, when the tests run on one: the restore then writes into a bucket prefix of its own. */
const s3Url = process.env.STORAGE_URL?.trim() || undefined

/** An empty store to restore into: a new directory, or a new prefix of the test bucket (the same Storage interface). */
async function emptyStore(ctx: Ctx): Promise<Storage> {
  if (!s3Url) return fsStorage(await mkdtemp(join(ctx.work, 'stockage-')))
  const url = new URL(s3Url)
  url.pathname = `${url.pathname.replace(/\/$/, '')}/tests/restauration-${randomBytes(6).toString('hex')}`
  const storage = openObjectStore({ storageDir: ctx.work, storageUrl: url.toString() })
  ctx.stores.push(storage)
  return storage
}

type Ctx = DemoContext & {
  work: string
  /** The letters ingested before the backup. */
  letters: number[]
  paidInvoice: number
  manifest: BackupManifest
  /** Every backed-up file's bytes as the store held them before the wipe. */
  originals: Map<string, Buffer>
  restored?: { handle: DbHandle; storage: Storage; dataDir?: string }
  /** The stores restored into, emptied at the end (a bucket keeps what a test leaves). */
  stores: Storage[]
  wiped?: boolean
}

const sourceOf = (ctx: Ctx): BackupSource =>
  databaseUrl ? { kind: 'postgres', url: databaseUrl, schema: ctx.t.schema! } : { kind: 'pglite', dump: ctx.t.deps.dumpDatabase! }

const addLetter = async (ctx: Ctx) => {
  const res = await send(ctx.t.app, 'operatorAddDocument', sampleFor('operatorAddDocument', ctx.ids, ctx.pdf), TEST_OPERATOR_TOKEN)
  assert.is(res.statusCode, 200, res.body)
  return res.json().document.id as number
}

/** Answers 200 with a PDF. */
const pdfOf = (res: { statusCode: number; body: string; rawPayload: Buffer }) => {
  assert.is(res.statusCode, 200, res.body)
  return res.rawPayload
}

/**
 * The route tests' sample rows (demoIds: the mail room's scans) name files never stored; here every row's file exists,
 * as in a provider's store, so that the backup has all it points at.
 */
async function storeSampleFiles(ctx: Ctx) {
  const stored = new Set(await ctx.t.deps.storage.listOlderThan(new Date(8.64e15)))
  for (const key of await referencedKeys(runOn(ctx.t.deps.db))) if (!stored.has(key)) await ctx.t.deps.storage.put(key, ctx.pdf)
}

const test = suite<Ctx>('backup while requests run, wipe, restore into an empty instance')

test.before(async (ctx) => {
  await demoContext(ctx)
  await storeSampleFiles(ctx)
  ctx.stores = []
  ctx.work = await mkdtemp(join(tmpdir(), 'portail-sauvegarde-'))
  ctx.letters = [await addLetter(ctx), await addLetter(ctx)]
  const invoice = await send(ctx.t.app, 'operatorAddInvoice', sampleFor('operatorAddInvoice', ctx.ids, ctx.pdf), TEST_OPERATOR_TOKEN)
  assert.is(invoice.statusCode, 200, invoice.body)
  ctx.paidInvoice = invoice.json().id
  const paid = await send(ctx.t.app, 'payUnpaidInvoice', sampleFor('payUnpaidInvoice', ctx.ids, ctx.pdf), ctx.camille)
  assert.ok(paid.json().paidCount >= 1, paid.body)
})

test.after(async (ctx) => {
  for (const store of ctx.stores ?? []) for (const key of await store.listOlderThan(new Date(8.64e15))) await store.delete(key)
  if (!ctx.wiped) await ctx.t?.close()
  await ctx.restored?.handle.close()
  if (databaseUrl && ctx.t?.schema) await dropSchema(databaseUrl, ctx.t.schema)
  if (ctx.work) await rm(ctx.work, { recursive: true, force: true })
})

test('the backup, with uploads and reads running, holds every row it dumped and every file they point at', async (ctx) => {
  let lateLetter = 0
  // A letter stored once the store's objects are listed, before the database is dumped: the third step must copy it.
  const storage: Storage = {
    ...ctx.t.deps.storage,
    listOlderThan: async (before) => {
      const keys = await ctx.t.deps.storage.listOlderThan(before)
      lateLetter = await addLetter(ctx)
      return keys
    },
  }
  let running = true
  const traffic = (async () => {
    let calls = 0
    while (running) {
      await addLetter(ctx)
      pdfOf(await send(ctx.t.app, 'documentFile', { params: { id: ctx.letters[0]! } }, ctx.camille))
      assert.is((await send(ctx.t.app, 'documents', {}, ctx.camille)).statusCode, 200)
      calls += 3
    }
    return calls
  })()
  const dir = join(ctx.work, 'sauvegarde')
  const lines: string[] = []
  let done: Awaited<ReturnType<typeof backup>>
  try {
    done = await backup(dir, storage, sourceOf(ctx), (line) => lines.push(line))
  } finally {
    running = false
    await traffic.catch(() => 0)
  }
  const { manifest, late } = done
  assert.ok((await traffic) >= 3, 'requests ran during the backup')
  assert.ok(late >= 1, 'the letter written after the listing was copied after the dump')
  ctx.manifest = manifest
  assert.is(manifest.database.kind, databaseUrl ? 'postgres' : 'pglite')
  assert.is(manifest.database.migration, Object.keys(migrations).at(-1))
  const { db } = ctx.t.deps
  const letterKeys = await db
    .selectFrom('documents')
    .select(['id', 'file_key'])
    .where('id', 'in', [...ctx.letters, lateLetter])
    .execute()
  const keys = new Set(manifest.files.map((f) => f.key))
  for (const { file_key } of letterKeys) assert.ok(keys.has(file_key), `${file_key} is in the backup`)
  assert.ok(manifest.database.tables.documents! >= ctx.letters.length + 1)
  ctx.originals = new Map()
  for (const file of manifest.files) ctx.originals.set(file.key, (await ctx.t.deps.storage.get(file.key))!)
  assert.ok(ctx.originals.size > 10, 'the demo’s files and the letters')
})

test('the wipe, then the restore into an empty instance, checked against the manifest', async (ctx) => {
  const schema = ctx.t.schema
  // The wipe: the database (PGlite in memory, or the PostgreSQL schema dropped) and the store's directory.
  ctx.wiped = true
  await ctx.t.close()
  const storage = await emptyStore(ctx)
  const dataDir = databaseUrl ? undefined : join(ctx.work, 'donnees')
  const target: RestoreTarget = databaseUrl
    ? { kind: 'postgres', url: databaseUrl, schema: schema! }
    : { kind: 'pglite', dataDir: dataDir! }
  const report = await restore(join(ctx.work, 'sauvegarde'), storage, target)
  assert.is(report.files, ctx.manifest.files.length)
  assert.is(report.moved, false)
  const handle = await connect(databaseUrl ? { databaseUrl, schema: schema! } : { dataDir: dataDir! })
  ctx.restored = { handle, storage, ...(dataDir ? { dataDir } : {}) }
  assert.equal(await countRows(runOn(handle.db)), ctx.manifest.database.tables)
})

test('every letter, invoice and Kbis downloads byte for byte; the invoice is still paid; a customer signs in', async (ctx) => {
  const { handle, storage } = ctx.restored!
  const app = await appOn(handle, storage)
  try {
    const camille = await login(app)
    const letters = await handle.db
      .selectFrom('documents')
      .select(['id', 'file_key'])
      .where('order_id', '=', ctx.ids.order)
      .where('deleted', '=', false)
      .execute()
    assert.ok(letters.length >= ctx.letters.length + 2)
    for (const letter of letters) {
      const bytes = pdfOf(await send(app, 'documentFile', { params: { id: letter.id } }, camille))
      assert.ok(bytes.equals(ctx.originals.get(letter.file_key)!), `letter ${letter.id}`)
    }
    const invoices = await handle.db
      .selectFrom('invoices')
      .select(['id', 'file_key', 'paid_at'])
      .where('order_id', '=', ctx.ids.order)
      .execute()
    assert.ok(invoices.length >= 1)
    for (const invoice of invoices) {
      const bytes = pdfOf(await send(app, 'invoiceFile', { params: { id: invoice.id } }, camille))
      assert.ok(bytes.equals(ctx.originals.get(invoice.file_key)!), `invoice ${invoice.id}`)
    }
    assert.ok(invoices.find((i) => i.id === ctx.paidInvoice)?.paid_at, 'the invoice paid before the backup is paid')
    const contract = await handle.db
      .selectFrom('contracts')
      .select('kbis_file_key')
      .where('id', '=', ctx.ids.contract)
      .executeTakeFirstOrThrow()
    const kbis = pdfOf(await send(app, 'contractKbis', { params: { id: ctx.ids.contract } }, camille))
    assert.ok(kbis.equals(ctx.originals.get(contract.kbis_file_key!)!), 'the Kbis')
    // A new letter after the restore: its id comes after every restored one (the sequences came back with the rows).
    const added = await send(app, 'operatorAddDocument', sampleFor('operatorAddDocument', ctx.ids, ctx.pdf), TEST_OPERATOR_TOKEN)
    assert.is(added.statusCode, 200, added.body)
  } finally {
    await app.close()
  }
})

test('refused: a backup into a directory not empty, a restore into an instance not empty, a damaged backup', async (ctx) => {
  const { storage } = ctx.restored!
  const dir = join(ctx.work, 'sauvegarde')
  const refused = async (run: () => Promise<unknown>, message: RegExp) => {
    try {
      await run()
    } catch (error) {
      assert.instance(error, BackupError)
      assert.match((error as Error).message, message)
      return
    }
    assert.unreachable(`refused: ${message}`)
  }
  await refused(
    () => backup(dir, storage, { kind: 'pglite', dump: async () => new Blob([]) }),
    /n’est pas vide : une sauvegarde s’écrit dans un dossier neuf/,
  )
  const empty = await emptyStore(ctx)
  // Another, empty database: refused before it is opened (PostgreSQL: a schema never made).
  const elsewhere: RestoreTarget = databaseUrl
    ? { kind: 'postgres', url: databaseUrl, schema: `${ctx.t.schema}_autre` }
    : { kind: 'pglite', dataDir: join(ctx.work, 'autre') }
  await refused(() => restore(dir, storage, elsewhere), /Le stockage des fichiers n’est pas vide/)
  if (databaseUrl)
    await refused(
      () => restore(dir, empty, { kind: 'pglite', dataDir: join(ctx.work, 'autre') }),
      /vient de PostgreSQL : elle se restaure dans PostgreSQL/,
    )
  if (databaseUrl)
    await refused(
      () => restore(dir, empty, { kind: 'postgres', url: databaseUrl, schema: ctx.t.schema! }),
      /La base PostgreSQL \(\d+ tables\) n’est pas vide/,
    )
  else {
    await ctx.restored!.handle.close()
    await refused(() => restore(dir, empty, { kind: 'pglite', dataDir: ctx.restored!.dataDir! }), /La base embarquée de .* n’est pas vide/)
    ctx.restored!.handle = await connect({ dataDir: ctx.restored!.dataDir! })
  }
  const one = ctx.manifest.files[0]!
  const path = join(dir, 'files', ...one.key.split('/'))
  const bytes = await readFile(path)
  bytes[bytes.length - 1] ^= 1
  await writeFile(path, bytes)
  await refused(() => restore(dir, empty, elsewhere), /est abîmée : 1 fichier\(s\).*Rien n’a été restauré/)
  assert.equal(await readdir(join(ctx.work, 'autre')).catch(() => []), [], 'nothing written')
})

test.run()

const missing = suite<Ctx>('a file the dump points at, deleted before it could be copied: the backup fails, to be run again')

missing.before(async (ctx) => {
  await demoContext(ctx)
  await storeSampleFiles(ctx)
  ctx.work = await mkdtemp(join(tmpdir(), 'portail-sauvegarde-'))
})
missing.after(async (ctx) => {
  await ctx.t?.close()
  if (ctx.work) await rm(ctx.work, { recursive: true, force: true })
})

missing('refused in French, no manifest written', async (ctx) => {
  const kbis = await ctx.t.deps.db
    .selectFrom('contracts')
    .select('kbis_file_key')
    .where('id', '=', ctx.ids.contract)
    .executeTakeFirstOrThrow()
  const gone = kbis.kbis_file_key!
  // As if the Kbis were written after the listing, then deleted (its row only after the dump) before the last step.
  const storage: Storage = {
    ...ctx.t.deps.storage,
    listOlderThan: async (before) => (await ctx.t.deps.storage.listOlderThan(before)).filter((key) => key !== gone),
    read: async (key) => (key === gone ? null : ctx.t.deps.storage.read(key)),
  }
  const dir = join(ctx.work, 'sauvegarde')
  try {
    await backup(dir, storage, sourceOf(ctx))
    assert.unreachable('refused')
  } catch (error) {
    assert.instance(error, BackupError)
    assert.is(
      (error as Error).message,
      `Sauvegarde incomplète : le fichier ${gone}, cité par la base sauvegardée, est introuvable dans le stockage (supprimé pendant ` +
        'la sauvegarde, ou déjà perdu). Relancez la sauvegarde dans un dossier neuf ; si le même fichier manque encore, il était ' +
        'perdu avant elle (npm run storage:check liste les fichiers manquants).',
    )
  }
  assert.not.ok((await readdir(dir)).includes('manifest.json'))
})

missing.run()
