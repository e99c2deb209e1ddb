// Start-up (issue 13): a database already migrated is recognised by one statement; one that lacks a migration still
// goes through Kysely's Migrator, which applies what is missing. On PGlite, and on PostgreSQL with DATABASE_URL.
import { randomBytes } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { connect, dropSchema } from '../../server/db/connect.ts'
import { migrateToLatest, migrations } from '../../server/db/migrate.ts'

const Migrate = suite('migrateToLatest')

async function database() {
  const databaseUrl = process.env.DATABASE_URL || undefined
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined
  const statements: string[] = []
  const handle = await connect({
    databaseUrl, schema, poolSize: 2,
    log: (event) => { if (event.level === 'query') statements.push(event.query.sql) },
  })
  // Dropped after: Kysely's Migrator looks for its tables in every schema of the database.
  const close = async () => {
    await handle.close()
    if (databaseUrl && schema) await dropSchema(databaseUrl, schema)
  }
  return { ...handle, close, statements }
}

Migrate('an up-to-date database costs one statement at start-up, and nothing is run again', async () => {
  const t = await database()
  try {
    await migrateToLatest(t.db)
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db)
    assert.equal(applied.rows.map((r) => r.name), Object.keys(migrations).sort())
    t.statements.length = 0
    await migrateToLatest(t.db)
    assert.equal(t.statements, ['select name from kysely_migration'])
  } finally {
    await t.close()
  }
})

Migrate('a database without the latest migration gets it from the Migrator', async () => {
  const t = await database()
  try {
    const names = Object.keys(migrations).sort()
    const older = Object.fromEntries(names.slice(0, -1).map((name) => [name, migrations[name]!]))
    const { error } = await new Migrator({ db: t.db, provider: { getMigrations: async () => older } }).migrateToLatest()
    assert.is(error, undefined, String(error))
    t.statements.length = 0
    await migrateToLatest(t.db)
    assert.ok(t.statements.length > 1, 'the Migrator ran')
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db)
    assert.equal(applied.rows.map((r) => r.name), names)
  } finally {
    await t.close()
  }
})

Migrate('an empty database is migrated from scratch', async () => {
  const t = await database()
  try {
    await migrateToLatest(t.db)
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'documents' and table_schema = current_schema()`.execute(t.db)
    assert.is(tables.rows[0]!.n, 1)
  } finally {
    await t.close()
  }
})

Migrate.run()
