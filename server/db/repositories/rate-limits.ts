// The counters of the rate limit (http/rate-limit-store.ts), shared by every API process.
import { sql } from 'kysely'
import type { Db } from '../schema.ts'

/** Counts one hit on `key`: a window that has run out starts again at 1 (ending at `resetAt`), otherwise the counter goes up. */
export function countRateLimitHit(db: Db, key: string, now: Date, resetAt: Date): Promise<{ count: number; reset_at: Date }> {
  // One statement, so concurrent hits never lose a count.
  return db.insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({
      count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
      reset_at: sql<Date>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
    }))
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow()
}

/** Old windows are useless: removed now and then (services/prune.ts) so the table stays small. How many went. */
export async function deleteExpiredRateLimits(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('reset_at', '<', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
