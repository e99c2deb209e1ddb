// For the benchmarks and the browser journeys: a fresh demo database queues the page images and text of its 45
// letters, and the job worker beside the API runs them for about 15 s after the start, on more than one core. Measured
// during that, the figures would be the OCR's (bench:web), and the memory the soak compares against would count that
// work (bench:soak); a journey opening a letter's images would find it « en cours de préparation » (test/util/e2e.ts).
import type { Db } from '../../server/db/schema.ts'
import { countActiveJobs } from '../../server/db/repositories/jobs.ts'

/** Waits until no job is running or due (countActiveJobs); the seconds waited. Throws past `timeoutMs`. */
export async function backgroundSettled(db: Db, options: { timeoutMs: number; onWait?: (left: number) => void }): Promise<number> {
  const started = Date.now()
  for (;;) {
    const left = await countActiveJobs(db)
    if (left === 0) return Math.round((Date.now() - started) / 1000)
    if (Date.now() - started > options.timeoutMs)
      throw new Error(`tâches de fond toujours en cours après ${options.timeoutMs / 1000} s (${left})`)
    options.onWait?.(left)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
