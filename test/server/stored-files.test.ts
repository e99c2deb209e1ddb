// Every stored file's size and SHA-256 (migration 110, services/checked-storage.ts): recorded when written, checked at
// every read (a damaged file is refused, never served), compared object by object by npm run storage:check.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { main as storageCheck } from '../../scripts/storage-check.ts'
import { loadConfig } from '../../server/config.ts'
import { connect } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { STORED_FILE_COLUMNS } from '../../server/db/repositories/stored-files.ts'
import { seedDemo } from '../../server/demo/seed.ts'
import { messages } from '../../server/http/errors.ts'
import { DamagedFileError } from '../../server/lib/damaged-file.ts'
import { CHECK_IN_MEMORY_BYTES, checkedStorage, sha256Hex } from '../../server/services/checked-storage.ts'
import { openObjectStore, openStorage } from '../../server/services/open-storage.ts'
import { checkStorage, formatStorageReport, storageLost } from '../../server/services/storage-check.ts'
import { fsStorage } from '../../server/services/storage.ts'
import { buildTestApp, call, login, type TestApp } from '../util/server.ts'

const flipOneByte = async (path: string, at = 100) => {
  const bytes = await readFile(path)
  bytes[at] = bytes[at]! ^ 0x01
  await writeFile(path, bytes)
}
/** The app's objects as they are (its directory, or its prefix on S3 under test:server:s3), changed behind its back. */
const objectsOf = (t: TestApp) => openObjectStore(t.deps.config)
async function changeObject(t: TestApp, key: string, change: (bytes: Buffer) => Buffer) {
  const objects = objectsOf(t)
  await objects.put(key, change((await objects.get(key))!))
}
const flippedBytes = (bytes: Buffer) => {
  const copy = Buffer.from(bytes)
  copy[100] = copy[100]! ^ 0x01
  return copy
}
const recorder = () => {
  const lines = { out: [] as string[], err: [] as string[] }
  const out = { log: (line: string) => lines.out.push(line), error: (line: string) => lines.err.push(line) } as unknown as Console
  return { lines, out }
}

interface Ctx {
  t: TestApp
  camille: string
  letters: { id: number; file_key: string }[]
}
const Served = suite<Ctx>('stored files: recorded when written, checked when read')
Served.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  const visible = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/documents')).json() as { id: number }[]
  ctx.letters = await ctx.t.deps.db
    .selectFrom('documents')
    .select(['id', 'file_key'])
    .where(
      'id',
      'in',
      visible.map((d) => d.id),
    )
    .orderBy('id')
    .execute()
})
Served.after((ctx) => ctx.t.close())

Served('every file of the demo has its size and SHA-256, equal to its bytes; the check finds no loss and no orphan', async (ctx) => {
  const report = await checkStorage({ db: ctx.t.deps.db, objects: objectsOf(ctx.t) })
  assert.ok(report.referenced > 20, `${report.referenced} files`)
  assert.is(report.verified, report.referenced, 'every file recorded when written')
  assert.equal([report.missing, report.damaged, report.unrecorded, report.orphans], [[], [], [], []])
  assert.not.ok(storageLost(report))
  assert.equal(formatStorageReport(report).at(-1), 'Aucune perte : chaque fichier référencé est présent et intact.')
  const key = ctx.letters[0]!.file_key
  const row = await ctx.t.deps.db.selectFrom('stored_files').selectAll().where('key', '=', key).executeTakeFirstOrThrow()
  const bytes = (await objectsOf(ctx.t).get(key))!
  assert.equal([Number(row.bytes), row.sha256], [bytes.length, sha256Hex(bytes)])
})

