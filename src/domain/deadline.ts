import type { IsoDate } from './dates.ts'

export type FiscalKind = 'tva' | 'is' | 'cfe' | 'liasse'
export type LegalKind = 'approbation-comptes' | 'depot-comptes'
export type DeadlineKind = FiscalKind | LegalKind

/** One dated duty of the company, as the "Suivi comptable" pages list it. */
export interface Deadline<K extends DeadlineKind = DeadlineKind> {
  /** Stable across computations (the .ics UID is built from it). */
  id: string
  /** The last day to act, already moved past weekends and holidays where the rule says so. */
  date: IsoDate
  title: string
  kind: K
  /** The official page the rule comes from. */
  source: string
  /** One or two sentences for the detail line and the calendar event. */
  detail?: string
  /** The date the rule gives when it fell on a weekend or a public holiday and was moved to `date`. */
  movedFrom?: IsoDate
}

/** By date, then by id, so equal dates keep one order. */
export function byDate<T extends { date: IsoDate; id: string }>(a: T, b: T): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Past once its day is over: a deadline due today is not past yet. */
export function isPast(deadline: { date: IsoDate }, today: IsoDate): boolean {
  return deadline.date < today
}

/** The earliest deadline that is not past (today's included), or undefined when all are past. */
export function nextDeadline<T extends { date: IsoDate; id: string }>(list: readonly T[], today: IsoDate): T | undefined {
  let next: T | undefined
  for (const deadline of list) {
    if (deadline.date < today) continue
    if (next === undefined || byDate(deadline, next) < 0) next = deadline
  }
  return next
}

/**
 * The deadlines found in letters from `today` on, soonest first, then by letter (the server sorts them; the past
 * ones are left out here): the dashboard's next ones.
 */
export const upcomingDeadlines = <T extends { date: IsoDate; documentId: number }>(deadlines: readonly T[], today: IsoDate): T[] =>
  deadlines.filter((d) => d.date >= today).sort((a, b) => a.date.localeCompare(b.date) || a.documentId - b.documentId)
