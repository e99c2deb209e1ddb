// The back office's operators: sign-in in two steps (password, then a TOTP code), enrolment by a single-use link,
// idle and deactivated sessions, the administrators' routes and their refusals.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { messages } from '../../../server/http/errors.ts'
import { totpCode } from '../../../server/lib/totp.ts'
import { adminMessages } from '../../../server/routes/operators/admin.ts'
import { OPERATOR_CODE_LIMIT, OPERATOR_PASSWORD_LIMIT, signInMessages } from '../../../server/routes/operators/sign-in.ts'
import { demoOperators } from '../../../server/demo/seed.ts'
import { buildTestApp, DEMO_PASSWORD, login, operatorLogin, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
}
const [ADMIN, COURRIER] = demoOperators
const post = (t: TestApp, url: string, payload: unknown, token?: string) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} })
const get = (t: TestApp, url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} })
const ticketFor = async (t: TestApp, email: string, password = DEMO_PASSWORD) => {
  const res = await post(t, '/api/operator-auth/password', { email, password })
  assert.is(res.statusCode, 200, res.body)
  return res.json().ticket as string
}
const counted = async (t: TestApp, table: 'operator_sessions' | 'operators') =>
  Number(
    (
      await t.deps.db
        .selectFrom(table)
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

const signIn = suite<Ctx>('signing in to the back office: a password, then a code')
signIn.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
signIn.after((ctx) => ctx.t?.close())

signIn('a wrong password or an unknown address: the same French 401, and no ticket', async ({ t }) => {
  for (const [email, password] of [
    [ADMIN.email, 'pas-le-bon'],
    ['personne@example.com', DEMO_PASSWORD],
    ['demo@example.com', DEMO_PASSWORD], // a customer is no operator
  ]) {
    const res = await post(t, '/api/operator-auth/password', { email, password })
    assert.is(res.statusCode, 401, res.body)
    assert.equal(res.json(), { message: signInMessages.badCredentials, statusCode: 401, code: 'BAD_CREDENTIALS' })
  }
})

signIn('the ticket is no session; the code opens one; the address is matched whatever its case', async ({ t }) => {
  const ticket = await ticketFor(t, ' Operateur@Example.com ')
  assert.is((await get(t, '/api/backoffice/me', ticket)).statusCode, 401, 'a ticket opens nothing')
  t.clock.advance(30_000)
  const res = await post(t, '/api/operator-auth/code', { ticket, code: totpCode(ADMIN.totpSecret, t.clock.now()) })
  assert.is(res.statusCode, 200, res.body)
  const me = await get(t, '/api/backoffice/me', res.json().token)
  assert.equal(me.json(), { id: res.json().operator.id, email: ADMIN.email, name: ADMIN.name, roles: ['admin'] })
  const again = await post(t, '/api/operator-auth/code', { ticket, code: totpCode(ADMIN.totpSecret, t.clock.now()) })
  assert.is(again.statusCode, 401, 'a ticket is used once')
  assert.is(again.json().message, signInMessages.ticketExpired)
  const stored = await t.deps.db.selectFrom('operator_sessions').select('token_hash').execute()
  assert.not.ok(
    stored.some((row) => row.token_hash === res.json().token),
    'sessions are stored hashed',
  )
})

signIn(
  'a code used once is refused again, even on a new ticket; the step before and after are taken, two steps away is not',
  async ({ t }) => {
    t.clock.advance(60_000)
    const code = totpCode(COURRIER.totpSecret, t.clock.now())
    assert.is((await post(t, '/api/operator-auth/code', { ticket: await ticketFor(t, COURRIER.email), code })).statusCode, 200)
    const before = await counted(t, 'operator_sessions')
    const replay = await post(t, '/api/operator-auth/code', { ticket: await ticketFor(t, COURRIER.email), code })
    assert.is(replay.statusCode, 401)
    assert.equal(replay.json(), { message: signInMessages.replayedCode, statusCode: 401, code: 'CODE_REPLAYED' })
    assert.is(await counted(t, 'operator_sessions'), before, 'no session opened')
    // The window: the next step's code (a phone a little ahead) is taken, then one of two steps back is not.
    t.clock.advance(60_000)
    const ahead = totpCode(COURRIER.totpSecret, new Date(t.clock.now().getTime() + 30_000))
    assert.is((await post(t, '/api/operator-auth/code', { ticket: await ticketFor(t, COURRIER.email), code: ahead })).statusCode, 200)
    t.clock.advance(120_000)
    const old = totpCode(COURRIER.totpSecret, new Date(t.clock.now().getTime() - 60_000))
    const refused = await post(t, '/api/operator-auth/code', { ticket: await ticketFor(t, COURRIER.email), code: old })
    assert.is(refused.statusCode, 401)
    assert.is(refused.json().message, signInMessages.badCode)
  },
)

signIn('a ticket expires after 5 minutes', async ({ t }) => {
  const ticket = await ticketFor(t, ADMIN.email)
  t.clock.advance(5 * 60_000 + 1000)
  const res = await post(t, '/api/operator-auth/code', { ticket, code: totpCode(ADMIN.totpSecret, t.clock.now()) })
  assert.is(res.statusCode, 401)
  assert.is(res.json().message, signInMessages.ticketExpired)
})

signIn(`wrong codes: ${OPERATOR_CODE_LIMIT.max} per operator, then a French 429 even for the right one`, async ({ t }) => {
  t.clock.advance(60_000)
  const ticket = await ticketFor(t, ADMIN.email)
  const right = totpCode(ADMIN.totpSecret, t.clock.now())
  const wrong = right === '000000' ? '111111' : '000000'
  for (let i = 0; i < OPERATOR_CODE_LIMIT.max; i++) {
    const res = await post(t, '/api/operator-auth/code', { ticket, code: wrong })
    assert.is(res.statusCode, 401)
    assert.is(res.json().message, signInMessages.badCode)
  }
  const held = await post(t, '/api/operator-auth/code', { ticket, code: right })
  assert.is(held.statusCode, 429, held.body)
  assert.match(held.json().message, /^Trop de codes erronés pour ce compte opérateur : réessayez dans \d+ minutes?\.$/)
  assert.is((await operatorLogin(t, COURRIER.email)).length > 20, true, 'another operator is not held')
  t.clock.advance(OPERATOR_CODE_LIMIT.windowMs)
  assert.ok(await operatorLogin(t), 'the window ends')
})

signIn(`wrong passwords: ${OPERATOR_PASSWORD_LIMIT.max} per address, then a French 429`, async ({ t }) => {
  for (let i = 0; i < OPERATOR_PASSWORD_LIMIT.max; i++)
    assert.is((await post(t, '/api/operator-auth/password', { email: COURRIER.email, password: `essai-${i}` })).statusCode, 401)
  const held = await post(t, '/api/operator-auth/password', { email: COURRIER.email, password: DEMO_PASSWORD })
  assert.is(held.statusCode, 429)
  assert.match(held.json().message, /^Trop d’essais de mot de passe pour ce compte opérateur : réessayez dans \d+ minutes?\.$/)
  t.clock.advance(OPERATOR_PASSWORD_LIMIT.windowMs)
})

signIn('a session ends after 30 minutes without use, not while used; sign-out ends it at once', async ({ t }) => {
  const token = await operatorLogin(t)
  for (let i = 0; i < 3; i++) {
    t.clock.advance(29 * 60_000)
    assert.is((await get(t, '/api/backoffice/me', token)).statusCode, 200, 'used within 30 minutes')
  }
  t.clock.advance(30 * 60_000 + 1000)
  const idle = await get(t, '/api/backoffice/me', token)
  assert.is(idle.statusCode, 401)
  assert.is(idle.json().message, messages.operatorSessionInvalid)
  const other = await operatorLogin(t)
  assert.is((await post(t, '/api/backoffice/sign-out', {}, other)).json().message, adminMessages.signedOut)
  assert.is((await get(t, '/api/backoffice/me', other)).statusCode, 401)
})

signIn.run()

const admin = suite<Ctx & { admin: string }>('administrators: invite, enrolment, roles, deactivation')
admin.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.admin = await operatorLogin(ctx.t)
})
admin.after((ctx) => ctx.t?.close())

