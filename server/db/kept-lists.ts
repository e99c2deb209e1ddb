// Lists written as JSON by the database (json.ts) and kept in this process with the version they were written at
// (issue 13: GET documents). The one statement of a request still checks the session and the access, and reads the
// version from the database: the JSON is written again only when the version changed (a CASE whose other branch the
// database never runs). So a kept list is never served stale, whichever instance changed the data.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

interface Kept { version: string; json: string }

/** At most this many characters of JSON per database (about a thousand orders of 8 kB, at most 16 MB), the least recently used lists going first. */
export const KEPT_LISTS_MAX_CHARS = 8 * 1024 * 1024

/** No list is written at this version: what is passed when nothing is kept. */
export const NOTHING_KEPT = ''

export class KeptLists {
  readonly #lists = new Map<string, Kept>()
  #chars = 0

  constructor(readonly maxChars = KEPT_LISTS_MAX_CHARS) {}

  /** The list kept under `key`, now the most recently used. */
  get(key: string): Kept | undefined {
    const kept = this.#lists.get(key)
    if (kept) {
      this.#lists.delete(key)
      this.#lists.set(key, kept)
    }
    return kept
  }

  set(key: string, version: string, json: string): void {
    this.delete(key)
    if (json.length > this.maxChars) return
    this.#lists.set(key, { version, json })
    this.#chars += json.length
    for (const [oldest, kept] of this.#lists) {
      if (this.#chars <= this.maxChars) break
      this.#lists.delete(oldest)
      this.#chars -= kept.json.length
    }
  }

  delete(key: string): void {
    const kept = this.#lists.get(key)
    if (!kept) return
    this.#lists.delete(key)
    this.#chars -= kept.json.length
  }

  get size(): number {
    return this.#lists.size
  }

  get chars(): number {
    return this.#chars
  }
}

const byDatabase = new WeakMap<Kysely<Database>, KeptLists>()

/** The lists kept for this database (each test's database, each instance's, has its own). */
export function keptLists(db: Kysely<Database>): KeptLists {
  let lists = byDatabase.get(db)
  if (!lists) byDatabase.set(db, (lists = new KeptLists()))
  return lists
}
