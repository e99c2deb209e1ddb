import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fiscalCalendar } from '../../src/domain/fiscalCalendar.ts'
import { buildIcs, escapeText, foldLine, formatUtcDateTime, type IcsEvent } from '../../src/domain/ics.ts'
import { parseIcs, physicalLines, unescapeText, unfold, values } from '../util/ics.ts'

const dtstamp = new Date(Date.UTC(2026, 2, 15, 8, 15, 0))
const cfe: IcsEvent = {
  id: 'cfe-2026',
  date: '2026-12-15',
  title: 'Cotisation foncière des entreprises (CFE) 2026',
  source: 'https://entreprendre.service-public.fr/vosdroits/F23547',
}

const Calendar = suite('ics: the calendar file')

Calendar('one event, byte for byte', () => {
  assert.is(
    buildIcs([cfe], { dtstamp }),
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Domicilium//Portail client//FR',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:cfe-2026@domicilium',
      'DTSTAMP:20260315T081500Z',
      'DTSTART;VALUE=DATE:20261215',
      'DTEND;VALUE=DATE:20261216',
      'SUMMARY:Cotisation foncière des entreprises (CFE) 2026',
      'DESCRIPTION:Source : https://entreprendre.service-public.fr/vosdroits/F2354',
      ' 7',
      'URL:https://entreprendre.service-public.fr/vosdroits/F23547',
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  )
})

Calendar("a company's two years of deadlines: balanced, each event with UID, DTSTAMP, DTSTART and a next-day DTEND", () => {
  const deadlines = fiscalCalendar({ today: '2026-03-10', legalForm: 'SAS', vatRegime: 'normal' })
  const calendar = parseIcs(buildIcs(deadlines, { dtstamp, calendarName: 'Calendrier fiscal, Atelier Lumière' }))
  assert.equal(values(calendar, 'VERSION'), ['2.0'])
  assert.equal(values(calendar, 'CALSCALE'), ['GREGORIAN'])
  assert.is(values(calendar, 'PRODID').length, 1)
  assert.equal(values(calendar, 'X-WR-CALNAME').map(unescapeText), ['Calendrier fiscal, Atelier Lumière'])
  const events = calendar.components
  assert.is(events.length, deadlines.length)
  for (const [i, event] of events.entries()) {
    const deadline = deadlines[i]!
    assert.is(event.name, 'VEVENT')
    assert.equal(values(event, 'UID'), [`${deadline.id}@domicilium`])
    assert.equal(values(event, 'DTSTAMP'), ['20260315T081500Z'])
    assert.equal(values(event, 'DTSTART'), [deadline.date.replaceAll('-', '')])
    assert.equal(event.properties.find((p) => p.name === 'DTSTART')!.params, { VALUE: 'DATE' })
    assert.equal(event.properties.find((p) => p.name === 'DTEND')!.params, { VALUE: 'DATE' })
    assert.equal(values(event, 'SUMMARY').map(unescapeText), [deadline.title])
    assert.equal(values(event, 'DESCRIPTION').map(unescapeText), [`${deadline.detail}\nSource : ${deadline.source}`])
    assert.equal(values(event, 'URL'), [deadline.source])
  }
  assert.is(new Set(events.map((e) => values(e, 'UID')[0])).size, events.length, 'UIDs are unique')
})

Calendar('DTEND is the next day, across a month, a year and a 29 February', () => {
  const calendar = parseIcs(
    buildIcs(
      [
        { id: 'a', date: '2026-12-31', title: 'A' },
        { id: 'b', date: '2028-02-28', title: 'B' },
        { id: 'c', date: '2026-04-30', title: 'C' },
      ],
      { dtstamp },
    ),
  )
  assert.equal(
    calendar.components.map((e) => `${values(e, 'DTSTART')[0]}-${values(e, 'DTEND')[0]}`),
    ['20261231-20270101', '20280228-20280229', '20260430-20260501'],
  )
  assert.equal(values(calendar.components[0]!, 'DESCRIPTION'), [], 'no source, no detail: no description')
})

