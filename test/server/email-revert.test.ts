// « Ce n’était pas vous ? »: the link of an address change's notice gives the account back to the address left. A
// stolen session changes the address, resets the password through the new one and adds a passkey; the link undoes all
// of it. Used, expired, unknown and taken links change nothing; two clicks at once restore once.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { emailRevertMessages, EMAIL_REVERT_DAYS } from '../../server/routes/account/email-revert.ts'
import { holdLocks, untilLockWaiters } from '../util/postgres.ts'
import { hashPassword } from '../../server/services/crypto.ts'
import { buildTestApp, call, eventually, login, secondApp, type TestApp } from '../util/server.ts'
import { SoftPasskey } from '../util/webauthn.ts'

interface Ctx { t: TestApp }

const ATTACKER_PASSWORD = 'le mot de passe du pirate'
const PASSWORD = 'le mot de passe du titulaire'
const passwordHash = hashPassword(PASSWORD)
/** An account of the test's own (a revert leaves a password nobody knows: the demo accounts would not sign in again). */
async function account(t: TestApp, email: string) {
  const { id } = await t.deps.db.insertInto('users').values({ email, password_hash: await passwordHash, firstname: 'Titulaire', lastname: 'Test' }).returning('id').executeTakeFirstOrThrow()
  return { id, token: await login(t.app, email, PASSWORD) }
}
const revertLinkTo = (t: TestApp, email: string) => t.mails.filter((m) => m.to === email && m.link?.includes('/retablir-adresse/')).at(-1)?.link
const tokenOf = (link: string) => link.split('/retablir-adresse/')[1]!
const revert = (t: TestApp, token: string, app = t.app) => app.inject({ method: 'POST', url: `/api/email-change-reverts/${token}` })
const changeEmail = (t: TestApp, token: string, newEmail: string) => call(t.app, token, 'PUT', '/api-protected/users/me/email', { newEmail })
const emailOf = async (t: TestApp, id: number) => (await t.deps.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email
const userId = async (t: TestApp, email: string) => (await t.deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
const canLogin = async (t: TestApp, username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } })).statusCode
const signedIn = async (t: TestApp, token: string) => (await call(t.app, token, 'GET', '/api-protected/user/me')).statusCode
const reverts = (t: TestApp, id: number) => t.deps.db.selectFrom('email_change_reverts').selectAll().where('user_id', '=', id).orderBy('id').execute()

const test = suite<Ctx>('« Ce n’était pas vous ? »: the revert link of an address change')
test.before(async (ctx) => { ctx.t = await buildTestApp() })
test.after((ctx) => ctx.t.close())

