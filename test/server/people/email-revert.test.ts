// « Ce n’était pas vous ? »: the link of an address change's notice gives the account back to the address left. A
// stolen session changes the address, resets the password through the new one and adds a passkey; the link undoes all
// of it. Used, expired, unknown and taken links change nothing; two clicks at once restore once.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { emailRevertMessages, EMAIL_REVERT_DAYS } from '../../../server/routes/people/email-revert.ts'
import { holdLocks, untilLockWaiters } from '../../util/postgres.ts'
import { hashPassword } from '../../../server/lib/crypto.ts'
import { buildTestApp, call, eventually, login, secondApp, type TestApp } from '../../util/server.ts'
import { SoftPasskey } from '../../util/webauthn.ts'

interface Ctx {
  t: TestApp
}

const ATTACKER_PASSWORD = 'le mot de passe du pirate'
const PASSWORD = 'le mot de passe du titulaire'
const passwordHash = hashPassword(PASSWORD)
/** An account of the test's own (a revert leaves a password nobody knows: the demo accounts would not sign in again). */
async function account(t: TestApp, email: string) {
  const { id } = await t.deps.db
    .insertInto('users')
    .values({ email, password_hash: await passwordHash, firstname: 'Titulaire', lastname: 'Test' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id, token: await login(t.app, email, PASSWORD) }
}
const revertLinkTo = (t: TestApp, email: string) =>
  t.mails.filter((m) => m.to === email && m.link?.includes('/retablir-adresse/')).at(-1)?.link
const tokenOf = (link: string) => link.split('/retablir-adresse/')[1]!
const revert = (t: TestApp, token: string, app = t.app) => app.inject({ method: 'POST', url: `/api/email-change-reverts/${token}` })
const changeEmail = (t: TestApp, token: string, newEmail: string) =>
  call(t.app, token, 'PUT', '/api-protected/users/me/email', { newEmail })
const emailOf = async (t: TestApp, id: number) =>
  (await t.deps.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email
const userId = async (t: TestApp, email: string) =>
  (await t.deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
const canLogin = async (t: TestApp, username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } })).statusCode
const signedIn = async (t: TestApp, token: string) => (await call(t.app, token, 'GET', '/api-protected/user/me')).statusCode
const reverts = (t: TestApp, id: number) =>
  t.deps.db.selectFrom('email_change_reverts').selectAll().where('user_id', '=', id).orderBy('id').execute()

const test = suite<Ctx>('« Ce n’était pas vous ? »: the revert link of an address change')
test.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
test.after((ctx) => ctx.t?.close())

