// The journal for administrators: a page of it, or the whole of a selection as a CSV file for Excel.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest } from '../../http/errors.ts'
import {
  journalForExport,
  listJournal,
  SYSTEM_ACTOR_LABELS,
  type JournalFilters,
  type JournalRow,
} from '../../db/repositories/operators-journal.ts'
import type { JournalEntry, JournalQuery } from '../../contract/operators.ts'
import { fileHeaders } from '../files.ts'

export const JOURNAL_PAGE_SIZE = 50
/** A CSV file of more rows than this would not open in Excel anyway (1,048,576 lines); past it, a narrower filter. */
export const JOURNAL_EXPORT_MAX = 100_000

/** The instant a Paris day starts (midnight never falls in a daylight-saving gap in France: they happen at 2 or 3 am). */
export function parisMidnight(day: string): Date {
  const utc = new Date(`${day}T00:00:00Z`)
  const offset = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', timeZoneName: 'longOffset' })
    .formatToParts(utc)
    .find((part) => part.type === 'timeZoneName')!
    .value.match(/GMT([+-])(\d\d):(\d\d)/)
  const minutes = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0
  return new Date(utc.getTime() - minutes * 60_000)
}

export const journalMessages = {
  badRange: 'La date de début doit précéder la date de fin (ou lui être égale).',
}

/** The query's filters as instants: `to` includes its whole day. */
export function journalFilters(query: Omit<JournalQuery, 'page'>): JournalFilters {
  if (query.from && query.to && query.from > query.to) throw badRequest(journalMessages.badRange, 'BAD_RANGE')
  return {
    operatorId: query.operatorId,
    apiKeyId: query.apiKeyId,
    orderId: query.orderId,
    action: query.action,
    from: query.from ? parisMidnight(query.from) : undefined,
    until: query.to ? new Date(parisMidnight(query.to).getTime() + 86_400_000) : undefined,
  }
}

const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : (value ?? null))

export const toJournalEntry = (row: JournalRow): JournalEntry => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  operator: row.operator_id === null ? null : { id: row.operator_id, name: row.operator_name ?? '', email: row.operator_email ?? '' },
  apiKey: row.api_key_id === null ? null : { id: row.api_key_id, name: row.api_key_name ?? '', prefix: row.api_key_prefix ?? '' },
  ...(row.system_actor ? { automatic: SYSTEM_ACTOR_LABELS[row.system_actor] } : {}),
  action: row.action,
  orderId: row.order_id,
  summary: row.summary,
  before: parsed(row.before),
  after: parsed(row.after),
})

const parisDateTime = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/**
 * One CSV cell: quoted, its quotes doubled; a text that a spreadsheet would run as a formula (=, +, -, @, a tab or a
 * carriage return first) is led by an apostrophe, so that a summary typed by someone cannot compute anything in Excel.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return `"${safe.replaceAll('"', '""')}"`
}

export const JOURNAL_CSV_HEADERS = ['Date (heure de Paris)', 'Opérateur', 'Action', 'Commande', 'Résumé', 'Avant', 'Après']

export function journalCsv(rows: JournalRow[]): string {
  const lines = [JOURNAL_CSV_HEADERS.map(csvCell).join(';')]
  for (const row of rows) {
    const entry = toJournalEntry(row)
    lines.push(
      [
        parisDateTime.format(new Date(row.at)),
        entry.operator
          ? `${entry.operator.name} <${entry.operator.email}>`
          : entry.apiKey
            ? `clé d’API « ${entry.apiKey.name} » (${entry.apiKey.prefix}…)`
            : (entry.automatic ?? 'serveur (OPERATOR_TOKEN ou commande)'),
        entry.action,
        entry.orderId === null ? '' : String(entry.orderId),
        entry.summary,
        entry.before === null ? '' : JSON.stringify(entry.before),
        entry.after === null ? '' : JSON.stringify(entry.after),
      ]
        .map(csvCell)
        .join(';'),
    )
  }
  // The BOM tells Excel the file is UTF-8 (without it, accented letters come out garbled); CRLF as RFC 4180 says.
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

export function journalRoutes(define: DefineRoute, deps: AppDeps) {
  const { db } = deps

  define('operatorJournal', async ({ query }) => {
    const page = query.page ?? 1
    const { rows, total } = await listJournal(db, journalFilters(query), {
      offset: (page - 1) * JOURNAL_PAGE_SIZE,
      limit: JOURNAL_PAGE_SIZE,
    })
    return { entries: rows.map(toJournalEntry), page, pageSize: JOURNAL_PAGE_SIZE, total }
  })

  define('operatorJournalCsv', async ({ query, reply }) => {
    const rows = await journalForExport(db, journalFilters(query), JOURNAL_EXPORT_MAX)
    fileHeaders(reply, 'text/csv; charset=utf-8', 'journal.csv', 'attachment')
    return Buffer.from(journalCsv(rows), 'utf8')
  })
}
