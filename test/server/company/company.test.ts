// The company area on the server: legal submissions judged by the order checks, listed per order or
// for all, moved on by the jurists through the operator API; the partner and accountant flags that
// the portal reads back from the orders; meeting-room bookings with their invoices.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { alreadyUnderWay } from '../../../server/routes/company/index.ts'
import { refusalFor, refusals } from '../../../server/services/legal-formalities.ts'
import { buildTestApp, call, login, ordersByName, TEST_OPERATOR_TOKEN, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  julien: string
  orders: Awaited<ReturnType<typeof ordersByName>>
}

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const ATELIER = 'Atelier Lumière SARL'
const STUDIO = 'Studio Nuage SAS'

const order = (t: Ctx, name: string) => t.orders[name]!.id
const submit = (ctx: Ctx, body: unknown, token = ctx.camille) => call(ctx.t.app, token, 'POST', '/api-protected/legal-submissions', body)
const list = (ctx: Ctx, orderId?: number, token = ctx.camille) =>
  call(ctx.t.app, token, 'GET', `/api-protected/legal-submissions${orderId === undefined ? '' : `?orderId=${orderId}`}`)
const move = (ctx: Ctx, id: number, status: string, token: string | null = TEST_OPERATOR_TOKEN) =>
  ctx.t.app.inject({
    method: 'PUT',
    url: `/api/operator/legal-submissions/${id}/status`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: { status },
  })