test('a stolen session takes the account over; the link in the old address’s notice gives it back, for good', async (ctx) => {
  const { t } = ctx
  const victim = await login(t.app, 'demo@example.com')
  const id = await userId(t, 'demo@example.com')

  // The attacker, with the victim's token: a new address, a reset link asked there, a password of theirs, a passkey.
  assert.is((await changeEmail(t, victim, 'pirate@example.com')).statusCode, 200)
  const notice = t.mails.at(-1)!
  assert.is(notice.to, 'demo@example.com', 'the old address is told')
  assert.match(
    notice.text,
    'Si vous n’êtes pas à l’origine de ce changement, rétablissez votre adresse avec ce lien (valable 30 jours) : http://localhost:8080/retablir-adresse/',
  )
  assert.match(notice.text, ' — toutes les connexions à votre espace seront fermées.')
  assert.match(notice.link!, /^http:\/\/localhost:8080\/retablir-adresse\/[\w-]{43}$/)
  assert.ok(notice.text.includes(notice.link!))
  const [row] = await reverts(t, id)
  assert.equal([row!.old_email, row!.new_email, row!.used_at], ['demo@example.com', 'pirate@example.com', null])
  assert.is(Math.round((row!.expires_at.getTime() - t.clock.now().getTime()) / 86_400_000), EMAIL_REVERT_DAYS)
  assert.is.not(row!.token_hash, tokenOf(notice.link!), 'only its SHA-256 is kept')

  await t.app.inject({
    method: 'POST',
    url: '/reset-password-request',
    payload: { email: 'pirate@example.com', domain: 'http://localhost:8080' },
  })
  const resetLink = await eventually(() => t.mails.find((m) => m.to === 'pirate@example.com')?.link)
  assert.is(
    (
      await t.app.inject({
        method: 'POST',
        url: '/reset-password',
        payload: { token: resetLink.split('/').pop(), password: ATTACKER_PASSWORD },
      })
    ).statusCode,
    200,
  )
  assert.is(await signedIn(t, victim), 401, 'the reset ended the victim’s session')
  const attacker = await login(t.app, 'pirate@example.com', ATTACKER_PASSWORD)
  const key = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
  const options = (await call(t.app, attacker, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
  assert.is(
    (await call(t.app, attacker, 'POST', '/api-protected/users/me/passkeys', { credential: key.register(options) })).statusCode,
    200,
  )

  // The victim opens the link.
  const mailsBefore = t.mails.length
  const reverted = await revert(t, tokenOf(notice.link!))
  assert.is(reverted.statusCode, 200, reverted.body)
  assert.equal(reverted.json(), { message: emailRevertMessages.done('demo@example.com') })
  assert.is(
    reverted.json().message,
    'Votre adresse demo@example.com est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.',
  )
  assert.is(await emailOf(t, id), 'demo@example.com')
  assert.is(await signedIn(t, attacker), 401, 'the attacker’s session ended')
  assert.is(await canLogin(t, 'pirate@example.com', ATTACKER_PASSWORD), 401)
  assert.is(await canLogin(t, 'demo@example.com', ATTACKER_PASSWORD), 401, 'the attacker’s password no longer opens it')
  assert.is(
    (await t.deps.db.selectFrom('passkeys').select('id').where('user_id', '=', id).execute()).length,
    0,
    'the attacker’s passkey is gone',
  )
  const passkeyOptions = (await t.app.inject({ method: 'POST', url: '/api/passkeys/login-options' })).json()
  assert.is(
    (await t.app.inject({ method: 'POST', url: '/api/passkeys/login', payload: { credential: key.authenticate(passkeyOptions) } }))
      .statusCode,
    401,
  )
  assert.ok((await reverts(t, id)).every((r) => r.used_at !== null))

  // A fresh reset link went to the address restored, and it works.
  const sent = t.mails.slice(mailsBefore)
  assert.equal(
    sent.map((m) => m.to),
    ['demo@example.com'],
  )
  assert.match(sent[0]!.link!, /^http:\/\/localhost:8080\/set-password\/[\w-]{43}$/)
  assert.is(
    (
      await t.app.inject({
        method: 'POST',
        url: '/reset-password',
        payload: { token: sent[0]!.link!.split('/').pop(), password: 'le mot de passe retrouvé' },
      })
    ).statusCode,
    200,
  )
  assert.ok(await login(t.app, 'demo@example.com', 'le mot de passe retrouvé'))

  // Used: 410, and nothing moves (the victim's new session stays).
  const again = await revert(t, tokenOf(notice.link!))
  assert.is(again.statusCode, 410)
  assert.is(again.json().message, emailRevertMessages.used)
  assert.ok(await login(t.app, 'demo@example.com', 'le mot de passe retrouvé'))
})

test('the address changed twice: only the first change leaves a link (the owner’s), the address only typed is told nothing', async (ctx) => {
  const { t } = ctx
  const { id, token: sophie } = await account(t, 'sophie@example.com')
  assert.is((await changeEmail(t, sophie, 'premier.pirate@example.com')).statusCode, 200)
  assert.is((await changeEmail(t, sophie, 'second.pirate@example.com')).statusCode, 200)
  assert.is(
    t.mails.filter((m) => m.to === 'premier.pirate@example.com').length,
    0,
    'an address only typed gets no mail (it may be a stranger’s)',
  )
  assert.is((await reverts(t, id)).length, 1, 'one link')
  assert.is((await revert(t, tokenOf(revertLinkTo(t, 'sophie@example.com')!))).statusCode, 200)
  assert.is(await emailOf(t, id), 'sophie@example.com')
})

test('a typo corrected at once: the stranger at the mistyped address gets nothing (its link took the account)', async (ctx) => {
  const { t } = ctx
  const { id, token: camille } = await account(t, 'camille.vraie@example.com')
  assert.is((await changeEmail(t, camille, 'camille.vraie@exmaple.com')).statusCode, 200)
  assert.is((await changeEmail(t, camille, 'camille.vraie@example.com')).statusCode, 200)
  assert.is(t.mails.filter((m) => m.to === 'camille.vraie@exmaple.com').length, 0)
  assert.equal(
    (await reverts(t, id)).map((r) => r.old_email),
    ['camille.vraie@example.com'],
  )
  // Still nothing once the first link has run out: the mistyped address was never proven.
  const { id: noeId, token: noe } = await account(t, 'noe@example.com')
  assert.is((await changeEmail(t, noe, 'noe@exmaple.com')).statusCode, 200)
  t.clock.advance((EMAIL_REVERT_DAYS + 1) * 86_400_000)
  try {
    const fresh = await login(t.app, 'noe@exmaple.com', PASSWORD)
    assert.is((await changeEmail(t, fresh, 'noe@example.com')).statusCode, 200)
    assert.is(t.mails.filter((m) => m.to === 'noe@exmaple.com').length, 0)
    assert.is((await reverts(t, noeId)).length, 1)
  } finally {
    t.clock.set(new Date())
  }
})

test('a thief who proves his own address, then changes it back, holds no link: the owner’s decides', async (ctx) => {
  const { t } = ctx
  const { id, token: owner } = await account(t, 'lea@example.com')
  assert.is((await changeEmail(t, owner, 'voleur@example.com')).statusCode, 200)
  const ownerLink = revertLinkTo(t, 'lea@example.com')!
  // Proven through a reset link at his address (which ends the owner's session), then the address put back to hide it.
  await t.app.inject({
    method: 'POST',
    url: '/reset-password-request',
    payload: { email: 'voleur@example.com', domain: 'http://localhost:8080' },
  })
  const resetLink = await eventually(() => t.mails.find((m) => m.to === 'voleur@example.com' && m.link)?.link)
  assert.is(
    (
      await t.app.inject({
        method: 'POST',
        url: '/reset-password',
        payload: { token: resetLink.split('/').pop(), password: ATTACKER_PASSWORD },
      })
    ).statusCode,
    200,
  )
  const thief = await login(t.app, 'voleur@example.com', ATTACKER_PASSWORD)
  assert.is((await changeEmail(t, thief, 'lea@example.com')).statusCode, 200)
  const notice = t.mails.filter((m) => m.to === 'voleur@example.com').at(-1)!
  assert.match(notice.text, 'L’adresse e-mail de votre espace client')
  assert.is(notice.link, undefined, 'a proven address is told, without a link while an earlier one holds')
  assert.match(notice.text, 'Si vous n’êtes pas à l’origine de ce changement, écrivez-nous sans tarder à ')
  assert.is((await reverts(t, id)).length, 1)
  // The owner's link still gives the account back, and every way in of the thief's closes.
  assert.is((await revert(t, tokenOf(ownerLink))).statusCode, 200)
  assert.is(await signedIn(t, thief), 401)
  // The address restored is proven: a change from it leaves a link again.
  const resetAgain = t.mails.filter((m) => m.to === 'lea@example.com').at(-1)!.link!
  assert.is(
    (await t.app.inject({ method: 'POST', url: '/reset-password', payload: { token: resetAgain.split('/').pop(), password: PASSWORD } }))
      .statusCode,
    200,
  )
  assert.is((await changeEmail(t, await login(t.app, 'lea@example.com', PASSWORD), 'lea.nouvelle@example.com')).statusCode, 200)
  assert.ok(revertLinkTo(t, 'lea@example.com') !== ownerLink, 'a new link')
  assert.is((await reverts(t, id)).length, 2)
})

test('links made before the one-at-a-time rule: only the oldest live one can be used (410 otherwise, nothing changed)', async (ctx) => {
  const { t } = ctx
  const { id, token: session } = await account(t, 'ancienne@example.com')
  assert.is((await changeEmail(t, session, 'ancienne.2@example.com')).statusCode, 200)
  const first = tokenOf(revertLinkTo(t, 'ancienne@example.com')!)
  // A second live link, as the rule before migration 014 left them.
  const { randomToken, sha256 } = await import('../../../server/lib/crypto.ts')
  const second = randomToken()
  await t.deps.db
    .insertInto('email_change_reverts')
    .values({
      user_id: id,
      token_hash: sha256(second),
      old_email: 'ancienne.2@example.com',
      new_email: 'ancienne.3@example.com',
      created_at: t.clock.now(),
      expires_at: new Date(t.clock.now().getTime() + 86_400_000),
    })
    .execute()
  const refused = await revert(t, second)
  assert.is(refused.statusCode, 410)
  assert.is(refused.json().message, emailRevertMessages.superseded(t.deps.config.supportEmail))
  assert.is(await emailOf(t, id), 'ancienne.2@example.com')
  assert.is(await signedIn(t, session), 200)
  assert.is((await revert(t, first)).statusCode, 200)
  assert.is(await emailOf(t, id), 'ancienne@example.com')
})

test('an invitation cannot make an account on an address another account may still take back (409, nothing kept)', async (ctx) => {
  const { t } = ctx
  const { token: session } = await account(t, 'reprise@example.com')
  assert.is((await changeEmail(t, session, 'reprise.ailleurs@example.com')).statusCode, 200)
  const sophie = await login(t.app, 'solo@example.com')
  const orders = (await call(t.app, sophie, 'GET', '/api-protected/my-domiciliation-orders')).json() as {
    id: number
    isShareOrder: boolean
  }[]
  const own = orders.find((o) => !o.isShareOrder)!
  assert.is(
    (await call(t.app, sophie, 'POST', `/api-protected/domiciliation-orders/${own.id}/invite`, { emails: ['reprise@example.com'] }))
      .statusCode,
    200,
  )
  const invitation = t.mails
    .filter((m) => m.to === 'reprise@example.com')
    .at(-1)!
    .link!.split('/invitation/')[1]!
  const made = await t.app.inject({
    method: 'POST',
    url: `/api/invitations/${invitation}/account`,
    payload: { firstname: 'Nouvelle', lastname: 'Personne', password: 'trois mots au hasard' },
  })
  assert.is(made.statusCode, 409, made.body)
  assert.match(made.json().message, 'L’adresse reprise@example.com vient de quitter un autre compte')
  assert.is((await t.deps.db.selectFrom('users').select('id').where('email', '=', 'reprise@example.com').execute()).length, 0)
  assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${invitation}` })).statusCode, 200, 'the invitation is still there')
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
  await t.deps.db
    .insertInto('users')
    .values({ email: 'gardee@example.com', password_hash: 'x', firstname: 'Autre', lastname: 'Compte' })
    .execute()
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

test('a change asked with a session ended since its check (a revert, a reset) changes nothing', async (ctx) => {
  const { t } = ctx
  const { id, token: session } = await account(t, 'fin.de.session@example.com')
  const { changeEmailWithRevertLink } = await import('../../../server/db/repositories/people-email-reverts.ts')
  const { sha256 } = await import('../../../server/lib/crypto.ts')
  await t.deps.db.deleteFrom('api_tokens').where('user_id', '=', id).execute()
  const now = t.clock.now()
  const changed = await changeEmailWithRevertLink(t.deps.db, {
    userId: id,
    newEmail: 'trop.tard@example.com',
    now,
    expiresAt: new Date(now.getTime() + 86_400_000),
    sessionTokenHash: sha256(session),
  })
  assert.is(changed, 'ended')
  assert.is(await emailOf(t, id), 'fin.de.session@example.com')
  assert.is((await reverts(t, id)).length, 0)
})

if (process.env.DATABASE_URL) {
  test('PostgreSQL, two instances: a stolen session’s change that waited on a revert is refused (401), the address stays restored', async (ctx) => {
    const { t } = ctx
    const other = await secondApp(t)
    const holder = await t.connectAgain()
    try {
      const { id, token: thief } = await account(t, 'course.change@example.com')
      assert.is((await changeEmail(t, thief, 'course.change.pirate@example.com')).statusCode, 200)
      const token = tokenOf(revertLinkTo(t, 'course.change@example.com')!)
      const { sha256 } = await import('../../../server/lib/crypto.ts')
      // The link held: the revert takes the user's row, then waits on it; the thief's change, its session still there
      // when checked, waits on the user's row.
      const held = await holdLocks(holder.db, (tx) =>
        tx.selectFrom('email_change_reverts').select('id').where('token_hash', '=', sha256(token)).forUpdate().execute(),
      )
      const reverting = revert(t, token)
      await untilLockWaiters(t.deps.db, 1)
      const changing = call(other, thief, 'PUT', '/api-protected/users/me/email', { newEmail: 'course.change.encore@example.com' })
      await untilLockWaiters(t.deps.db, 2)
      await held.release()
      assert.is((await reverting).statusCode, 200)
      const change = await changing
      assert.is(change.statusCode, 401, change.body)
      assert.is(await emailOf(t, id), 'course.change@example.com')
    } finally {
      await other.close()
    }
  })

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
