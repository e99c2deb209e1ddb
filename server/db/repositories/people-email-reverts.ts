// « Ce n’était pas vous ? »: the address change that leaves a link to undo it, and the undoing. A stolen session could
// change the address, then reset the password through the new one: the link mailed to the address left gives the account
// back (the address restored, every way in closed). Lock order as in session.ts: the user's row first, then the rest.
import type { Kysely } from 'kysely'
import type { User } from '../../contract/session.ts'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import { addDays } from '../../lib/time.ts'
import { isUniqueViolation } from '../errors.ts'
import type { Database, Db } from '../schema.ts'
import { toUser } from './session.ts'

/**
 * An address left with a live revert link belongs to the account that left it until the link is used or expires (`userId`: the account
 * asking, null for a new one).
 */
export function reservedByRevert(db: Db, email: string, userId: number | null, now: Date) {
  return db
    .selectFrom('email_change_reverts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['old_email']), '=', email.trim().toLowerCase()))
    .$if(userId !== null, (q) => q.where('user_id', '!=', userId!))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/**
 * The new address (typed, not proven: `email_verified` false), the reset links of the old one closed, and a revert link
 * for the address left, all in one transaction. The link is made only for a proven address left, and only when the
 * account has no live link already (a link to a mistyped address, corrected at once, gave a stranger the
 * account; a thief who changed the address and back again kept, with his own address's link, a way in for 30 days). So
 * one link at most holds at a time, and it is the owner's from before the first change: `token` null otherwise, and
 * `oldVerified` false when the address left was never proven (nobody is told there: it may be a stranger's).
 * `reserved`: the address was left by another account whose revert link still holds (someone holding a stolen session
 * could otherwise take the victim's address with an account of their own, and the revert would find it taken).
 */
export async function changeEmailWithRevertLink(
  db: Kysely<Database>,
  change: { userId: number; newEmail: string; now: Date; expiresAt: Date; sessionTokenHash?: string },
): Promise<{ user: User; oldEmail: string; oldVerified: boolean; token: string | null; linkId: number | null } | 'reserved' | 'ended'> {
  return db
    .transaction()
    .execute(async (tx) => {
      const before = await tx
        .selectFrom('users')
        .select(['email', 'email_verified'])
        .where('id', '=', change.userId)
        .forUpdate()
        .executeTakeFirstOrThrow()
      // The session that asks, checked again with the row ours: a revert or a reset committed since the
      // request's own check ended it, and the stolen session's change would otherwise land on the address just restored.
      if (
        change.sessionTokenHash !== undefined &&
        !(await tx
          .selectFrom('api_tokens')
          .select('id')
          .where('user_id', '=', change.userId)
          .where('token_hash', '=', change.sessionTokenHash)
          .executeTakeFirst())
      )
        return 'ended' as const
      const row = await tx
        .updateTable('users')
        .set({ email: change.newEmail, email_verified: false })
        .where('id', '=', change.userId)
        .returning(['id', 'email', 'firstname', 'lastname', 'phone'])
        .executeTakeFirstOrThrow()
      // After the update: an account leaving this address at the same moment made the update wait for its commit, so its
      // link is seen here (read committed: each statement sees what committed before it).
      if (await reservedByRevert(tx, change.newEmail, change.userId, change.now)) throw new Reserved()
      await tx
        .updateTable('password_resets')
        .set({ used_at: change.now })
        .where('user_id', '=', change.userId)
        .where('used_at', 'is', null)
        .execute()
      const live = await liveRevertLink(tx, change.userId, change.now)
      if (!before.email_verified || live)
        return { user: toUser(row), oldEmail: before.email, oldVerified: before.email_verified, token: null, linkId: null }
      const token = randomToken()
      const link = await tx
        .insertInto('email_change_reverts')
        .values({
          user_id: change.userId,
          token_hash: sha256(token),
          old_email: before.email,
          new_email: change.newEmail,
          created_at: change.now,
          expires_at: change.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { user: toUser(row), oldEmail: before.email, oldVerified: true, token, linkId: link.id }
    })
    .catch((error: unknown) => {
      if (error instanceof Reserved) return 'reserved' as const
      throw error
    })
}

/**
 * A new token for a revert link whose notice could not be sent (services/security-notice.ts): its hash replaces the
 * one mailed in vain, so no token waits in the job queue. 'used': the link served meanwhile; 'expired': too late.
 */
export async function renewRevertToken(db: Db, linkId: number, now: Date): Promise<string | 'used' | 'expired'> {
  const token = randomToken()
  const row = await db
    .updateTable('email_change_reverts')
    .set({ token_hash: sha256(token) })
    .where('id', '=', linkId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst()
  if (row) return token
  const link = await db.selectFrom('email_change_reverts').select('used_at').where('id', '=', linkId).executeTakeFirst()
  return link?.used_at ? 'used' : 'expired'
}

/** The account's link still usable (one at most since migration 014's rule; the oldest otherwise), if any. */
function liveRevertLink(db: Db, userId: number, now: Date) {
  return db
    .selectFrom('email_change_reverts')
    .select('id')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}

class Reserved extends Error {}

export type RevertRefusal = 'unknown' | 'used' | 'expired' | 'taken' | 'superseded'

/**
 * Spends a revert link: the address it left comes back whatever the address is now (changed again meanwhile), the
 * password becomes one nobody knows (the attacker may have set it, and would sign in with the address restored), this link
 * and every later one are used (they would move it again), every session ends, every reset link closes, every passkey
 * and passkey challenge goes (one added with the stolen session would outlive the rest), in one transaction. The
 * address restored is proven (the link was mailed to it, a proven one). Only the account's oldest live link can be used
 * (`superseded` otherwise: links made before migration 014's one-at-a-time rule): an attacker who changed the address twice
 * could otherwise spend the link mailed to their own address and kill the victim's. Refused (nothing changed): unknown,
 * used, expired, superseded, or the address now another account's. Two uses at once: the second waits on the user's
 * row, then finds the link used.
 */
export async function revertEmailChange(
  db: Kysely<Database>,
  revert: { token: string; now: Date; unknownPasswordHash: string },
): Promise<{ userId: number; email: string; firstname: string } | { refused: RevertRefusal; email?: string }> {
  const { now } = revert
  const tokenHash = sha256(revert.token)
  let oldEmail: string | undefined
  return db
    .transaction()
    .execute(async (tx) => {
      // The user's row first (session.ts's lock order), found through the link without locking it.
      const user = await tx
        .selectFrom('users')
        .select(['id', 'firstname'])
        .where('id', '=', (eb) => eb.selectFrom('email_change_reverts').select('user_id').where('token_hash', '=', tokenHash))
        .forUpdate()
        .executeTakeFirst()
      if (!user) return { refused: 'unknown' as const }
      const link = await tx
        .selectFrom('email_change_reverts')
        .select(['id', 'old_email', 'used_at', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', user.id)
        .forUpdate()
        .executeTakeFirst()
      if (!link) return { refused: 'unknown' as const }
      if (link.used_at) return { refused: 'used' as const }
      if (new Date(link.expires_at) <= now) return { refused: 'expired' as const }
      if ((await liveRevertLink(tx, user.id, now))?.id !== link.id) return { refused: 'superseded' as const }
      oldEmail = link.old_email
      const taken = await tx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', link.old_email.toLowerCase()))
        .where('id', '!=', user.id)
        .executeTakeFirst()
      if (taken) return { refused: 'taken' as const, email: link.old_email }
      await tx
        .updateTable('users')
        .set({ email: link.old_email, email_verified: true, password_hash: revert.unknownPasswordHash })
        .where('id', '=', user.id)
        .execute()
      await tx
        .updateTable('email_change_reverts')
        .set({ used_at: now })
        .where('user_id', '=', user.id)
        .where('id', '>=', link.id)
        .where('used_at', 'is', null)
        .execute()
      await tx.deleteFrom('api_tokens').where('user_id', '=', user.id).execute()
      await tx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute()
      await tx.deleteFrom('passkeys').where('user_id', '=', user.id).execute()
      await tx.deleteFrom('webauthn_challenges').where('user_id', '=', user.id).execute()
      return { userId: user.id, email: link.old_email, firstname: user.firstname }
    })
    .catch((error: unknown) => {
      // Another account took the address between the check and the write: the unique index says so, nothing is kept.
      if (isUniqueViolation(error)) return { refused: 'taken' as const, email: oldEmail }
      throw error
    })
}

/**
 * How long a revert link's row is kept once expired. Nothing that guards the account reads it then: the address it left
 * is reserved only while it is live (reservedByRevert), and a revert marks used only the links not used yet from its own
 * on (an expired one can no longer be spent; a used one is never read again but by its own click). What it still gives is
 * the true answer to a late click, 410 « Ce lien a expiré… Écrivez à {support} » (or « a déjà servi ») rather than the 404
 * of an unknown link, and, to the support that answer sends them to, the change it undid (which addresses, when).
 * Three months after expiry (four after the change) cover that; then the row, an address its owner left, goes.
 */
export const REVERT_LINKS_KEPT_DAYS = 90

/**
 * Revert links expired more than REVERT_LINKS_KEPT_DAYS ago, used or not (services/prune.ts); how many went. A row a
 * revert holds is skipped, left to the next prune (no wait on it, no deadlock: session.ts's deleteExpiredCredentials).
 */
export async function deleteOldRevertLinks(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('email_change_reverts')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('email_change_reverts')
        .select('id')
        .where('expires_at', '<', addDays(now, -REVERT_LINKS_KEPT_DAYS))
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