const count = async (ctx: Ctx) =>
  (
    await ctx.t.deps.db
      .selectFrom('legal_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n

async function setup(ctx: Ctx) {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.orders = await ordersByName(ctx.t.app, ctx.camille)
}

const Rules = suite('the order checks decide which formality can be ordered')
const checks = (c: Partial<{ completeKbis: boolean; waitingContract: boolean; attenteCourrierOrFinalise: boolean }>) => ({
  completeKbis: true,
  waitingContract: false,
  attenteCourrierOrFinalise: true,
  ...c,
})

Rules('a registered, active company: everything but a creation', () => {
  assert.is(refusalFor('creation', checks({})), refusals.alreadyRegistered)
  for (const kind of [
    'transfert-siege',
    'changement-dirigeant',
    'modification-denomination-objet',
    'modification-capital',
    'dissolution-liquidation',
  ] as const) {
    assert.is(refusalFor(kind, checks({})), null, kind)
  }
})

Rules('a company without its Kbis: only a creation', () => {
  assert.is(refusalFor('creation', checks({ completeKbis: false, attenteCourrierOrFinalise: false })), null)
  assert.is(refusalFor('transfert-siege', checks({ completeKbis: false })), refusals.kbisMissing)
  assert.is(refusalFor('modification-capital', checks({ completeKbis: false })), refusals.kbisMissing)
})

Rules('a contract still to sign: nothing', () => {
  for (const kind of ['creation', 'transfert-siege', 'dissolution-liquidation'] as const)
    assert.is(refusalFor(kind, checks({ waitingContract: true, completeKbis: false })), refusals.waitingContract)
})

Rules('a domiciliation not active yet: a transfer, but no change nor dissolution', () => {
  assert.is(refusalFor('transfert-siege', checks({ attenteCourrierOrFinalise: false })), null)
  assert.is(refusalFor('changement-dirigeant', checks({ attenteCourrierOrFinalise: false })), refusals.notActive)
  assert.is(refusalFor('dissolution-liquidation', checks({ attenteCourrierOrFinalise: false })), refusals.notActive)
})

Rules.run()

const Ordering = suite<Ctx>('POST /api-protected/legal-submissions')
Ordering.before(setup)
Ordering.after((ctx) => ctx.t?.close())

Ordering('a creation is refused for a registered company, in French, and nothing is stored', async (ctx) => {
  const before = await count(ctx)
  const res = await submit(ctx, { orderId: order(ctx, BOULANGERIE), kind: 'creation' })
  assert.is(res.statusCode, 409)
  assert.is(res.json().message, refusals.alreadyRegistered)
  assert.is(await count(ctx), before)
})

Ordering('the company waiting for its Kbis may order its creation, not a change', async (ctx) => {
  const atelier = order(ctx, ATELIER)
  const refused = await submit(ctx, { orderId: atelier, kind: 'changement-dirigeant' })
  assert.is(refused.statusCode, 409)
  assert.is(refused.json().message, refusals.kbisMissing)
  const created = await submit(ctx, { orderId: atelier, kind: 'creation', comment: ' \u200b\ufeff ' })
  assert.is(created.statusCode, 200, created.body)
  assert.equal([created.json().status, created.json().comment, created.json().raisonSociale], ['Reçue', null, ATELIER])
})

Ordering('an order waiting for its contract, or not active yet, is told why', async (ctx) => {
  const boulangerie = order(ctx, BOULANGERIE)
  await ctx.t.deps.db.updateTable('orders').set({ status: 'En attente de contrat' }).where('id', '=', boulangerie).execute()
  const waiting = await submit(ctx, { orderId: boulangerie, kind: 'transfert-siege' })
  assert.equal([waiting.statusCode, waiting.json().message], [409, refusals.waitingContract])
  await ctx.t.deps.db.updateTable('orders').set({ status: 'En attente de procuration' }).where('id', '=', boulangerie).execute()
  const inactive = await submit(ctx, { orderId: boulangerie, kind: 'dissolution-liquidation' })
  assert.equal([inactive.statusCode, inactive.json().message], [409, refusals.notActive])
  await ctx.t.deps.db.updateTable('orders').set({ status: 'Finalisé' }).where('id', '=', boulangerie).execute()
})

Ordering('bad input: a French 400 and nothing stored', async (ctx) => {
  const before = await count(ctx)
  for (const body of [
    { orderId: order(ctx, BOULANGERIE), kind: 'fusion' },
    { orderId: order(ctx, BOULANGERIE) },
    { orderId: 'deux', kind: 'transfert-siege' },
    { orderId: order(ctx, BOULANGERIE), kind: 'transfert-siege', comment: 'x'.repeat(2001) },
    { orderId: order(ctx, BOULANGERIE), kind: 'transfert-siege', prix: 0 },
  ]) {
    const res = await submit(ctx, body)
    assert.is(res.statusCode, 400, JSON.stringify(body))
    assert.match(res.json().message, /champ|corps/)
  }
  assert.is(await count(ctx), before)
})

Ordering("a collaborator reads the shared order's requests but orders nothing; a stranger sees nothing", async (ctx) => {
  const boulangerie = order(ctx, BOULANGERIE)
  const before = await count(ctx)
  const refused = await submit(ctx, { orderId: boulangerie, kind: 'transfert-siege' }, ctx.julien)
  assert.is(refused.statusCode, 403)
  assert.is(await count(ctx), before)
  const readable = await list(ctx, boulangerie, ctx.julien)
  assert.is(readable.statusCode, 200)
  assert.ok(readable.json().every((r: { orderId: number }) => r.orderId === boulangerie))
  const sophie = await login(ctx.t.app, 'solo@example.com')
  assert.is((await list(ctx, boulangerie, sophie)).statusCode, 404)
  assert.equal((await list(ctx, undefined, sophie)).json(), [], 'her own order has none')
})

Ordering('the same formality once at a time; again once the first is finished', async (ctx) => {
  const boulangerie = order(ctx, BOULANGERIE)
  const first = await submit(ctx, { orderId: boulangerie, kind: 'changement-dirigeant' })
  assert.is(first.statusCode, 200)
  const again = await submit(ctx, { orderId: boulangerie, kind: 'changement-dirigeant' })
  assert.equal([again.statusCode, again.json().message], [409, alreadyUnderWay])
  assert.is((await move(ctx, first.json().id, 'Terminée')).statusCode, 200)
  assert.is((await submit(ctx, { orderId: boulangerie, kind: 'changement-dirigeant' })).statusCode, 200)
})

Ordering('two identical orders at once: one request', async (ctx) => {
  const boulangerie = order(ctx, BOULANGERIE)
  const body = { orderId: boulangerie, kind: 'modification-denomination-objet' }
  const answers = await Promise.all([submit(ctx, body), submit(ctx, body), submit(ctx, body)])
  assert.equal(answers.map((a) => a.statusCode).sort(), [200, 409, 409])
  const stored = await ctx.t.deps.db
    .selectFrom('legal_submissions')
    .select('id')
    .where('order_id', '=', boulangerie)
    .where('kind', '=', body.kind)
    .execute()
  assert.is(stored.length, 1)
})

Ordering("'Tous': every request of the orders the user reaches, with the company, newest first", async (ctx) => {
  const all = (await list(ctx)).json() as { raisonSociale: string; receivedAt: string }[]
  assert.ok(
    all.some((r) => r.raisonSociale === STUDIO),
    'the shared order',
  )
  assert.ok(all.some((r) => r.raisonSociale === ATELIER))
  assert.ok(all.every((r, i) => i === 0 || all[i - 1]!.receivedAt >= r.receivedAt))
})

Ordering.run()

const Jurists = suite<Ctx>('PUT /api/operator/legal-submissions/{id}/status')
Jurists.before(setup)
Jurists.after((ctx) => ctx.t?.close())

Jurists('moves a request forward, dates each step, tells the owner; never back', async (ctx) => {
  const created = (await submit(ctx, { orderId: order(ctx, BOULANGERIE), kind: 'transfert-siege' })).json()
  const started = await move(ctx, created.id, 'En cours')
  assert.is(started.statusCode, 200)
  assert.equal([started.json().status, started.json().filedAt], ['En cours', null])
  assert.ok(started.json().startedAt)
  assert.equal(
    [ctx.t.mails.at(-1)!.to, ctx.t.mails.at(-1)!.subject],
    ['demo@example.com', `Transfert de siège social (${BOULANGERIE}) : En cours`],
  )
  for (const status of ['Reçue', 'En cours']) {
    const back = await move(ctx, created.id, status)
    assert.is(back.statusCode, 409, status)
    assert.match(back.json().message, 'ne peut qu’avancer')
  }
  // A step may be skipped: it stays undated.
  const done = (await move(ctx, created.id, 'Terminée')).json()
  assert.equal([done.status, done.filedAt], ['Terminée', null])
  assert.ok(done.completedAt >= done.startedAt)
  const listed = (await list(ctx, order(ctx, BOULANGERIE))).json().find((r: { id: number }) => r.id === created.id)
  assert.equal(listed, done, 'the customer sees what the jurists set')
})

Jurists('an unknown request, an unknown status, a customer token: refused, nothing changes', async (ctx) => {
  assert.is((await move(ctx, 999999, 'En cours')).statusCode, 404)
  const created = (await submit(ctx, { orderId: order(ctx, BOULANGERIE), kind: 'modification-capital' })).json()
  assert.is((await move(ctx, created.id, 'Annulée')).statusCode, 400)
  assert.is((await move(ctx, created.id, 'En cours', ctx.camille)).statusCode, 401)
  assert.is((await move(ctx, created.id, 'En cours', null)).statusCode, 401)
  const listed = (await list(ctx, order(ctx, BOULANGERIE))).json().find((r: { id: number }) => r.id === created.id)
  assert.is(listed.status, 'Reçue')
})

Jurists('the operators list every request', async (ctx) => {
  const res = await ctx.t.app.inject({
    method: 'GET',
    url: '/api/operator/legal-submissions',
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
  })
  const names = new Set(res.json().map((r: { raisonSociale: string }) => r.raisonSociale))
  assert.ok(names.has(STUDIO) && names.has(BOULANGERIE))
})

Jurists.run()

const Flags = suite<Ctx>('what the company pages read back after a reload')
Flags.before(setup)
Flags.after((ctx) => ctx.t?.close())

Flags('Qonto and Shine interest and the accountant request come back with the orders', async (ctx) => {
  const boulangerie = order(ctx, BOULANGERIE)
  const before = (await ordersByName(ctx.t.app, ctx.camille))[BOULANGERIE] as unknown as {
    qonto: boolean
    shine: boolean
    wantComptable: boolean
  }
  assert.equal([before.qonto, before.shine, before.wantComptable], [false, false, false])
  await call(ctx.t.app, ctx.camille, 'POST', `/api/domiciliation-orders/${boulangerie}:set-qonto`, { qonto: true })
  await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/want-comptable/${boulangerie}`)
  const after = (await ordersByName(ctx.t.app, ctx.camille))[BOULANGERIE] as unknown as typeof before
  assert.equal([after.qonto, after.shine, after.wantComptable], [true, false, true])
  const shared = (await ordersByName(ctx.t.app, ctx.julien))[BOULANGERIE] as unknown as typeof before
  assert.equal([shared.qonto, shared.wantComptable], [true, true], 'the collaborator sees the same')
})

Flags("the Boulangerie's meeting-room bookings: one to come in Salle Haussmann, each with its paid invoice", async (ctx) => {
  const bookings = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/invoices/cal')).json() as {
    date: string
    room: string
    invoiceId: number
    paid: boolean
  }[]
  const now = new Date().toISOString()
  assert.ok(
    bookings.some((b) => b.room === 'Salle Haussmann' && b.date > now),
    'one to come',
  )
  assert.ok(
    bookings.some((b) => b.room === 'Salle Haussmann' && b.date < now),
    'one past',
  )
  assert.ok(bookings.every((b) => b.paid))
  const invoice = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/invoices/${bookings[0]!.invoiceId}/file`)
  assert.is(invoice.statusCode, 200)
  assert.is(invoice.headers['content-type'], 'application/pdf')
})

Flags('a booking paid follows its invoice', async (ctx) => {
  const booking = await ctx.t.deps.db
    .selectFrom('calendar_invoices')
    .select(['id', 'invoice_id'])
    .where('invoice_id', 'is not', null)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  await ctx.t.deps.db.updateTable('invoices').set({ paid_at: null }).where('id', '=', booking.invoice_id!).execute()
  const bookings = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/invoices/cal')).json() as { id: number; paid: boolean }[]
  assert.is(bookings.find((b) => b.id === booking.id)!.paid, false)
})

Flags.run()
