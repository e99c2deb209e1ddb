// The machines' API keys: made by an administrator (the key answered once), listed without it, revoked; a call's key
// is found by its SHA-256 and its use noted in the same statement.
import type { Transaction } from 'kysely'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import type { Database, Db } from '../schema.ts'

/** A key says what it is where it is pasted (a config file, a log line someone redacts): `dk_` then 256 random bits. */
export const API_KEY_PREFIX = 'dk_'
/** The characters shown to recognise a key: its tag and the first 8 of its random part (48 bits: never enough to use it). */
export const shownPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 8)

export async function createApiKey(tx: Transaction<Database>, key: { name: string; createdBy: number; now: Date }) {
  const secret = `${API_KEY_PREFIX}${randomToken()}`
  const row = await tx
    .insertInto('api_keys')
    .values({ name: key.name, key_hash: sha256(secret), prefix: shownPrefix(secret), created_by: key.createdBy, created_at: key.now })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { row, secret }
}

export function listApiKeys(db: Db) {
  return db
    .selectFrom('api_keys')
    .innerJoin('operators', 'operators.id', 'api_keys.created_by')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'api_keys.created_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'operators.name as created_by_name',
    ])
    .orderBy('api_keys.id')
    .execute()
}
export type ApiKeyListRow = Awaited<ReturnType<typeof listApiKeys>>[number]

/** Revokes a key still valid; undefined when unknown or already revoked. */
export function revokeApiKey(tx: Transaction<Database>, id: number, now: Date) {
  return tx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'prefix'])
    .executeTakeFirst()
}

/** The unrevoked key behind a call, its use noted at once (one statement); undefined for any other value. */
export async function findApiKeyInUse(db: Db, key: string, now: Date): Promise<{ id: number; name: string } | undefined> {
  return db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('key_hash', '=', sha256(key))
    .where('revoked_at', 'is', null)
    .returning(['id', 'name'])
    .executeTakeFirst()
}