test('a stolen session takes the account over; the link in the old address’s notice gives it back, for good', async (ctx) => {
  const { t } = ctx
  const victim = await login(t.app, 'demo@example.com')
  const id = await userId(t, 'demo@example.com')

  // The attacker, with the victim's token: a new address, a reset link asked there, a password of theirs, a passkey.
  assert.is((await changeEmail(t, victim, 'pirate@example.com')).statusCode, 200)
  const notice = t.mails.at(-1)!
  assert.is(notice.to, 'demo@example.com', 'the old address is told')
  assert.match(notice.text, 'Si vous n’êtes pas à l’origine de ce changement, rétablissez votre adresse avec ce lien (valable 30 jours) : http://localhost:8080/retablir-adresse/')
  assert.match(notice.text, ' — toutes les connexions à votre espace seront fermées.')
  assert.match(notice.link!, /^http:\/\/localhost:8080\/retablir-adresse\/[\w-]{43}$/)
  assert.ok(notice.text.includes(notice.link!))
  const [row] = await reverts(t, id)
  assert.equal([row!.old_email, row!.new_email, row!.used_at], ['demo@example.com', 'pirate@example.com', null])
  assert.is(Math.round((row!.expires_at.getTime() - t.clock.now().getTime()) / 86_400_000), EMAIL_REVERT_DAYS)
  assert.is.not(row!.token_hash, tokenOf(notice.link!), 'only its SHA-256 is kept')

  await t.app.inject({ method: 'POST', url: '/reset-password-request', payload: { email: 'pirate@example.com', domain: 'http://localhost:8080' } })
  const resetLink = await eventually(() => t.mails.find((m) => m.to === 'pirate@example.com')?.link)
  assert.is((await t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: resetLink.split('/').pop(), password: ATTACKER_PASSWORD } })).statusCode, 200)
  assert.is(await signedIn(t, victim), 401, 'the reset ended the victim’s session')
  const attacker = await login(t.app, 'pirate@example.com', ATTACKER_PASSWORD)
  const key = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
  const options = (await call(t.app, attacker, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  assert.is((await call(t.app, attacker, 'POST', '/api-protected/users/me/passkeys', { credential: key.register(options) })).statusCode, 200)

  // The victim opens the link.
  const mailsBefore = t.mails.length
  const reverted = await revert(t, tokenOf(notice.link!))
  assert.is(reverted.statusCode, 200, reverted.body)
  assert.equal(reverted.json(), { message: emailRevertMessages.done('demo@example.com') })
  assert.is(reverted.json().message, 'Votre adresse demo@example.com est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.')
  assert.is(await emailOf(t, id), 'demo@example.com')
  assert.is(await signedIn(t, attacker), 401, 'the attacker’s session ended')
  assert.is(await canLogin(t, 'pirate@example.com', ATTACKER_PASSWORD), 401)
  assert.is(await canLogin(t, 'demo@example.com', ATTACKER_PASSWORD), 401, 'the attacker’s password no longer opens it')
  assert.is((await t.deps.db.selectFrom('passkeys').select('id').where('user_id', '=', id).execute()).length, 0, 'the attacker’s passkey is gone')
  const passkeyOptions = (await t.app.inject({ method: 'POST', url: '/api/passkeys/login-options' })).json()
  assert.is((await t.app.inject({ method: 'POST', url: '/api/passkeys/login', payload: { credential: key.authenticate(passkeyOptions) } })).statusCode, 401)
  assert.ok((await reverts(t, id)).every((r) => r.used_at !== null))

  // A fresh reset link went to the address restored, and it works.
  const sent = t.mails.slice(mailsBefore)
  assert.equal(sent.map((m) => m.to), ['demo@example.com'])
  assert.match(sent[0]!.link!, /^http:\/\/localhost:8080\/set-password\/[\w-]{43}$/)
  assert.is((await t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: sent[0]!.link!.split('/').pop(), password: 'le mot de passe retrouvé' } })).statusCode, 200)
  assert.ok(await login(t.app, 'demo@example.com', 'le mot de passe retrouvé'))

  // Used: 410, and nothing moves (the victim's new session stays).
  const again = await revert(t, tokenOf(notice.link!))
  assert.is(again.statusCode, 410)
  assert.is(again.json().message, emailRevertMessages.used)
  assert.ok(await login(t.app, 'demo@example.com', 'le mot de passe retrouvé'))
})

test('the address changed twice: the link to the attacker’s own address does not spend the victim’s', async (ctx) => {
  const { t } = ctx
  const { id, token: sophie } = await account(t, 'sophie@example.com')
  assert.is((await changeEmail(t, sophie, 'premier.pirate@example.com')).statusCode, 200)
  assert.is((await changeEmail(t, sophie, 'second.pirate@example.com')).statusCode, 200)
  const victimLink = revertLinkTo(t, 'sophie@example.com')!
  const attackerLink = revertLinkTo(t, 'premier.pirate@example.com')!
  assert.is((await revert(t, tokenOf(attackerLink))).statusCode, 200)
  assert.is(await emailOf(t, id), 'premier.pirate@example.com')
  const back = await revert(t, tokenOf(victimLink))
  assert.is(back.statusCode, 200, 'an earlier link outlives a later one')
  assert.is(await emailOf(t, id), 'sophie@example.com')
  assert.is((await revert(t, tokenOf(attackerLink))).statusCode, 410)
  assert.is(await emailOf(t, id), 'sophie@example.com')
  // And the other way round: the earliest link spends the later ones.
  const { id: julienId, token: julien } = await account(t, 'julien@example.com')
  assert.is((await changeEmail(t, julien, 'j1@example.com')).statusCode, 200)
  assert.is((await changeEmail(t, julien, 'j2@example.com')).statusCode, 200)
  assert.is((await revert(t, tokenOf(revertLinkTo(t, 'julien@example.com')!))).statusCode, 200)
  assert.is((await revert(t, tokenOf(revertLinkTo(t, 'j1@example.com')!))).statusCode, 410, 'it would move the address again')
  assert.is(await emailOf(t, julienId), 'julien@example.com')
})

