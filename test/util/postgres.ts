// PostgreSQL's side of the tests: what a restart or a failover does to the API's connections (the outage tests), and a
// row held by a connection of the test's own so that concurrent calls meet where a race is (the concurrency tests).
import { sql, type Kysely, type Transaction } from 'kysely'
import pg from 'pg'
import type { Database } from '../../server/db/schema.ts'

/** Ends this database's client connections that `where` picks (SQL on pg_stat_activity), from a connection of its own; how many. */
export async function terminateBackends(connectionString: string, where = 'true'): Promise<number> {
  const admin = new pg.Client({ connectionString })
  await admin.connect()
  try {
    const { rowCount } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity
      where pid <> pg_backend_pid() and backend_type = 'client backend' and datname = current_database() and ${where}`)
    return rowCount ?? 0
  } finally {
    await admin.end()
  }
}

type Db = Kysely<Database>

/**
 * How many statements of this test's connections wait for a lock (another connection holds what they need): those named
 * after its schema (connect.ts names every connection of a schema's handle, its second connections and its advisory locks'
 * too). The other test files running beside it on the same database never count: their migrations wait on Kysely's
 * database-wide lock, their own tests on their rows, and counting them made this number wrong at random (CI, stop 49).
 * Advisory locks' waits count too (their wait_event_type is 'Lock').
 */
export async function lockWaiters(db: Db): Promise<number> {
  return Number(
    (
      await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and application_name = current_setting('application_name')
          and wait_event_type = 'Lock'`.execute(db)
    ).rows[0]!.n,
  )
}

/** Waits (5 s at most) until `n` statements wait for a lock; throws otherwise. */
export async function untilLockWaiters(db: Db, n: number): Promise<void> {
  for (let i = 0; i < 250 && (await lockWaiters(db)) < n; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  const waiting = await lockWaiters(db)
  if (waiting !== n) throw new Error(`${waiting} statement(s) waiting for a lock, not ${n}`)
}

/**
 * A transaction of its own connection (`db`: TestApp.connectAgain's) that runs `take`, then keeps the locks it took until
 * release(), which commits it: the calls under test get as far as those locks let them, and meet there.
 */
export async function holdLocks(db: Db, take: (tx: Transaction<Database>) => Promise<unknown>): Promise<{ release(): Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let holding!: () => void
  const held = new Promise<void>((resolve) => {
    holding = resolve
  })
  const done = db.transaction().execute(async (tx) => {
    await take(tx)
    holding()
    await released
  })
  await Promise.race([held, done])
  return {
    release: async () => {
      release()
      await done
    },
  }
}
