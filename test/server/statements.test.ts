// apispeed: the hot routes run ONE SQL statement per request (token check, access check and data joined), and that
// statement keeps nothing that decides access: a session ended anywhere is refused at once, by this instance and by
// another one. (GET documents and GET my-domiciliation-orders keep their JSON between requests, checked by version in that
// statement; a second statement writes a list only after it changed: kept-lists.test.ts, kept-orders.test.ts.)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../../server/app.ts'
import { messages } from '../../server/http/errors.ts'
import { sha256 } from '../../server/lib/crypto.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../util/server.ts'

interface Ctx {
  t: TestApp
  statements: string[]
  camille: string
  boulangerie: number
  studio: number
  atelierOfCamille: number
  sophie: string
}

const test = suite<Ctx>('hot routes: one statement per request')
test.before(async (ctx) => {
  ctx.statements = []
  ctx.t = await buildTestApp({ onStatement: (sql) => ctx.statements.push(sql) })
  ctx.camille = await login(ctx.t.app)
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  const orders = await ordersByName(ctx.t.app, ctx.camille)
  ctx.boulangerie = orders['Boulangerie des Lilas SAS']!.id
  ctx.studio = orders['Studio Nuage SAS']!.id
  ctx.atelierOfCamille = orders['Atelier Lumière SARL']!.id
})
test.after((ctx) => ctx.t?.close())

/** The statements one request runs. */
async function statementsOf(ctx: Ctx, token: string | null, url: string) {
  ctx.statements.length = 0
  const res = await call(ctx.t.app, token, 'GET', url)
  return { res, statements: [...ctx.statements] }
}

const hot = (ctx: Ctx) => [
  { url: `/api-protected/documents?orderId=${ctx.boulangerie}`, reads: 'documents' },
  { url: `/api-protected/documents?orderId=${ctx.studio}`, reads: 'documents' }, // shared with Camille
  { url: '/api-protected/documents', reads: 'documents' },
  { url: '/api-protected/my-domiciliation-orders', reads: 'orders' },
  { url: '/api-protected/user/me', reads: 'users' },
]

test('each hot call answers 200 with one statement that reads the token and the data', async (ctx) => {
  for (const { url, reads } of hot(ctx)) {
    const { res, statements } = await statementsOf(ctx, ctx.camille, url)
    assert.is(res.statusCode, 200, `${url}: ${res.body}`)
    assert.is(statements.length, 1, `${url} ran ${statements.length} statements:\n${statements.join('\n')}`)
    assert.match(statements[0]!, /"api_tokens"/, url)
    assert.match(statements[0]!, new RegExp(`"${reads}"`), url)
  }
})

test('refusals take one statement too: an unknown token (401), an order that is not the user’s (404)', async (ctx) => {
  for (const { url } of hot(ctx)) {
    const { res, statements } = await statementsOf(ctx, 'jeton-inconnu-0123456789', url)
    assert.is(res.statusCode, 401, url)
    assert.is(res.json().message, messages.badToken)
    assert.is(statements.length, 1, url)
  }
  const { res, statements } = await statementsOf(ctx, ctx.sophie, `/api-protected/documents?orderId=${ctx.boulangerie}`)
  assert.is(res.statusCode, 404, res.body)
  assert.is(res.json().message, 'Domiciliation introuvable.')
  assert.is(statements.length, 1)
})

test('the answers are the same as the per-step queries gave: the letters of one order, newest first; shares flagged', async (ctx) => {
  const letters = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.boulangerie}`)).json() as {
    orderId: number
    receivedAt: string
    deleted: boolean
  }[]
  assert.ok(letters.length > 10)
  assert.ok(letters.every((l) => l.orderId === ctx.boulangerie && !l.deleted))
  assert.equal(
    letters.map((l) => l.receivedAt),
    letters
      .map((l) => l.receivedAt)
      .sort()
      .reverse(),
  )
  const empty = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.atelierOfCamille}`)
  assert.is(empty.statusCode, 200)
  assert.equal(empty.json(), [])
  const all = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/documents')).json() as { orderId: number }[]
  assert.ok(all.some((l) => l.orderId === ctx.studio) && all.some((l) => l.orderId === ctx.boulangerie))
  const orders = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/my-domiciliation-orders')).json() as {
    raisonSociale: string
    isShareOrder: boolean
  }[]
  assert.equal(
    orders.filter((o) => o.isShareOrder).map((o) => o.raisonSociale),
    ['Studio Nuage SAS'],
  )
})

test('the statement notes the session’s last use, at most once a minute', async (ctx) => {
  const lastUse = async () =>
    (
      await ctx.t.deps.db
        .selectFrom('api_tokens')
        .select('last_used_at')
        .where('token_hash', '=', sha256(ctx.camille))
        .executeTakeFirstOrThrow()
    ).last_used_at
  ctx.t.clock.advance(2 * 60_000)
  await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/user/me')
  assert.is((await lastUse())?.getTime(), ctx.t.clock.now().getTime())
  const noted = ctx.t.clock.now().getTime()
  ctx.t.clock.advance(30_000)
  await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/my-domiciliation-orders')
  assert.is((await lastUse())?.getTime(), noted, 'not again within the minute')
})

test('an expired token is refused by the joined statement', async (ctx) => {
  const token = await login(ctx.t.app, 'associe@example.com')
  ctx.t.clock.advance(31 * 24 * 3_600_000)
  try {
    for (const { url } of hot(ctx)) assert.is((await call(ctx.t.app, token, 'GET', url)).statusCode, 401, url)
  } finally {
    ctx.t.clock.advance(-31 * 24 * 3_600_000)
  }
})

test('a session ended through one instance is refused at once by another instance on the same database', async (ctx) => {
  const other = await buildApp(ctx.t.deps, { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' })
  try {
    const phone = await login(ctx.t.app, 'associe@example.com')
    const laptop = await login(ctx.t.app, 'associe@example.com')
    for (const { url } of hot(ctx).slice(2)) assert.is((await other.inject({ url, headers: { apitoken: phone } })).statusCode, 200, url)
    // "Déconnecter les autres appareils" from the laptop, on instance A…
    const revoke = await call(ctx.t.app, laptop, 'DELETE', '/api-protected/users/me/sessions')
    assert.is(revoke.statusCode, 200, revoke.body)
    // …and instance B, which answered the phone a moment ago, refuses it on the next request.
    for (const { url } of hot(ctx).slice(2)) {
      const res = await other.inject({ url, headers: { apitoken: phone } })
      assert.is(res.statusCode, 401, url)
      assert.is(res.json().message, messages.badToken)
    }
    assert.is((await other.inject({ url: '/api-protected/user/me', headers: { apitoken: laptop } })).statusCode, 200)
  } finally {
    await other.close()
  }
})

test('bad input with a bad token is still told 401 first, with a good token 400 in French', async (ctx) => {
  const bad = await call(ctx.t.app, 'jeton-inconnu-0123456789', 'GET', '/api-protected/documents?orderId=abc')
  assert.is(bad.statusCode, 401)
  const invalid = await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/documents?orderId=abc')
  assert.is(invalid.statusCode, 400)
  assert.is(invalid.json().message, 'Le champ « orderId » doit être un nombre entier.')
})

test.run()