test('expired after 30 days: 410, nothing changed', async (ctx) => {
  const { t } = ctx
  const { id, token: camille } = await account(t, 'lente@example.com')
  assert.is((await changeEmail(t, camille, 'camille.plus.tard@example.com')).statusCode, 200)
  const link = revertLinkTo(t, 'lente@example.com')!
  t.clock.advance(EMAIL_REVERT_DAYS * 86_400_000 + 60_000)
  try {
    const late = await revert(t, tokenOf(link))
    assert.is(late.statusCode, 410)
    assert.is(late.json().message, emailRevertMessages.expired(t.deps.config.supportEmail))
    assert.match(late.json().message, 'Ce lien a expiré')
    assert.is(await emailOf(t, id), 'camille.plus.tard@example.com')
    // (the session itself ran out with the 30 days too: its row is what stays)
    assert.is((await t.deps.db.selectFrom('api_tokens').select('id').where('user_id', '=', id).execute()).length, 1, 'no session ended')
    assert.is((await reverts(t, id)).at(-1)!.used_at, null)
  } finally {
    t.clock.set(new Date())
  }
})

test('the address left is kept for its owner while the link holds; taken anyway: 409, nothing changed', async (ctx) => {
  const { t } = ctx
  const { id: julienId, token: julien } = await account(t, 'gardee@example.com')
  assert.is((await changeEmail(t, julien, 'julien.ailleurs@example.com')).statusCode, 200)
  const link = revertLinkTo(t, 'gardee@example.com')!
  // Someone with an account of their own cannot take the address left, which would make the link useless.
  const { id: otherId, token: other } = await account(t, 'voisin@example.com')
  const grab = await changeEmail(t, other, 'Gardee@example.com')
  assert.is(grab.statusCode, 409)
  assert.is(grab.json().message, 'Cette adresse e-mail est déjà utilisée par un autre compte.')
  assert.is(await emailOf(t, otherId), 'voisin@example.com')
  // Taken anyway (an account made some other way): the link says so and changes nothing.
  await t.deps.db.insertInto('users').values({ email: 'gardee@example.com', password_hash: 'x', firstname: 'Autre', lastname: 'Compte' }).execute()
  const taken = await revert(t, tokenOf(link))
  assert.is(taken.statusCode, 409)
  assert.is(taken.json().message, emailRevertMessages.taken('gardee@example.com', t.deps.config.supportEmail))
  assert.match(taken.json().message, 'L’adresse gardee@example.com est désormais celle d’un autre compte')
  assert.is(await emailOf(t, julienId), 'julien.ailleurs@example.com')
  assert.is(await signedIn(t, julien), 200, 'the session stays')
  assert.is((await reverts(t, julienId)).at(-1)!.used_at, null, 'the link is not spent')
  await t.deps.db.deleteFrom('users').where('email', '=', 'gardee@example.com').execute()
  assert.is((await revert(t, tokenOf(link))).statusCode, 200, 'once the address is free again, the link works')
})

test('unknown link: 404 in French (its token masked in the log: log-secrets.test.ts)', async (ctx) => {
  const unknown = await revert(ctx.t, 'x'.repeat(43))
  assert.is(unknown.statusCode, 404)
  assert.is(unknown.json().message, emailRevertMessages.unknown)
})

test('two clicks at once: one restores, the other answers 410', async (ctx) => {
  const { t } = ctx
  for (let round = 0; round < 5; round++) {
    const { id, token: session } = await account(t, `double.${round}@example.com`)
    assert.is((await changeEmail(t, session, `double.${round}.nouvelle@example.com`)).statusCode, 200)
    const token = tokenOf(revertLinkTo(t, `double.${round}@example.com`)!)
    const mailsBefore = t.mails.length
    const answers = await Promise.all([revert(t, token), revert(t, token)])
    assert.equal(answers.map((a) => a.statusCode).sort(), [200, 410], answers.map((a) => a.body).join(' / '))
    assert.is(t.mails.slice(mailsBefore).length, 1, 'one reset link')
    assert.is(await emailOf(t, id), `double.${round}@example.com`)
  }
})

if (process.env.DATABASE_URL) {
  test('PostgreSQL, two instances: both clicks wait on the user’s row, then one restores and the other answers 410', async (ctx) => {
    const { t } = ctx
    const other = await secondApp(t)
    const holder = await t.connectAgain()
    try {
      const { id, token: sophie } = await account(t, 'course@example.com')
      assert.is((await changeEmail(t, sophie, 'course.nouvelle@example.com')).statusCode, 200)
      const token = tokenOf(revertLinkTo(t, 'course@example.com')!)
      const held = await holdLocks(holder.db, (tx) => tx.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute())
      const answers = Promise.all([revert(t, token), revert(t, token, other)])
      await untilLockWaiters(t.deps.db, 2)
      await held.release()
      assert.equal((await answers).map((a) => a.statusCode).sort(), [200, 410])
      assert.is(await emailOf(t, id), 'course@example.com')
      assert.is(await signedIn(t, sophie), 401)
    } finally {
      await other.close()
    }
  })
}

test.run()
