import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import {
  addDays,
  addMonths,
  easterSunday,
  frenchPublicHoliday,
  frenchPublicHolidays,
  isBusinessDay,
  isIsoDate,
  isoDate,
  lastDayOfMonth,
  localIsoDate,
  longDateFr,
  nthBusinessDayAfter,
  onOrNextBusinessDay,
  weekday,
} from '../../src/domain/dates.ts'

const anyDate = fc
  .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))

const Holidays = suite('dates: Easter and the French public holidays')

Holidays('Easter Sunday of known years, earliest (22 March) and latest (25 April) included', () => {
  const known: Record<number, string> = {
    2024: '2024-03-31',
    2025: '2025-04-20',
    2026: '2026-04-05',
    2027: '2027-03-28',
    2028: '2028-04-16',
    2038: '2038-04-25',
    2285: '2285-03-22',
  }
  for (const [year, easter] of Object.entries(known)) assert.is(easterSunday(Number(year)), easter, `Easter ${year}`)
})

Holidays('the eleven holidays of 2026, Easter Monday, Ascension and Whit Monday from Easter', () => {
  assert.equal(
    frenchPublicHolidays(2026).map((h) => `${h.date} ${h.name}`),
    [
      "2026-01-01 Jour de l'an",
      '2026-04-06 Lundi de Pâques',
      '2026-05-01 Fête du Travail',
      '2026-05-08 Victoire 1945',
      '2026-05-14 Ascension',
      '2026-05-25 Lundi de Pentecôte',
      '2026-07-14 Fête nationale',
      '2026-08-15 Assomption',
      '2026-11-01 Toussaint',
      '2026-11-11 Armistice 1918',
      '2026-12-25 Noël',
    ],
  )
})

Holidays('movable feasts of 2027 and 2028', () => {
  assert.is(frenchPublicHoliday('2027-03-29'), 'Lundi de Pâques')
  assert.is(frenchPublicHoliday('2027-05-06'), 'Ascension')
  assert.is(frenchPublicHoliday('2027-05-17'), 'Lundi de Pentecôte')
  assert.is(frenchPublicHoliday('2028-04-17'), 'Lundi de Pâques')
  assert.is(frenchPublicHoliday('2028-05-25'), 'Ascension')
  assert.is(frenchPublicHoliday('2028-06-05'), 'Lundi de Pentecôte')
  assert.is(frenchPublicHoliday('2028-06-06'), undefined)
  assert.is(frenchPublicHoliday('2026-12-26'), undefined, 'Saint-Étienne is an Alsace-Moselle holiday only')
})

Holidays.run()

const BusinessDays = suite('dates: business days')

BusinessDays('weekdays, weekends and holidays', () => {
  assert.is(weekday('2026-03-15'), 0)
  assert.is(weekday('2025-03-15'), 6)
  assert.ok(isBusinessDay('2026-03-16'))
  assert.not.ok(isBusinessDay('2026-03-15'), 'Sunday')
  assert.not.ok(isBusinessDay('2025-03-15'), 'Saturday')
  assert.not.ok(isBusinessDay('2028-08-15'), 'Assomption on a Tuesday')
})

BusinessDays('a Saturday 15th moves to Monday 17th; a weekend before a holiday moves past both', () => {
  assert.is(onOrNextBusinessDay('2025-03-15'), '2025-03-17')
  assert.is(onOrNextBusinessDay('2027-05-15'), '2027-05-18', 'Saturday, then Whit Monday')
  assert.is(onOrNextBusinessDay('2027-10-31'), '2027-11-02', 'Sunday, then Toussaint')
  assert.is(onOrNextBusinessDay('2027-12-25'), '2027-12-27', 'Christmas on a Saturday')
  assert.is(onOrNextBusinessDay('2026-05-14'), '2026-05-15', 'Ascension')
  assert.is(onOrNextBusinessDay('2026-03-16'), '2026-03-16', 'a business day stays')
})

BusinessDays('the 2nd business day after 1 May, 2024 to 2028', () => {
  assert.is(nthBusinessDayAfter('2024-05-01', 2), '2024-05-03')
  assert.is(nthBusinessDayAfter('2025-05-01', 2), '2025-05-05')
  assert.is(nthBusinessDayAfter('2026-05-01', 2), '2026-05-05')
  assert.is(nthBusinessDayAfter('2027-05-01', 2), '2027-05-04')
  assert.is(nthBusinessDayAfter('2028-05-01', 2), '2028-05-03')
})

BusinessDays('property: the business day found is the first on or after the date, within a week', () => {
  fc.assert(
    fc.property(anyDate, (date) => {
      const found = onOrNextBusinessDay(date)
      assert.ok(isBusinessDay(found))
      assert.ok(found >= date && found <= addDays(date, 6))
      for (let d = date; d < found; d = addDays(d, 1)) assert.not.ok(isBusinessDay(d), d)
    }),
  )
})

BusinessDays.run()

const Months = suite('dates: calendar arithmetic')

Months('month ends, leap years included', () => {
  assert.is(lastDayOfMonth(2028, 2), '2028-02-29')
  assert.is(lastDayOfMonth(2027, 2), '2027-02-28')
  assert.is(lastDayOfMonth(2100, 2), '2100-02-28', 'a century not divisible by 400')
  assert.is(lastDayOfMonth(2000, 2), '2000-02-29')
  assert.is(lastDayOfMonth(2026, 6), '2026-06-30')
  assert.ok(isIsoDate('2028-02-29'))
  assert.not.ok(isIsoDate('2027-02-29'))
  assert.not.ok(isIsoDate('2026-13-01'))
  assert.not.ok(isIsoDate('26-01-01'))
  assert.is(isoDate(2026, 13, 15), '2027-01-15', 'month 13 rolls over')
})

Months('addMonths keeps the day number, or takes the month end when it has none', () => {
  assert.is(addMonths('2025-12-31', 6), '2026-06-30')
  assert.is(addMonths('2026-06-30', 6), '2026-12-30')
  assert.is(addMonths('2025-08-31', 1), '2025-09-30')
  assert.is(addMonths('2024-01-31', 1), '2024-02-29')
  assert.is(addMonths('2025-01-31', 1), '2025-02-28')
  assert.is(addMonths('2028-02-29', 3), '2028-05-29')
  assert.is(addMonths('2028-02-29', 12), '2029-02-28')
  assert.is(addMonths('2026-12-30', 2), '2027-02-28')
  assert.is(addMonths('2026-03-31', -1), '2026-02-28')
  assert.is(addDays('2028-02-28', 1), '2028-02-29')
  assert.is(addDays('2026-12-31', 1), '2027-01-01')
})

Months('property: addMonths lands in the right month, never past the original day number', () => {
  fc.assert(
    fc.property(anyDate, fc.integer({ min: -24, max: 24 }), (date, n) => {
      const result = addMonths(date, n)
      const monthIndex = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1
      assert.is(monthIndex(result) - monthIndex(date), n)
      assert.ok(Number(result.slice(8)) <= Number(date.slice(8)))
      assert.ok(isIsoDate(result))
    }),
  )
})

Months('French long dates and the local calendar day', () => {
  assert.is(longDateFr('2025-12-31'), '31 décembre 2025')
  assert.is(longDateFr('2026-05-01'), '1er mai 2026')
  assert.is(localIsoDate(new Date(2026, 0, 5, 23, 59)), '2026-01-05')
})

Months.run()
