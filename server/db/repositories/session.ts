// Accounts, sessions (API tokens) and password resets.
import { sql, type Kysely } from 'kysely'
import type { User } from '../../contract/session.ts'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import { prepare } from '../prepared.ts'
import type { Database, Db, UserRow } from '../schema.ts'

export interface SessionUser {
  id: number
  email: string
  firstname: string
  lastname: string
  phone: string | null
  paymentCustomerId: string | null
  tokenHash: string
}

export const toUser = (row: Pick<UserRow, 'id' | 'email' | 'firstname' | 'lastname' | 'phone'>): User => ({
  id: row.id,
  email: row.email,
  firstname: row.firstname,
  lastname: row.lastname,
  phone: row.phone,
})

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst()
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function createUser(
  db: Db,
  user: { email: string; firstname: string; lastname: string; passwordHash: string },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ email: user.email, firstname: user.firstname, lastname: user.lastname, password_hash: user.passwordHash })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/*
 * Lock order. Every transaction that touches a user's reset links holds the user's row first, then the links: a reset,
 * a password change and an address change update the row (FOR UPDATE) before closing the links, and a new link is
 * inserted under the row held FOR SHARE. So two of them never hold one each and wait on the other (a reset that locked
 * its own link, then the row, then the other links deadlocked with a reset of a second link: 40P01, a 500), and a link is
 * never made for an address the account no longer has (the change waits for it, then closes it; or it finds the new address).
 */

/** Every reset link of the user not used yet stops working (the password or the address changed). */
async function closeResetLinks(db: Db, userId: number, now: Date): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute()
}

/**
 * Opens a session for a password just checked against `checkedHash`, in one transaction holding the user's row: when
 * the password changed meanwhile (a reset, a change), nothing is opened (null), so a reset's "every session ends" cannot
 * miss it. `rehash`: the same password in the current scheme, written only over the hash that was checked.
 */
export async function openPasswordSession(
  db: Kysely<Database>,
  session: {
    userId: number
    checkedHash: string
    rehash: string | null
    expiresAt: Date
    userAgent: string | null
    now: Date
  },
): Promise<string | null> {
  return db.transaction().execute(async (tx) => {
    const held = session.rehash
      ? await tx
          .updateTable('users')
          .set({ password_hash: session.rehash })
          .where('id', '=', session.userId)
          .where('password_hash', '=', session.checkedHash)
          .returning('id')
          .executeTakeFirst()
      : await tx
          .selectFrom('users')
          .select('id')
          .where('id', '=', session.userId)
          .where('password_hash', '=', session.checkedHash)
          .forShare()
          .executeTakeFirst()
    if (!held) return null
    return createApiToken(tx, session.userId, session.expiresAt, session.userAgent, session.now)
  })
}

/**
 * A new password over the one checked (false when it changed meanwhile: nothing done); the other sessions and every
 * reset link end with the old one, in the same transaction.
 */
export async function changePassword(
  db: Kysely<Database>,
  change: { userId: number; checkedHash: string; newHash: string; keepTokenHash: string; now: Date },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    // The user, then the links (the lock order above): a reset under way is waited for, not deadlocked.
    const changed = await tx
      .updateTable('users')
      .set({ password_hash: change.newHash })
      .where('id', '=', change.userId)
      .where('password_hash', '=', change.checkedHash)
      .returning('id')
      .executeTakeFirst()
    if (!changed) return false
    await revokeOtherTokens(tx, change.userId, change.keepTokenHash)
    await closeResetLinks(tx, change.userId, change.now)
    return true
  })
}

export async function findPasswordHash(db: Db, userId: number): Promise<string> {
  return (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute()
}

/** Stores the user's customer at the payment provider unless one is stored already; answers the one kept. */
export async function keepPaymentCustomerId(db: Db, userId: number, customerId: string): Promise<string> {
  const row = await db
    .updateTable('users')
    .set({ payment_customer_id: customerId })
    .where('id', '=', userId)
    .where('payment_customer_id', 'is', null)
    .returning('payment_customer_id')
    .executeTakeFirst()
  // Another request may have created one meanwhile: keep the one stored first.
  return (
    row?.payment_customer_id ??
    (await db.selectFrom('users').select('payment_customer_id').where('id', '=', userId).executeTakeFirstOrThrow()).payment_customer_id!
  )
}

/** "Last used" moves at most once a minute: a write per request would cost every call. */
const LAST_USE_PRECISION_MS = 60_000

/** The user behind an unexpired API token, or undefined; notes when the session was last used. */
export async function findSession(db: Db, token: string, now: Date): Promise<SessionUser | undefined> {
  const tokenHash = sha256(token)
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'users.id',
      'users.email',
      'users.firstname',
      'users.lastname',
      'users.phone',
      'users.payment_customer_id',
      'api_tokens.id as token_id',
      'api_tokens.last_used_at',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    .where('api_tokens.expires_at', '>', now)
    .executeTakeFirst()
  if (!row) return undefined
  if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > LAST_USE_PRECISION_MS) {
    await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', row.token_id).execute()
  }
  return { ...toUser(row), paymentCustomerId: row.payment_customer_id, tokenHash }
}

