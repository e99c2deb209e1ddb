// Wrong passwords per account (not per IP): /api/login per address typed, the password change per user.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../../../server/app.ts'
import { parseTrustProxy } from '../../../server/config.ts'
import { buildTestApp, DEMO_PASSWORD, eventually, login, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  proxied: Awaited<ReturnType<typeof buildApp>>
}

const FIFTEEN_MINUTES = 15 * 60_000
const loginHeld = (minutes: number) =>
  `Trop d’essais de mot de passe pour ce compte : réessayez dans ${minutes} minutes, ou choisissez « Mot de passe oublié ? ».`
const changeHeld = (minutes: number) =>
  `Trop d’essais de mot de passe pour ce compte : réessayez dans ${minutes} minutes. Si vous l’avez oublié, déconnectez-vous puis choisissez « Mot de passe oublié ? ».`

// Every call from its own client address, as a guesser with many addresses sends them (behind a balancer that sets
// X-Forwarded-For): the per-IP limit never sees two from one address.
let clients = 0
const fromNewAddress = () => {
  clients++
  return `2001:db8:${(clients >> 8) & 0xff}:${clients & 0xff}::1`
}
const signIn = (ctx: Ctx, username: string, password: string) =>
  ctx.proxied.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'x-forwarded-for': fromNewAddress() },
    payload: { username, password },
  })
const changePassword = (ctx: Ctx, token: string, currentPassword: string, newPassword = 'Un-nouveau-secret-42') =>
  ctx.proxied.inject({
    method: 'PUT',
    url: '/api-protected/users/me/password',
    headers: { apitoken: token, 'x-forwarded-for': fromNewAddress() },
    payload: { currentPassword, newPassword },
  })

const attempts = suite<Ctx>('wrong passwords per account, whichever addresses send them')
attempts.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.proxied = await buildApp(ctx.t.deps, {
    databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    trustProxy: parseTrustProxy('true'),
  })
  await ctx.proxied.ready()
})
attempts.after(async (ctx) => {
  await ctx.proxied.close()
  await ctx.t.close()
})
attempts.after.each((ctx) => {
  ctx.t.clock.set(new Date())
})

attempts(
  'login: the 11th wrong password in 15 minutes, from 11 addresses, is a French 429; the right one is refused too, until the window ends',
  async (ctx) => {
    for (let i = 0; i < 10; i++) {
      // The address typed is counted trimmed and case ignored, as it is looked up.
      const res = await signIn(ctx, i % 2 ? 'demo@example.com' : '  Demo@Example.COM ', `mauvais-${i}`)
      assert.is(res.statusCode, 401, `guess ${i}: ${res.body}`)
    }
    const held = await signIn(ctx, 'demo@example.com', 'mauvais-10')
    assert.is(held.statusCode, 429)
    assert.equal(held.json(), { message: loginHeld(15), statusCode: 429, code: 'RATE_LIMITED' })
    assert.is((await signIn(ctx, 'demo@example.com', DEMO_PASSWORD)).statusCode, 429, 'the right password is not even checked')
    assert.is((await signIn(ctx, 'solo@example.com', DEMO_PASSWORD)).statusCode, 200, 'another account is not held')
    ctx.t.clock.advance(5 * 60_000)
    assert.is((await signIn(ctx, 'demo@example.com', DEMO_PASSWORD)).json().message, loginHeld(10), 'the minutes left')
    ctx.t.clock.advance(10 * 60_000)
    assert.is((await signIn(ctx, 'demo@example.com', DEMO_PASSWORD)).statusCode, 200, 'the window is over')
  },
)

attempts('login: an unknown address is held after as many wrong passwords, with the same answer', async (ctx) => {
  for (let i = 0; i < 10; i++) assert.is((await signIn(ctx, 'personne@example.com', `mauvais-${i}`)).statusCode, 401)
  const held = await signIn(ctx, 'personne@example.com', 'mauvais-10')
  assert.is(held.statusCode, 429)
  assert.equal(held.json(), { message: loginHeld(15), statusCode: 429, code: 'RATE_LIMITED' })
})

attempts('login: only failures count; signing in gives its attempt back', async (ctx) => {
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 3; i++) assert.is((await signIn(ctx, 'associe@example.com', `mauvais-${round}-${i}`)).statusCode, 401)
    for (let i = 0; i < 5; i++)
      assert.is((await signIn(ctx, 'associe@example.com', DEMO_PASSWORD)).statusCode, 200, `round ${round}, sign-in ${i}`)
  }
  // 9 failures so far, 15 successes: one failure left.
  assert.is((await signIn(ctx, 'associe@example.com', 'mauvais')).statusCode, 401)
  assert.is((await signIn(ctx, 'associe@example.com', 'mauvais')).statusCode, 429)
})

