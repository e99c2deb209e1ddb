// The operators' passkeys (040): their second factor beside the authenticator app's code, in their own table, never the
// customers' `passkeys`. The ceremonies' challenges and the counter rule are the customers' (session-passkeys.ts).
import type { Transaction } from 'kysely'
import type { OperatorPasskey } from '../../contract/operators.ts'
import type { Database, Db } from '../schema.ts'

type Row = { id: number; name: string; created_at: Date; last_used_at: Date | null }
const toPasskey = (r: Row): OperatorPasskey => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
})

export async function listOperatorPasskeys(db: Db, operatorId: number): Promise<OperatorPasskey[]> {
  const rows = await db
    .selectFrom('operator_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('operator_id', '=', operatorId)
    .orderBy('id')
    .execute()
  return rows.map(toPasskey)
}

/** The keys an operator holds: the browser is told not to remake one, and which ones may sign a sign-in. */
export function operatorCredentials(db: Db, operatorId: number) {
  return db.selectFrom('operator_passkeys').select(['credential_id', 'transports']).where('operator_id', '=', operatorId).execute()
}

/** One of the operator's keys by its credential id (as the browser sends it); another's, or a customer's, is not found. */
export function findOperatorPasskey(db: Db, operatorId: number, credentialId: string) {
  return db
    .selectFrom('operator_passkeys')
    .select(['id', 'operator_id', 'credential_id', 'public_key', 'counter', 'transports', 'name'])
    .where('credential_id', '=', credentialId)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst()
}

/**
 * Stores a key in the caller's transaction (journaled with it), only while the operator is active, their row held FOR
 * SHARE: a deactivation that comes later waits; one committed first is seen. 'inactive' (nothing stored) otherwise.
 */
export async function addOperatorPasskey(
  tx: Transaction<Database>,
  passkey: { operatorId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<OperatorPasskey | 'inactive'> {
  const active = await tx
    .selectFrom('operators')
    .select('id')
    .where('id', '=', passkey.operatorId)
    .where('active', '=', true)
    .forShare()
    .executeTakeFirst()
  if (!active) return 'inactive'
  const row = await tx
    .insertInto('operator_passkeys')
    .values({
      operator_id: passkey.operatorId,
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

/** Removes one of the operator's keys in the caller's transaction: its name, or undefined when they have no such key. */
export async function deleteOperatorPasskey(tx: Transaction<Database>, operatorId: number, id: number): Promise<string | undefined> {
  const row = await tx
    .deleteFrom('operator_passkeys')
    .where('id', '=', id)
    .where('operator_id', '=', operatorId)
    .returning('name')
    .executeTakeFirst()
  return row?.name
}
