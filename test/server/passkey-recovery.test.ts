// A password reset through the e-mailed link (the recovery path) removes the account's passkeys; a change does not.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildTestApp, call, DEMO_PASSWORD, eventually, login, type TestApp } from '../util/server.ts'
import { SoftPasskey } from '../util/webauthn.ts'

interface Ctx { t: TestApp }

const soft = () => new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })

async function addPasskey(t: TestApp, token: string, name: string): Promise<SoftPasskey> {
  const key = soft()
  const options = (await call(t.app, token, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  const added = await call(t.app, token, 'POST', '/api-protected/users/me/passkeys', { credential: key.register(options), name })
  assert.is(added.statusCode, 200, added.body)
  return key
}

async function passkeyLogin(t: TestApp, key: SoftPasskey) {
  const options = (await t.app.inject({ method: 'POST', url: '/api/passkeys/login-options' })).json()
  return t.app.inject({ method: 'POST', url: '/api/passkeys/login', payload: { credential: key.authenticate(options) } })
}

async function resetByLink(t: TestApp, email: string, password: string) {
  const before = t.mails.length
  await t.app.inject({ method: 'POST', url: '/reset-password-request', payload: { email, domain: 'http://localhost:8080' } })
  const mail = await eventually(() => t.mails.slice(before).find((m) => m.to === email && m.link?.includes('/set-password/')))
  return t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: mail.link!.split('/set-password/')[1], password } })
}

const passkeysList = async (t: TestApp, token: string) => (await call(t.app, token, 'GET', '/api-protected/users/me/passkeys')).json() as { name: string }[]

const recovery = suite<Ctx>('passkeys and the recovery of an account')
recovery.before(async (ctx) => { ctx.t = await buildTestApp() })
recovery.after((ctx) => ctx.t.close())

recovery('a passkey added with a stolen session does not survive the owner’s reset through the e-mailed link', async ({ t }) => {
  const thief = await login(t.app, 'associe@example.com')
  const stolenKey = await addPasskey(t, thief, 'Téléphone du voleur')
  const owner = await login(t.app, 'associe@example.com')
  const ownKey = await addPasskey(t, owner, 'Mon ordinateur')
  assert.is((await passkeysList(t, owner)).length, 2)

  const reset = await resetByLink(t, 'associe@example.com', 'Repris-en-main-2024')
  assert.is(reset.statusCode, 200, reset.body)
  const back = await login(t.app, 'associe@example.com', 'Repris-en-main-2024')
  assert.equal(await passkeysList(t, back), [], 'every key of the account went')
  for (const key of [stolenKey, ownKey]) {
    const again = await passkeyLogin(t, key)
    assert.is(again.statusCode, 401, again.body)
    assert.is(again.json().code, 'UNKNOWN_PASSKEY')
  }
  const rows = await t.deps.db.selectFrom('passkeys').innerJoin('users', 'users.id', 'passkeys.user_id').select('passkeys.id').where('users.email', '=', 'associe@example.com').execute()
  assert.is(rows.length, 0)
  assert.is(reset.json().message, 'Votre mot de passe a été modifié, vous pouvez vous connecter. Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».')
  // A new key can be added afterwards, and signs in.
  const fresh = await addPasskey(t, back, 'Nouvelle clé')
  assert.is((await passkeyLogin(t, fresh)).statusCode, 200)
})

recovery('one key removed is said in the singular; none, nothing is said of keys; another account keeps its keys', async ({ t }) => {
  const camille = await login(t.app, 'demo@example.com')
  const camilleKey = await addPasskey(t, camille, 'Téléphone de Camille')
  const sophie = await login(t.app, 'solo@example.com')
  await addPasskey(t, sophie, 'Téléphone de Sophie')
  const one = await resetByLink(t, 'solo@example.com', 'Un-autre-secret-2024')
  assert.is(one.json().message, 'Votre mot de passe a été modifié, vous pouvez vous connecter. Votre clé d’accès a été supprimée : vous pourrez en ajouter une depuis « Informations personnelles ».')
  const none = await resetByLink(t, 'solo@example.com', 'Encore-un-secret-2024')
  assert.is(none.json().message, 'Votre mot de passe a été modifié, vous pouvez vous connecter.')
  assert.is((await passkeysList(t, camille)).length, 1, 'Camille’s key stays')
  assert.is((await passkeyLogin(t, camilleKey)).statusCode, 200)
})

recovery('an ordinary password change (the current password given) keeps the keys', async ({ t }) => {
  const camille = await login(t.app, 'demo@example.com')
  const before = await passkeysList(t, camille)
  assert.ok(before.length > 0)
  const key = await addPasskey(t, camille, 'Tablette')
  const changed = await call(t.app, camille, 'PUT', '/api-protected/users/me/password', { currentPassword: DEMO_PASSWORD, newPassword: 'Change-sans-perte-2024' })
  assert.is(changed.statusCode, 200, changed.body)
  assert.is((await passkeysList(t, camille)).length, before.length + 1)
  assert.is((await passkeyLogin(t, key)).statusCode, 200)
})

recovery.run()
