// An e-mail that cannot leave once its call has written (the mail server down or refusing): the call takes back what
// it wrote and answers a French 503, so that a retry records it again and the e-mail goes (http/send-or-undo.ts).
// Before, the row stayed behind a 500: a termination's retry answered 409 « déjà enregistrée », the accountant offer's
// 200, an invitation's none re-sent for a minute; the support, or the invitee, never got the e-mail.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { identicalUnderWay, mailNotSent } from '../../server/http/send-or-undo.ts'
import { invitationsNotSent } from '../../server/routes/people/index.ts'
import type { Mail } from '../../server/services/mailer.ts'
import { buildTestApp, call, login, secondApp, TEST_OPERATOR_TOKEN, type TestApp } from '../util/server.ts'
import { demoContext, demoIds, TERMINATION_DATE, type DemoContext } from '../util/server-samples.ts'

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
Failing.after((ctx) => ctx.t?.close())

Failing('termination request: no request kept; the retry records it and e-mails the support', async ({ t, ids, camille }) => {
  const body = { orderId: ids.order, reason: 'Déménagement du siège', date: TERMINATION_DATE }
  const rows = () => t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ids.order).execute()
  const before = t.mails.length
  notSent(await withFailingMail(t, always, () => call(t.app, camille, 'POST', '/api-protected/termination-requests', body)))
  assert.equal(await rows(), [])
  assert.is(
    (await call(t.app, camille, 'GET', `/api-protected/domiciliation-orders/${ids.order}/termination-request`)).json().request,
    null,
  )
  const retry = await call(t.app, camille, 'POST', '/api-protected/termination-requests', body)
  assert.is(retry.statusCode, 200, retry.body)
  assert.is((await rows()).length, 1)
  assert.equal(
    t.mails.slice(before).map((m) => [m.to, m.subject]),
    [[t.deps.config.supportEmail, 'Demande de résiliation : Boulangerie des Lilas SAS']],
  )
})

