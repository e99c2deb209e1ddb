// Mail pipeline: a letter's page images, the search of the letters' text, their deadlines.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { listDocumentsById, requireDocument } from '../../db/repositories/mail.ts'
import { excerptOf, findPageImage, listLetterDeadlines, searchDocuments, searchQueryOf } from '../../db/repositories/mail-pipeline.ts'
import { scopedOrderIds } from '../../db/repositories/company-orders.ts'
import { fileHeaders } from '../files.ts'

export const SEARCH_LENGTH_MESSAGE = 'La recherche doit compter de 3 à 200 caractères.'

export function mailPipelineRoutes(define: DefineRoute, { db, storage }: AppDeps) {
  define('documentPage', async ({ user, params, reply }) => {
    const document = await requireDocument(db, user.id, params.id)
    const image = await findPageImage(db, document.id, params.page)
    const bytes = image ? await storage.get(image.file_key) : null
    if (!image || !bytes) throw notFound('Page')
    fileHeaders(reply, image.content_type, `courrier-${document.id}-page-${params.page}.webp`)
    return bytes
  })

  define('documentSearch', async ({ user, query }) => {
    const text = query.q.trim()
    // Characters as the schema counts them (an emoji is one, not two UTF-16 units).
    const characters = [...text].length
    if (characters < 3 || characters > 200) throw badRequest(SEARCH_LENGTH_MESSAGE)
    const orderIds = await scopedOrderIds(db, user.id, 'all', query.orderId)
    const tsquery = searchQueryOf(text)
    if (!tsquery) return { results: [] }
    const hits = await searchDocuments(db, orderIds, tsquery)
    const documents = new Map(
      (
        await listDocumentsById(
          db,
          hits.map((h) => h.id),
        )
      ).map((d) => [d.id, d]),
    )
    return {
      results: hits
        .filter((h) => documents.has(h.id))
        .map((h) => ({ document: documents.get(h.id)!, rank: h.rank, excerpt: excerptOf(h.headline) })),
    }
  })

  define('letterDeadlines', async ({ user, query }) => ({
    deadlines: await listLetterDeadlines(db, await scopedOrderIds(db, user.id, 'all', query.orderId)),
  }))
}