const invite = async (ctx: Ctx & { admin: string }, email: string, roles = ['courrier']) => {
  const res = await post(ctx.t, '/api/backoffice/operators', { email, name: 'Nina Roussel', roles }, ctx.admin)
  assert.is(res.statusCode, 200, res.body)
  return { ...res.json(), token: res.json().enrolmentUrl.split('/').pop() as string }
}

admin(
  'an invitation answers its single-use link once; enrolment sets the password and the app; then the operator signs in',
  async (ctx) => {
    const { t } = ctx
    const invited = await invite(ctx, 'nina@example.com', ['courrier', 'conformite'])
    assert.is(invited.enrolmentUrl, `${t.deps.config.publicUrl}/operateur/inscription/${invited.token}`)
    assert.equal(invited.operator.roles, ['courrier', 'conformite'])
    assert.is(invited.operator.enrolled, false)
    assert.is(new Date(invited.enrolmentExpiresAt).getTime() - t.clock.now().getTime(), 7 * 86_400_000)
    const stored = await t.deps.db.selectFrom('operator_enrolments').select('token_hash').execute()
    assert.not.ok(
      stored.some((row) => row.token_hash === invited.token),
      'links are stored hashed',
    )
    // Not enrolled yet: no sign-in.
    assert.is((await post(t, '/api/operator-auth/password', { email: 'nina@example.com', password: 'x' })).statusCode, 401)
    const page = await get(t, `/api/operator-auth/enrolment/${invited.token}`)
    assert.is(page.statusCode, 200)
    const { totpSecret } = page.json()
    assert.match(totpSecret, /^[A-Z2-7]{32}$/)
    const url = `/api/operator-auth/enrolment/${invited.token}`
    const weak = await post(t, url, { password: 'Demo1234!', code: totpCode(totpSecret, t.clock.now()) })
    assert.is(weak.statusCode, 400)
    assert.match(weak.json().message, /12 caractères|mot de passe/)
    const badCode = await post(t, url, {
      password: 'trois mots au hasard',
      code: '000000' === totpCode(totpSecret, t.clock.now()) ? '111111' : '000000',
    })
    assert.is(badCode.statusCode, 400)
    assert.is(badCode.json().message, signInMessages.enrolBadCode)
    const done = await post(t, url, { password: 'trois mots au hasard', code: totpCode(totpSecret, t.clock.now()) })
    assert.is(done.statusCode, 200, done.body)
    assert.is(done.json().message, signInMessages.enrolled)
    const twice = await post(t, url, { password: 'trois mots au hasard', code: totpCode(totpSecret, t.clock.now()) })
    assert.is(twice.statusCode, 404)
    assert.is(twice.json().message, signInMessages.badEnrolment)
    assert.is((await get(t, url)).statusCode, 404, 'the secret is never shown again')
    const token = await operatorLogin(t, 'nina@example.com', 'trois mots au hasard')
    assert.equal((await get(t, '/api/backoffice/me', token)).json().roles, ['courrier', 'conformite'])
    const list = (await get(t, '/api/backoffice/operators', ctx.admin)).json()
    assert.ok(list.find((o: { email: string }) => o.email === 'nina@example.com').enrolled)
    assert.not.ok(JSON.stringify(list).includes(totpSecret), 'no secret in the list')
  },
)

