// Start-up: a database already migrated is recognised by one statement; one that lacks a migration still
// goes through Kysely's Migrator, which applies what is missing. On PGlite, and on PostgreSQL with DATABASE_URL.
import { randomBytes } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { connect, dropSchema } from '../../server/db/connect.ts'
import { migrateToLatest, migratorFor, migrations } from '../../server/db/migrate.ts'
import { pgliteEmptyTemplate } from '../util/pglite-template.ts'

const Migrate = suite('migrateToLatest')

/** The migrations named before `first` applied by Kysely's Migrator, as an older version of the server left them. */
async function migrateBefore(db: Parameters<typeof migratorFor>[0], first: string) {
  const older = Object.keys(migrations)
    .sort()
    .filter((name) => name < first)
  const { error } = await (
    await migratorFor(db, { getMigrations: async () => Object.fromEntries(older.map((name) => [name, migrations[name]!])) })
  ).migrateToLatest()
  assert.is(error, undefined, String(error))
}

async function database() {
  const databaseUrl = process.env.DATABASE_URL || undefined
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined
  const statements: string[] = []
  const handle = await connect({
    databaseUrl,
    schema,
    // On PGlite: a copy of a database just made by initdb, not migrated.
    ...(databaseUrl ? {} : { loadDataDir: await pgliteEmptyTemplate() }),
    poolSize: 2,
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql)
    },
  })
  // Dropped after: nothing of a test is left in the database.
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
    assert.equal(
      applied.rows.map((r) => r.name),
      Object.keys(migrations).sort(),
    )
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
    await migrateBefore(t.db, names.at(-1)!)
    t.statements.length = 0
    await migrateToLatest(t.db)
    assert.ok(t.statements.length > 1, 'the Migrator ran')
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db)
    assert.equal(
      applied.rows.map((r) => r.name),
      names,
    )
  } finally {
    await t.close()
  }
})

