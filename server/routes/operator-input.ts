// What the operators' calls share (Authorization: Bearer <an API key or OPERATOR_TOKEN>: mail/operator.ts, billing/operator.ts…):
// who calls, for the journal; the Idempotency-Key of a retry, and the PDF sent as a data URL.
import type { FastifyRequest } from 'fastify'
import { badRequest } from '../http/errors.ts'
import { decodeDataUrl } from '../services/file-types.ts'
import { sha256 } from '../lib/crypto.ts'
import type { Retry } from '../services/ingest.ts'
import type { JournalActor } from '../db/repositories/operators-journal.ts'

/** The journal's actor of a machine's call: the API key behind it (define-route.ts sets it), or none for OPERATOR_TOKEN. */
export const machineOf = (req: FastifyRequest): JournalActor => (req.apiKeyId === null ? {} : { apiKeyId: req.apiKeyId })

/** Visible ASCII, as the IETF's Idempotency-Key header and the usual UUIDs are. */
const RETRY_KEY = /^[\x21-\x7e]{1,255}$/

/**
 * The call's Idempotency-Key, if sent, with a digest of the order and everything sent (services/ingest.ts, "Retries").
 * Answers that replay what a first call made say so in `Idempotent-Replayed: true`.
 */
export function retryOf(req: FastifyRequest, orderId: number, body: unknown): Retry | undefined {
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
export function pdfDataUrl(file: string) {
  const decoded = decodeDataUrl(file)
  if (decoded?.mediaType !== 'application/pdf')
    throw badRequest('Le champ « file » doit être un PDF encodé en data URL (data:application/pdf;base64,…).', 'BAD_DATA_URL')
  return decoded
}
