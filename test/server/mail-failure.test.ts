// An e-mail that cannot leave once its call has written (the mail server down or refusing): the call takes back what
// it wrote and answers a French 503, so that a retry records it again and the e-mail goes (http/send-or-undo.ts).
// Before, the row stayed behind a 500: a termination's retry answered 409 « déjà enregistrée », the accountant offer's
// 200, an invitation's none re-sent for a minute; the support, or the invitee, never got the e-mail.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { mailNotSent } from '../../server/http/send-or-undo.ts'
import { invitationsNotSent } from '../../server/routes/people/index.ts'
import type { Mail } from '../../server/services/mailer.ts'
import { call, TEST_OPERATOR_TOKEN, type TestApp } from '../util/server.ts'
import { demoContext, type DemoContext } from '../util/server-samples.ts'

/** Runs `body` while the mailer throws for the e-mails `fails` picks (counted from 1), as a mail server that refuses. */
async function withFailingMail<T>(t: TestApp, fails: (n: number, mail: Mail) => boolean, body: () => Promise<T>): Promise<T> {
  const send = t.deps.mailer.send
  let n = 0
  t.deps.mailer.send = async (mail) => {
    if (fails(++n, mail)) throw new Error('421 4.3.2 Service not available')
    return send(mail)
  }
  try {
    return await body()
  } finally {
    t.deps.mailer.send = send
  }
}
const always = () => true

const notSent = (res: LightMyRequestResponse, message = mailNotSent) =>
  assert.equal([res.statusCode, res.json()], [503, { statusCode: 503, code: 'MAIL_NOT_SENT', message }], res.body)

const Failing = suite<DemoContext>('an e-mail that cannot leave: nothing kept, a French 503, the retry sends it')
Failing.before(async (ctx) => void (await demoContext(ctx)))
Failing.after((ctx) => ctx.t.close())

Failing('termination request: no request kept; the retry records it and e-mails the support', async ({ t, ids, camille }) => {
  const body = { orderId: ids.order, reason: 'Déménagement du siège', date: `${new Date().getFullYear() + 2}-01-31` }
  const rows = () => t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ids.order).execute()
  const before = t.mails.length
  notSent(await withFailingMail(t, always, () => call(t.app, camille, 'POST', '/api-protected/termination-requests', body)))
  assert.equal(await rows(), [])
  assert.is((await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${ids.order}/termination-request`)).json().request, null)
  const retry = await call(t.app, camille, 'POST', '/api-protected/termination-requests', body)
  assert.is(retry.statusCode, 200, retry.body)
  assert.is((await rows()).length, 1)
  assert.equal(t.mails.slice(before).map((m) => [m.to, m.subject]), [[t.deps.config.supportEmail, 'Demande de résiliation : Boulangerie des Lilas SAS']])
})

Failing('accountant offer: the date put back; the retry records it and e-mails the support', async ({ t, ids, camille }) => {
  const recorded = async () => (await t.deps.db.selectFrom('orders').select('want_comptable_at').where('id', '=', ids.order).executeTakeFirstOrThrow()).want_comptable_at
  assert.is(await recorded(), null)
  const before = t.mails.length
  notSent(await withFailingMail(t, always, () => call(t.app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`)))
  assert.is(await recorded(), null)
  const retry = await call(t.app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`)
  assert.is(retry.statusCode, 200, retry.body)
  assert.ok(await recorded())
  assert.equal(t.mails.slice(before).map((m) => m.subject), ['Offre expert-comptable : Boulangerie des Lilas SAS'])
})

Failing('a formality moved on by the jurists while the e-mail cannot leave: moved all the same (200), the bell tells the owner', async ({ t, ids, camille }) => {
  const created = (await call(t.app, camille, 'POST', '/api-protected/legal-submissions', { orderId: ids.order, kind: 'modification-capital' })).json()
  const move = () => t.app.inject({ method: 'PUT', url: `/api/operator/legal-submissions/${created.id}/status`, headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` }, payload: { status: 'En cours' } })
  const moved = await withFailingMail(t, always, move)
  assert.is(moved.statusCode, 200, moved.body)
  assert.is(moved.json().status, 'En cours')
  const bell = (await call(t.app, camille, 'GET', '/api-protected/notifications')).json() as { notifications: { title: string }[] }
  assert.ok(bell.notifications.some((n) => n.title.endsWith(': En cours')), 'the bell says it')
})

