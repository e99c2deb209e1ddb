// The embedded database's first start without initdb: `npm run build` makes, once, an empty PGlite database with
// every migration applied, closed cleanly, as a directory beside the bundle (dist-server/pglite-template/); a first
// start on an empty DATA_DIR copies that directory with Node's own file copy and opens it like any existing database
// (connect.ts). Only the schema is in it: the demo data is still seeded at the first start, dated from that day.
// Without the pre-built server (tsx) nothing changes. The tests load the same migrated database as a dump in memory
// (dumpTemplate, test/util/pglite-template.ts).
import { rm } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { Kysely, PGliteDialect } from 'kysely'
import { migrateToLatest } from './migrate.ts'
import type { Database } from './schema.ts'

export async function writeTemplate(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await migrated(new PGlite(dir, { extensions: { unaccent } }), async () => {})
}

/**
 * The migrated empty database in memory, as a dump that `connect({ loadDataDir })` starts from. `trim` runs on it after
 * the migrations, before the dump (the tests' lighter copy: test/util/pglite-template.ts).
 */
export function dumpTemplate(trim?: (pglite: PGlite) => Promise<void>): Promise<Blob> {
  const pglite = new PGlite({ extensions: { unaccent } })
  return migrated(pglite, async () => {
    if (trim) {
      await trim(pglite)
      await pglite.query('checkpoint')
    }
    return pglite.dumpDataDir('none')
  })
}

/** Runs every migration on a new PGlite (the same extensions as connect.ts: migration 005 creates the accent-free
 *  search configuration), then `body` on the closed-cleanly files, then closes it. */
async function migrated<T>(pglite: PGlite, body: () => Promise<T>): Promise<T> {
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  try {
    await migrateToLatest(db)
    await pglite.query('checkpoint')
    return await body()
  } finally {
    await db.destroy()
  }
}