admin('an enrolment link expires after 7 days', async (ctx) => {
  const { token } = await invite(ctx, 'tardif@example.com')
  ctx.t.clock.advance(7 * 86_400_000 + 1000)
  const res = await get(ctx.t, `/api/operator-auth/enrolment/${token}`)
  assert.is(res.statusCode, 404)
  ctx.admin = await operatorLogin(ctx.t)
})

admin('an address already taken (case ignored), a bad address or an unknown role: a French 4xx and nothing made', async (ctx) => {
  const before = await counted(ctx.t, 'operators')
  const taken = await post(ctx.t, '/api/backoffice/operators', { email: 'COURRIER@example.com', name: 'X', roles: ['courrier'] }, ctx.admin)
  assert.is(taken.statusCode, 409)
  assert.is(taken.json().message, adminMessages.exists)
  for (const body of [
    { email: 'pas-une-adresse', name: 'X', roles: ['courrier'] },
    { email: 'x@example.com', name: 'X', roles: ['patron'] },
    { email: 'x@example.com', name: 'X', roles: [] },
    { email: 'x@example.com', name: 'X', roles: ['admin', 'admin'] },
  ]) {
    const res = await post(ctx.t, '/api/backoffice/operators', body, ctx.admin)
    assert.is(res.statusCode, 400, JSON.stringify(body))
    assert.match(res.json().message, /[éèàç]|adresse|rôle|valeur|champ/i)
  }
  assert.is(await counted(ctx.t, 'operators'), before)
})

