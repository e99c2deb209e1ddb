// @fastify/rate-limit store keeping its counters in the database, so every API process shares them.
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Clock } from '../deps.ts'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void

export function databaseRateLimitStore(db: Kysely<Database>, clock: Clock) {
  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = clock.now()
      const resetAt = new Date(now.getTime() + timeWindow)
      // One statement: a window that has run out starts again at 1, otherwise the counter goes up.
      db.insertInto('rate_limits')
        .values({ key, count: 1, reset_at: resetAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
          reset_at: sql<Date>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
        }))
        .returning(['count', 'reset_at'])
        .executeTakeFirstOrThrow()
        .then((row) => callback(null, { current: row.count, ttl: Math.max(0, new Date(row.reset_at).getTime() - now.getTime()) }))
        .catch((error: Error) => callback(error))
    }

    child() {
      return new DatabaseRateLimitStore()
    }
  }
}

/** Old windows are useless: removed now and then so the table stays small. */
export async function pruneRateLimits(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<', now).execute()
}
