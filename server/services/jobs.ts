// The worker loop of the durable jobs (server/db/repositories/jobs.ts): started by the server, stopped
// on close (the job in hand is told to give up through its signal: a letter's drawing is ended rather than waited for,
// and the job is queued again, its attempt not counted, for the next process). A handler does its slow work outside any transaction,
// then writes its results through `finish`, one transaction that also marks the job done, and only
// if this worker still holds the job: a job's results are written exactly once.
import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { claimJob, holdsJob, markJobDone, markJobFailed, releaseJob, type ClaimedJob } from '../db/repositories/jobs.ts'
import type { Database } from '../db/schema.ts'

export interface JobContext {
  job: ClaimedJob
  /** Writes the job's results and marks it done, in one transaction; throws JobLostError when another worker took it over. */
  finish<T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T>
  /** Aborts when the worker stops (the server closing): a long handler gives up, and its job is queued again. */
  signal: AbortSignal
}

export type JobHandler = (ctx: JobContext) => Promise<void>

/** A failure that another attempt would meet again (a file no reader opens): recorded once, the job failed without retry. */
export class PermanentJobError extends Error {}

/** The lease passed and another worker claimed the job: this worker's results are dropped. */
export class JobLostError extends Error {
  constructor(id: string) {
    super(`la tâche ${id} a été reprise par un autre processus`)
  }
}

export interface WorkerOptions {
  db: Kysely<Database>
  handlers: Record<string, JobHandler>
  /** The jobs' time; unset, the database's clock (the same for every instance). Tests set it. */
  now?: () => Date
  /** How long a claimed job is ours; past it, a job left running is taken by another worker. */
  leaseMs?: number
  /** How often an idle worker looks for due jobs (wake() looks at once). */
  pollMs?: number
  /** Delay before retry n (1-based): base · 2^(n-1), capped. */
  backoffBaseMs?: number
  backoffMaxMs?: number
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  /** A name for the logs and the jobs table (locked_by); random by default. */
  name?: string
  /** Aborted when the worker stops: given to the handler (JobContext's signal). */
  signal?: AbortSignal
  /**
   * Jobs run at once (1 by default). Two let a letter's pages be drawn (the render process) while the previous letter's
   * scans are read (tesseract's thread): on two cores, the mail room's batch then takes the longer of the two, not their sum.
   */
  concurrency?: number
}

export const DEFAULT_LEASE_MS = 5 * 60_000

export const backoffDelay = (attempt: number, baseMs: number, maxMs: number) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))

export function workerName() {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
}

/** Claims one due job and runs it; false when there was none. */
export async function runOneJob(options: WorkerOptions & { name: string; only?: string }): Promise<boolean> {
  const { db, handlers, name } = options
  const now = options.now ?? (() => undefined)
  const job = await claimJob(db, name, now(), options.leaseMs ?? DEFAULT_LEASE_MS, Object.keys(handlers), options.only)
  if (!job) return false
  const handler = handlers[job.kind]!
  const signal = options.signal ?? new AbortController().signal
  try {
    await handler({
      job,
      signal,
      finish: (write) =>
        db.transaction().execute(async (trx) => {
          if (!(await holdsJob(trx, job.id, name))) throw new JobLostError(job.id)
          const result = await write(trx)
          await markJobDone(trx, job.id, now())
          return result
        }),
    })
  } catch (error) {
    if (error instanceof JobLostError) {
      options.log?.warn({ job: job.id, kind: job.kind }, error.message)
      return true
    }
    if (signal.aborted) {
      // Given up because this process stops, not because of the job: queued again at once, this attempt not counted
      // (left running, it would wait for its lease, 5 min, and count as an attempt).
      const released = await releaseJob(db, job.id, name, now())
      options.log?.warn({ job: job.id, kind: job.kind, released }, 'tâche interrompue par l’arrêt du serveur : remise en file')
      return true
    }
    const permanent = error instanceof PermanentJobError
    const delay = permanent ? null : backoffDelay(job.attempts, options.backoffBaseMs ?? 10_000, options.backoffMaxMs ?? 10 * 60_000)
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    const record = async () => {
      const outcome = await markJobFailed(db, job.id, name, message, now(), delay)
      options.log?.error(
        { job: job.id, kind: job.kind, attempt: job.attempts, outcome, err: error },
        permanent
          ? 'tâche abandonnée : échec définitif, sans nouvel essai'
          : outcome === 'failed'
            ? 'tâche abandonnée après ses essais'
            : 'tâche en échec, nouvel essai prévu',
      )
    }
    try {
      await record()
    } catch (recordError) {
      throw new UnrecordedFailure(job, record, recordError)
    }
  }
  return true
}

/**
 * A job failed and its failure could not be written either: the database went away under it (a restart, a failover),
 * which is also what usually made the job fail. The job is still `running` under this worker's lease; unwritten, it
 * would wait out the whole lease (5 minutes) before anyone ran it again. The worker writes it (`record`) as soon as
 * the database answers.
 */
export class UnrecordedFailure extends Error {
  constructor(
    readonly job: ClaimedJob,
    readonly record: () => Promise<void>,
    cause: unknown,
  ) {
    super(`échec de la tâche ${job.id} non enregistré`, { cause })
  }
}

export interface JobWorker {
  readonly name: string
  /** Looks for due jobs now (after an ingestion in this process). */
  wake(): void
  /** Stops claiming and tells the job in hand to give up (its signal); resolves once it has ended or been queued again. */
  stop(): Promise<void>
}

export function startJobWorker(options: WorkerOptions): JobWorker {
  const name = options.name ?? workerName()
  const pollMs = options.pollMs ?? 1000
  const stopping = new AbortController()
  let stopped = false
  /** Each loop's way to end its idle wait at once. */
  const wakers: (() => void)[] = []
  /** One loop: claims a due job and runs it, else waits for the poll interval or a wake(). */
  const runLoop = async () => {
    let wakeUp: (() => void) | null = null
    let woken = false
    wakers.push(() => {
      woken = true
      wakeUp?.()
    })
    const idle = () =>
      new Promise<void>((resolve) => {
        if (woken || stopped) return resolve()
        const timer = setTimeout(done, pollMs)
        function done() {
          clearTimeout(timer)
          wakeUp = null
          resolve()
        }
        wakeUp = done
      })
    /** A failure still to write, first thing once the database answers (before claiming anything else). */
    let unrecorded: UnrecordedFailure | null = null
    while (!stopped) {
      woken = false
      let worked = false
      try {
        if (unrecorded) {
          await unrecorded.record()
          unrecorded = null
        }
        worked = await runOneJob({ ...options, name, signal: stopping.signal })
      } catch (error) {
        if (error instanceof UnrecordedFailure) unrecorded = error
        // The database went away for a moment: try again after the poll interval.
        options.log?.error({ err: error }, 'tâches de fond : lecture de la file impossible')
      }
      if (!worked) await idle()
    }
  }
  const loops = Promise.all(Array.from({ length: Math.max(1, Math.floor(options.concurrency ?? 1)) }, runLoop))
  return {
    name,
    wake() {
      for (const wake of wakers) wake()
    },
    async stop() {
      stopped = true
      stopping.abort()
      for (const wake of wakers) wake()
      await loops
    },
  }
}
