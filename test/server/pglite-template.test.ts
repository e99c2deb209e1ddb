// The tests' own PGlite databases (test/util/pglite-template.ts): each test app loads a lighter copy of the migrated
// database (no template0 or template1, 8 MB of shared buffers), and a data directory a test starts on copies the same
// database in when PGLITE_TEMPLATE_DIR names it (server/db/connect.ts), instead of running initdb.
// tests: the embedded database only (what it checks is PGlite's; on PostgreSQL each app has a schema of its own).
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../server/db/connect.ts'
import { migrations } from '../../server/db/migrate.ts'
import { pgliteTemplate, pgliteTemplateDir } from '../util/pglite-template.ts'

const Template = suite<{ tmp: string; previous: string | undefined }>('the test databases start from the migrated template')

Template.before(async (ctx) => {
  ctx.tmp = await mkdtemp(join(tmpdir(), 'portail-modele-'))
  ctx.previous = process.env.PGLITE_TEMPLATE_DIR
})
Template.after(async (ctx) => {
  if (ctx.previous === undefined) delete process.env.PGLITE_TEMPLATE_DIR
  else process.env.PGLITE_TEMPLATE_DIR = ctx.previous
  await rm(ctx.tmp, { recursive: true, force: true })
})

type Db = Awaited<ReturnType<typeof connect>>['db']

/** What a database holds that tells where it came from. */
async function described(db: Db) {
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  const databases = await sql<{ datname: string }>`select datname from pg_database order by datname`.execute(db)
  const buffers = await sql<{ value: string }>`select current_setting('shared_buffers') as value`.execute(db)
  return { applied: applied.rows.map((r) => r.name), databases: databases.rows.map((r) => r.datname), buffers: buffers.rows[0]!.value }
}

Template('a test app’s database: every migration applied, without template0 and template1, 8 MB of shared buffers', async () => {
  const handle = await connect({ loadDataDir: await pgliteTemplate() })
  try {
    assert.equal(await described(handle.db), { applied: Object.keys(migrations).sort(), databases: ['postgres'], buffers: '8MB' })
  } finally {
    await handle.close()
  }
})

Template(
  'a new data directory is copied from PGLITE_TEMPLATE_DIR, migrated, without initdb; one holding a database is kept',
  async (ctx) => {
    process.env.PGLITE_TEMPLATE_DIR = await pgliteTemplateDir(ctx.tmp)
    const dataDir = join(ctx.tmp, 'data')
    const first = await connect({ dataDir })
    try {
      // initdb would have made template0 and template1: these files are the template's.
      assert.equal(await described(first.db), { applied: Object.keys(migrations).sort(), databases: ['postgres'], buffers: '8MB' })
      await sql`create table a_garder (valeur text)`.execute(first.db)
      await sql`insert into a_garder values ('écrit avant')`.execute(first.db)
    } finally {
      await first.close()
    }
    assert.ok(existsSync(join(dataDir, 'pglite', 'PG_VERSION')))
    assert.equal(
      (await readdir(dataDir)).filter((name) => name.includes('.copie-')),
      [],
      'no copy left beside',
    )
    const again = await connect({ dataDir })
    try {
      const { rows } = await sql<{ valeur: string }>`select valeur from a_garder`.execute(again.db)
      assert.equal(rows, [{ valeur: 'écrit avant' }], 'the database already there is opened as it is')
    } finally {
      await again.close()
    }
  },
)

Template.run()