Failing('accountant offer: the date put back; the retry records it and e-mails the support', async ({ t, ids, camille }) => {
  const recorded = async () =>
    (await t.deps.db.selectFrom('orders').select('want_comptable_at').where('id', '=', ids.order).executeTakeFirstOrThrow())
      .want_comptable_at
  assert.is(await recorded(), null)
  const before = t.mails.length
  notSent(await withFailingMail(t, always, () => call(t.app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`)))
  assert.is(await recorded(), null)
  const retry = await call(t.app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`)
  assert.is(retry.statusCode, 200, retry.body)
  assert.ok(await recorded())
  assert.equal(
    t.mails.slice(before).map((m) => m.subject),
    ['Offre expert-comptable : Boulangerie des Lilas SAS'],
  )
})

Failing(
  'a formality moved on by the jurists while the e-mail cannot leave: moved all the same (200), the bell tells the owner',
  async ({ t, ids, camille }) => {
    const created = (
      await call(t.app, camille, 'POST', '/api-protected/legal-submissions', { orderId: ids.order, kind: 'modification-capital' })
    ).json()
    const move = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/operator/legal-submissions/${created.id}/status`,
        headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
        payload: { status: 'En cours' },
      })
    const moved = await withFailingMail(t, always, move)
    assert.is(moved.statusCode, 200, moved.body)
    assert.is(moved.json().status, 'En cours')
    const bell = (await call(t.app, camille, 'GET', '/api-protected/notifications')).json() as { notifications: { title: string }[] }
    assert.ok(
      bell.notifications.some((n) => n.title.endsWith(': En cours')),
      'the bell says it',
    )
  },
)

Failing(
  'a problem report and a legal formality ordered: nothing kept; the retry records one and e-mails the support',
  async ({ t, ids, camille }) => {
    const count = async (table: 'problem_reports' | 'legal_submissions') =>
      (await t.deps.db.selectFrom(table).select('id').where('order_id', '=', ids.order).execute()).length
    const [reports, submissions, before] = [await count('problem_reports'), await count('legal_submissions'), t.mails.length]
    const report = () =>
      call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}:send-problem`, {
        message: 'Le dernier courrier scanné est illisible.',
      })
    const formality = () =>
      call(t.app, camille, 'POST', '/api-protected/legal-submissions', {
        orderId: ids.order,
        kind: 'transfert-siege',
        comment: 'Transfert depuis Lyon.',
      })
    notSent(await withFailingMail(t, always, report))
    notSent(await withFailingMail(t, always, formality))
    assert.equal([await count('problem_reports'), await count('legal_submissions'), t.mails.length], [reports, submissions, before])
    assert.is((await report()).statusCode, 200)
    const ordered = await formality()
    assert.is(ordered.statusCode, 200, ordered.body)
    assert.equal([await count('problem_reports'), await count('legal_submissions')], [reports + 1, submissions + 1])
    assert.equal(
      t.mails.slice(before).map((m) => m.subject.split(' :')[0]),
      ['Problème signalé', 'Formalité commandée'],
    )
  },
)

Failing(
  'invitations, the second e-mail refused: the first stays sent, the others are not kept and are named; the retry sends those',
  async ({ t, ids, camille }) => {
    const emails = ['a1@example.org', 'a2@example.org', 'a3@example.org']
    const invite = () => call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}/invite`, { emails })
    const invited = async () =>
      (
        await t.deps.db
          .selectFrom('shares')
          .select('email')
          .where('order_id', '=', ids.order)
          .where('email', 'in', emails)
          .orderBy('id')
          .execute()
      ).map((s) => s.email)
    const before = t.mails.length
    const failed = await withFailingMail(t, (n) => n === 2, invite)
    notSent(failed, invitationsNotSent(['a2@example.org', 'a3@example.org'], ['a1@example.org']))
    assert.match(
      failed.json().message,
      'L’e-mail d’invitation n’a pas pu être envoyé à a2@example.org et a3@example.org : rien n’a été enregistré pour ces adresses.',
    )
    assert.equal(await invited(), ['a1@example.org'])
    assert.equal(
      t.mails.slice(before).map((m) => m.to),
      ['a1@example.org'],
    )
    const retry = await invite()
    assert.is(retry.statusCode, 200, retry.body)
    assert.equal(
      retry.json().map((s: { email: string }) => s.email),
      emails,
    )
    assert.equal(
      t.mails.slice(before).map((m) => m.to),
      emails,
      'a2 and a3 sent now, a1 not twice',
    )
    for (const email of emails.slice(1)) {
      const token = t.mails.findLast((m) => m.to === email)!.link!.split('/invitation/')[1]
      assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode, 200, `${email}'s link works`)
    }
  },
)

