// Rows that have run out are pruned with the storage sweep (server/services/prune.ts): rate-limit windows passed,
// expired sessions and password-reset links go; what is still valid stays and still works.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pruneExpiredRows } from '../../server/services/prune.ts'
import { sha256 } from '../../server/services/crypto.ts'
import { buildTestApp, call, login, type TestApp } from '../util/server.ts'

const prune = suite<{ t: TestApp }>('expired rows pruned')
prune.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
prune.after((ctx) => ctx.t.close())

prune('expired sessions, reset links and rate-limit windows go; live ones stay and work', async ({ t }) => {
  const { db } = t.deps
  const now = new Date()
  const past = new Date(now.getTime() - 60_000)
  const later = new Date(now.getTime() + 3_600_000)
  const token = await login(t.app)
  const user = await db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  await db.insertInto('api_tokens').values([
    { user_id: user.id, token_hash: sha256('expire-1'), expires_at: past },
    { user_id: user.id, token_hash: sha256('expire-2'), expires_at: past },
  ]).execute()
  await db.insertInto('password_resets').values([
    { user_id: user.id, token_hash: sha256('reset-old'), expires_at: past },
    { user_id: user.id, token_hash: sha256('reset-live'), expires_at: later },
  ]).execute()
  await db.deleteFrom('rate_limits').execute()
  await db.insertInto('rate_limits').values([
    { key: 'old', count: 3, reset_at: past },
    { key: 'live', count: 1, reset_at: later },
  ]).execute()
  const tokensBefore = await db.selectFrom('api_tokens').select('token_hash').execute()

  assert.equal(await pruneExpiredRows(db, now), { rateLimits: 1, apiTokens: 2, passwordResets: 1 })

  const tokensAfter = await db.selectFrom('api_tokens').select('token_hash').execute()
  assert.is(tokensAfter.length, tokensBefore.length - 2)
  assert.not.ok(tokensAfter.some((r) => r.token_hash === sha256('expire-1') || r.token_hash === sha256('expire-2')))
  assert.equal((await db.selectFrom('password_resets').select('token_hash').execute()).map((r) => r.token_hash), [sha256('reset-live')])
  assert.equal((await db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key), ['live'])
  // The live session still answers; pruning again finds nothing.
  assert.is((await call(t.app, token, 'GET', '/api-protected/user/me')).statusCode, 200)
  assert.equal(await pruneExpiredRows(db, now), { rateLimits: 0, apiTokens: 0, passwordResets: 0 })
})

prune.run()