Served('a letter changed by one byte, or cut short, on the disk: a French error, the bytes never sent', async (ctx) => {
  const [flipped, cut] = ctx.letters
  const intact = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${flipped!.id}/file`)
  assert.is(intact.statusCode, 200)
  assert.is(intact.headers['content-length'], String(intact.rawPayload.length), 'streamed with its length')
  await changeObject(ctx.t, flipped!.file_key, flippedBytes)
  await changeObject(ctx.t, cut!.file_key, (bytes) => bytes.subarray(0, 50))
  for (const letter of [flipped!, cut!]) {
    const res = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${letter.id}/file`)
    assert.is(res.statusCode, 500, letter.file_key)
    assert.equal(res.json(), { statusCode: 500, code: 'FILE_DAMAGED', message: messages.damagedFile })
    assert.not.match(res.body, '%PDF')
  }
  // Sent by e-mail: refused the same way, and no e-mail leaves.
  const before = ctx.t.mails.length
  const sent = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/send-documents', {
    email: 'comptable@example.com',
    documentIds: [flipped!.id],
  })
  assert.is(sent.statusCode, 500)
  assert.is(sent.json().code, 'FILE_DAMAGED')
  assert.is(ctx.t.mails.length, before)
  // The other letters still download.
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${ctx.letters[2]!.id}/file`)).statusCode, 200)
})

Served('storage:check: a file deleted, one changed, one cut, an orphan, one never recorded; --enregistrer records it', async (ctx) => {
  const { db } = ctx.t.deps
  const objects = objectsOf(ctx.t)
  // The previous test changed the first letter by one byte and cut the second.
  const [flipped, cut, gone, unrecorded] = ctx.letters
  await objects.delete(gone!.file_key)
  await objects.put('documents/2020-01/orphelin.pdf', Buffer.from('%PDF-1.4 orphelin'))
  await db.deleteFrom('stored_files').where('key', '=', unrecorded!.file_key).execute()
  const report = await checkStorage({ db, objects })
  assert.equal(report.missing, [{ key: gone!.file_key, where: ['documents.file_key'] }])
  assert.equal(report.damaged.map((d) => d.key).sort(), [flipped!.file_key, cut!.file_key].sort())
  assert.match(report.damaged.find((d) => d.key === cut!.file_key)!.detail, /^50 octets au lieu de \d+$/)
  assert.match(report.damaged.find((d) => d.key === flipped!.file_key)!.detail, /^empreinte SHA-256 [0-9a-f]{64} au lieu de/)
  assert.equal(report.unrecorded, [unrecorded!.file_key])
  assert.equal(report.orphans, ['documents/2020-01/orphelin.pdf'])
  assert.ok(storageLost(report))
  const lines = formatStorageReport(report)
  assert.ok(lines.includes(`MANQUANT  ${gone!.file_key} (documents.file_key)`), lines.join('\n'))
  assert.ok(lines.includes('ORPHELIN  documents/2020-01/orphelin.pdf'))
  assert.is(lines.at(-1), 'PERTE : 1 fichier manquant, 2 fichiers endommagés. Restaurez-les depuis la dernière sauvegarde.')
  const again = await checkStorage({ db, objects, recordMissing: true })
  assert.is(again.recorded, 1)
  assert.equal((await checkStorage({ db, objects })).unrecorded, [])
  // A download of the letter whose record was gone is checked again from now on.
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${unrecorded!.id}/file`)).statusCode, 200)
})

Served('every column that holds a file key is compared (the list the sweep keeps)', async (ctx) => {
  // A file of each kind the demo has is recorded; the same list as the sweep's, so a new kind is checked as soon as it is kept.
  const kinds = new Set<string>()
  for (const [table, column] of STORED_FILE_COLUMNS) {
    const row = await ctx.t.deps.db
      .selectFrom(table as 'documents')
      .select(`${column} as key` as 'file_key')
      .where(column as 'file_key', 'is not', null)
      .executeTakeFirst()
    if (row) kinds.add(table)
  }
  assert.ok(kinds.has('invoices') && kinds.has('contracts') && kinds.has('document_pages'), [...kinds].join(', '))
})

Served.run()

const Store = suite<{ dir: string }>('checked storage around any store')
Store.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-checked-'))
})
Store.after((ctx) => rm(ctx.dir, { recursive: true, force: true }))

Store('streamed writes are recorded; a large file is checked before it is streamed, then streamed', async ({ dir }) => {
  const handle = await connect({})
  try {
    await migrateToLatest(handle.db)
    const damagedSeen: DamagedFileError[] = []
    const storage = checkedStorage(fsStorage(dir), handle.db, { onDamaged: (error) => damagedSeen.push(error) })
    const big = Buffer.alloc(CHECK_IN_MEMORY_BYTES + 1024 * 1024, 7)
    big.write('début', 0)
    const chunks = (function* () {
      for (let at = 0; at < big.length; at += 64 * 1024) yield big.subarray(at, at + 64 * 1024)
    })()
    assert.is(await storage.putStream('exports/2026-12/gros.zip', Readable.from(chunks)), big.length)
    const row = await handle.db
      .selectFrom('stored_files')
      .selectAll()
      .where('key', '=', 'exports/2026-12/gros.zip')
      .executeTakeFirstOrThrow()
    assert.equal([Number(row.bytes), row.sha256], [big.length, sha256Hex(big)])
    const read = await storage.read('exports/2026-12/gros.zip')
    const back: Buffer[] = []
    for await (const chunk of read!.stream) back.push(chunk as Buffer)
    assert.ok(Buffer.concat(back).equals(big))
    await flipOneByte(join(dir, 'exports/2026-12/gros.zip'), big.length - 10)
    try {
      await storage.read('exports/2026-12/gros.zip')
      assert.unreachable('a damaged large file is refused')
    } catch (error) {
      assert.instance(error, DamagedFileError)
    }
    assert.is(damagedSeen.length, 1, 'reported once')
    assert.is(damagedSeen[0]!.key, 'exports/2026-12/gros.zip')
    // Deleted: its record goes with it.
    await storage.delete('exports/2026-12/gros.zip')
    assert.is(await handle.db.selectFrom('stored_files').select('key').executeTakeFirst(), undefined)
    // A record that cannot be written: no file either.
    await handle.db.schema.dropTable('stored_files').execute()
    try {
      await storage.put('documents/2026-12/a.pdf', Buffer.from('%PDF-'))
      assert.unreachable()
    } catch {}
    assert.is(await fsStorage(dir).get('documents/2026-12/a.pdf'), null, 'no file without its record')
  } finally {
    await handle.close()
  }
})

