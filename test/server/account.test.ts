// Login, password reset and the database-backed rate limit.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { messages } from '../../server/http/errors.ts'
import { buildApp } from '../../server/app.ts'
import { buildTestApp, call, DEMO_PASSWORD, login, type TestApp } from '../util/server.ts'

interface Ctx { t: TestApp }

const post = (t: TestApp, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object })
const resetLinkToken = (t: TestApp) => t.mails.at(-1)!.link!.split('/set-password/')[1]!

const loginSuite = suite<Ctx>('login')
loginSuite.before(async (ctx) => { ctx.t = await buildTestApp() })
loginSuite.after((ctx) => ctx.t.close())

loginSuite('wrong password, unknown account and wrong case of password: "Identifiants incorrects"', async ({ t }) => {
  for (const body of [
    { username: 'demo@example.com', password: 'mauvais' },
    { username: 'inconnu@example.com', password: DEMO_PASSWORD },
    { username: 'demo@example.com', password: DEMO_PASSWORD.toLowerCase() },
  ]) {
    const res = await post(t, '/api/login', body)
    assert.is(res.statusCode, 401)
    assert.equal(res.json(), { message: 'Identifiants incorrects', statusCode: 401, code: 'BAD_CREDENTIALS' })
  }
})

loginSuite('the e-mail is case-insensitive and every login gets its own token', async ({ t }) => {
  const a = await login(t.app, '  DEMO@Example.com ')
  const b = await login(t.app)
  assert.is.not(a, b)
  assert.is((await call(t.app, a, 'GET', '/api-protected/user/me')).json().firstname, 'Camille')
})

loginSuite('passwords are stored as scrypt hashes', async ({ t }) => {
  const row = await t.deps.db.selectFrom('users').select('password_hash').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  assert.match(row.password_hash, /^scrypt\$16384\$8\$1\$/)
  assert.not.match(row.password_hash, DEMO_PASSWORD)
})

loginSuite('changing the password needs the current one and ends the other sessions', async ({ t }) => {
  const here = await login(t.app, 'solo@example.com')
  const elsewhere = await login(t.app, 'solo@example.com')
  const wrong = await call(t.app, here, 'PUT', '/api-protected/users/me/password', { currentPassword: 'faux', newPassword: 'Un-nouveau-mot-2' })
  assert.is(wrong.statusCode, 400)
  assert.is((await call(t.app, here, 'PUT', '/api-protected/users/me/password', { currentPassword: DEMO_PASSWORD, newPassword: 'Un-nouveau-mot-2' })).statusCode, 200)
  assert.is((await call(t.app, here, 'GET', '/api-protected/user/me')).statusCode, 200)
  assert.is((await call(t.app, elsewhere, 'GET', '/api-protected/user/me')).statusCode, 401)
  assert.ok(await login(t.app, 'solo@example.com', 'Un-nouveau-mot-2'))
})

loginSuite('an e-mail address already used by another account is refused', async ({ t }) => {
  const token = await login(t.app)
  const res = await call(t.app, token, 'PUT', '/api-protected/users/me/email', { newEmail: 'ASSOCIE@example.com' })
  assert.is(res.statusCode, 409)
  assert.match(res.json().message, 'déjà utilisée')
})

loginSuite.run()

const reset = suite<Ctx>('password reset')
reset.before(async (ctx) => { ctx.t = await buildTestApp() })
reset.after((ctx) => ctx.t.close())

reset('the same answer whether or not the account exists; a mail only for a real account', async ({ t }) => {
  const before = t.mails.length
  const known = await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'http://localhost:8080' })
  const unknown = await post(t, '/reset-password-request', { email: 'personne@example.com', domain: 'http://localhost:8080' })
  assert.is(known.statusCode, 200)
  assert.is(unknown.statusCode, known.statusCode)
  assert.is(unknown.body, known.body)
  assert.is(t.mails.length, before + 1)
  assert.is(t.mails.at(-1)!.to, 'demo@example.com')
  assert.match(t.mails.at(-1)!.text, t.mails.at(-1)!.link!)
})