Failing(
  'a pending invitation sent again, its e-mail refused: the invitation as it was (its first link works); the retry sends a new link',
  async ({ t, ids, camille }) => {
    const invite = () =>
      call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}/invite`, { emails: ['relance@example.org'] })
    const row = () =>
      t.deps.db
        .selectFrom('shares')
        .select(['id', 'invitation_token_hash', 'invitation_expires_at', 'invitation_sent_at', 'invited_by'])
        .where('order_id', '=', ids.order)
        .where('email', '=', 'relance@example.org')
        .executeTakeFirstOrThrow()
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
  },
)

Failing.run()

// The same call twice while the first one's e-mail is leaving (a double click, a retry after a slow answer, another tab,
// another API instance): the second saw the first one's write, answered « enregistrée » (or 409 « déjà enregistrée »)
// at once, then the first took it back: nothing kept, no e-mail, the customer told it was done (19
// rounds in 20 on PostgreSQL). Now the second waits for the first one's outcome, then does what is left to do.

type Call = (app: TestApp['app']) => Promise<LightMyRequestResponse>

/**
 * `first` runs until its e-mail is leaving, held there; `second` (on another API instance: on PostgreSQL its own
 * connections) is sent then and given 500 ms (what it does without waiting, it has done by then); then the first e-mail
 * is refused. The e-mails after it leave when `mailBack`, else are refused too. The two answers.
 */
async function duplicateDuringSend(t: TestApp, mailBack: boolean, first: Call, second: Call = first): Promise<LightMyRequestResponse[]> {
  const other = await secondApp(t)
  let leaving!: () => void
  const firstLeaving = new Promise<void>((resolve) => {
    leaving = resolve
  })
  let refuse!: () => void
  const refused = new Promise<void>((resolve) => {
    refuse = resolve
  })
  try {
    return await withFailingMail(
      t,
      (n) => n === 1 || !mailBack,
      async () => {
        const failing = t.deps.mailer.send
        let n = 0
        t.deps.mailer.send = async (mail) => {
          if (++n === 1) {
            leaving()
            await refused
          }
          return failing(mail)
        }
        const answers = [first(t.app)]
        await firstLeaving
        answers.push(second(other))
        await new Promise((resolve) => setTimeout(resolve, 500))
        refuse()
        return Promise.all(answers)
      },
    )
  } finally {
    await other.close()
  }
}

const Duplicate = suite<DemoContext>(
  'the same call during the first one’s e-mail: it waits for its outcome, never told « enregistrée » for what is taken back',
)
Duplicate.before(async (ctx) => void (await demoContext(ctx)))
Duplicate.after((ctx) => ctx.t?.close())

Duplicate(
  'accountant offer, mail server down: both told it was not sent, nothing recorded (the review’s case: 200 while nothing was kept)',
  async ({ t, ids, camille }) => {
    const before = t.mails.length
    const [first, second] = await duplicateDuringSend(t, false, (app) =>
      call(app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`),
    )
    notSent(first!)
    notSent(second!)
    assert.is(
      (await t.deps.db.selectFrom('orders').select('want_comptable_at').where('id', '=', ids.order).executeTakeFirstOrThrow())
        .want_comptable_at,
      null,
    )
    assert.is(t.mails.length, before)
  },
)

Duplicate(
  'accountant offer, the mail server back for the second: the second records it and e-mails the support',
  async ({ t, ids, camille }) => {
    const before = t.mails.length
    const [first, second] = await duplicateDuringSend(t, true, (app) =>
      call(app, camille, 'GET', `/api-protected/want-comptable/${ids.order}`),
    )
    notSent(first!)
    assert.is(second!.statusCode, 200, second!.body)
    assert.ok(
      (await t.deps.db.selectFrom('orders').select('want_comptable_at').where('id', '=', ids.order).executeTakeFirstOrThrow())
        .want_comptable_at,
    )
    assert.equal(
      t.mails.slice(before).map((m) => m.subject),
      ['Offre expert-comptable : Boulangerie des Lilas SAS'],
    )
  },
)

Duplicate(
  'termination request, mail server down: both 503, no request (it answered 409 « déjà enregistrée »)',
  async ({ t, ids, camille }) => {
    const body = { orderId: ids.order, reason: 'Déménagement du siège', date: TERMINATION_DATE }
    const before = t.mails.length
    const [first, second] = await duplicateDuringSend(t, false, (app) =>
      call(app, camille, 'POST', '/api-protected/termination-requests', body),
    )
    notSent(first!)
    notSent(second!)
    assert.equal(await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ids.order).execute(), [])
    assert.is(t.mails.length, before)
  },
)

Duplicate(
  'termination request, the mail server back: the second records it (200) and e-mails the support; one request',
  async ({ t, ids, camille }) => {
    const body = { orderId: ids.order, reason: 'Déménagement du siège', date: TERMINATION_DATE }
    const before = t.mails.length
    const [first, second] = await duplicateDuringSend(t, true, (app) =>
      call(app, camille, 'POST', '/api-protected/termination-requests', body),
    )
    notSent(first!)
    assert.is(second!.statusCode, 200, second!.body)
    assert.equal(
      (await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ids.order).execute()).map((r) => r.id),
      [second!.json().id],
    )
    assert.equal(
      t.mails.slice(before).map((m) => m.subject),
      ['Demande de résiliation : Boulangerie des Lilas SAS'],
    )
  },
)

