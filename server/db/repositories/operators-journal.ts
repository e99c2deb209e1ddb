// The journal: what each operator (or machine) changed, written in the transaction of the change; read by
// administrators with filters, page by page or whole as CSV. No function here, nor anywhere, changes or deletes a row
// (the database refuses it too: migration 020).
import type { Kysely, Transaction } from 'kysely'
import type { Database, Db, JournalSystemActor } from '../schema.ts'

/**
 * Who made the change: a signed-in operator, a machine's API key, the bootstrap OPERATOR_TOKEN (none set), or, with
 * `system`, no one of the provider: the automatic mail retention, or a customer closing their account.
 */
export interface JournalActor {
  operatorId?: number
  apiKeyId?: number
  system?: JournalSystemActor
}

/** How a row written by no operator nor key names its author, in the back office and the CSV. */
export const SYSTEM_ACTOR_LABELS: Record<JournalSystemActor, string> = {
  retention: 'tâche automatique (conservation du courrier)',
  customer: 'le client (fermeture de son compte)',
}

export interface JournalEntry {
  actor: JournalActor
  /** A short code of what was done (`operator.invited`, `letter.added`…), for the filter. */
  action: string
  orderId?: number | null
  /** One line in French, as an administrator reads it. */
  summary: string
  before?: unknown
  after?: unknown
  at: Date
}

/** The journal keeps small before/after pictures: a long text is cut, never refused (the change must not fail for it). */
const small = (value: unknown) => {
  if (value === undefined || value === null) return null
  const text = JSON.stringify(value)
  return text.length <= 3000 ? text : JSON.stringify({ tronqué: text.slice(0, 2900) })
}

/**
 * Records one row in the caller's transaction: the change and its row commit together or not at all. A Transaction,
 * never the database itself, so that a handler cannot record outside its change.
 */
export async function recordJournal(tx: Transaction<Database>, entry: JournalEntry): Promise<void> {
  await tx
    .insertInto('journal')
    .values({
      at: entry.at,
      operator_id: entry.actor.operatorId ?? null,
      api_key_id: entry.actor.apiKeyId ?? null,
      system_actor: entry.actor.system ?? null,
      action: entry.action,
      order_id: entry.orderId ?? null,
      summary: entry.summary,
      before: small(entry.before),
      after: small(entry.after),
    })
    .execute()
}

export interface JournalFilters {
  operatorId?: number
  apiKeyId?: number
  orderId?: number
  action?: string
  /** Instants: from inclusive, until exclusive. */
  from?: Date
  until?: Date
}

function filtered(db: Db, filters: JournalFilters) {
  let query = db
    .selectFrom('journal')
    .leftJoin('operators', 'operators.id', 'journal.operator_id')
    .leftJoin('api_keys', 'api_keys.id', 'journal.api_key_id')
  if (filters.operatorId !== undefined) query = query.where('journal.operator_id', '=', filters.operatorId)
  if (filters.apiKeyId !== undefined) query = query.where('journal.api_key_id', '=', filters.apiKeyId)
  if (filters.orderId !== undefined) query = query.where('journal.order_id', '=', filters.orderId)
  if (filters.action !== undefined) query = query.where('journal.action', '=', filters.action)
  if (filters.from) query = query.where('journal.at', '>=', filters.from)
  if (filters.until) query = query.where('journal.at', '<', filters.until)
  return query
}

const columns = [
  'journal.id',
  'journal.at',
  'journal.operator_id',
  'operators.name as operator_name',
  'operators.email as operator_email',
  'journal.api_key_id',
  'api_keys.name as api_key_name',
  'api_keys.prefix as api_key_prefix',
  'journal.system_actor',
  'journal.action',
  'journal.order_id',
  'journal.summary',
  'journal.before',
  'journal.after',
] as const

/** Newest first, `limit` rows from `offset`, and how many match in all. */
export async function listJournal(db: Kysely<Database>, filters: JournalFilters, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    filtered(db, filters)
      .select(columns)
      .orderBy('journal.at', 'desc')
      .orderBy('journal.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, filters)
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** Every matching row, oldest first (a spreadsheet reads down), at most `max`. */
export function journalForExport(db: Db, filters: JournalFilters, max: number) {
  return filtered(db, filters).select(columns).orderBy('journal.at').orderBy('journal.id').limit(max).execute()
}

export type JournalRow = Awaited<ReturnType<typeof journalForExport>>[number]