admin('roles change; an administrator cannot drop their own admin role nor deactivate themselves', async (ctx) => {
  const { t } = ctx
  const me = (await get(t, '/api/backoffice/me', ctx.admin)).json()
  const drop = await t.app.inject({
    method: 'PUT',
    url: `/api/backoffice/operators/${me.id}/roles`,
    payload: { roles: ['courrier'] },
    headers: { authorization: `Bearer ${ctx.admin}` },
  })
  assert.is(drop.statusCode, 409)
  assert.is(drop.json().message, adminMessages.selfAdmin)
  const self = await post(t, `/api/backoffice/operators/${me.id}:deactivate`, {}, ctx.admin)
  assert.is(self.statusCode, 409)
  assert.is(self.json().message, adminMessages.selfDeactivate)
  const unknown = await post(t, '/api/backoffice/operators/99999:deactivate', {}, ctx.admin)
  assert.is(unknown.statusCode, 404)
  assert.is(unknown.json().message, 'Opérateur introuvable.')
  // Courrier becomes admin too: the administration opens to them at their next request.
  const courrierToken = await operatorLogin(t, COURRIER.email)
  assert.is((await get(t, '/api/backoffice/operators', courrierToken)).statusCode, 403)
  const courrier = (await get(t, '/api/backoffice/me', courrierToken)).json()
  const set = (roles: string[]) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/backoffice/operators/${courrier.id}/roles`,
      payload: { roles },
      headers: { authorization: `Bearer ${ctx.admin}` },
    })
  assert.equal((await set(['courrier', 'admin'])).json().roles, ['courrier', 'admin'])
  assert.is((await get(t, '/api/backoffice/operators', courrierToken)).statusCode, 200)
  assert.equal((await set(['courrier'])).json().roles, ['courrier'])
  assert.is((await get(t, '/api/backoffice/operators', courrierToken)).statusCode, 403)
})

admin('deactivation ends every session of the operator at once and refuses their sign-in', async (ctx) => {
  const { t } = ctx
  const { token } = await invite(ctx, 'partant@example.com')
  const { totpSecret } = (await get(t, `/api/operator-auth/enrolment/${token}`)).json()
  await post(t, `/api/operator-auth/enrolment/${token}`, { password: 'trois mots au hasard', code: totpCode(totpSecret, t.clock.now()) })
  const sessions = [
    await operatorLogin(t, 'partant@example.com', 'trois mots au hasard'),
    await operatorLogin(t, 'partant@example.com', 'trois mots au hasard'),
  ]
  const id = (await get(t, '/api/backoffice/me', sessions[0])).json().id
  const res = await post(t, `/api/backoffice/operators/${id}:deactivate`, {}, ctx.admin)
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.json().active, false)
  assert.ok(res.json().deactivatedAt)
  for (const session of sessions) assert.is((await get(t, '/api/backoffice/me', session)).statusCode, 401)
  const again = await post(t, '/api/operator-auth/password', { email: 'partant@example.com', password: 'trois mots au hasard' })
  assert.is(again.statusCode, 401)
  const twice = await post(t, `/api/backoffice/operators/${id}:deactivate`, {}, ctx.admin)
  assert.is(twice.statusCode, 409)
  assert.is(twice.json().message, adminMessages.alreadyInactive)
})

admin('an operator deactivated straight in the table is refused by the session check itself (the same statement)', async (ctx) => {
  const { t } = ctx
  const courrier = await operatorLogin(t, COURRIER.email)
  await t.deps.db.updateTable('operators').set({ active: false }).where('email', '=', COURRIER.email).execute()
  try {
    assert.is((await get(t, '/api/backoffice/me', courrier)).statusCode, 401, 'refused although its session row has no end')
  } finally {
    await t.deps.db.updateTable('operators').set({ active: true }).where('email', '=', COURRIER.email).execute()
  }
  assert.is((await get(t, '/api/backoffice/me', courrier)).statusCode, 200)
})

admin('a customer session is no operator session', async (ctx) => {
  const camille = await login(ctx.t.app)
  assert.is((await get(ctx.t, '/api/backoffice/me', camille)).statusCode, 401)
})

admin.run()