Duplicate(
  'legal formality, the mail server back: the second orders it (it answered 409 « déjà en cours »); one request, one e-mail',
  async ({ t, ids, camille }) => {
    const before = t.mails.length
    const order: Call = (app) =>
      call(app, camille, 'POST', '/api-protected/legal-submissions', { orderId: ids.order, kind: 'transfert-siege' })
    const [first, second] = await duplicateDuringSend(t, true, order)
    notSent(first!)
    assert.is(second!.statusCode, 200, second!.body)
    const open = await t.deps.db
      .selectFrom('legal_submissions')
      .select('id')
      .where('order_id', '=', ids.order)
      .where('kind', '=', 'transfert-siege')
      .execute()
    assert.equal(
      open.map((r) => r.id),
      [second!.json().id],
    )
    assert.equal(
      t.mails.slice(before).map((m) => m.subject.split(' :')[0]),
      ['Formalité commandée'],
    )
  },
)

Duplicate(
  'invitation, the mail server back: the second sends it (it answered 200, the address listed, while the invitation was taken back)',
  async ({ t, ids, camille }) => {
    const email = 'double@example.org'
    const before = t.mails.length
    const [first, second] = await duplicateDuringSend(t, true, (app) =>
      call(app, camille, 'POST', `/api-protected/domiciliation-orders/${ids.order}/invite`, { emails: [email] }),
    )
    notSent(first!, invitationsNotSent([email], []))
    assert.is(second!.statusCode, 200, second!.body)
    assert.equal(
      second!.json().map((s: { email: string }) => s.email),
      [email],
    )
    assert.equal(
      t.mails.slice(before).map((m) => m.to),
      [email],
      'one invitation e-mail',
    )
    const token = t.mails.at(-1)!.link!.split('/invitation/')[1]
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode, 200, 'its link works')
  },
)

Duplicate.run()

const Stuck = suite<DemoContext>('the same call while the first one’s e-mail hangs: after the wait, a French 409 and nothing done')
Stuck.before(async (ctx) => {
  ctx.t = await buildTestApp({ oneAtATimeWaitMs: 300 })
  ctx.ids = await demoIds(ctx.t.deps.db)
  ctx.camille = await login(ctx.t.app)
})
Stuck.after((ctx) => ctx.t?.close())

Stuck(
  'termination request: the second is told one is being sent (REQUEST_UNDER_WAY); the first, once its e-mail left, records it',
  async ({ t, ids, camille }) => {
    const body = { orderId: ids.order, reason: 'Déménagement du siège', date: TERMINATION_DATE }
    const other = await secondApp(t)
    const send = t.deps.mailer.send
    let leaving!: () => void
    const firstLeaving = new Promise<void>((resolve) => {
      leaving = resolve
    })
    let leave!: () => void
    const left = new Promise<void>((resolve) => {
      leave = resolve
    })
    t.deps.mailer.send = async (mail) => {
      leaving()
      await left
      return send(mail)
    }
    try {
      const before = t.mails.length
      const first = call(t.app, camille, 'POST', '/api-protected/termination-requests', body)
      await firstLeaving
      const second = await call(other, camille, 'POST', '/api-protected/termination-requests', body)
      assert.equal(
        [second.statusCode, second.json()],
        [409, { statusCode: 409, code: 'REQUEST_UNDER_WAY', message: identicalUnderWay }],
        second.body,
      )
      leave()
      assert.is((await first).statusCode, 200)
      assert.is((await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ids.order).execute()).length, 1)
      assert.is(t.mails.length - before, 1)
    } finally {
      t.deps.mailer.send = send
      await other.close()
    }
  },
)

Stuck.run()
