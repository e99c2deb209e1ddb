// The migrated empty PGlite database every test app starts from (test/util/server.ts): made once per test run and
// loaded by each app (connect's loadDataDir), instead of each app running initdb and the migrations (3.4 s and 0.5 s of
// CPU against 1.3 s for the load, measured here). The run's folder (TEST_RUN_DIR, set by scripts/run-tests.mjs for
// every file) holds it: the first process to take its lock makes it, the others wait for the file. Without a run
// folder (one file run by uvu alone), the process makes its own.
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

async function shared(): Promise<Blob> {
  const base = process.env.TEST_RUN_DIR
  if (!base) return dumpTemplate()
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
      const dump = await dumpTemplate()
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