attempts('login: 20 correct sign-ins at once to one account all succeed (attempts in flight are not failures)', async (ctx) => {
  const replies = await Promise.all(Array.from({ length: 20 }, () => signIn(ctx, 'solo@example.com', DEMO_PASSWORD)))
  assert.equal(
    replies.map((r) => r.statusCode),
    Array(20).fill(200),
    replies.map((r) => r.body).find((body) => !body.includes('apiToken')),
  )
  const row = await ctx.t.deps.db
    .selectFrom('rate_limits')
    .select(['count', 'pending'])
    .where('key', '=', 'password:solo@example.com')
    .executeTakeFirst()
  assert.equal(row, { count: 0, pending: 0 }, 'no failure counted, no attempt left in flight')
})

attempts('login: 11 wrong passwords at once to one account: 10 checked and refused, the 11th a French 429', async (ctx) => {
  const replies = await Promise.all(Array.from({ length: 11 }, (_, i) => signIn(ctx, 'ensemble@example.com', `mauvais-${i}`)))
  const statuses = replies.map((r) => r.statusCode).sort()
  assert.equal(statuses, [...Array(10).fill(401), 429])
  assert.is(replies.find((r) => r.statusCode === 429)!.json().message, loginHeld(15))
  assert.is((await signIn(ctx, 'ensemble@example.com', 'mauvais-11')).statusCode, 429, 'held for the rest of the window')
})

attempts('login: a reset through the e-mailed link lifts the hold', async (ctx) => {
  for (let i = 0; i < 11; i++) await signIn(ctx, 'solo@example.com', `mauvais-${i}`)
  assert.is((await signIn(ctx, 'solo@example.com', DEMO_PASSWORD)).statusCode, 429)
  const before = ctx.t.mails.length
  await ctx.t.app.inject({
    method: 'POST',
    url: '/reset-password-request',
    payload: { email: 'solo@example.com', domain: 'http://localhost:8080' },
  })
  const mail = await eventually(() => ctx.t.mails.slice(before).find((m) => m.link?.includes('/set-password/')))
  const reset = await ctx.t.app.inject({
    method: 'POST',
    url: '/reset-password',
    payload: { token: mail.link!.split('/set-password/')[1], password: 'Retrouve-mon-compte-42' },
  })
  assert.is(reset.statusCode, 200, reset.body)
  assert.is((await signIn(ctx, 'solo@example.com', 'Retrouve-mon-compte-42')).statusCode, 200)
})

attempts(
  'password change: the 11th wrong current password in 15 minutes is a French 429, the right one too, until the window ends',
  async (ctx) => {
    const thief = await login(ctx.t.app, 'demo@example.com')
    for (let i = 0; i < 10; i++) {
      const res = await changePassword(ctx, thief, `mauvais-${i}`)
      assert.is(res.statusCode, 400)
      assert.is(res.json().message, 'Le mot de passe actuel est incorrect.')
    }
    const held = await changePassword(ctx, thief, 'mauvais-10')
    assert.is(held.statusCode, 429)
    assert.equal(held.json(), { message: changeHeld(15), statusCode: 429, code: 'RATE_LIMITED' })
    assert.is((await changePassword(ctx, thief, DEMO_PASSWORD)).statusCode, 429, 'the right password is not even checked')
    const other = await login(ctx.t.app, 'solo@example.com', 'Retrouve-mon-compte-42')
    assert.is((await changePassword(ctx, other, 'Retrouve-mon-compte-42')).statusCode, 200, 'another user is not held')
    ctx.t.clock.advance(FIFTEEN_MINUTES)
    assert.is((await changePassword(ctx, thief, DEMO_PASSWORD)).statusCode, 200, 'the window is over')
  },
)

attempts('password change: a refused new password after the right current one does not count', async (ctx) => {
  ctx.t.clock.advance(FIFTEEN_MINUTES) // past the sign-in hold of an earlier test
  const token = await login(ctx.t.app, 'associe@example.com')
  for (let i = 0; i < 12; i++) assert.is((await changePassword(ctx, token, DEMO_PASSWORD, 'court')).statusCode, 400)
  assert.is((await changePassword(ctx, token, DEMO_PASSWORD)).statusCode, 200)
})

attempts.run()
