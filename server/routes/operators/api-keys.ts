// The administrators' API keys for machines: create (the key shown once), list, revoke; each write journaled with it.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, notFound } from '../../http/errors.ts'
import type { ApiKeySummary } from '../../contract/operators.ts'
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyListRow } from '../../db/repositories/operators-api-keys.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())
export const toApiKeySummary = (row: ApiKeyListRow): ApiKeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: iso(row.created_at)!,
  createdBy: row.created_by_name,
  revokedAt: iso(row.revoked_at),
  lastUsedAt: iso(row.last_used_at),
})

export const apiKeyMessages = { alreadyRevoked: 'Cette clé d’API est déjà révoquée.' }

export function apiKeyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps
  const summaryOf = async (id: number) => toApiKeySummary((await listApiKeys(db)).find((row) => row.id === id)!)

  define('operatorApiKeys', async () => (await listApiKeys(db)).map(toApiKeySummary))

  define('operatorCreateApiKey', async ({ body, operator }) => {
    const now = clock.now()
    const { row, secret } = await db.transaction().execute(async (tx) => {
      const made = await createApiKey(tx, { name: body.name, createdBy: operator.id, now })
      await recordJournal(tx, {
        actor: { operatorId: operator.id },
        action: 'apiKey.created',
        summary: `Création de la clé d’API « ${made.row.name} » (${made.row.prefix}…)`,
        after: { id: made.row.id, name: made.row.name, prefix: made.row.prefix },
        at: now,
      })
      return made
    })
    return { apiKey: await summaryOf(row.id), key: secret }
  })

  define('operatorRevokeApiKey', async ({ params, operator }) => {
    const now = clock.now()
    const revoked = await db.transaction().execute(async (tx) => {
      const row = await revokeApiKey(tx, params.id, now)
      if (row)
        await recordJournal(tx, {
          actor: { operatorId: operator.id },
          action: 'apiKey.revoked',
          summary: `Révocation de la clé d’API « ${row.name} » (${row.prefix}…)`,
          before: { revoked: false },
          after: { revoked: true },
          at: now,
        })
      return row
    })
    if (revoked) return summaryOf(revoked.id)
    if ((await listApiKeys(db)).some((row) => row.id === params.id)) throw conflict(apiKeyMessages.alreadyRevoked)
    throw notFound('Clé d’API')
  })
}
