// The commands themselves (docs/BACKUPS.md): npm run backup on an embedded database a running server holds (through its
// operator API, as npm run ingest) and on one no server holds, then npm run restore into an empty DATA_DIR and store.
// PostgreSQL's side of the same code runs in backup.test.ts; these use the embedded database only, so they run on the
// PGlite stage (npm test) and are left out of the PostgreSQL one, where they would repeat themselves (a minute on CI).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { main as backupCommand } from '../../scripts/backup.ts'
import { main as restoreCommand } from '../../scripts/restore.ts'
import { documentProvider, loadConfig } from '../../server/config.ts'
import { connect } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { seedDemo } from '../../server/demo/seed.ts'
import type { BackupManifest } from '../../server/services/backup.ts'
import { writeServerFile } from '../../server/services/server-file.ts'
import { fsStorage } from '../../server/services/storage.ts'
import { appOn } from '../util/backup.ts'
import { TEST_OPERATOR_TOKEN } from '../util/server.ts'

interface Ctx {
  work: string
  env: NodeJS.ProcessEnv
}

const output = () => {
  const lines: string[] = []
  return { lines, out: { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) } }
}
const manifestOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as BackupManifest

const test = suite<Ctx>('npm run backup and npm run restore, on the embedded database')

test.before(async (ctx) => {
  ctx.work = await mkdtemp(join(tmpdir(), 'portail-commandes-'))
  ctx.env = { DATA_DIR: join(ctx.work, 'donnees'), STORAGE_DIR: join(ctx.work, 'stockage') }
})
test.after((ctx) => rm(ctx.work, { recursive: true, force: true }))

test('while the server runs: the dump is asked of its operator API, journaled; without a key, refused', async (ctx) => {
  const handle = await connect({ dataDir: ctx.env.DATA_DIR! })
  const config = loadConfig({})
  await migrateToLatest(handle.db)
  await seedDemo(handle.db, fsStorage(ctx.env.STORAGE_DIR!), {
    now: new Date(),
    brandName: config.brandName,
    seller: documentProvider(config),
  })
  const app = await appOn(handle, fsStorage(ctx.env.STORAGE_DIR!))
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  // This process holds the lock, as the server does: the command finds it through server.json.
  const removeServerFile = await writeServerFile(ctx.env.DATA_DIR!, { pid: process.pid, url })
  try {
    const refused = output()
    assert.is(await backupCommand([join(ctx.work, 'sans-cle')], ctx.env, refused.out), 1)
    assert.match(refused.lines.at(-1)!, /définissez OPERATOR_API_KEY \(une clé d’API du back-office\) ou OPERATOR_TOKEN/)
    const { lines, out } = output()
    assert.is(
      await backupCommand([join(ctx.work, 'nuit-1')], { ...ctx.env, OPERATOR_TOKEN: TEST_OPERATOR_TOKEN }, out),
      0,
      lines.join('\n'),
    )
    assert.ok(lines.includes(`Le serveur (pid ${process.pid}) tient la base embarquée : elle est demandée à son API opérateur, ${url}.`))
    assert.match(lines.at(-1)!, /^Sauvegarde terminée dans .*nuit-1 : \d+ tables \(\d+ lignes\), \d+ fichiers \(/)
    const journal = await handle.db.selectFrom('journal').select(['action', 'summary']).where('action', '=', 'backup.database').execute()
    assert.is(journal.length, 1)
  } finally {
    await removeServerFile()
    await app.close()
    await handle.close()
  }
})

test('with no server: the command opens the database itself; the same files and rows as through the server', async (ctx) => {
  const { lines, out } = output()
  assert.is(await backupCommand([join(ctx.work, 'nuit-2')], ctx.env, out), 0, lines.join('\n'))
  const first = await manifestOf(join(ctx.work, 'nuit-1'))
  const second = await manifestOf(join(ctx.work, 'nuit-2'))
  assert.equal(second.files, first.files)
  // The journal's row of the first backup, written after its dump.
  assert.equal(second.database.tables, { ...first.database.tables, journal: first.database.tables.journal! + 1 })
  assert.is(second.database.kind, 'pglite')
  assert.ok(second.files.length > 5, 'the demo’s files')
})

test('npm run restore: into an empty DATA_DIR and store, checked; a second time, refused', async (ctx) => {
  const env = { DATA_DIR: join(ctx.work, 'donnees-restaurees'), STORAGE_DIR: join(ctx.work, 'stockage-restaure') }
  const { lines, out } = output()
  assert.is(await restoreCommand([join(ctx.work, 'nuit-2')], env, out), 0, lines.join('\n'))
  assert.match(
    lines.at(-1)!,
    /^Restauration vérifiée : \d+ tables \(\d+ lignes\) et \d+ fichiers identiques au manifeste\. Le serveur peut démarrer\.$/,
  )
  const again = output()
  assert.is(await restoreCommand([join(ctx.work, 'nuit-2')], env, again.out), 1)
  assert.match(again.lines.at(-1)!, /n’est pas vide : la restauration n’écrase rien/)
  const manifest = await manifestOf(join(ctx.work, 'nuit-2'))
  const storage = fsStorage(env.STORAGE_DIR)
  for (const file of manifest.files) {
    const original = await readFile(join(ctx.env.STORAGE_DIR!, ...file.key.split('/')))
    assert.ok((await storage.get(file.key))?.equals(original), file.key)
  }
  assert.is(await restoreCommand([], env, output().out), 2)
})

if (!process.env.DATABASE_URL) test.run()

const usage = suite('the commands’ usage, on either stage')

usage('a wrong usage is told with the usage and exit code 2; a directory not empty, refused before anything is read', async () => {
  const wrong = output()
  assert.is(await backupCommand([], {}, wrong.out), 2)
  assert.match(wrong.lines[0]!, /^Indiquez un et un seul dossier où écrire la sauvegarde\.\n\nSauvegarder la base et les fichiers :/)
  assert.is(await restoreCommand(['a', 'b'], {}, wrong.out), 2)
  const refused = output()
  const work = await mkdtemp(join(tmpdir(), 'portail-commandes-'))
  try {
    await writeFile(join(work, 'hier.txt'), 'une autre sauvegarde')
    const code = await backupCommand(
      [work],
      { DATABASE_URL: 'postgres://personne@127.0.0.1:1/rien', STORAGE_DIR: join(work, 's') },
      refused.out,
    )
    assert.is(code, 1)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
  assert.is(
    refused.lines.at(-1),
    `Le dossier ${work} n’est pas vide : une sauvegarde s’écrit dans un dossier neuf (par exemple daté du jour).`,
  )
})

usage.run()
