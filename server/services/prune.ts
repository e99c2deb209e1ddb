// Rows that have run out and that nothing reads again: rate-limit windows passed, expired sessions (api_tokens) and
// password-reset links, and e-mail change revert links expired for more than REVERT_LINKS_KEPT_DAYS (people-email-reverts.ts
// says why they are kept that long). Pruned with the storage sweep (main.ts: once the server is up, then every 15
// minutes), so that these tables stay small on a server that runs for months; and the background jobs finished long
// enough ago (a week when done, 90 days when failed: repositories/jobs.ts). WebAuthn challenges are pruned as each new
// one is stored.
import { deleteOldRevertLinks } from '../db/repositories/people-email-reverts.ts'
import { deleteFinishedJobs } from '../db/repositories/jobs.ts'
import { deleteExpiredRateLimits } from '../db/repositories/rate-limits.ts'
import { deleteExpiredCredentials } from '../db/repositories/session.ts'
import type { Db } from '../db/schema.ts'

export async function pruneExpiredRows(
  db: Db,
  now: Date,
): Promise<{ rateLimits: number; apiTokens: number; passwordResets: number; revertLinks: number; jobs: number }> {
  return {
    rateLimits: await deleteExpiredRateLimits(db, now),
    ...(await deleteExpiredCredentials(db, now)),
    revertLinks: await deleteOldRevertLinks(db, now),
    jobs: await deleteFinishedJobs(db, now),
  }
}
