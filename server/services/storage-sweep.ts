// Files a crash left behind: a file written but whose row never committed (storeWithRecord killed halfway), a
// half-written temp file. Both are swept at start and periodically, once older than a grace period that no
// upload in progress can reach (identity documents are personal data: they must not linger).
import type { Kysely } from 'kysely'
import { referencedFileKeys } from '../db/repositories/stored-files.ts'
import type { Database } from '../db/schema.ts'
import type { Storage } from './storage.ts'

/** A file and its row are written seconds apart; a quarter of an hour leaves room for any upload in progress. */
export const SWEEP_GRACE_MS = 15 * 60_000
export const SWEEP_EVERY_MS = 15 * 60_000

export interface SweepResult {
  /** Keys of the files removed because no row points at them. */
  orphans: string[]
  /** How many temp files were removed. */
  temporary: number
}

export async function sweepStorage({
  db,
  storage,
  now,
  graceMs = SWEEP_GRACE_MS,
}: {
  db: Kysely<Database>
  storage: Storage
  now: Date
  graceMs?: number
}): Promise<SweepResult> {
  const before = new Date(now.getTime() - graceMs)
  const temporary = await storage.removeTempOlderThan(before)
  const candidates = await storage.listOlderThan(before)
  const kept = await referencedFileKeys(db, candidates)
  const orphans = candidates.filter((key) => !kept.has(key))
  for (const key of orphans) await storage.delete(key)
  return { orphans, temporary }
}
