// Durable background jobs in the database (mail pipeline): claimed with FOR UPDATE SKIP LOCKED
// under a lease, so that two workers never hold the same job and a dead worker's job is taken again.
import { sql } from 'kysely'
import type { Db } from '../schema.ts'

/** The time of the jobs: the database's own clock (one for every API instance), or the one a test sets. */
const timeOf = (now: Date | undefined) => (now ? sql<Date>`${now}::timestamptz` : sql<Date>`now()`)
const later = (now: Date | undefined, ms: number) => sql<Date>`${timeOf(now)} + ${`${Math.round(ms)} milliseconds`}::interval`

export interface ClaimedJob {
  id: string
  kind: string
  payload: unknown
  attempts: number
  maxAttempts: number
}

/** Queues a job; called inside the transaction of what it is about, so both exist or neither. */
export async function enqueueJob(
  db: Db,
  kind: string,
  payload: unknown,
  options: { runAt?: Date; maxAttempts?: number } = {},
): Promise<string> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind,
      payload: JSON.stringify(payload),
      ...(options.runAt ? { run_at: options.runAt } : {}),
      ...(options.maxAttempts ? { max_attempts: options.maxAttempts } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return String(row.id)
}

/** Several jobs of one kind in one statement (the demo's letters, seeded together). */
export async function enqueueJobs(db: Db, kind: string, payloads: unknown[]): Promise<void> {
  if (!payloads.length) return
  await db
    .insertInto('jobs')
    .values(payloads.map((payload) => ({ kind, payload: JSON.stringify(payload) })))
    .execute()
}

/** What a job that died with its worker on its last attempt keeps as its error. */
export const LEASE_SPENT_ERROR =
  'Bail expiré au dernier essai : le traitement ne s’est jamais terminé (processus arrêté ou mémoire épuisée).'

/**
 * Takes the next due job (queued and due, or running with its lease passed: its worker died) for
 * `worker` until `now + leaseMs`. One statement: the row is locked by the subquery and skipped by
 * any other worker claiming at the same moment. A job whose lease passed on its last attempt is not
 * taken again but failed by the same statement: a job that kills its process each time (memory) ends
 * after its attempts instead of bringing an instance down every lease.
 */
export async function claimJob(
  db: Db,
  worker: string,
  now: Date | undefined,
  leaseMs: number,
  kinds: readonly string[],
  only?: string,
): Promise<ClaimedJob | null> {
  if (!kinds.length) return null
  const { rows } = await sql<{ id: string; kind: string; payload: unknown; attempts: number; max_attempts: number }>`
    with spent as (
      update jobs set state = 'failed', locked_by = null, locked_until = null, finished_at = ${timeOf(now)}, last_error = ${LEASE_SPENT_ERROR}
      where kind in (${sql.join(kinds)}) and state = 'running' and locked_until < ${timeOf(now)} and attempts >= max_attempts
    )
    update jobs set state = 'running', attempts = attempts + 1, locked_by = ${worker}, locked_until = ${later(now, leaseMs)}
    where id = (
      select id from jobs
      where kind in (${sql.join(kinds)}) ${only ? sql`and id = ${only}` : sql``}
        and ((state = 'queued' and run_at <= ${timeOf(now)}) or (state = 'running' and locked_until < ${timeOf(now)} and attempts < max_attempts))
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, payload, attempts, max_attempts`.execute(db)
  const row = rows[0]
  return row ? { id: String(row.id), kind: row.kind, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts } : null
}

/**
 * Inside the transaction that writes the job's results: locks the job and checks that `worker` still
 * holds it. False when the lease passed and another worker took it: the caller rolls back, so the
 * results are written once.
 */
export async function holdsJob(trx: Db, id: string, worker: string): Promise<boolean> {
  const row = await trx
    .selectFrom('jobs')
    .select('id')
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', worker)
    .forUpdate()
    .executeTakeFirst()
  return !!row
}

export async function markJobDone(trx: Db, id: string, now: Date | undefined): Promise<void> {
  await trx
    .updateTable('jobs')
    .set({ state: 'done', locked_by: null, locked_until: null, finished_at: timeOf(now), last_error: null })
    .where('id', '=', id)
    .execute()
}

/**
 * A failed attempt: queued again `retryInMs` later, or failed for good once its attempts are spent, or at once when
 * `retryInMs` is null (a failure no attempt would escape).
 */
export async function markJobFailed(
  db: Db,
  id: string,
  worker: string,
  error: string,
  now: Date | undefined,
  retryInMs: number | null,
): Promise<'retry' | 'failed' | 'lost'> {
  const row = await db
    .updateTable('jobs')
    .set((eb) => {
      const spent = retryInMs === null ? sql<boolean>`true` : sql<boolean>`${eb.ref('attempts')} >= ${eb.ref('max_attempts')}`
      return {
        state: sql<'queued' | 'failed'>`case when ${spent} then 'failed' else 'queued' end`,
        run_at: later(now, retryInMs ?? 0),
        locked_by: null,
        locked_until: null,
        last_error: error.slice(0, 2000),
        finished_at: sql<Date | null>`case when ${spent} then ${timeOf(now)} else null end`,
      }
    })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', worker)
    .returning('state')
    .executeTakeFirst()
  return row ? (row.state === 'failed' ? 'failed' : 'retry') : 'lost'
}

/**
 * A job given up because its worker's process stops (jobs.ts): queued again, due now, its attempt not counted, for
 * whichever worker claims next. Only if `worker` still holds it; false otherwise.
 */
export async function releaseJob(db: Db, id: string, worker: string, now: Date | undefined): Promise<boolean> {
  const row = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'queued',
      attempts: sql<number>`greatest(${eb.ref('attempts')} - 1, 0)`,
      run_at: timeOf(now),
      locked_by: null,
      locked_until: null,
    }))
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', worker)
    .returning('id')
    .executeTakeFirst()
  return !!row
}

export function findJob(db: Db, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The job queued for a letter's pipeline (tests, the seed's first letters). */
export async function findJobFor(db: Db, kind: string, documentId: number) {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', kind)
    .where(sql<boolean>`payload->>'documentId' = ${String(documentId)}`)
    .orderBy('id', 'desc')
    .executeTakeFirst()
}

/** A job done is kept a week (what ran lately, for whoever looks into a letter), a failed one 90 days (its error to read). */
export const DONE_JOBS_KEPT_DAYS = 7
export const FAILED_JOBS_KEPT_DAYS = 90

/**
 * Finished jobs past their keeping (services/prune.ts): one per letter received and one per security notice sent
 * again, whose payload names an address; the table would otherwise grow for as long as the server runs. Rows held
 * right now are skipped (next prune).
 */
export async function deleteFinishedJobs(db: Db, now: Date): Promise<number> {
  const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000)
  const result = await db
    .deleteFrom('jobs')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('state', '=', 'done'), w('finished_at', '<', daysBefore(DONE_JOBS_KEPT_DAYS))]),
            w.and([w('state', '=', 'failed'), w('finished_at', '<', daysBefore(FAILED_JOBS_KEPT_DAYS))]),
          ]),
        )
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Jobs running or queued and due: none, and the background is quiet (a retry's backoff or a later deadline aside). */
export async function countActiveJobs(db: Db): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where((eb) => eb.or([eb('state', '=', 'running'), eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', sql<Date>`now()`)])]))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
