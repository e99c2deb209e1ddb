// Limits per signed-in user (not per IP) for the calls that send e-mail to addresses the user types or
// that tell whether an address is taken: counters in the rate_limits table, shared by every process.
import { countRateLimitHit } from '../db/repositories/rate-limits.ts'
import type { AppDeps } from '../deps.ts'
import { HttpError } from './errors.ts'

export interface UserLimit {
  /** The counter's name: one per kind of call. */
  name: string
  max: number
  windowMs: number
  /** The French answer when the limit is reached. */
  message: string
}

/** Counts one call of `userId` against `limit`; past it, a French 429 and nothing done. */
export async function limitPerUser({ db, clock }: Pick<AppDeps, 'db' | 'clock'>, userId: number, limit: UserLimit): Promise<void> {
  const now = clock.now()
  const { count } = await countRateLimitHit(db, `user:${userId}:${limit.name}`, now, new Date(now.getTime() + limit.windowMs))
  if (count > limit.max) throw new HttpError(429, limit.message, 'RATE_LIMITED')
}