reset('the link uses the portal domain only when it is one of ours', async ({ t }) => {
  await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'https://pirate.example.net' })
  assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\/set-password\/[\w-]{43}$/)
  await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'pas une adresse' })
  assert.match(t.mails.at(-1)!.link!, /^http:\/\/localhost:8080\//)
})

reset('a token works once', async ({ t }) => {
  await post(t, '/reset-password-request', { email: 'associe@example.com', domain: 'http://localhost:8080' })
  const token = resetLinkToken(t)
  const first = await post(t, '/reset-password', { token, password: 'Premier-essai-1' })
  assert.is(first.statusCode, 200, first.body)
  const second = await post(t, '/reset-password', { token, password: 'Second-essai-2' })
  assert.is(second.statusCode, 400)
  assert.match(second.json().message, 'invalide')
  assert.ok(await login(t.app, 'associe@example.com', 'Premier-essai-1'))
})

reset('a token expires after one hour', async ({ t }) => {
  await post(t, '/reset-password-request', { email: 'solo@example.com', domain: 'http://localhost:8080' })
  const token = resetLinkToken(t)
  t.clock.advance(61 * 60_000)
  const res = await post(t, '/reset-password', { token, password: 'Trop-tard-123' })
  t.clock.set(new Date())
  assert.is(res.statusCode, 400)
  assert.ok(await login(t.app, 'solo@example.com'), 'the password did not change')
})

reset('an unknown token and a short password are refused', async ({ t }) => {
  assert.is((await post(t, '/reset-password', { token: 'nimporte-quoi', password: 'Assez-long-1' })).statusCode, 400)
  const short = await post(t, '/reset-password', { token: 'nimporte-quoi', password: 'court' })
  assert.is(short.statusCode, 400)
  assert.match(short.json().message, 'password')
})

reset('reset tokens are stored hashed', async ({ t }) => {
  await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'http://localhost:8080' })
  const token = resetLinkToken(t)
  const rows = await t.deps.db.selectFrom('password_resets').select('token_hash').execute()
  assert.not.ok(rows.some((r) => r.token_hash === token))
})

reset.run()

const limits = suite<Ctx>('rate limit on login and password reset')
limits.before(async (ctx) => { ctx.t = await buildTestApp({ config: { authRateLimit: 3 } }) })
limits.after((ctx) => ctx.t.close())

limits('the fourth attempt in a minute gets a French 429; the window then starts again', async ({ t }) => {
  const attempt = () => post(t, '/api/login', { username: 'demo@example.com', password: 'mauvais' })
  for (let i = 0; i < 3; i++) assert.is((await attempt()).statusCode, 401)
  const limited = await attempt()
  assert.is(limited.statusCode, 429)
  assert.equal(limited.json(), { message: messages.rateLimited, statusCode: 429, code: 'RATE_LIMITED' })
  assert.is((await post(t, '/api/login', { username: 'demo@example.com', password: DEMO_PASSWORD })).statusCode, 429, 'even with the right password')
  assert.is((await post(t, '/reset-password-request', { email: 'demo@example.com', domain: 'x' })).statusCode, 200, 'each route counts apart')
  t.clock.advance(61_000)
  assert.is((await attempt()).statusCode, 401)
  t.clock.set(new Date())
})

limits('the counters live in the database: a second process behind the load balancer sees them', async ({ t }) => {
  const second = await buildApp(t.deps, { databaseKind: 'pglite' })
  try {
    const attempt = (app: typeof second) => app.inject({ method: 'POST', url: '/reset-password', payload: { token: 'x', password: 'Assez-long-1' } })
    assert.is((await attempt(t.app)).statusCode, 400)
    assert.is((await attempt(second)).statusCode, 400)
    assert.is((await attempt(t.app)).statusCode, 400)
    assert.is((await attempt(second)).statusCode, 429)
    const rows = await t.deps.db.selectFrom('rate_limits').selectAll().where('key', 'like', '%resetPassword').execute()
    assert.is(rows.length, 1)
    assert.is(rows[0]!.count, 4)
  } finally {
    await second.close()
  }
})

limits.run()