Failing('a problem report and a legal formality ordered: nothing kept; the retry records one and e-mails the support', async ({ t, ids, camille }) => {
  const count = async (table: 'problem_reports' | 'legal_submissions') =>
    (await t.deps.db.selectFrom(table).select('id').where('order_id', '=', ids.order).execute()).length
  const [reports, submissions, before] = [await count('problem_reports'), await count('legal_submissions'), t.mails.length]
  const report = () => call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}:send-problem`, { message: 'Le dernier courrier scanné est illisible.' })
  const formality = () => call(t.app, camille, 'POST', '/api-protected/legal-submissions', { orderId: ids.order, kind: 'transfert-siege', comment: 'Transfert depuis Lyon.' })
  notSent(await withFailingMail(t, always, report))
  notSent(await withFailingMail(t, always, formality))
  assert.equal([await count('problem_reports'), await count('legal_submissions'), t.mails.length], [reports, submissions, before])
  assert.is((await report()).statusCode, 200)
  const ordered = await formality()
  assert.is(ordered.statusCode, 200, ordered.body)
  assert.equal([await count('problem_reports'), await count('legal_submissions')], [reports + 1, submissions + 1])
  assert.equal(t.mails.slice(before).map((m) => m.subject.split(' :')[0]), ['Problème signalé', 'Formalité commandée'])
})

Failing('invitations, the second e-mail refused: the first stays sent, the others are not kept and are named; the retry sends those', async ({ t, ids, camille }) => {
  const emails = ['a1@example.org', 'a2@example.org', 'a3@example.org']
  const invite = () => call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}/invite`, { emails })
  const invited = async () => (await t.deps.db.selectFrom('shares').select('email').where('order_id', '=', ids.order).where('email', 'in', emails).orderBy('id').execute()).map((s) => s.email)
  const before = t.mails.length
  const failed = await withFailingMail(t, (n) => n === 2, invite)
  notSent(failed, invitationsNotSent(['a2@example.org', 'a3@example.org'], ['a1@example.org']))
  assert.match(failed.json().message, 'L’e-mail d’invitation n’a pas pu être envoyé à a2@example.org et a3@example.org : rien n’a été enregistré pour ces adresses.')
  assert.equal(await invited(), ['a1@example.org'])
  assert.equal(t.mails.slice(before).map((m) => m.to), ['a1@example.org'])
  const retry = await invite()
  assert.is(retry.statusCode, 200, retry.body)
  assert.equal(retry.json().map((s: { email: string }) => s.email), emails)
  assert.equal(t.mails.slice(before).map((m) => m.to), emails, 'a2 and a3 sent now, a1 not twice')
  for (const email of emails.slice(1)) {
    const token = t.mails.findLast((m) => m.to === email)!.link!.split('/invitation/')[1]
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode, 200, `${email}'s link works`)
  }
})

Failing('a pending invitation sent again, its e-mail refused: the invitation as it was (its first link works); the retry sends a new link', async ({ t, ids, camille }) => {
  const invite = () => call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}/invite`, { emails: ['relance@example.org'] })
  const row = () => t.deps.db.selectFrom('shares').select(['id', 'invitation_token_hash', 'invitation_expires_at', 'invitation_sent_at', 'invited_by'])
    .where('order_id', '=', ids.order).where('email', '=', 'relance@example.org').executeTakeFirstOrThrow()
  const linkOf = () => t.mails.findLast((m) => m.to === 'relance@example.org')!.link!.split('/invitation/')[1]
  assert.is((await invite()).statusCode, 200)
  const first = linkOf()
  const invitation = await row()
  t.clock.advance(2 * 60_000)
  try {
    notSent(await withFailingMail(t, always, invite), invitationsNotSent(['relance@example.org'], []))
    assert.equal(await row(), invitation, 'the invitation as it was')
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${first}` })).statusCode, 200, 'its first link still works')
    assert.is((await invite()).statusCode, 200)
    const second = linkOf()
    assert.is.not(second, first, 'the retry sent a new link at once')
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${second}` })).statusCode, 200)
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${first}` })).statusCode, 404)
  } finally {
    t.clock.set(new Date())
  }
})

Failing.run()
