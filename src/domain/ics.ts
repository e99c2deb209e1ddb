// An iCalendar file (RFC 5545) of all-day events, for "Ajouter à mon agenda".
// Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character (3.1); TEXT
// values escape backslash, semicolon, comma and newlines (3.3.11); an all-day event is a DATE
// DTSTART with the next day as its exclusive DTEND (3.6.1).
import { addDays, assertIsoDate, type IsoDate } from './dates.ts'

export interface IcsEvent {
  /** Stable: the UID is `${id}@${uidDomain}`, so a re-import updates the event instead of doubling it. */
  id: string
  date: IsoDate
  title: string
  detail?: string
  /** The official page: URL property and last line of the description. */
  source?: string
}

export interface IcsOptions {
  /** When the file is made (DTSTAMP, written in UTC); passed in so a test can fix it. */
  dtstamp: Date
  /** Shown by the calendar apps that name an imported calendar (X-WR-CALNAME). */
  calendarName?: string
  /** Product name in PRODID; default Domicilium. */
  productName?: string
  uidDomain?: string
}

const CRLF = '\r\n'
const MAX_LINE_OCTETS = 75

/** TEXT escaping: \ ; , and newlines (a CR LF pair, a lone LF or a lone CR each become \n). */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n')
}

const utf8Length = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4)

/**
 * One content line folded into lines of at most 75 octets: each continuation starts with a space,
 * which counts in its 75. Splits fall between code points, never inside a character's UTF-8 bytes.
 */
export function foldLine(line: string): string {
  const lines: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0)!)
    if (octets + size > MAX_LINE_OCTETS) {
      lines.push(current)
      current = ' '
      octets = 1
    }
    current += char
    octets += size
  }
  lines.push(current)
  return lines.join(CRLF)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** 20260315T081500Z */
export function formatUtcDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('dtstamp is not a valid date')
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  )
}

const basicDate = (iso: IsoDate) => iso.replaceAll('-', '')

export function buildIcs(events: readonly IcsEvent[], options: IcsOptions): string {
  const dtstamp = formatUtcDateTime(options.dtstamp)
  const uidDomain = options.uidDomain ?? 'domicilium'
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(options.productName ?? 'Domicilium')}//Portail client//FR`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ]
  if (options.calendarName) lines.push(`X-WR-CALNAME:${escapeText(options.calendarName)}`)
  for (const event of events) {
    assertIsoDate(event.date, `date of ${event.id}`)
    const description = [event.detail, event.source && `Source : ${event.source}`].filter(Boolean).join('\n')
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(`${event.id}@${uidDomain}`)}`,
      `DTSTAMP:${dtstamp}`,
      `DTSTART;VALUE=DATE:${basicDate(event.date)}`,
      `DTEND;VALUE=DATE:${basicDate(addDays(event.date, 1))}`,
      `SUMMARY:${escapeText(event.title)}`,
    )
    if (description) lines.push(`DESCRIPTION:${escapeText(description)}`)
    // A URI value is not TEXT: written as is (RFC 5545 3.3.13), only stripped of line breaks.
    if (event.source) lines.push(`URL:${event.source.replace(/[\r\n]/g, '')}`)
    lines.push('TRANSP:TRANSPARENT', 'END:VEVENT')
  }
  lines.push('END:VCALENDAR')
  return lines.map(foldLine).join(CRLF) + CRLF
}
