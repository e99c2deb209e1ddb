// Calendar dates as 'YYYY-MM-DD' strings, French public holidays and business days.
// All arithmetic goes through Date.UTC, so no time zone or daylight-saving shift can move a day.
import { pad } from './today.ts'

export { localIsoDate } from './today.ts'

export type IsoDate = string

const DAY_MS = 86_400_000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value)
  if (!match) return false
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

export function assertIsoDate(value: string, name = 'date'): void {
  if (!isIsoDate(value)) throw new RangeError(`${name} must be a calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`)
}

/** [year, month 1–12, day 1–31] */
export function dateParts(iso: IsoDate): [number, number, number] {
  return [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))]
}

const fromUtcMs = (ms: number): IsoDate => {
  const d = new Date(ms)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/** Day `day` of `month` (1–12) of `year` (1000–9999); out-of-range days and months roll over (day 0 is the eve). */
export function isoDate(year: number, month: number, day: number): IsoDate {
  return fromUtcMs(Date.UTC(year, month - 1, day))
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

export function lastDayOfMonth(year: number, month: number): IsoDate {
  return isoDate(year, month, daysInMonth(year, month))
}

export function addDays(iso: IsoDate, days: number): IsoDate {
  const [y, m, d] = dateParts(iso)
  return fromUtcMs(Date.UTC(y, m - 1, d) + days * DAY_MS)
}

/**
 * A period of `months` months counted from `iso`, as the Code de procédure civile counts it (art. 641):
 * it ends on the day of the last month with the same number, or on that month's last day when it has
 * no such day (31 August + 1 month = 30 September; 29 February 2028 + 3 months = 29 May 2028).
 */
export function addMonths(iso: IsoDate, months: number): IsoDate {
  const [y, m, d] = dateParts(iso)
  const monthIndex = y * 12 + (m - 1) + months
  const year = Math.floor(monthIndex / 12)
  const month = (monthIndex % 12) + 1
  return isoDate(year, month, Math.min(d, daysInMonth(year, month)))
}

/** 0 = Sunday … 6 = Saturday */
export function weekday(iso: IsoDate): number {
  const [y, m, d] = dateParts(iso)
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay()
}

/** Easter Sunday of the Gregorian calendar (the anonymous algorithm of Meeus, Jones and Butcher). */
export function easterSunday(year: number): IsoDate {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return isoDate(year, month, day)
}

export interface PublicHoliday {
  date: IsoDate
  name: string
}

/**
 * The eleven public holidays of the Code du travail (art. L3133-1), in date order. Good Friday and
 * 26 December, holidays in Alsace-Moselle only, are left out: tax deadlines are national.
 */
export function frenchPublicHolidays(year: number): PublicHoliday[] {
  const easter = easterSunday(year)
  const holidays: PublicHoliday[] = [
    { date: isoDate(year, 1, 1), name: "Jour de l'an" },
    { date: addDays(easter, 1), name: 'Lundi de Pâques' },
    { date: isoDate(year, 5, 1), name: 'Fête du Travail' },
    { date: isoDate(year, 5, 8), name: 'Victoire 1945' },
    { date: addDays(easter, 39), name: 'Ascension' },
    { date: addDays(easter, 50), name: 'Lundi de Pentecôte' },
    { date: isoDate(year, 7, 14), name: 'Fête nationale' },
    { date: isoDate(year, 8, 15), name: 'Assomption' },
    { date: isoDate(year, 11, 1), name: 'Toussaint' },
    { date: isoDate(year, 11, 11), name: 'Armistice 1918' },
    { date: isoDate(year, 12, 25), name: 'Noël' },
  ]
  return holidays.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0))
}

const holidayCache = new Map<number, Map<IsoDate, string>>()

/** The holiday's name, or undefined on any other day. */
export function frenchPublicHoliday(iso: IsoDate): string | undefined {
  const year = dateParts(iso)[0]
  let byDate = holidayCache.get(year)
  if (!byDate) {
    byDate = new Map(frenchPublicHolidays(year).map((h) => [h.date, h.name]))
    holidayCache.set(year, byDate)
  }
  return byDate.get(iso)
}

/** A working day: Monday to Friday and not a public holiday. */
export function isBusinessDay(iso: IsoDate): boolean {
  const day = weekday(iso)
  return day !== 0 && day !== 6 && frenchPublicHoliday(iso) === undefined
}

/** The date itself when it is a business day, otherwise the next business day. */
export function onOrNextBusinessDay(iso: IsoDate): IsoDate {
  let date = iso
  while (!isBusinessDay(date)) date = addDays(date, 1)
  return date
}

/** The n-th business day strictly after `iso` ("le deuxième jour ouvré suivant le 1er mai": n = 2). */
export function nthBusinessDayAfter(iso: IsoDate, n: number): IsoDate {
  let date = iso
  for (let found = 0; found < n; ) {
    date = addDays(date, 1)
    if (isBusinessDay(date)) found++
  }
  return date
}

const MONTHS_FR = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre']

export function monthNameFr(month: number): string {
  const name = MONTHS_FR[month - 1]
  if (name === undefined) throw new RangeError(`month must be 1–12, got ${month}`)
  return name
}

/** "31 décembre 2025", "1er mai 2026" */
export function longDateFr(iso: IsoDate): string {
  const [y, m, d] = dateParts(iso)
  return `${d === 1 ? '1er' : d} ${monthNameFr(m)} ${y}`
}
