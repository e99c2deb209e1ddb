// Lists written as JSON by the database (json.ts) and kept in this process with the version they were written at
// (GET documents, GET my-domiciliation-orders). The one statement of a request still checks the session and
// the access, and reads the version from the database: the JSON is written again (a second statement) only when the
// version changed. So a kept list is never served stale, whichever instance changed the data: the version is read
// from the database at every request, after anything committed before it.
// Kept as the bytes sent (UTF-8): a string would be measured and encoded again at every answer.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

interface Kept {
  version: string
  json: Buffer
}

/** At most this many bytes of JSON per database (about a thousand lists of 8 kB), the least recently used lists going first. */
export const KEPT_LISTS_MAX_BYTES = 8 * 1024 * 1024

export class KeptLists {
  readonly #lists = new Map<string, Kept>()
  #bytes = 0

  constructor(readonly maxBytes = KEPT_LISTS_MAX_BYTES) {}

  /** The list kept under `key`, now the most recently used. */
  get(key: string): Kept | undefined {
    const kept = this.#lists.get(key)
    if (kept) {
      this.#lists.delete(key)
      this.#lists.set(key, kept)
    }
    return kept
  }

  /** Keeps the list (unless it alone is over the limit); answers its bytes. */
  set(key: string, version: string, text: string): Buffer {
    this.delete(key)
    const json = Buffer.from(text)
    if (json.length > this.maxBytes) return json
    this.#lists.set(key, { version, json })
    this.#bytes += json.length
    for (const [oldest, kept] of this.#lists) {
      if (this.#bytes <= this.maxBytes) break
      this.#lists.delete(oldest)
      this.#bytes -= kept.json.length
    }
    return json
  }

  delete(key: string): void {
    const kept = this.#lists.get(key)
    if (!kept) return
    this.#lists.delete(key)
    this.#bytes -= kept.json.length
  }

  get size(): number {
    return this.#lists.size
  }

  get bytes(): number {
    return this.#bytes
  }
}

const byDatabase = new WeakMap<Kysely<Database>, KeptLists>()

/** The lists kept for this database (each test's database, each instance's, has its own). */
export function keptLists(db: Kysely<Database>): KeptLists {
  let lists = byDatabase.get(db)
  if (!lists) byDatabase.set(db, (lists = new KeptLists()))
  return lists
}
