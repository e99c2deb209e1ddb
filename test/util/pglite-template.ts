// The migrated empty PGlite database every test app starts from (test/util/server.ts): made once per test run and
// loaded by each app (connect's loadDataDir), instead of each app running initdb and the migrations (3.4 s and 0.5 s of
// CPU against 1.3 s for the load, measured here). The run's folder (TEST_RUN_DIR, set by scripts/run-tests.mjs for
// every file) holds it: the first process to take its lock makes it, the others wait for the file. Without a run
// folder (one file run by uvu alone), the process makes its own.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { dumpTemplate } from '../../server/db/template.ts'

let made: Promise<Blob> | undefined
let empty: Promise<Blob> | undefined

/**
 * A database as initdb leaves it, before any migration (test/server/migrate.test.ts starts from it): made once per
 * process, then loaded (about 0.4 s) instead of an initdb per test (3.4 s).
 */
export function pgliteEmptyTemplate(): Promise<Blob> {
  return (empty ??= (async () => {
    const pglite = new PGlite({ extensions: { unaccent } })
    try {
      await pglite.query('checkpoint')
      return await pglite.dumpDataDir('none')
    } finally {
      await pglite.close()
    }
  })())
}

export function pgliteTemplate(): Promise<Blob> {
  return (made ??= shared())
}

/**
 * The same database as a data directory, for the servers and commands the tests start on a data directory of their
 * own (connect's copyTemplateIfNew copies it in instead of running initdb): the run's dump unpacked by tar, once per
 * process, in the run's folder. scripts/test-worker.mjs names it in PGLITE_TEMPLATE_DIR, which the commands a test
 * starts inherit.
 */
export async function pgliteTemplateDir(runDir: string): Promise<string> {
  const dir = join(runDir, `pglite-template-${process.pid}`)
  const partial = `${dir}.partiel`
  await mkdir(partial, { recursive: true })
  // The dump given to tar on its standard input: no second copy of it on disk.
  const tar = spawn('tar', ['-xf', '-', '-C', partial], { stdio: ['pipe', 'ignore', 'inherit'] })
  tar.stdin.end(Buffer.from(await (await pgliteTemplate()).arrayBuffer()))
  const [code] = await once(tar, 'close')
  if (code !== 0) throw new Error(`tar n’a pas pu déballer la base modèle des tests (code ${code})`)
  await rename(partial, dir)
  return dir
}

/**
 * What the tests' copy of the migrated database leaves out, so that each app loads it in about half the CPU (0.3 s of
 * a core instead of 0.6 s, measured here; the load was about half of the server tests' CPU): the template0 and
 * template1 databases, which only CREATE DATABASE reads and which no app runs (600 of the 1285 files that PGlite's
 * loadDataDir unpacks through its WebAssembly file system, one by one); and the shared buffers, 8 MB instead of the
 * 128 MB that every start lays out (an app's data is a few megabytes). The database the apps use is the one migrated,
 * untouched; a production database keeps both (server/db/template.ts, connect.ts).
 */
async function lighter(pglite: PGlite): Promise<void> {
  // One statement at a time: neither DROP DATABASE nor ALTER SYSTEM runs inside a transaction block.
  for (const statement of [
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    'drop database template0',
    'drop database template1',
    `alter system set shared_buffers = '8MB'`,
  ])
    await pglite.exec(statement)
}

async function shared(): Promise<Blob> {
  const base = process.env.TEST_RUN_DIR
  if (!base) return dumpTemplate(lighter)
  const file = join(base, 'pglite-template.tar')
  const lock = `${file}.lock`
  for (const until = Date.now() + 180_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (
      await access(file).then(
        () => true,
        () => false,
      )
    )
      return new Blob([await readFile(file)])
    const mine = await mkdir(lock).then(
      () => true,
      () => false,
    )
    if (!mine) continue
    try {
      const dump = await dumpTemplate(lighter)
      // Written beside, then renamed: a process never reads half a file.
      await writeFile(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()))
      await rename(`${file}.${process.pid}`, file)
      return dump
    } catch (error) {
      // The next process takes the lock and tries again.
      await rm(lock, { recursive: true, force: true })
      throw error
    }
  }
  throw new Error(`la base modèle des tests (${file}) n’est toujours pas prête après 180 s`)
}
