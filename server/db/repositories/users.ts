import type { User } from '../../contract/index.ts'
import { randomToken, sha256 } from '../../services/crypto.ts'
import type { Db, UserRow } from '../schema.ts'

export interface SessionUser {
  id: number
  email: string
  firstname: string
  lastname: string
  phone: string | null
  paymentCustomerId: string | null
  tokenHash: string
}

export const toUser = (row: Pick<UserRow, 'id' | 'email' | 'firstname' | 'lastname' | 'phone'>): User =>
  ({ id: row.id, email: row.email, firstname: row.firstname, lastname: row.lastname, phone: row.phone })

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase())).executeTakeFirst()
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** The user behind an unexpired API token, or undefined. */
export async function findSession(db: Db, token: string, now: Date): Promise<SessionUser | undefined> {
  const tokenHash = sha256(token)
  const row = await db.selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['users.id', 'users.email', 'users.firstname', 'users.lastname', 'users.phone', 'users.payment_customer_id'])
    .where('api_tokens.token_hash', '=', tokenHash)
    .where('api_tokens.expires_at', '>', now)
    .executeTakeFirst()
  return row && { ...toUser(row), paymentCustomerId: row.payment_customer_id, tokenHash }
}

/** A new random token; only its SHA-256 is kept. */
export async function createApiToken(db: Db, userId: number, expiresAt: Date): Promise<string> {
  const token = randomToken()
  await db.insertInto('api_tokens').values({ user_id: userId, token_hash: sha256(token), expires_at: expiresAt }).execute()
  return token
}

export async function revokeOtherTokens(db: Db, userId: number, keepHash: string | null): Promise<void> {
  let query = db.deleteFrom('api_tokens').where('user_id', '=', userId)
  if (keepHash) query = query.where('token_hash', '!=', keepHash)
  await query.execute()
}
