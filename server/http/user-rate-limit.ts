// Limits per signed-in user (not per IP) for the calls that send e-mail to addresses the user types or
// that tell whether an address is taken, and per account for failed passwords (takeAttempt): counters in the rate_limits
// table, shared by every process.
import {
  countRateLimitHit,
  giveBackRateLimitHits,
  remainingRateLimitHits,
  reserveAttempt,
  settleAttempt,
  takeRateLimitHits,
} from '../db/repositories/rate-limits.ts'
import type { AppDeps } from '../deps.ts'
import { HttpError } from './errors.ts'

export interface UserLimit {
  /** The counter's name: one per kind of call. */
  name: string
  max: number
  windowMs: number
  /** The French answer when the limit is reached. */
  message: string
  /**
   * For a call of several hits that does not fit while some are left (takeFromUserLimit): the answer that says how many, and until when.
   */
  fewLeft?: (remaining: number, resetAt: Date) => string
}

/** Counts one call of `userId` against `limit`; past it, a French 429 and nothing done. */
export async function limitPerUser(deps: Pick<AppDeps, 'db' | 'clock'>, userId: number, limit: UserLimit): Promise<void> {
  if (!(await withinUserLimit(deps, userId, limit))) throw new HttpError(429, limit.message, 'RATE_LIMITED')
}

/** Counts one call of `userId` against `limit`: whether it is still within it (the caller does nothing past it, and says what it must). */
export async function withinUserLimit(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  userId: number,
  limit: Omit<UserLimit, 'message'>,
): Promise<boolean> {
  const now = clock.now()
  const { count } = await countRateLimitHit(db, `user:${userId}:${limit.name}`, now, new Date(now.getTime() + limit.windowMs))
  return count <= limit.max
}

/**
 * Takes `hits` of `userId`'s `limit` at once, one per e-mail a call is about to send (an invitation to each address typed),
 * only when they all fit: past it, a French 429, nothing taken and nothing done. `giveBack(n)` returns the hits of e-mails
 * the call did not send after all (an address already invited a minute ago, an e-mail that could not leave).
 */
export async function takeFromUserLimit(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  userId: number,
  limit: UserLimit,
  hits: number,
): Promise<{ giveBack(n: number): Promise<void> }> {
  const now = clock.now()
  const key = `user:${userId}:${limit.name}`
  const window = await takeRateLimitHits(db, key, hits, limit.max, now, new Date(now.getTime() + limit.windowMs))
  if (!window) {
    const left = hits > 1 && limit.fewLeft ? await remainingRateLimitHits(db, key, limit.max, now) : null
    throw new HttpError(429, left?.remaining && left.resetAt ? limit.fewLeft!(left.remaining, left.resetAt) : limit.message, 'RATE_LIMITED')
  }
  return {
    async giveBack(n) {
      if (n > 0) await giveBackRateLimitHits(db, key, n, window)
    },
  }
}

/** A limit on failed attempts at a secret (a password): only failures are kept, past `max` in `windowMs` nothing is checked. */
export interface AttemptLimit {
  max: number
  windowMs: number
  /** The French answer past it, with the whole minutes left before the window ends (1 at least). */
  message: (minutes: number) => string
}

/** How long an attempt waits, at most, for attempts in flight on the same account to give their places back. */
export const ATTEMPT_WAIT_MS = 5_000

/**
 * Takes one attempt on `key` before the secret is checked: past `limit`, a French 429 and nothing checked. The place is
 * taken first, in one conditional statement, so that concurrent guesses never pass the limit together (a read and a
 * later count let every guess in flight through). Only failures keep their place (`failed()`); a right secret gives it
 * back (`succeeded()`), so that nobody holds an account by signing in to it. Places taken by attempts still being
 * checked are not failures: an attempt that finds the window filled by them waits for them (up to ATTEMPT_WAIT_MS),
 * so that 20 correct sign-ins at once all pass, while failures alone that fill it answer the 429 at once.
 */
export async function takeAttempt(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  key: string,
  limit: AttemptLimit,
): Promise<{ succeeded(): Promise<void>; failed(): Promise<void> }> {
  const giveUpAt = Date.now() + ATTEMPT_WAIT_MS
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const now = clock.now()
    const reservation = await reserveAttempt(db, key, limit.max, now, new Date(now.getTime() + limit.windowMs))
    if (reservation.taken) {
      const { window } = reservation
      return { succeeded: () => settleAttempt(db, key, window, false), failed: () => settleAttempt(db, key, window, true) }
    }
    if (reservation.full || Date.now() + pause > giveUpAt) {
      const minutes = Math.max(1, Math.ceil(((reservation.resetAt?.getTime() ?? now.getTime()) - now.getTime()) / 60_000))
      throw new HttpError(429, limit.message(minutes), 'RATE_LIMITED')
    }
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}