Store(
  'npm run storage:check on an embedded database: exit 0, then 1 on a file deleted or changed, 2 when it cannot run',
  async ({ dir }) => {
    const env = { DATA_DIR: join(dir, 'data'), STORAGE_DIR: join(dir, 'storage'), SEED_DEMO: 'false' }
    const config = loadConfig(env)
    let handle = await connect({ dataDir: config.dataDir })
    let keys: string[]
    try {
      await migrateToLatest(handle.db)
      await seedDemo(handle.db, openStorage(config, handle.db), { now: new Date(), brandName: 'Domicilium' })
      keys = (await handle.db.selectFrom('invoices').select('file_key').orderBy('id').execute()).map((r) => r.file_key)
    } finally {
      await handle.close()
    }
    let run = recorder()
    assert.is(await storageCheck([], env, run.out), 0, run.lines.err.join('\n'))
    assert.is(run.lines.out.at(-1), 'Aucune perte : chaque fichier référencé est présent et intact.')
    await openObjectStore(config).delete(keys[0]!)
    await flipOneByte(join(config.storageDir, keys[1]!))
    run = recorder()
    assert.is(await storageCheck([], env, run.out), 1)
    assert.ok(run.lines.err.includes(`MANQUANT  ${keys[0]} (invoices.file_key)`), run.lines.err.join('\n'))
    assert.ok(run.lines.err.some((line) => line.startsWith(`ENDOMMAGÉ ${keys[1]} (invoices.file_key) : empreinte SHA-256`)))
    assert.is(run.lines.err.at(-1), 'PERTE : 1 fichier manquant, 1 fichier endommagé. Restaurez-les depuis la dernière sauvegarde.')
    run = recorder()
    assert.is(await storageCheck(['--tout'], env, run.out), 2)
    assert.match(run.lines.err[0]!, 'Option inconnue : --tout')
    // The embedded database open elsewhere, not by a server: said, in French, with what to do.
    handle = await connect({ dataDir: config.dataDir })
    try {
      run = recorder()
      assert.is(await storageCheck([], env, run.out), 2)
      assert.match(run.lines.err.join('\n'), 'arrêtez le serveur le temps de la vérification')
    } finally {
      await handle.close()
    }
    // Open by the running server: the check goes through its operator API, with the same report.
    const token = 'jeton-operateur-de-la-verification-0123456789'
    const root = join(import.meta.dirname, '..', '..')
    const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'server.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: {
        ...process.env,
        // Always the embedded database and the directory of `env`, even in the PostgreSQL and S3 runs.
        DATABASE_URL: '',
        STORAGE_URL: '',
        ...env,
        PORT: '0',
        OPERATOR_TOKEN: token,
        JOB_WORKER: 'false',
        DIST_DIR: join(dir, 'no-dist'),
      },
    })
    const stopped = new Promise((resolve) => server.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        server.on('message', (m: { ready?: boolean }) => m.ready && resolve())
        server.once('exit', (code) => reject(new Error(`le serveur s’est arrêté (${code})`)))
      })
      run = recorder()
      assert.is(await storageCheck([], env, run.out), 2, 'without a key')
      assert.match(run.lines.err.join('\n'), 'définissez OPERATOR_API_KEY')
      run = recorder()
      assert.is(await storageCheck([], { ...env, OPERATOR_TOKEN: token }, run.out), 1, run.lines.err.join('\n'))
      assert.match(run.lines.out[0]!, 'vérification par son API opérateur')
      assert.ok(run.lines.err.includes(`MANQUANT  ${keys[0]} (invoices.file_key)`), run.lines.err.join('\n'))
      assert.is(run.lines.err.at(-1), 'PERTE : 1 fichier manquant, 1 fichier endommagé. Restaurez-les depuis la dernière sauvegarde.')
      run = recorder()
      assert.is(await storageCheck([], { ...env, OPERATOR_TOKEN: `${token}-faux` }, run.out), 2)
      assert.match(run.lines.err.join('\n'), /Vérification refusée par le serveur : .*jeton opérateur invalide/i)
    } finally {
      server.kill('SIGTERM')
      await stopped
    }
  },
)

Store.run()