Migrate('010: a person holding two shares of one order keeps the oldest; the index then refuses a second', async () => {
  const t = await database()
  try {
    await migrateBefore(t.db, '010')
    const user = await t.db
      .insertInto('users')
      .values({ email: 'deux@example.com', firstname: 'Deux', lastname: 'Parts', password_hash: 'x' } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    const owner = await t.db
      .insertInto('users')
      .values({ email: 'titulaire@example.com', firstname: 'Ti', lastname: 'Tulaire', password_hash: 'x' } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    const order = await t.db
      .insertInto('orders')
      .values({
        owner_id: owner.id,
        raison_sociale: 'Deux Parts SAS',
        order_date: new Date(),
        status: 'active',
        domiciliation_address: '1 rue de la Paix, 75002 Paris',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    const share = (email: string, userId: number | null) =>
      t.db
        .insertInto('shares')
        .values({ order_id: order.id, email, user_id: userId } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    const first = await share('ancienne@example.com', user.id)
    await share('deux@example.com', user.id)
    const pending = await share('autre@example.com', null)
    await migrateToLatest(t.db)
    const left = await t.db.selectFrom('shares').select('id').where('order_id', '=', order.id).orderBy('id').execute()
    assert.equal(
      left.map((r) => r.id),
      [first.id, pending.id],
      'the oldest kept, pending ones untouched',
    )
    try {
      await share('troisieme@example.com', user.id)
      assert.unreachable('a second share of the same person')
    } catch (error) {
      assert.is((error as { code?: string }).code, '23505')
    }
  } finally {
    await t.close()
  }
})

Migrate('012: a representative entered twice on one order keeps the newest row; the index then refuses a third', async () => {
  const t = await database()
  try {
    await migrateBefore(t.db, '012')
    const owner = await t.db
      .insertInto('users')
      .values({ email: 'titulaire@example.com', firstname: 'Ti', lastname: 'Tulaire', password_hash: 'x' } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    const newOrder = (name: string) =>
      t.db
        .insertInto('orders')
        .values({
          owner_id: owner.id,
          raison_sociale: name,
          order_date: new Date(),
          status: 'active',
          domiciliation_address: '1 rue de la Paix, 75002 Paris',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    const [order, other] = [await newOrder('Deux Fois SAS'), await newOrder('Autre SAS')]
    const add = (orderId: number, firstname: string, lastname: string, phone = '06 11 22 33 44') =>
      t.db
        .insertInto('mandataires')
        .values({ order_id: orderId, firstname, lastname, email: 'paul@example.com', phone } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    await add(order.id, 'Paul', 'Durand')
    await add(order.id, 'Paul', 'Durand')
    const newest = await add(order.id, 'paul', 'DURAND', '07 00 00 00 00')
    const sister = await add(order.id, 'Léa', 'Durand')
    const elsewhere = await add(other.id, 'Paul', 'Durand')
    await migrateToLatest(t.db)
    const left = await t.db.selectFrom('mandataires').select(['id', 'phone']).orderBy('id').execute()
    assert.equal(
      left.map((r) => r.id),
      [newest.id, sister.id, elsewhere.id],
      'the newest of the twins kept; other people and orders untouched',
    )
    try {
      await add(order.id, 'PAUL', 'durand')
      assert.unreachable('a second row of the same person')
    } catch (error) {
      assert.is((error as { code?: string }).code, '23505')
    }
  } finally {
    await t.close()
  }
})

Migrate('an empty database is migrated from scratch', async () => {
  const t = await database()
  try {
    await migrateToLatest(t.db)
    const tables = await sql<{
      n: number
    }>`select count(*)::int as n from information_schema.tables where table_name = 'documents' and table_schema = current_schema()`.execute(
      t.db,
    )
    assert.is(tables.rows[0]!.n, 1)
  } finally {
    await t.close()
  }
})

Migrate('Kysely’s tables in another schema of the database do not fool the Migrator: this schema gets its own', async () => {
  const t = await database()
  const other = `other_${randomBytes(4).toString('hex')}`
  try {
    await sql`create schema ${sql.id(other)}`.execute(t.db)
    await sql`create table ${sql.id(other, 'kysely_migration')} (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
      t.db,
    )
    await sql`create table ${sql.id(other, 'kysely_migration_lock')} (id varchar(255) primary key, is_locked integer not null default 0)`.execute(
      t.db,
    )
    await migrateToLatest(t.db)
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db)
    assert.equal(
      applied.rows.map((r) => r.name),
      Object.keys(migrations).sort(),
    )
    const theirs = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(other, 'kysely_migration')}`.execute(t.db)
    assert.is(theirs.rows[0]!.n, 0, 'the other schema is left as it was')
  } finally {
    await sql`drop schema ${sql.id(other)} cascade`.execute(t.db)
    await t.close()
  }
})

Migrate(
  '015 and 016: letters and packages sent with a key keep it; invoice numbers that differ only by case do not stop the index, which the number check uses',
  async () => {
    const t = await database()
    try {
      await migrateBefore(t.db, '015')
      const owner = await t.db
        .insertInto('users')
        .values({ email: 'titulaire@example.com', firstname: 'Ti', lastname: 'Tulaire', password_hash: 'x' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      const order = await t.db
        .insertInto('orders')
        .values({
          owner_id: owner.id,
          raison_sociale: 'Factures SAS',
          order_date: new Date(),
          status: 'active',
          domiciliation_address: '1 rue de la Paix, 75002 Paris',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      const invoice = (number: string) =>
        t.db
          .insertInto('invoices')
          .values({
            order_id: order.id,
            number,
            date: new Date(),
            amount_excl_tax_cents: 100,
            amount_incl_tax_cents: 120,
            file_key: `invoices/${number}-${Math.random()}.pdf`,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      await invoice('FA-1')
      const lower = await invoice('fa-1')
      const parcel = await t.db
        .insertInto('packages')
        .values({ order_id: order.id, received_at: new Date(), carrier: 'DHL', sender: 'Matfer', status: 'À retirer' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      await t.db
        .insertInto('operator_requests')
        .values({ kind: 'package', key: 'k-1', fingerprint: 'f', package_id: parcel.id } as never)
        .execute()
      await migrateToLatest(t.db)
      assert.equal(await t.db.selectFrom('operator_requests').select(['kind', 'key', 'package_id', 'invoice_id']).execute(), [
        { kind: 'package', key: 'k-1', package_id: parcel.id, invoice_id: null },
      ])
      await t.db.insertInto('operator_requests').values({ kind: 'invoice', key: 'k-1', fingerprint: 'f', invoice_id: lower.id }).execute()
      // An invoice's key names its invoice, and nothing else.
      for (const bad of [
        { kind: 'invoice', key: 'k-2', fingerprint: 'f', package_id: parcel.id },
        { kind: 'package', key: 'k-3', fingerprint: 'f', package_id: parcel.id, invoice_id: lower.id },
      ] as const) {
        try {
          await t.db.insertInto('operator_requests').values(bad).execute()
          assert.unreachable(JSON.stringify(bad))
        } catch (error) {
          assert.is((error as { code?: string }).code, '23514', JSON.stringify(bad))
        }
      }
      await t.db.deleteFrom('invoices').where('id', '=', lower.id).execute()
      assert.is(
        (await t.db.selectFrom('operator_requests').select('key').where('kind', '=', 'invoice').execute()).length,
        0,
        'the key goes with its invoice',
      )
      // The index: there, not unique, and chosen by the planner for the check's query once sequential scans are discouraged.
      const index = await sql<{
        indexdef: string
      }>`select indexdef from pg_indexes where indexname = 'invoices_number_upper' and schemaname = current_schema()`.execute(t.db)
      assert.match(index.rows[0]?.indexdef ?? '', /^CREATE INDEX invoices_number_upper ON .*invoices USING btree \(upper\(number\)\)$/)
      await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx)
        const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from invoices where upper(number) = 'FA-1'`.execute(trx)
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), 'invoices_number_upper')
      })
    } finally {
      await t.close()
    }
  },
)

Migrate.run()
