import type { FastifyReply } from 'fastify'
import { notFound } from '../http/errors.ts'
import type { Storage } from '../services/storage.ts'

/**
 * The headers of every file answered (a PDF, a letter's page image): named, never cached by shared caches (it is
 * someone's mail or papers), and sandboxed: opened by itself in a browser, a file runs no script and reaches no origin
 * (`Content-Security-Policy: sandbox`; the portal shows files from blobs, which keep the portal's own policy).
 */
export function fileHeaders(
  reply: FastifyReply,
  contentType: string,
  fileName: string,
  disposition: 'inline' | 'attachment' = 'inline',
): FastifyReply {
  return reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', `${disposition}; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', 'sandbox')
}

/** Answers a PDF (fileHeaders). */
export function answerPdf(
  reply: FastifyReply,
  bytes: Uint8Array,
  fileName: string,
  disposition: 'inline' | 'attachment' = 'inline',
): Buffer {
  fileHeaders(reply, 'application/pdf', fileName, disposition)
  return Buffer.from(bytes)
}

/** Answers a stored PDF inline, streamed (checked first by the store: services/checked-storage.ts). */
export async function sendPdf(reply: FastifyReply, storage: Storage, key: string, fileName: string): Promise<never> {
  const file = await storage.read(key)
  if (!file) throw notFound('Fichier')
  fileHeaders(reply, 'application/pdf', fileName).header('Content-Length', file.bytes)
  // The contract's PdfFile is bytes; Fastify sends the stream as it comes.
  return reply.send(file.stream) as never
}