Calendar('the same deadlines give the same UIDs: a second import updates instead of doubling', () => {
  const input = { today: '2026-03-10', legalForm: 'SARL', vatRegime: 'simplifie' } as const
  const uids = (text: string) => parseIcs(text).components.map((e) => values(e, 'UID')[0])
  assert.equal(
    uids(buildIcs(fiscalCalendar(input), { dtstamp })),
    uids(buildIcs(fiscalCalendar({ ...input, today: '2026-11-30' }), { dtstamp: new Date() })),
  )
})

Calendar('DTSTAMP is written in UTC; an invalid date or event date is refused', () => {
  assert.is(formatUtcDateTime(new Date('2026-07-01T00:30:00+02:00')), '20260630T223000Z')
  assert.throws(() => formatUtcDateTime(new Date('nope')), /dtstamp/)
  assert.throws(() => buildIcs([{ id: 'x', date: '2026-02-30', title: 'X' }], { dtstamp }), /date of x/)
})

Calendar.run()

const Text = suite('ics: escaping and folding')

Text('TEXT escapes backslash, semicolon, comma and every kind of newline; colons stay', () => {
  assert.is(
    escapeText('TVA; acomptes, solde \\ à payer\nsuite\r\nfin\rici: oui'),
    'TVA\\; acomptes\\, solde \\\\ à payer\\nsuite\\nfin\\nici: oui',
  )
  const title = 'Dépôt; «comptes», C:\\greffe\n2e ligne'
  const event = parseIcs(buildIcs([{ id: 'x', date: '2026-06-30', title, detail: 'a,b;c' }], { dtstamp })).components[0]!
  assert.equal(values(event, 'SUMMARY').map(unescapeText), [title])
})

Text('a line of 75 octets stays whole; 76 are folded to 75, then a space and the rest', () => {
  const a75 = 'A'.repeat(75)
  assert.is(foldLine(a75), a75)
  assert.is(foldLine(`${a75}B`), `${a75}\r\n B`)
  assert.is(foldLine('x'.repeat(150)), `${'x'.repeat(75)}\r\n ${'x'.repeat(74)}\r\n x`)
})

Text('a multi-byte character is never split: é (2 octets), € (3), 😀 (4) at the limit', () => {
  assert.is(foldLine(`${'a'.repeat(74)}é`), `${'a'.repeat(74)}\r\n é`, '74 + 2 > 75')
  assert.is(foldLine(`${'a'.repeat(73)}é`), `${'a'.repeat(73)}é`, '73 + 2 = 75')
  assert.is(foldLine(`${'a'.repeat(73)}€`), `${'a'.repeat(73)}\r\n €`)
  assert.is(foldLine(`${'a'.repeat(72)}😀`), `${'a'.repeat(72)}\r\n 😀`)
  assert.is(foldLine(`${'a'.repeat(71)}😀`), `${'a'.repeat(71)}😀`)
})

Text('property: any summary folds to lines of at most 75 octets and unfolds and unescapes to itself', () => {
  const unit = fc.constantFrom('a', ' ', 'é', '€', '😀', '\u202F', ';', ',', '\\', '\n', ':', 'ß', '中')
  fc.assert(
    fc.property(fc.string({ unit, minLength: 1, maxLength: 400 }), (title) => {
      const text = buildIcs([{ id: 'p', date: '2026-01-01', title }], { dtstamp })
      for (const line of physicalLines(text).filter((l) => l.startsWith(' '))) assert.ok(line.length > 1, 'no empty continuation')
      const summary = unfold(physicalLines(text)).find((l) => l.startsWith('SUMMARY:'))!
      assert.is(unescapeText(summary.slice('SUMMARY:'.length)), title)
    }),
  )
})

Text.run()
