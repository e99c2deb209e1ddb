// The machines' API keys: made by an administrator and shown once, kept hashed, listed without the key, revoked; they
// open the operator API (the machines' routes) and nothing else.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { messages } from '../../../server/http/errors.ts'
import { sha256 } from '../../../server/lib/crypto.ts'
import { apiKeyMessages } from '../../../server/routes/operators/api-keys.ts'
import { buildTestApp, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  admin: string
}
const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const orders = (t: TestApp, token: string) =>
  t.app.inject({ method: 'GET', url: '/api/operator/domiciliation-orders', headers: auth(token) })

const test = suite<Ctx>('API keys')
test.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.admin = await operatorLogin(ctx.t)
})
test.after((ctx) => ctx.t?.close())

const create = async (ctx: Ctx, name: string) => {
  const res = await ctx.t.app.inject({ method: 'POST', url: '/api/backoffice/api-keys', payload: { name }, headers: auth(ctx.admin) })
  assert.is(res.statusCode, 200, res.body)
  return res.json() as { key: string; apiKey: { id: number; prefix: string; name: string; lastUsedAt: string | null } }
}

test('a key is answered once, stored as its hash, listed by its prefix only; it opens the machines’ routes and notes its use', async (ctx) => {
  const { t } = ctx
  const made = await create(ctx, 'Scanner salle 2')
  assert.match(made.key, /^dk_[A-Za-z0-9_-]{43}$/)
  assert.is(made.apiKey.prefix, made.key.slice(0, 11))
  assert.is(made.apiKey.lastUsedAt, null)
  const stored = await t.deps.db.selectFrom('api_keys').selectAll().where('id', '=', made.apiKey.id).executeTakeFirstOrThrow()
  assert.is(stored.key_hash, sha256(made.key))
  assert.not.ok(JSON.stringify(stored).includes(made.key.slice(11)), 'the key itself is nowhere')
  const list = await t.app.inject({ method: 'GET', url: '/api/backoffice/api-keys', headers: auth(ctx.admin) })
  assert.not.ok(list.body.includes(made.key.slice(11)), 'the list never holds the key')
  assert.is(list.json()[0].createdBy, 'Inès Garnier')
  assert.is((await orders(t, made.key)).statusCode, 200)
  const used = await t.deps.db.selectFrom('api_keys').select('last_used_at').where('id', '=', made.apiKey.id).executeTakeFirstOrThrow()
  assert.equal(new Date(used.last_used_at!), t.clock.now())
  assert.is((await orders(t, TEST_OPERATOR_TOKEN)).statusCode, 200, 'OPERATOR_TOKEN stays the bootstrap key')
})

test('a revoked key is refused from the next call on; revoking twice: a French 409; an unknown key: 404', async (ctx) => {
  const { t } = ctx
  const made = await create(ctx, 'Facturation')
  assert.is((await orders(t, made.key)).statusCode, 200)
  const revoke = () => t.app.inject({ method: 'POST', url: `/api/backoffice/api-keys/${made.apiKey.id}:revoke`, headers: auth(ctx.admin) })
  const res = await revoke()
  assert.is(res.statusCode, 200)
  assert.ok(res.json().revokedAt)
  const refused = await orders(t, made.key)
  assert.is(refused.statusCode, 401)
  assert.is(refused.json().message, messages.operatorBadToken)
  const twice = await revoke()
  assert.is(twice.statusCode, 409)
  assert.is(twice.json().message, apiKeyMessages.alreadyRevoked)
  const unknown = await t.app.inject({ method: 'POST', url: '/api/backoffice/api-keys/99999:revoke', headers: auth(ctx.admin) })
  assert.is(unknown.statusCode, 404)
  assert.is(unknown.json().message, 'Clé d’API introuvable.')
})

test('creating and revoking are journaled with the administrator; a bad name is a French 400 and makes nothing', async (ctx) => {
  const { t } = ctx
  const rows = await t.deps.db
    .selectFrom('journal')
    .select(['action', 'summary', 'operator_id'])
    .where('action', 'like', 'apiKey.%')
    .execute()
  assert.equal(
    rows.map((r) => r.action),
    ['apiKey.created', 'apiKey.created', 'apiKey.revoked'],
  )
  assert.match(rows[2]!.summary, /^Révocation de la clé d’API « Facturation » \(dk_.{8}…\)$/)
  const before = (await t.deps.db.selectFrom('api_keys').select('id').execute()).length
  for (const payload of [{ name: '' }, { name: 'a\nb' }, {}, { name: 'x'.repeat(81) }]) {
    const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/api-keys', payload, headers: auth(ctx.admin) })
    assert.is(res.statusCode, 400, JSON.stringify(payload))
  }
  assert.is((await t.deps.db.selectFrom('api_keys').select('id').execute()).length, before)
})

test('a key opens no back-office route and no customer route; a customer token or an operator session is no key', async (ctx) => {
  const { t } = ctx
  const made = await create(ctx, 'Scanner salle 3')
  assert.is((await t.app.inject({ method: 'GET', url: '/api/backoffice/me', headers: auth(made.key) })).statusCode, 401)
  assert.is((await t.app.inject({ method: 'GET', url: '/api-protected/user/me', headers: { apitoken: made.key } })).statusCode, 401)
  assert.is((await orders(t, await login(t.app))).statusCode, 401)
  assert.is((await orders(t, ctx.admin)).statusCode, 401)
})

test('a Courrier operator manages no keys', async (ctx) => {
  const courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  const res = await ctx.t.app.inject({ method: 'POST', url: '/api/backoffice/api-keys', payload: { name: 'X' }, headers: auth(courrier) })
  assert.is(res.statusCode, 403)
})

test.run()
