// Reading a multipart form: what the parser (busboy) throws on a broken form becomes a French 400, and a
// file name is cleaned before anyone stores or shows it (it is the only text of a form without a schema).
import type { MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { badRequest, fileTooLarge, HttpError, httpErrorOf } from './errors.ts'

export type FormPart =
  | { type: 'field'; name: string; value: string }
  | { type: 'file'; name: string; fileName: string; bytes(): Promise<Buffer> }

/** Our errors and the plugin's client errors (limits, 4xx) pass; anything else busboy throws is a broken form. */
function clientError(error: unknown): unknown {
  const answer = httpErrorOf(error)
  if (answer instanceof HttpError) return answer
  const status = (error as { statusCode?: number }).statusCode
  if (status !== undefined && status >= 400 && status < 500) return error
  return badRequest('Le formulaire multipart/form-data est mal formé ou incomplet : envoyez-le à nouveau.', 'BAD_MULTIPART')
}

// Control characters (C0, DEL, C1), bidi marks and overrides (a name shown as "cni.exe" while it is not), path separators.
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]/g
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** A file name as its owner will see it again: without unsafe characters, 200 characters at most (never half a pair). */
export function cleanFileName(name: string): string {
  return Array.from(name.replace(LONE_SURROGATE, '').replace(UNSAFE_IN_NAME, '').trim()).slice(0, 200).join('')
}

export async function* formParts(req: FastifyRequest, options: Parameters<FastifyRequest['parts']>[0]): AsyncGenerator<FormPart> {
  let parts: AsyncIterator<unknown>
  try {
    parts = req.parts(options)[Symbol.asyncIterator]()
  } catch (error) {
    throw clientError(error)
  }
  for (;;) {
    let next: IteratorResult<unknown>
    try {
      next = await parts.next()
    } catch (error) {
      throw clientError(error)
    }
    if (next.done) return
    const part = next.value as MultipartFile | { type: 'field'; fieldname: string; value: unknown }
    if (part.type === 'field') {
      yield { type: 'field', name: part.fieldname, value: typeof part.value === 'string' ? part.value : '' }
      continue
    }
    const file = part as MultipartFile
    yield {
      type: 'file',
      name: file.fieldname,
      fileName: cleanFileName(file.filename ?? ''),
      async bytes() {
        let bytes: Buffer
        try {
          bytes = await file.toBuffer()
        } catch (error) {
          throw clientError(error)
        }
        if (file.file.truncated) throw fileTooLarge()
        return bytes
      },
    }
  }
}
