import type { FastifyReply } from 'fastify'
import { notFound } from '../http/errors.ts'
import type { Storage } from '../services/storage.ts'

/** Answers a PDF, named, never cached by shared caches (it is someone's mail or papers). */
export function answerPdf(reply: FastifyReply, bytes: Uint8Array, fileName: string, disposition: 'inline' | 'attachment' = 'inline'): Buffer {
  reply.header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `${disposition}; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
  return Buffer.from(bytes)
}

/** Answers a stored PDF inline. */
export async function sendPdf(reply: FastifyReply, storage: Storage, key: string, fileName: string): Promise<Buffer> {
  const bytes = await storage.get(key)
  if (!bytes) throw notFound('Fichier')
  return answerPdf(reply, bytes, fileName)
}
