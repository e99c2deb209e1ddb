// Passkeys (WebAuthn credentials) and the challenges of their ceremonies, kept in the database so that
// any API instance can finish a ceremony another one began.
import type { Kysely } from 'kysely'
import type { Passkey } from '../../contract/people.ts'
import type { Database, Db, UserRow } from '../schema.ts'
import { createApiToken } from './session.ts'

type PasskeyRow = { id: number; name: string; created_at: Date; last_used_at: Date | null }
const toPasskey = (r: PasskeyRow): Passkey => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
})

export async function listPasskeys(db: Db, userId: number): Promise<Passkey[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  return rows.map(toPasskey)
}

/** The credentials a user holds already: the browser is told not to make a second one on the same authenticator. */
export function credentialsOf(db: Db, userId: number) {
  return db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', userId).execute()
}

async function createPasskey(
  db: Db,
  passkey: { userId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<Passkey> {
  const row = await db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      name: passkey.name,
    })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow()
  return toPasskey(row)
}

/*
 * Passkeys and the account's recovery. A reset by the e-mailed link and a revert link remove every key and end every
 * session in one transaction holding the user's row FOR UPDATE (session.ts, people-email-reverts.ts). A key stored or a session
 * opened with a passkey is therefore written with the same row held FOR SHARE (the lock order of session.ts: the user's row
 * first): a recovery that comes later waits for it and then removes it; one committed before the row was had is seen by
 * the next statement (read committed). Before, both were written whatever had happened since their checks: a
 * registration or a sign-in checked before a recovery and written after it left a key or a live session behind it
 * (passkey-recovery.test.ts, PostgreSQL with two instances).
 */

/** Stores a key registered through the session `tokenHash`, only while that session lives: 'ended' (nothing stored) otherwise. */
export async function addPasskeyForSession(
  db: Kysely<Database>,
  passkey: Parameters<typeof createPasskey>[1] & { tokenHash: string; now: Date },
): Promise<Passkey | 'ended'> {
  return db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').select('id').where('id', '=', passkey.userId).forShare().executeTakeFirst()
    // A statement of its own, after the row was had: it sees a recovery that committed while the row was waited for.
    const session =
      user &&
      (await tx
        .selectFrom('api_tokens')
        .select('id')
        .where('token_hash', '=', passkey.tokenHash)
        .where('user_id', '=', passkey.userId)
        .where('expires_at', '>', passkey.now)
        .executeTakeFirst())
    if (!session) return 'ended' as const
    return createPasskey(tx, passkey)
  })
}

/**
 * The session of a sign-in with the key `passkeyId` of `userId`, whose signature carried `counter` (markPasskeyUsed),
 * opened with the user's row held: 'unknown' when the key is gone (a recovery removed it meanwhile), 'refused' when
 * another sign-in with it wrote a counter as high.
 */
export async function openPasskeySession(
  db: Kysely<Database>,
  signIn: {
    passkeyId: number
    userId: number
    counter: number
    expiresAt: Date
    userAgent: string | null
    now: Date
  },
): Promise<{ user: UserRow; apiToken: string } | 'unknown' | 'refused'> {
  return db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').selectAll().where('id', '=', signIn.userId).forShare().executeTakeFirst()
    if (!user) return 'unknown' as const
    if (!(await markPasskeyUsed(tx, 'passkeys', signIn.passkeyId, signIn.counter, signIn.now))) {
      const still = await tx.selectFrom('passkeys').select('id').where('id', '=', signIn.passkeyId).executeTakeFirst()
      return still ? ('refused' as const) : ('unknown' as const)
    }
    return { user, apiToken: await createApiToken(tx, signIn.userId, signIn.expiresAt, signIn.userAgent, signIn.now) }
  })
}

/** A credential by its id (as the browser sends it), with its owner. */
export function findPasskeyByCredential(db: Db, credentialId: string) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', credentialId)
    .executeTakeFirst()
}

/** The tables of passkeys: the customers' (people) and the operators' (040): one counter rule for both. */
export type PasskeyTable = 'passkeys' | 'operator_passkeys'

/**
 * Notes a sign-in whose signature carried `counter`, only when that counter is still above the one stored (or both are 0:
 * a key that keeps none), as the check that read the stored one found it: false when another sign-in with the same key
 * wrote a counter as high meanwhile. Written unconditionally, the older of two signatures checked at once went over the
 * newer one and moved the counter back, so a copy of the key could sign with a counter already seen. The customers' keys
 * and the operators' (`table`) follow the same rule, here only.
 */
export async function markPasskeyUsed(db: Db, table: PasskeyTable, id: number, counter: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable(table as 'passkeys')
    .set({ counter, last_used_at: now })
    .where('id', '=', id)
    // The rule of the check (@simplewebauthn/server): above the stored counter, or 0 over 0.
    .where('counter', counter === 0 ? '=' : '<', counter)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** Undefined when the user has no such passkey. */
export async function renamePasskey(db: Db, userId: number, id: number, name: string): Promise<Passkey | undefined> {
  const row = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst()
  return row && toPasskey(row)
}

/** False when the user has no such passkey. */
/** The removed key's name (for the account's notice), or undefined when the user has no such key. */
export async function deletePasskey(db: Db, userId: number, id: number): Promise<string | undefined> {
  const removed = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).returning('name').executeTakeFirst()
  return removed?.name
}

export type ChallengeKind = 'registration' | 'authentication'
/**
 * Whom a challenge was given to: a customer, an operator (whose ticket or session asked for it), or nobody yet (a
 * customer's passkey sign-in, where the key says who it is). A challenge is spent only by the owner it was made for, so an
 * operator's never serves a customer's ceremony, nor the other way round.
 */
export type ChallengeOwner = { userId: number } | { operatorId: number } | null

/** Keeps a new challenge; expired ones are swept on the way. */
export async function storeChallenge(
  db: Db,
  challenge: { challenge: string; kind: ChallengeKind; owner: ChallengeOwner; expiresAt: Date; now: Date },
): Promise<void> {
  const { owner } = challenge
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', challenge.now).execute()
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: challenge.challenge,
      kind: challenge.kind,
      user_id: owner && 'userId' in owner ? owner.userId : null,
      operator_id: owner && 'operatorId' in owner ? owner.operatorId : null,
      expires_at: challenge.expiresAt,
    })
    .execute()
}

/**
 * Spends a challenge: true only the first time, before it expires, for the ceremony and the owner it was made for.
 * One statement: single use under concurrency.
 */
export async function consumeChallenge(db: Db, challenge: string, kind: ChallengeKind, owner: ChallengeOwner, now: Date): Promise<boolean> {
  const userId = owner && 'userId' in owner ? owner.userId : null
  const operatorId = owner && 'operatorId' in owner ? owner.operatorId : null
  const row = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .where((eb) => (operatorId === null ? eb('operator_id', 'is', null) : eb('operator_id', '=', operatorId)))
    .returning('challenge')
    .executeTakeFirst()
  return row !== undefined
}
