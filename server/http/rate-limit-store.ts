// @fastify/rate-limit store keeping its counters in the database, so every API process shares them.
import type { Kysely } from 'kysely'
import { countRateLimitHit } from '../db/repositories/rate-limits.ts'
import type { Database } from '../db/schema.ts'
import type { Clock } from '../deps.ts'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void

export function databaseRateLimitStore(db: Kysely<Database>, clock: Clock) {
  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = clock.now()
      const resetAt = new Date(now.getTime() + timeWindow)
      countRateLimitHit(db, key, now, resetAt)
        .then((row) => callback(null, { current: row.count, ttl: Math.max(0, new Date(row.reset_at).getTime() - now.getTime()) }))
        .catch((error: Error) => callback(error))
    }

    child() {
      return new DatabaseRateLimitStore()
    }
  }
}
