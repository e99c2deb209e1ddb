// The operators' passkeys: a second factor instead of the code. Registered from « Mes clés d’accès » (journaled),
// then used after the password's ticket; a customer's key never opens an operator's session and an operator's never a
// customer's; the challenges are their owner's; the wrong ones count with the wrong codes. A software authenticator
// (test/util/webauthn.ts) answers the ceremonies, checked by the real @simplewebauthn/server.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { OPERATOR_CODE_LIMIT, signInMessages } from '../../../server/routes/operators/sign-in.ts'
import { operatorPasskeyMessages } from '../../../server/routes/operators/passkeys.ts'
import { passkeyMessages } from '../../../server/routes/session/passkeys.ts'
import { buildTestApp, call, DEMO_PASSWORD, login, operatorLogin, type TestApp } from '../../util/server.ts'
import { SoftPasskey } from '../../util/webauthn.ts'

interface Ctx {
  t: TestApp
}
const soft = () => new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
const inject = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token?: string) =>
  t.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
const ticketFor = async (t: TestApp, email = 'operateur@example.com') => {
  const res = await inject(t, 'POST', '/api/operator-auth/password', { email, password: DEMO_PASSWORD })
  assert.is(res.statusCode, 200, res.body)
  return res.json().ticket as string
}
/** Registers `key` for the operator of `session` through the routes; answers the stored key. */
const register = async (t: TestApp, session: string, key: SoftPasskey, name?: string) => {
  const options = (await inject(t, 'POST', '/api/backoffice/me/passkeys/registration-options', undefined, session)).json()
  const res = await inject(
    t,
    'POST',
    '/api/backoffice/me/passkeys',
    { credential: key.register(options), ...(name ? { name } : {}) },
    session,
  )
  assert.is(res.statusCode, 200, res.body)
  return res.json() as { id: number; name: string; lastUsedAt: string | null }
}
const passkeyOptions = async (t: TestApp, ticket: string) => {
  const res = await inject(t, 'POST', '/api/operator-auth/passkey/options', { ticket })
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}
const signInWith = (t: TestApp, ticket: string, credential: unknown) =>
  inject(t, 'POST', '/api/operator-auth/passkey', { ticket, credential })

const passkeys = suite<Ctx>('operators: a passkey as the second factor')
passkeys.before.each(async (ctx) => {
  ctx.t = await buildTestApp()
})
passkeys.after.each((ctx) => ctx.t?.close())

passkeys('registered once signed in, then it opens a session after the password instead of the code', async ({ t }) => {
  const session = await operatorLogin(t, 'courrier@example.com')
  const key = soft()
  const added = await register(t, session, key, 'Clé USB')
  assert.is(added.name, 'Clé USB')
  assert.is(added.lastUsedAt, null)

  const ticket = await ticketFor(t, 'courrier@example.com')
  const options = await passkeyOptions(t, ticket)
  assert.equal(
    options.allowCredentials.map((c: { id: string }) => c.id),
    [key.id],
    'the ticket names the operator: only their keys are offered',
  )
  const res = await signInWith(t, ticket, key.authenticate(options))
  assert.is(res.statusCode, 200, res.body)
  assert.equal(res.json().operator.roles, ['courrier'])
  assert.is(res.json().idleMinutes, 30)
  assert.is((await inject(t, 'GET', '/api/backoffice/me', undefined, res.json().token)).statusCode, 200)

  const listed = (await inject(t, 'GET', '/api/backoffice/me/passkeys', undefined, session)).json()
  assert.is(listed.length, 1)
  assert.ok(listed[0].lastUsedAt, 'its last use shows')
  // The ticket served: neither a second signature nor the code opens a second session with it.
  assert.is((await signInWith(t, ticket, key.authenticate(options))).statusCode, 401)
})

passkeys('the ticket is required: no ticket, an expired or used one is the code step’s French 401', async ({ t }) => {
  const session = await operatorLogin(t)
  const key = soft()
  await register(t, session, key)
  const ticket = await ticketFor(t)
  const options = await passkeyOptions(t, ticket)
  t.clock.advance(6 * 60_000)
  const late = await signInWith(t, ticket, key.authenticate(options))
  assert.is(late.statusCode, 401)
  assert.equal(late.json(), { message: signInMessages.ticketExpired, statusCode: 401, code: 'SIGN_IN_EXPIRED' })
  const unknown = await inject(t, 'POST', '/api/operator-auth/passkey/options', { ticket: 'x'.repeat(43) })
  assert.is(unknown.statusCode, 401)
  assert.is(unknown.json().message, signInMessages.ticketExpired)
})

