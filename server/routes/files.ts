import type { FastifyReply } from 'fastify'
import { notFound } from '../http/errors.ts'
import type { Storage } from '../services/storage.ts'

/** Answers a stored PDF inline, never cached by shared caches (it is someone's mail). */
export async function sendPdf(reply: FastifyReply, storage: Storage, key: string, fileName: string): Promise<Buffer> {
  const bytes = await storage.get(key)
  if (!bytes) throw notFound('Fichier')
  reply.header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `inline; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
  return bytes
}
