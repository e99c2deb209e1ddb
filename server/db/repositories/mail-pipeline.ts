// Mail pipeline: a letter's page images, its text and full-text search, its deadline.
import { sql } from 'kysely'
import type { Deadline as FoundDeadline } from '../../contract/rules/deadlines.ts'
import { isoDay } from '../dates.ts'
import type { Db } from '../schema.ts'

export function findLetterForPipeline(db: Db, documentId: number) {
  return db.selectFrom('documents').select(['id', 'file_key', 'received_at', 'pages']).where('id', '=', documentId).executeTakeFirst()
}

export interface LetterPipelineResult {
  pages: { fileKey: string; contentType: string; width: number; height: number; bytes: number }[]
  text: string | null
  deadline: FoundDeadline | null
}

/** Inside the job's finishing transaction: the page rows replace any earlier ones, with the text and the deadline. */
export async function saveLetterPipelineResult(trx: Db, documentId: number, result: LetterPipelineResult): Promise<void> {
  await trx.deleteFrom('document_pages').where('document_id', '=', documentId).execute()
  if (result.pages.length) {
    await trx
      .insertInto('document_pages')
      .values(
        result.pages.map((p, i) => ({
          document_id: documentId,
          page: i + 1,
          file_key: p.fileKey,
          content_type: p.contentType,
          width: p.width,
          height: p.height,
          bytes: p.bytes,
        })),
      )
      .execute()
  }
  await trx
    .updateTable('documents')
    .set({
      page_images: result.pages.length,
      text: result.text,
      searchable: result.text !== null,
      deadline_date: result.deadline?.date ?? null,
      deadline_amount_cents: result.deadline?.amountCents ?? null,
    })
    .where('id', '=', documentId)
    .execute()
}

export function findPageImage(db: Db, documentId: number, page: number) {
  return db
    .selectFrom('document_pages')
    .select(['file_key', 'content_type'])
    .where('document_id', '=', documentId)
    .where('page', '=', page)
    .executeTakeFirst()
}

/** Highlight markers of ts_headline: private-use characters, removed from every stored text (services/mail-pipeline.ts cleanText). */
export const MATCH_START = '\ue000'
export const MATCH_END = '\ue001'

/**
 * The words of a search as a French tsquery: every word required, the last one as a prefix (the user
 * is still typing it); null when the text holds no word.
 */
export function searchQueryOf(text: string): string | null {
  const words = text.normalize('NFC').match(/[\p{L}\p{N}]+/gu)
  if (!words?.length) return null
  return words
    .slice(0, 20)
    .map((w, i, all) => `'${w}'${i === all.length - 1 ? ':*' : ''}`)
    .join(' & ')
}

export interface SearchHit {
  id: number
  rank: number
  headline: string
}

/** Letters (not deleted) of `orderIds` matching `tsquery`, best first, with their headline. */
export async function searchDocuments(db: Db, orderIds: number[], tsquery: string, limit = 50): Promise<SearchHit[]> {
  if (!orderIds.length) return []
  const { rows } = await sql<{ id: number; rank: number; headline: string }>`
    with q as (select to_tsquery('fr_unaccent', ${tsquery}) as query),
    hits as (
      select d.id, d.sender, d.kind, d.text, d.received_at, ts_rank_cd(d.search_vector, q.query) as rank
      from documents d, q
      where d.order_id in (${sql.join(orderIds)}) and not d.deleted and d.search_vector @@ q.query
      order by rank desc, d.received_at desc, d.id desc
      limit ${limit}
    )
    select hits.id, hits.rank::float8 as rank,
      ts_headline('fr_unaccent', hits.sender || E'\n' || coalesce(hits.text, ''), q.query,
        ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`}) as headline
    from hits, q
    order by hits.rank desc, hits.received_at desc, hits.id desc`.execute(db)
  return rows.map((r) => ({ id: r.id, rank: Number(r.rank), headline: r.headline }))
}

/** A headline cut into plain-text parts, the matched words flagged (never HTML to the client). */
export function excerptOf(headline: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = []
  const flat = headline.replace(/\s+/g, ' ')
  let rest = flat
  while (rest) {
    const start = rest.indexOf(MATCH_START)
    if (start < 0) {
      parts.push({ text: rest, match: false })
      break
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), match: false })
    const end = rest.indexOf(MATCH_END, start)
    const stop = end < 0 ? rest.length : end
    parts.push({ text: rest.slice(start + 1, stop), match: true })
    rest = rest.slice(stop + 1)
  }
  return parts.filter((p) => p.text)
}

export interface LetterDeadlineRow {
  documentId: number
  orderId: number
  sender: string
  kind: 'courrier' | 'recommandé' | 'administratif'
  receivedAt: string
  date: string
  amountCents: number | null
}

export async function listLetterDeadlines(db: Db, orderIds: number[]): Promise<LetterDeadlineRow[]> {
  if (!orderIds.length) return []
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'order_id', 'sender', 'kind', 'received_at', 'deadline_amount_cents', isoDay('deadline_date').as('date')])
    .where('order_id', 'in', orderIds)
    .where('deleted', '=', false)
    .where('deadline_date', 'is not', null)
    .orderBy('deadline_date')
    .orderBy('id')
    .execute()
  return rows.map((r) => ({
    documentId: r.id,
    orderId: r.order_id,
    sender: r.sender,
    kind: r.kind,
    receivedAt: r.received_at.toISOString(),
    date: r.date,
    amountCents: r.deadline_amount_cents,
  }))
}