passkeys('an operator without a key is told to type the code; another operator’s key is refused', async ({ t }) => {
  const none = await inject(t, 'POST', '/api/operator-auth/passkey/options', { ticket: await ticketFor(t, 'courrier@example.com') })
  assert.is(none.statusCode, 409, none.body)
  assert.is(none.json().message, operatorPasskeyMessages.none)

  const adminsKey = soft()
  await register(t, await operatorLogin(t), adminsKey)
  await register(t, await operatorLogin(t, 'courrier@example.com'), soft())
  const ticket = await ticketFor(t, 'courrier@example.com')
  const res = await signInWith(t, ticket, adminsKey.authenticate(await passkeyOptions(t, ticket)))
  assert.is(res.statusCode, 401, res.body)
  assert.equal(res.json(), { message: operatorPasskeyMessages.unknown, statusCode: 401, code: 'UNKNOWN_PASSKEY' })
})

passkeys('a customer’s passkey never opens an operator’s session, nor an operator’s a customer’s', async ({ t }) => {
  // Camille's key, registered in the portal.
  const camille = await login(t.app)
  const customersKey = soft()
  const created = (await call(t.app, camille, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  const stored = await call(t.app, camille, 'POST', '/api-protected/users/me/passkeys', { credential: customersKey.register(created) })
  assert.is(stored.statusCode, 200, stored.body)

  const operatorsKey = soft()
  await register(t, await operatorLogin(t), operatorsKey)

  // The customer's key at the operator's sign-in: unknown there, whatever challenge it signs.
  const ticket = await ticketFor(t)
  const operatorOptions = await passkeyOptions(t, ticket)
  const crossed = await signInWith(t, ticket, customersKey.authenticate(operatorOptions))
  assert.is(crossed.statusCode, 401, crossed.body)
  assert.is(crossed.json().code, 'UNKNOWN_PASSKEY')
  const customerChallenge = (await inject(t, 'POST', '/api/passkeys/login-options')).json()
  assert.is((await signInWith(t, ticket, customersKey.authenticate(customerChallenge))).statusCode, 401)

  // The operator's key at the customers' sign-in: unknown there.
  const portal = await inject(t, 'POST', '/api/passkeys/login', { credential: operatorsKey.authenticate(customerChallenge) })
  assert.is(portal.statusCode, 401, portal.body)
  assert.is(portal.json().message, passkeyMessages.unknown)

  // A customer's sign-in challenge does not serve an operator's signature, nor an operator's a customer's.
  const fresh = await ticketFor(t)
  const customerOnly = (await inject(t, 'POST', '/api/passkeys/login-options')).json()
  const wrongChallenge = await signInWith(t, fresh, operatorsKey.authenticate(customerOnly))
  assert.is(wrongChallenge.statusCode, 401, wrongChallenge.body)
  assert.is(wrongChallenge.json().code, 'PASSKEY_REFUSED')
  const operatorOnly = await passkeyOptions(t, fresh)
  const customerWithOperatorChallenge = await inject(t, 'POST', '/api/passkeys/login', {
    credential: customersKey.authenticate(operatorOnly),
  })
  assert.is(customerWithOperatorChallenge.statusCode, 401, customerWithOperatorChallenge.body)
  // And a customer's token opens no « Mes clés d’accès », as a Bearer or as the portal sends it.
  assert.is((await inject(t, 'GET', '/api/backoffice/me/passkeys', undefined, camille)).statusCode, 401)
  assert.is((await call(t.app, camille, 'GET', '/api/backoffice/me/passkeys')).statusCode, 401)
  // The right pair still works after all that.
  const ok = await signInWith(t, fresh, operatorsKey.authenticate(await passkeyOptions(t, fresh)))
  assert.is(ok.statusCode, 200, ok.body)
})

passkeys('a challenge serves once, for its operator only, for five minutes', async ({ t }) => {
  const adminsKey = soft()
  await register(t, await operatorLogin(t), adminsKey)
  const courriersKey = soft()
  await register(t, await operatorLogin(t, 'courrier@example.com'), courriersKey)
  // The administrator's challenge signed by the courrier's key, at the courrier's ticket: not theirs.
  const adminOptions = await passkeyOptions(t, await ticketFor(t))
  const courrierTicket = await ticketFor(t, 'courrier@example.com')
  const stolen = await signInWith(t, courrierTicket, courriersKey.authenticate(adminOptions))
  assert.is(stolen.statusCode, 401, stolen.body)
  assert.is(stolen.json().code, 'PASSKEY_REFUSED')
  // Five minutes.
  const options = await passkeyOptions(t, courrierTicket)
  t.clock.advance(5 * 60_000 + 1)
  const fresh = await ticketFor(t, 'courrier@example.com')
  const late = await signInWith(t, fresh, courriersKey.authenticate(options))
  assert.is(late.statusCode, 401)
  assert.is(late.json().message, operatorPasskeyMessages.expired)
})

passkeys(`wrong passkeys count with wrong codes: ${OPERATOR_CODE_LIMIT.max} in all, then a French 429`, async ({ t }) => {
  const key = soft()
  await register(t, await operatorLogin(t), key)
  const ticket = await ticketFor(t)
  for (let i = 0; i < OPERATOR_CODE_LIMIT.max - 1; i++) {
    const res = await signInWith(t, ticket, soft().authenticate(await passkeyOptions(t, ticket)))
    assert.is(res.statusCode, 401, res.body)
  }
  const code = await inject(t, 'POST', '/api/operator-auth/code', { ticket, code: '000000' })
  assert.is(code.statusCode, 401, 'a wrong code is the fifth')
  const held = await signInWith(t, ticket, key.authenticate(await passkeyOptions(t, ticket)))
  assert.is(held.statusCode, 429, held.body)
  assert.match(held.json().message, 'Trop de codes erronés')
})

passkeys('registration and removal are journaled; an operator removes only their own keys', async ({ t }) => {
  const admin = await operatorLogin(t)
  const courrier = await operatorLogin(t, 'courrier@example.com')
  const key = await register(t, courrier, soft(), 'Téléphone')
  assert.is((await inject(t, 'DELETE', `/api/backoffice/me/passkeys/${key.id}`, undefined, admin)).statusCode, 404, 'not the admin’s')
  const removed = await inject(t, 'DELETE', `/api/backoffice/me/passkeys/${key.id}`, undefined, courrier)
  assert.is(removed.statusCode, 200, removed.body)
  assert.is(removed.json().message, operatorPasskeyMessages.removed)
  assert.equal((await inject(t, 'GET', '/api/backoffice/me/passkeys', undefined, courrier)).json(), [])

  const journal = (await inject(t, 'GET', '/api/backoffice/journal?action=operatorPasskey.added', undefined, admin)).json()
  assert.is(journal.total, 1)
  assert.is(journal.entries[0].operator.email, 'courrier@example.com')
  assert.is(journal.entries[0].summary, 'Ajout de la clé d’accès « Téléphone » de Hugo Lemaire')
  const gone = (await inject(t, 'GET', '/api/backoffice/journal?action=operatorPasskey.removed', undefined, admin)).json()
  assert.is(gone.total, 1)
  assert.equal(gone.entries[0].before, { id: key.id, name: 'Téléphone' })
})

passkeys('a key registered twice is a French 409; a registration answer for another site is refused', async ({ t }) => {
  const session = await operatorLogin(t)
  const key = soft()
  await register(t, session, key)
  const options = (await inject(t, 'POST', '/api/backoffice/me/passkeys/registration-options', undefined, session)).json()
  const again = await inject(t, 'POST', '/api/backoffice/me/passkeys', { credential: key.register(options) }, session)
  assert.is(again.statusCode, 409, again.body)
  assert.is(again.json().message, operatorPasskeyMessages.already)
  const other = (await inject(t, 'POST', '/api/backoffice/me/passkeys/registration-options', undefined, session)).json()
  const phishing = await inject(
    t,
    'POST',
    '/api/backoffice/me/passkeys',
    { credential: soft().register(other, { origin: 'https://evil.example' }) },
    session,
  )
  assert.is(phishing.statusCode, 400, phishing.body)
  assert.is(phishing.json().message, operatorPasskeyMessages.refused)
  assert.is((await inject(t, 'GET', '/api/backoffice/me/passkeys', undefined, session)).json().length, 1)
})

passkeys.run()
