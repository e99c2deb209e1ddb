// Every file the application writes gets its size and SHA-256 recorded (stored_files, migration 110), and every read
// checks the bytes against them: a file cut short or changed on the disk or in the bucket is refused, never served.
// Wraps any store (the directory, S3), so the checks live in one place (services/open-storage.ts).
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { DamagedFileError } from '../lib/damaged-file.ts'
import type { Storage } from './storage.ts'

/**
 * Files up to this size are read once, checked, then answered from memory (a page image, most letters); a
 * larger one (a long scan, « Mes données »'s ZIP) is read twice, checked then streamed: never whole in memory.
 */
export const CHECK_IN_MEMORY_BYTES = 1024 * 1024

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The size and SHA-256 of a stream, read to its end. */
export async function digestOf(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of stream) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  return { bytes, sha256: hash.digest('hex') }
}

export interface CheckedStorageOptions {
  /** Called for each damaged file refused (the server logs it as an error). */
  onDamaged?: (error: DamagedFileError) => void
}

export function checkedStorage(inner: Storage, db: Kysely<Database>, options: CheckedStorageOptions = {}): Storage {
  const record = async (key: string, bytes: number, sha256: string) => {
    await db
      .insertInto('stored_files')
      .values({ key, bytes, sha256 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ bytes, sha256 }))
      .execute()
  }
  const recorded = (key: string) => db.selectFrom('stored_files').select(['bytes', 'sha256']).where('key', '=', key).executeTakeFirst()
  const damaged = (key: string, detail: string) => {
    const error = new DamagedFileError(key, detail)
    options.onDamaged?.(error)
    return error
  }
  const compare = (key: string, expected: { bytes: string | number; sha256: string }, actual: { bytes: number; sha256: string }) => {
    if (Number(expected.bytes) !== actual.bytes) throw damaged(key, `${actual.bytes} octets au lieu de ${expected.bytes}`)
    if (expected.sha256 !== actual.sha256) throw damaged(key, `empreinte ${actual.sha256} au lieu de ${expected.sha256}`)
  }
  return {
    async put(key, bytes) {
      const sha256 = sha256Hex(bytes)
      await inner.put(key, bytes)
      try {
        await record(key, bytes.byteLength, sha256)
      } catch (error) {
        // Never a file without its record: the write fails as a whole.
        await inner.delete(key).catch(() => undefined)
        throw error
      }
    },
    async putStream(key, stream, signal) {
      const hash = createHash('sha256')
      async function* hashing() {
        for await (const chunk of stream) {
          hash.update(chunk as Buffer)
          yield chunk as Buffer
        }
      }
      const bytes = await inner.putStream(key, Readable.from(hashing(), { objectMode: false }), signal)
      try {
        await record(key, bytes, hash.digest('hex'))
      } catch (error) {
        await inner.delete(key).catch(() => undefined)
        throw error
      }
      return bytes
    },
    async get(key) {
      const bytes = await inner.get(key)
      if (!bytes) return null
      const expected = await recorded(key)
      if (expected) compare(key, expected, { bytes: bytes.length, sha256: sha256Hex(bytes) })
      return bytes
    },
    async read(key) {
      const expected = await recorded(key)
      const first = await inner.read(key)
      // A file written before its size and checksum were recorded (before migration 110) is served as it is.
      if (!first || !expected) return first
      if (first.bytes !== Number(expected.bytes)) {
        first.stream.destroy()
        throw damaged(key, `${first.bytes} octets au lieu de ${expected.bytes}`)
      }
      if (first.bytes <= CHECK_IN_MEMORY_BYTES) {
        const chunks: Buffer[] = []
        for await (const chunk of first.stream) chunks.push(chunk as Buffer)
        const bytes = Buffer.concat(chunks)
        compare(key, expected, { bytes: bytes.length, sha256: sha256Hex(bytes) })
        return { stream: Readable.from([bytes]), bytes: bytes.length }
      }
      compare(key, expected, await digestOf(first.stream))
      const second = await inner.read(key)
      if (!second) return null
      // Changed between the two reads (very unlikely): the stream fails at its end rather than complete wrong bytes.
      const hash = createHash('sha256')
      async function* verifying(source: Readable) {
        for await (const chunk of source) {
          hash.update(chunk as Buffer)
          yield chunk as Buffer
        }
        const sha256 = hash.digest('hex')
        if (sha256 !== expected!.sha256) throw damaged(key, `empreinte ${sha256} au lieu de ${expected!.sha256}`)
      }
      return { stream: Readable.from(verifying(second.stream), { objectMode: false }), bytes: second.bytes }
    },
    async delete(key) {
      await inner.delete(key)
      await db.deleteFrom('stored_files').where('key', '=', key).execute()
    },
    listOlderThan: (before) => inner.listOlderThan(before),
    removeTempOlderThan: (before) => inner.removeTempOlderThan(before),
  }
}
