// The operators' way in (Authorization: Bearer <OPERATOR_TOKEN>): list the orders, add a scanned
// letter, a package or an invoice. The same service backs `npm run ingest` (scripts/ingest.ts).
import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest } from '../../http/errors.ts'
import { listOrdersForOperators } from '../../db/repositories/orders.ts'
import { decodeDataUrl } from '../../services/file-types.ts'
import { sha256 } from '../../lib/crypto.ts'
import { ingestInvoice, ingestLetter, ingestPackage, type Retry } from '../../services/ingest.ts'

/** Visible ASCII, as the IETF's Idempotency-Key header and the usual UUIDs are. */
const RETRY_KEY = /^[\x21-\x7e]{1,255}$/

/**
 * The call's Idempotency-Key, if sent, with a digest of the order and everything sent (services/ingest.ts, "Retries").
 * Answers that replay what a first call made say so in `Idempotent-Replayed: true`.
 */
function retryOf(req: FastifyRequest, orderId: number, body: unknown): Retry | undefined {
  const key = req.headers['idempotency-key']
  if (key === undefined) return undefined
  if (typeof key !== 'string' || !RETRY_KEY.test(key)) {
    throw badRequest(
      'L’en-tête Idempotency-Key doit compter de 1 à 255 caractères visibles, sans espace (un UUID par exemple).',
      'BAD_IDEMPOTENCY_KEY',
    )
  }
  return { key, fingerprint: sha256(JSON.stringify([orderId, body])) }
}

/**
 * The PDF of an operator's call: a base64 data URL that says application/pdf (text/html or an empty type
 * with PDF bytes passed; the bytes are checked anyway, but a program that declares another type is sending something
 * else than it thinks). Customers' uploads are not held to it: a browser names a type from the file's extension.
 */
function pdfDataUrl(file: string) {
  const decoded = decodeDataUrl(file)
  if (decoded?.mediaType !== 'application/pdf')
    throw badRequest('Le champ « file » doit être un PDF encodé en data URL (data:application/pdf;base64,…).', 'BAD_DATA_URL')
  return decoded
}

export function operatorRoutes(define: DefineRoute, deps: AppDeps) {
  define('operatorOrders', async () => listOrdersForOperators(deps.db))

  define('operatorAddDocument', async ({ params, body, req, reply }) => {
    const retry = retryOf(req, params.id, body)
    const decoded = pdfDataUrl(body.file)
    const { document, link, notified, notificationFailures, replayed } = await ingestLetter(deps, {
      orderId: params.id,
      sender: body.sender,
      kind: body.kind,
      bytes: decoded.bytes,
      receivedAt: body.receivedAt,
      retry,
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    if (notificationFailures.length)
      req.log.error({ documentId: document.id, notificationFailures }, 'notification du nouveau courrier impossible')
    return { document, link, notified }
  })

  define('operatorAddPackage', async ({ params, body, req, reply }) => {
    const { parcel, notificationFailures, replayed } = await ingestPackage(deps, {
      orderId: params.id,
      ...body,
      retry: retryOf(req, params.id, body),
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    if (notificationFailures.length)
      req.log.error({ packageId: parcel.id, notificationFailures }, 'notification du nouveau colis impossible')
    return parcel
  })

  define('operatorAddInvoice', async ({ params, body, req, reply }) => {
    const retry = retryOf(req, params.id, body)
    const decoded = pdfDataUrl(body.file)
    const { file: _file, reference, ...invoice } = body
    const { invoice: made, replayed } = await ingestInvoice(deps, {
      orderId: params.id,
      number: reference,
      ...invoice,
      bytes: decoded.bytes,
      retry,
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    return made
  })
}
