// How far ahead a termination may be asked for: one rule for the server, which refuses a later date (TOO_FAR), and for
// the SPA's form, whose date input stops there and which says so in the same words before anything is sent.
import { parisDay } from './deadlines.ts'

/**
 * The last day a termination may be asked for: two years from `today` (a later date is a typo, 9999-12-31, or a wish
 * nobody can act on), or the earliest date should a period end later still. Days are YYYY-MM-DD, in Paris.
 */
export function latestTerminationDate(today: string, earliest: string): string {
  const inTwoYears = new Date(`${today}T12:00:00Z`)
  inTwoYears.setUTCFullYear(inTwoYears.getUTCFullYear() + 2)
  const latest = inTwoYears.toISOString().slice(0, 10)
  return latest > earliest ? latest : earliest
}

/** The refusal of a later date; `latest` is that last day written in French ("27 novembre 2028"). */
export const terminationTooFarText = (latest: string) =>
  `La résiliation ne peut être demandée plus de deux ans à l’avance : choisissez le ${latest} ou une date antérieure.`

/** Today in Paris, as YYYY-MM-DD. */
export const parisToday = (now: Date = new Date()): string => parisDay(now)
