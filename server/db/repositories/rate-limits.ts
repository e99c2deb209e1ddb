// The counters of the rate limit (http/rate-limit-store.ts), shared by every API process.
import { sql } from 'kysely'
import type { Db } from '../schema.ts'

/** Counts one hit on `key`: a window that has run out starts again at 1 (ending at `resetAt`), otherwise the counter goes up. */
export function countRateLimitHit(db: Db, key: string, now: Date, resetAt: Date): Promise<{ count: number; reset_at: Date }> {
  // One statement, so concurrent hits never lose a count.
  return db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<Date>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow()
}

/**
 * Takes `hits` on `key` at once, only when they all fit within `max` (a window that has run out starts again at `hits`,
 * ending at `resetAt`); otherwise takes none. One statement, so concurrent calls never pass `max` together. The window's
 * end when taken (for giveBackRateLimitHits), undefined when refused.
 */
export async function takeRateLimitHits(
  db: Db,
  key: string,
  hits: number,
  max: number,
  now: Date,
  resetAt: Date,
): Promise<Date | undefined> {
  if (hits > max) return undefined
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: hits, reset_at: resetAt })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${now} then ${hits} else rate_limits.count + ${hits} end`,
          reset_at: sql<Date>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
        })
        .where((eb) => eb.or([eb('rate_limits.reset_at', '<=', now), eb(sql<number>`rate_limits.count + ${hits}`, '<=', max)])),
    )
    .returning('reset_at')
    .executeTakeFirst()
  return row?.reset_at
}

/** What is left of `key`'s window (`max` when none is running), and when that window ends (null: none). */
export async function remainingRateLimitHits(
  db: Db,
  key: string,
  max: number,
  now: Date,
): Promise<{ remaining: number; resetAt: Date | null }> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['count', 'reset_at'])
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst()
  return row ? { remaining: Math.max(0, max - row.count), resetAt: row.reset_at } : { remaining: max, resetAt: null }
}

/** Gives back hits taken by takeRateLimitHits and not used after all, in the window they were taken in (ending at `resetAt`) only. */
export async function giveBackRateLimitHits(db: Db, key: string, hits: number, resetAt: Date): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`greatest(count - ${hits}, 0)` })
    .where('key', '=', key)
    .where('reset_at', '=', resetAt)
    .execute()
}

/** Old windows are useless: removed now and then (services/prune.ts) so the table stays small. How many went. */
export async function deleteExpiredRateLimits(db: Db, now: Date): Promise<number> {
  // Windows a request is counting in right now are skipped (next prune): no wait on them, no deadlock (PostgreSQL).
  const result = await db
    .deleteFrom('rate_limits')
    .where('key', 'in', (eb) => eb.selectFrom('rate_limits').select('key').where('reset_at', '<', now).forUpdate().skipLocked())
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Forgets the counters of `keys` (an account's failed passwords, once its owner proved the mailbox by a reset link). */
export async function clearRateLimits(db: Db, keys: string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('rate_limits').where('key', 'in', keys).execute()
}

/**
 * What reserveAttempt found: a place taken (in the window ending at `window`), or none, failures or attempts in flight filling the window.
 */
export type Reservation = { taken: true; window: Date } | { taken: false; full: boolean; resetAt: Date | null }

/**
 * Takes a place for one attempt at a secret on `key`, in one conditional statement, while the window's failures and
 * the attempts in flight leave room under `max`; no place: whether the failures alone fill the window (`full`: the
 * answer is a refusal) or attempts still being checked do (they may give their places back).
 */
export async function reserveAttempt(db: Db, key: string, max: number, now: Date, resetAt: Date): Promise<Reservation> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 0, pending: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${now} then 0 else rate_limits.count end`,
          pending: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.pending + 1 end`,
          reset_at: sql<Date>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
        })
        .where((eb) => eb.or([eb('rate_limits.reset_at', '<=', now), eb(sql<number>`rate_limits.count + rate_limits.pending`, '<', max)])),
    )
    .returning('reset_at')
    .executeTakeFirst()
  if (row) return { taken: true, window: row.reset_at }
  const held = await db
    .selectFrom('rate_limits')
    .select(['count', 'reset_at'])
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst()
  return { taken: false, full: held !== undefined && held.count >= max, resetAt: held?.reset_at ?? null }
}

/** Ends an attempt reserveAttempt let in: a failure keeps its place as a failure, a success gives it back; in its own window only. */
export async function settleAttempt(db: Db, key: string, window: Date, failed: boolean): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ pending: sql<number>`greatest(pending - 1, 0)`, count: sql<number>`count + ${failed ? 1 : 0}` })
    .where('key', '=', key)
    .where('reset_at', '=', window)
    .execute()
}
