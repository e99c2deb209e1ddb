// French dates write the first of a month « 1er » (server/contract/rules/french-date.ts), in the SPA and the e-mails.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { frenchDateFormat } from '../../server/contract/rules/french-date.ts'
import { longDate } from '../../server/lib/time.ts'

const utc = (iso: string) => new Date(`${iso}T00:00:00Z`)

test('the first of a month is « 1er », every other day a number', () => {
  const day = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  assert.is(day.format(utc('2027-03-01')), '1er mars 2027')
  assert.is(day.format(utc('2027-03-11')), '11 mars 2027')
  assert.is(day.format(utc('2027-03-21')), '21 mars 2027')
  assert.is(day.format(utc('2027-03-31')), '31 mars 2027')
  const weekday = frenchDateFormat({ weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
  assert.is(weekday.format(utc('2026-06-01')), 'lundi 1er juin')
  const stamp = frenchDateFormat({ day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
  assert.is(stamp.format(new Date('2026-11-01T01:05:00Z')), '1er novembre à 01:05', 'an hour of 01 is not a day')
})

test("the server's documents and e-mails too (longDate, in France's time zone)", () => {
  assert.is(longDate.format(new Date('2026-12-31T23:30:00Z')), '1er janvier 2027')
})

test.run()
