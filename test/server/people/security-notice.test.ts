// The account's security notices outlive a mail server that refuses them: an address change's notice (with its
// « Ce n’était pas vous ? » link), a passkey's and a password's are queued and sent again by the job workers, with no token waiting
// in the queue; a link used meanwhile is not told any more.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../../../server/app.ts'
import { runOneJob } from '../../../server/services/jobs.ts'
import type { Mail } from '../../../server/services/mailer.ts'
import { SECURITY_NOTICE_ATTEMPTS, SECURITY_NOTICE_JOB, securityNoticeJob } from '../../../server/services/security-notice.ts'
import { hashPassword } from '../../../server/lib/crypto.ts'
import { buildTestApp, call, login, type TestApp } from '../../util/server.ts'
import { SoftPasskey } from '../../util/webauthn.ts'

interface Ctx {
  t: TestApp
}
const PASSWORD = 'le mot de passe du titulaire'

/** An app on the test's database whose mail server refuses everything until `up()`; what it accepts lands in `mails`. */
async function flakyMailApp(t: TestApp) {
  let down = true
  const mails: Mail[] = []
  const mailer = {
    send: async (mail: Mail) => {
      if (down) throw new Error('SMTP indisponible')
      mails.push(mail)
    },
  }
  const deps = { ...t.deps, mailer }
  const app = await buildApp(deps, { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' })
  const runNotices = async () => {
    const handlers = { [SECURITY_NOTICE_JOB]: securityNoticeJob(deps) }
    while (await runOneJob({ db: t.deps.db, handlers, name: 'essai' }));
  }
  return {
    app,
    mails,
    up: () => {
      down = false
    },
    runNotices,
  }
}
async function account(t: TestApp, email: string) {
  const { id } = await t.deps.db
    .insertInto('users')
    .values({ email, password_hash: await hashPassword(PASSWORD), firstname: 'Titulaire', lastname: 'Test' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id, token: await login(t.app, email, PASSWORD) }
}
const noticeJobs = (t: TestApp) =>
  t.deps.db
    .selectFrom('jobs')
    .select(['id', 'state', 'payload', 'max_attempts', 'attempts'])
    .where('kind', '=', SECURITY_NOTICE_JOB)
    .orderBy('id')
    .execute()
const emailOf = async (t: TestApp, id: number) =>
  (await t.deps.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email

const test = suite<Ctx>('security notices: queued when the mail server refuses them, sent again by the workers')
test.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
test.after((ctx) => ctx.t?.close())
test.before.each(async (ctx) => {
  await ctx.t.deps.db.deleteFrom('jobs').execute()
})

test('an address change while the mail server is down: kept, its notice queued without a token, then mailed with a link that works', async (ctx) => {
  const { t } = ctx
  const { id, token } = await account(t, 'titulaire@example.com')
  const flaky = await flakyMailApp(t)
  try {
    const changed = await call(flaky.app, token, 'PUT', '/api-protected/users/me/email', { newEmail: 'pirate@example.com' })
    assert.is(changed.statusCode, 200, changed.body)
    assert.is(await emailOf(t, id), 'pirate@example.com', 'the change is kept')
    assert.is(flaky.mails.length, 0)
    const [job, ...more] = await noticeJobs(t)
    assert.is(more.length, 0)
    assert.is(job!.state, 'queued')
    assert.is(job!.max_attempts, SECURITY_NOTICE_ATTEMPTS)
    const [link] = await t.deps.db.selectFrom('email_change_reverts').select(['id', 'token_hash']).where('user_id', '=', id).execute()
    assert.equal(job!.payload, {
      kind: 'email-changed',
      to: 'titulaire@example.com',
      firstname: 'Titulaire',
      newEmail: 'pirate@example.com',
      days: 30,
      revertLinkId: link!.id,
    })

    // Still down: the try fails, the job waits for its next turn; the notice is not lost.
    await flaky.runNotices()
    assert.is((await noticeJobs(t))[0]!.state, 'queued')

    flaky.up()
    await t.deps.db
      .updateTable('jobs')
      .set({ run_at: new Date(0) })
      .execute()
    await flaky.runNotices()
    assert.is((await noticeJobs(t))[0]!.state, 'done')
    const [notice, ...others] = flaky.mails
    assert.is(others.length, 0)
    assert.is(notice!.to, 'titulaire@example.com')
    assert.match(notice!.text, 'L’adresse e-mail de votre espace client')
    assert.match(notice!.text, 'est désormais pirate@example.com')
    assert.match(notice!.link!, /\/retablir-adresse\/[\w-]{43}$/)
    const [renewed] = await t.deps.db.selectFrom('email_change_reverts').select('token_hash').where('user_id', '=', id).execute()
    assert.is.not(renewed!.token_hash, link!.token_hash, 'the token made at the change, never mailed, no longer holds')
    const reverted = await t.app.inject({ method: 'POST', url: `/api/email-change-reverts/${notice!.link!.split('/').pop()}` })
    assert.is(reverted.statusCode, 200, reverted.body)
    assert.is(await emailOf(t, id), 'titulaire@example.com', 'the queued notice’s link gives the address back')
  } finally {
    await flaky.app.close()
  }
})

test('a queued notice whose link was used meanwhile is not sent; one whose link expired is sent without a link', async (ctx) => {
  const { t } = ctx
  const flaky = await flakyMailApp(t)
  try {
    const used = await account(t, 'utilise@example.com')
    const expired = await account(t, 'expire@example.com')
    for (const [who, to] of [
      [used, 'utilise-2@example.com'],
      [expired, 'expire-2@example.com'],
    ] as const) {
      assert.is((await call(flaky.app, who.token, 'PUT', '/api-protected/users/me/email', { newEmail: to })).statusCode, 200)
    }
    await t.deps.db.updateTable('email_change_reverts').set({ used_at: new Date() }).where('user_id', '=', used.id).execute()
    await t.deps.db
      .updateTable('email_change_reverts')
      .set({ expires_at: new Date(t.clock.now().getTime() - 1000) })
      .where('user_id', '=', expired.id)
      .execute()
    flaky.up()
    await flaky.runNotices()
    assert.equal(
      (await noticeJobs(t)).map((j) => j.state),
      ['done', 'done'],
    )
    assert.equal(
      flaky.mails.map((m) => m.to),
      ['expire@example.com'],
    )
    assert.is(flaky.mails[0]!.link, undefined)
    assert.match(flaky.mails[0]!.text, 'écrivez-nous sans tarder')
  } finally {
    await flaky.app.close()
  }
})

test('a passkey added while the mail server is down: kept, its notice queued, then mailed', async (ctx) => {
  const { t } = ctx
  const { token } = await account(t, 'cle@example.com')
  const flaky = await flakyMailApp(t)
  try {
    const key = new SoftPasskey({ origin: 'http://localhost:8080', rpId: 'localhost' })
    const options = (await call(flaky.app, token, 'POST', '/api-protected/users/me/passkeys/registration-options')).json()
    const added = await call(flaky.app, token, 'POST', '/api-protected/users/me/passkeys', {
      credential: key.register(options),
      name: 'Téléphone',
    })
    assert.is(added.statusCode, 200, added.body)
    assert.equal(
      (await noticeJobs(t)).map((j) => [j.state, j.payload]),
      [['queued', { kind: 'passkey-added', to: 'cle@example.com', firstname: 'Titulaire', name: 'Téléphone' }]],
    )
    flaky.up()
    await flaky.runNotices()
    assert.equal(
      flaky.mails.map((m) => [m.to, m.subject]),
      [['cle@example.com', `${t.deps.config.brandName} : une clé d’accès a été ajoutée à votre compte`]],
    )
    assert.match(flaky.mails[0]!.text, '« Téléphone »')
  } finally {
    await flaky.app.close()
  }
})

test('a password changed while the mail server is down: its notice, queued, tells the time of the change, not of the sending', async (ctx) => {
  const { t } = ctx
  const { token } = await account(t, 'mdp@example.com')
  const flaky = await flakyMailApp(t)
  try {
    t.clock.set(new Date('2026-12-08T13:05:00Z'))
    const changed = await call(flaky.app, token, 'PUT', '/api-protected/users/me/password', {
      currentPassword: PASSWORD,
      newPassword: 'un tout nouveau mot de passe solide',
    })
    assert.is(changed.statusCode, 200, changed.body)
    assert.equal(
      (await noticeJobs(t)).map((j) => [j.state, j.payload]),
      [['queued', { kind: 'password-changed', to: 'mdp@example.com', firstname: 'Titulaire', at: '2026-12-08T13:05:00.000Z' }]],
    )
    t.clock.set(new Date('2026-12-08T15:40:00Z'))
    flaky.up()
    await flaky.runNotices()
    assert.equal(
      flaky.mails.map((m) => [m.to, m.subject]),
      [['mdp@example.com', `${t.deps.config.brandName} : votre mot de passe a été modifié`]],
    )
    assert.match(flaky.mails[0]!.text, 'le 8 décembre 2026 à 14 h 05')
  } finally {
    await flaky.app.close()
  }
})

test('a mail server that answers: nothing is queued', async (ctx) => {
  const { t } = ctx
  const { token } = await account(t, 'direct@example.com')
  const before = t.mails.length
  assert.is((await call(t.app, token, 'PUT', '/api-protected/users/me/email', { newEmail: 'direct-2@example.com' })).statusCode, 200)
  assert.equal(
    t.mails.slice(before).map((m) => m.to),
    ['direct@example.com'],
  )
  assert.equal(await noticeJobs(t), [])
})

test.run()