/**
 * Of these sessions (their tokens' SHA-256), those still valid: findSession's test for a set of tokens in one statement
 * (`= any` of one array parameter, however many). Read-only: the live stream's checks do not note a use of the session.
 */
export async function validSessionHashes(db: Db, tokenHashes: Iterable<string>, now: Date): Promise<Set<string>> {
  const hashes = [...new Set(tokenHashes)]
  if (!hashes.length) return new Set()
  const rows = await db
    .selectFrom('api_tokens')
    .select('token_hash')
    .where(sql<boolean>`token_hash = any(${hashes}::text[])`)
    .where('expires_at', '>', now)
    .execute()
  return new Set(rows.map((r) => r.token_hash))
}

/** What a hot route's single statement needs to check the session itself (define-route.ts, `define.joined`). */
export interface SessionKey {
  tokenHash: string
  now: Date
}

/**
 * `session`: the user behind an unexpired token (no row: 401), and `touch`, which notes the last use at most once a
 * minute, as findSession does, in the same statement. A data-modifying WITH runs whether or not the query reads it.
 * Nothing is cached in the process: a token revoked through any instance is refused by the next statement anywhere.
 */
export function withSession(db: Kysely<Database>, key: SessionKey & { touchBefore: Date }) {
  return db
    .with('session', (qb) =>
      qb
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select(['users.id', 'users.email', 'users.firstname', 'users.lastname', 'users.phone', 'api_tokens.id as token_id'])
        .where('api_tokens.token_hash', '=', key.tokenHash)
        .where('api_tokens.expires_at', '>', key.now),
    )
    .with('touch', (qb) =>
      qb
        .updateTable('api_tokens')
        .set({ last_used_at: key.now })
        .where('api_tokens.id', '=', (eb) => eb.selectFrom('session').select('session.token_id'))
        .where((eb) => eb.or([eb('api_tokens.last_used_at', 'is', null), eb('api_tokens.last_used_at', '<', key.touchBefore)]))
        .returning('api_tokens.id'),
    )
}

/** The values of withSession's parameters. */
export const sessionArgs = (key: SessionKey) => ({ ...key, touchBefore: new Date(key.now.getTime() - LAST_USE_PRECISION_MS) })

const currentUserQuery = prepare((db, key: SessionKey & { touchBefore: Date }) =>
  withSession(db, key)
    .selectFrom('session')
    .select(['session.id', 'session.email', 'session.firstname', 'session.lastname', 'session.phone']),
)

/** GET user/me in one statement: the user behind the token, or undefined (401). */
export async function findCurrentUser(db: Kysely<Database>, key: SessionKey): Promise<User | undefined> {
  const row = (await currentUserQuery(db, sessionArgs(key))).rows[0]
  return row && toUser(row)
}

/** A new random token for a session opened from this browser; only its SHA-256 is kept. */
export async function createApiToken(
  db: Db,
  userId: number,
  expiresAt: Date,
  userAgent: string | null = null,
  now?: Date,
): Promise<string> {
  const token = randomToken()
  await db
    .insertInto('api_tokens')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      expires_at: expiresAt,
      user_agent: userAgent?.slice(0, 400) ?? null,
      last_used_at: now ?? null,
    })
    .execute()
  return token
}

