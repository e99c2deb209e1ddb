// The account's notices beyond an address change and an added passkey: a password changed, a password reset and a
// passkey removed are each told to the account's address, with when it happened and what to do if it was not the
// owner; a refused change, an unknown key or a used link tells nothing. Every e-mail is marked automatic.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { hashPassword } from '../../../server/lib/crypto.ts'
import { SECURITY_NOTICE_JOB } from '../../../server/services/security-notice.ts'
import { buildTestApp, call, eventually, login, type TestApp } from '../../util/server.ts'
import { SoftPasskey } from '../../util/webauthn.ts'

interface Ctx {
  t: TestApp
}
const PASSWORD = 'le mot de passe du titulaire'
const FRESH = 'un tout nouveau mot de passe solide'
// A Tuesday at 14:05 in Paris (13:05 UTC in winter).
const NOW = new Date('2026-12-08T13:05:00Z')

async function account(t: TestApp, email: string) {
  await t.deps.db
    .insertInto('users')
    .values({ email, password_hash: await hashPassword(PASSWORD), firstname: 'Titulaire', lastname: 'Test' })
    .execute()
  return login(t.app, email, PASSWORD)
}

async function addPasskey(t: TestApp, token: string, name: string) {
  const key = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
  const options = (await call(t.app, token, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  const added = await call(t.app, token, 'POST', '/api-protected/users/me/passkeys', { credential: key.register(options), name })
  assert.is(added.statusCode, 200, added.body)
  return added.json().id as number
}

const mailsTo = (t: TestApp, email: string, since: number) => t.mails.slice(since).filter((m) => m.to === email)

const test = suite<Ctx>('the account’s notices: password changed or reset, passkey removed')
test.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
  ctx.t.clock.set(NOW)
})
test.after((ctx) => ctx.t?.close())

test('a password changed: its owner is told when, that the other sessions ended, and what to do if it was not them', async ({ t }) => {
  const token = await account(t, 'change@example.com')
  const before = t.mails.length
  const wrong = await call(t.app, token, 'PUT', '/api-protected/users/me/password', { currentPassword: 'faux', newPassword: FRESH })
  assert.is(wrong.statusCode, 400)
  assert.equal(mailsTo(t, 'change@example.com', before), [], 'a refused change tells nothing')
  const changed = await call(t.app, token, 'PUT', '/api-protected/users/me/password', { currentPassword: PASSWORD, newPassword: FRESH })
  assert.is(changed.statusCode, 200, changed.body)
  const [mail, ...more] = mailsTo(t, 'change@example.com', before)
  assert.equal(more, [])
  assert.is(mail!.subject, `${t.deps.config.brandName} : votre mot de passe a été modifié`)
  assert.match(mail!.text, 'Bonjour Titulaire,')
  assert.match(mail!.text, 'a été modifié le 8 décembre 2026 à 14 h 05, depuis une session ouverte. Les autres connexions')
  assert.match(mail!.text, `« Mot de passe oublié ? » sur ${t.deps.config.publicUrl}/login, puis écrivez à ${t.deps.config.supportEmail}`)
  assert.not.match(mail!.text, FRESH, 'never the password')
  assert.equal(mail!.headers, { 'Auto-Submitted': 'auto-generated' })
})

test('a password reset by the e-mailed link: told, with the passkeys it removed; the link used again tells nothing', async ({ t }) => {
  const token = await account(t, 'reset@example.com')
  await addPasskey(t, token, 'Téléphone')
  await addPasskey(t, token, 'Ordinateur')
  const asked = t.mails.length
  await t.app.inject({
    method: 'POST',
    url: '/reset-password-request',
    payload: { email: 'reset@example.com', domain: 'http://localhost:8080' },
  })
  const link = await eventually(() => mailsTo(t, 'reset@example.com', asked).find((m) => m.link?.includes('/set-password/')))
  const resetToken = link.link!.split('/set-password/')[1]!
  const before = t.mails.length
  const reset = await t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: resetToken, password: FRESH } })
  assert.is(reset.statusCode, 200, reset.body)
  const [mail, ...more] = mailsTo(t, 'reset@example.com', before)
  assert.equal(more, [])
  assert.is(mail!.subject, `${t.deps.config.brandName} : votre mot de passe a été réinitialisé`)
  assert.match(mail!.text, 'réinitialisé le 8 décembre 2026 à 14 h 05, avec le lien envoyé à cette adresse.')
  assert.match(mail!.text, 'Vos 2 clés d’accès ont été supprimées.')
  assert.equal(mail!.headers, { 'Auto-Submitted': 'auto-generated' })
  const again = await t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: resetToken, password: FRESH } })
  assert.is(again.statusCode, 400)
  assert.is(mailsTo(t, 'reset@example.com', before).length, 1, 'a used link tells nothing more')
})

test('a passkey removed: told with its name; an unknown or another person’s key is a 404 and tells nothing', async ({ t }) => {
  const token = await account(t, 'cle-retiree@example.com')
  const other = await account(t, 'autre-cle@example.com')
  const id = await addPasskey(t, token, 'Clé USB du bureau')
  const before = t.mails.length
  assert.is((await call(t.app, other, 'DELETE', `/api-protected/users/me/passkeys/${id}`)).statusCode, 404)
  assert.is((await call(t.app, token, 'DELETE', '/api-protected/users/me/passkeys/999999')).statusCode, 404)
  assert.is(t.mails.length, before, 'nothing told')
  const removed = await call(t.app, token, 'DELETE', `/api-protected/users/me/passkeys/${id}`)
  assert.is(removed.statusCode, 200, removed.body)
  const [mail, ...more] = t.mails.slice(before)
  assert.equal(more, [])
  assert.is(mail!.to, 'cle-retiree@example.com')
  assert.is(mail!.subject, `${t.deps.config.brandName} : une clé d’accès a été supprimée de votre compte`)
  assert.match(mail!.text, 'La clé d’accès « Clé USB du bureau » a été supprimée de votre espace client')
  assert.match(mail!.text, 'le 8 décembre 2026 à 14 h 05 : elle ne permet plus de vous connecter.')
  assert.is(mail!.link, `${t.deps.config.publicUrl}/informations-personnelles`)
  assert.equal(mail!.headers, { 'Auto-Submitted': 'auto-generated' })
  const queued = await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', SECURITY_NOTICE_JOB).execute()
  assert.equal(queued, [], 'sent at once: nothing queued')
})

test.run()