/** The user's unexpired sessions, most recently used first. */
export function listSessions(db: Db, userId: number, now: Date) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'token_hash', 'user_agent', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy(sql`coalesce(last_used_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Ends the user's sessions but the one kept; answers how many ended. */
export async function revokeOtherSessions(db: Db, userId: number, keepHash: string): Promise<number> {
  const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).where('token_hash', '!=', keepHash).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Ends one session (a sign-out): its token is refused from now on, by every instance. */
export async function revokeSession(db: Db, userId: number, tokenHash: string): Promise<void> {
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).where('token_hash', '=', tokenHash).execute()
}

export async function revokeOtherTokens(db: Db, userId: number, keepHash: string | null): Promise<void> {
  let query = db.deleteFrom('api_tokens').where('user_id', '=', userId)
  if (keepHash) query = query.where('token_hash', '!=', keepHash)
  await query.execute()
}

/** A new random reset token; only its SHA-256 is kept. */
export async function createPasswordResetToken(db: Db, userId: number, expiresAt: Date): Promise<string> {
  const token = randomToken()
  await db
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: sha256(token), expires_at: expiresAt })
    .execute()
  return token
}

/**
 * A reset link for the account while its address is still `email` (case ignored): the row held FOR SHARE while the link
 * is inserted, so an address change committed meanwhile means no link (undefined), and one under way waits for this
 * link, then closes it. The token and the address to mail it to, the one just read.
 */
export async function createPasswordResetLink(
  db: Kysely<Database>,
  userId: number,
  email: string,
  expiresAt: Date,
): Promise<{ token: string; email: string; firstname: string } | undefined> {
  return db.transaction().execute(async (tx) => {
    const user = await tx
      .selectFrom('users')
      .select(['email', 'firstname'])
      .where('id', '=', userId)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .forShare()
      .executeTakeFirst()
    if (!user) return undefined
    return { token: await createPasswordResetToken(tx, userId, expiresAt), email: user.email, firstname: user.firstname }
  })
}

/**
 * Spends a reset token: sets the new password, ends every session and removes the account's passkeys (the recovery
 * path: a key added with a stolen session would sign its holder in again after the owner took the account back).
 * The user's id, address and first name and how many keys went, or null for an unknown, used or expired token.
 */
export async function resetPasswordWithToken(
  db: Kysely<Database>,
  token: string,
  passwordHash: string,
  now: Date,
): Promise<{ id: number; email: string; firstname: string; passkeysRemoved: number } | null> {
  const tokenHash = sha256(token)
  return db.transaction().execute(async (tx) => {
    // The user's row first (the lock order above), found through the link without locking it.
    const user = await tx
      .selectFrom('users')
      .select(['id', 'email', 'firstname'])
      .where('id', '=', (eb) => eb.selectFrom('password_resets').select('user_id').where('token_hash', '=', tokenHash))
      .forUpdate()
      .executeTakeFirst()
    if (!user) return null
    // Then the link, marked used by the statement that checks it (single use): another link of the account used meanwhile
    // committed before the row was ours, and closed this one.
    const reset = await tx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst()
    if (!reset) return null
    await setPasswordHash(tx, reset.user_id, passwordHash)
    // The link went to the address the account has (an address change closes the links of the one before): proven.
    await tx.updateTable('users').set({ email_verified: true }).where('id', '=', reset.user_id).execute()
    await revokeOtherTokens(tx, reset.user_id, null)
    // The other links sent before (a second request, an old mailbox) end with this one.
    await closeResetLinks(tx, reset.user_id, now)
    // The keys too, and the ceremonies to add one begun before (their sessions have just ended).
    const keys = await tx.deleteFrom('passkeys').where('user_id', '=', reset.user_id).executeTakeFirst()
    await tx.deleteFrom('webauthn_challenges').where('user_id', '=', reset.user_id).execute()
    return { ...user, passkeysRemoved: Number(keys.numDeletedRows) }
  })
}

/** Sessions and password-reset links past their expiry: nothing reads them again (services/prune.ts). How many went. */
// Rows a request holds locked (a reset in progress locks the user's links) are skipped, left to the next prune: a
// delete of many rows waiting for one while that request waits for another of them would be a deadlock (PostgreSQL).
export async function deleteExpiredCredentials(db: Db, now: Date): Promise<{ apiTokens: number; passwordResets: number }> {
  const tokens = await db
    .deleteFrom('api_tokens')
    .where('id', 'in', (eb) => eb.selectFrom('api_tokens').select('id').where('expires_at', '<', now).forUpdate().skipLocked())
    .executeTakeFirst()
  const resets = await db
    .deleteFrom('password_resets')
    .where('id', 'in', (eb) => eb.selectFrom('password_resets').select('id').where('expires_at', '<', now).forUpdate().skipLocked())
    .executeTakeFirst()
  return { apiTokens: Number(tokens.numDeletedRows), passwordResets: Number(resets.numDeletedRows) }
}
