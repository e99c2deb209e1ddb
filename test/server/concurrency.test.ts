// Money moves once (issue 9, defect 1): many identical requests at the same moment. On PGlite the
// queries of concurrent requests are serialised; on PostgreSQL (test:server:pg) they really run at
// once, several connections of the pool in parallel, which is where a missing lock shows.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { PAYMENT_LEASE_MINUTES } from '../../server/routes/billing/index.ts'
import { testPaymentProvider } from '../../server/services/payment.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../util/server.ts'

interface Ctx { t: TestApp; camille: string; boulangerie: number }

const fire = <T>(n: number, request: () => Promise<T>) => Promise.all(Array.from({ length: n }, request))
const no5xx = (responses: LightMyRequestResponse[]) =>
  assert.equal(responses.filter((r) => r.statusCode >= 500).map((r) => r.body), [], 'no 5xx')

async function chargesOf(t: TestApp, email: string) {
  const user = await t.deps.db.selectFrom('users').select('payment_customer_id').where('email', '=', email).executeTakeFirstOrThrow()
  return t.deps.db.selectFrom('test_charges').selectAll().where('customer_id', '=', user.payment_customer_id!).execute()
}

/** A suite on its own demo app, Camille signed in, her Boulangerie's order id at hand. */
function demoSuite(name: string) {
  const s = suite<Ctx>(name)
  s.before(async (ctx) => {
    ctx.t = await buildTestApp()
    ctx.camille = await login(ctx.t.app)
    ctx.boulangerie = (await ordersByName(ctx.t.app, ctx.camille))['Boulangerie des Lilas SAS']!.id
  })
  s.after((ctx) => ctx.t.close())
  return s
}

const Pay = demoSuite('30 simultaneous pay-unpaid-invoice: one charge')

Pay('the unpaid invoice is charged once, for its amount, and is paid', async ({ t, camille, boulangerie }) => {
  const unpaid = await t.deps.db.selectFrom('invoices').select(['id', 'amount_incl_tax_cents']).where('order_id', '=', boulangerie).where('paid_at', 'is', null).execute()
  assert.is(unpaid.length, 1, 'the demo Boulangerie has one unpaid invoice')
  const responses = await fire(30, () => call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: boulangerie }))
  no5xx(responses)
  const charges = await chargesOf(t, 'demo@example.com')
  assert.equal(charges.map((c) => c.amount), [unpaid[0]!.amount_incl_tax_cents], 'one charge of the invoice amount')
  const invoice = await t.deps.db.selectFrom('invoices').select(['paid_at', 'payment_reference']).where('id', '=', unpaid[0]!.id).executeTakeFirstOrThrow()
  assert.ok(invoice.paid_at)
  assert.is(invoice.payment_reference, charges[0]!.id, 'the invoice names the charge that paid it')
  const paid = responses.filter((r) => r.statusCode === 200 && r.json().paidCount === 1)
  assert.is(paid.length, 1, 'one answer says it paid')
  for (const other of responses.filter((r) => !paid.includes(r))) {
    assert.ok(other.statusCode === 200 || other.statusCode === 409, other.body)
    if (other.statusCode === 200) assert.is(other.json().paidCount, 0)
    else assert.match(other.json().message, 'paiement')
  }
})

Pay.run()

const Terminate = demoSuite('20 simultaneous termination requests: one row, one e-mail')

Terminate('one request recorded, the others refused with 409 in French', async ({ t, camille, boulangerie }) => {
  const mailsBefore = t.mails.length
  const date = `${new Date().getFullYear() + 2}-01-31`
  const responses = await fire(20, () => call(t.app, camille, 'POST', '/api-protected/termination-requests', { orderId: boulangerie, reason: 'Déménagement du siège', date }))
  no5xx(responses)
  const rows = await t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', boulangerie).execute()
  assert.is(rows.length, 1, 'one row')
  assert.is(t.mails.length - mailsBefore, 1, 'one e-mail to the support')
  assert.is(responses.filter((r) => r.statusCode === 200).length, 1)
  const refused = responses.filter((r) => r.statusCode !== 200)
  assert.is(refused.length, 19)
  for (const r of refused) {
    assert.is(r.statusCode, 409, r.body)
    assert.is(r.json().message, 'Une demande de résiliation est déjà enregistrée pour cette domiciliation.')
  }
})

Terminate.run()

/** How the provider call ends: normally, or the process "dies" before or after the provider charged. */
type Crash = 'none' | 'beforeCharge' | 'afterCharge'
interface CrashCtx extends Ctx { crash: { mode: Crash } }

const Retry = suite<CrashCtx>('a retry after a crash charges nothing twice')
Retry.before.each(async (ctx) => {
  ctx.crash = { mode: 'none' }
  const crash = ctx.crash
  ctx.t = await buildTestApp({
    payments: ({ db, clock }) => {
      const provider = testPaymentProvider(db, clock.now)
      return {
        ...provider,
        async charge(request) {
          if (crash.mode === 'beforeCharge') throw new Error('connexion au fournisseur perdue')
          const charge = await provider.charge(request)
          if (crash.mode === 'afterCharge') throw new Error('processus arrêté avant d’enregistrer le paiement')
          return charge
        },
      }
    },
  })
  ctx.camille = await login(ctx.t.app)
  ctx.boulangerie = (await ordersByName(ctx.t.app, ctx.camille))['Boulangerie des Lilas SAS']!.id
})
Retry.after.each((ctx) => ctx.t.close())

const pay = ({ t, camille, boulangerie }: Ctx) => call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: boulangerie })
const unpaidCount = async ({ t, boulangerie }: Ctx) =>
  (await t.deps.db.selectFrom('invoices').select('id').where('order_id', '=', boulangerie).where('paid_at', 'is', null).execute()).length
const attempts = ({ t }: Ctx) => t.deps.db.selectFrom('payment_attempts').select(['status', 'charge_id', 'idempotency_key']).orderBy('id').execute()

for (const mode of ['afterCharge', 'beforeCharge'] as const) {
  Retry(`dies ${mode === 'afterCharge' ? 'after' : 'before'} the provider charged: the pending attempt is resumed with its key, one charge in all`, async (ctx) => {
    ctx.crash.mode = mode
    const crashed = await pay(ctx)
    assert.is(crashed.statusCode, 503, crashed.body)
    assert.match(crashed.json().message, 'vérifié avant tout nouveau prélèvement')
    assert.is((await chargesOf(ctx.t, 'demo@example.com')).length, mode === 'afterCharge' ? 1 : 0)
    assert.equal((await attempts(ctx)).map((a) => a.status), ['pending'], 'recorded before the provider was called, left pending')
    assert.is(await unpaidCount(ctx), 1)

    ctx.crash.mode = 'none'
    const tooSoon = await pay(ctx)
    assert.is(tooSoon.statusCode, 409, 'while its lease runs, the attempt may still be at work')
    assert.is((await chargesOf(ctx.t, 'demo@example.com')).length, mode === 'afterCharge' ? 1 : 0)

    ctx.t.clock.advance((PAYMENT_LEASE_MINUTES + 1) * 60_000)
    const retries = await fire(10, () => pay(ctx))
    no5xx(retries)
    const charges = await chargesOf(ctx.t, 'demo@example.com')
    assert.is(charges.length, 1, 'one charge in all')
    assert.is(await unpaidCount(ctx), 0)
    const [attempt] = await attempts(ctx)
    assert.equal([attempt!.status, attempt!.charge_id], ['succeeded', charges[0]!.id])
    assert.is((await ctx.t.deps.db.selectFrom('test_charges').select('idempotency_key').executeTakeFirstOrThrow()).idempotency_key, attempt!.idempotency_key)
    assert.is(retries.filter((r) => r.statusCode === 200 && r.json().paidCount === 1).length, 1)
  })
}

Retry('a declined card settles the attempt as failed, frees the invoice, charges nothing; the next card pays it', async (ctx) => {
  const { t, camille, boulangerie } = ctx
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const declining = await provider.createTestPaymentMethod!({ number: '4000000000000341', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.is((await call(t.app, camille, 'PUT', `/api-protected/domiciliation-orders/${boulangerie}/payment-method`, { pm: declining.id })).statusCode, 200)
  const declined = await pay(ctx)
  assert.is(declined.statusCode, 402)
  assert.match(declined.json().message, 'refusée')
  assert.equal((await attempts(ctx)).map((a) => a.status), ['failed'])
  assert.is(await unpaidCount(ctx), 1)
  assert.equal(await chargesOf(t, 'demo@example.com'), [])
  const good = await provider.createTestPaymentMethod!({ number: '5555555555554444', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.is((await call(t.app, camille, 'PUT', `/api-protected/domiciliation-orders/${boulangerie}/payment-method`, { pm: good.id })).statusCode, 200)
  const paid = await pay(ctx)
  assert.is(paid.json().paidCount, 1)
  const [charge] = await chargesOf(t, 'demo@example.com')
  assert.is(charge!.payment_method, good.id, 'charged on the card paying for that order')
})

Retry.run()

const Cancel = demoSuite('a courier request is cancelled once: simultaneous cancels, a processed request')

const requestsOf = (t: TestApp, orderId: number, status: 'en attente' | 'traitée') =>
  t.deps.db.selectFrom('courier_requests').select('id').where('order_id', '=', orderId).where('status', '=', status).orderBy('id').execute()

Cancel('10 at once: one answer says cancelled, the others that it is gone (404), none a 5xx', async ({ t, camille, boulangerie }) => {
  const [pending] = await requestsOf(t, boulangerie, 'en attente')
  assert.ok(pending, 'the demo Boulangerie has a pending request')
  const responses = await fire(10, () => call(t.app, camille, 'POST', '/api-protected/user-demandes-courrier/remove', { orderId: boulangerie, id: pending.id }))
  no5xx(responses)
  assert.equal(responses.filter((r) => r.statusCode === 200).map((r) => r.json().message), ['La demande a été annulée.'])
  for (const other of responses.filter((r) => r.statusCode !== 200)) {
    assert.is(other.statusCode, 404, other.body)
    assert.match(other.json().message, 'Demande')
  }
  assert.not.ok((await requestsOf(t, boulangerie, 'en attente')).some((r) => r.id === pending.id))
})

Cancel('a processed request is refused in French (409) and stays; another order’s id is a 404', async ({ t, camille, boulangerie }) => {
  const [processed] = await requestsOf(t, boulangerie, 'traitée')
  assert.ok(processed)
  const res = await call(t.app, camille, 'POST', '/api-protected/user-demandes-courrier/remove', { orderId: boulangerie, id: processed.id })
  assert.is(res.statusCode, 409, res.body)
  assert.is(res.json().message, 'Seule une demande en attente peut être annulée.')
  assert.ok((await requestsOf(t, boulangerie, 'traitée')).some((r) => r.id === processed.id), 'it stays')
  // A pending request of another of her orders, named with the wrong order: not found, and not cancelled.
  const orders = await ordersByName(t.app, camille)
  const others = await Promise.all(Object.values(orders).filter((o) => o.id !== boulangerie).map(async (o) => ({ o, pending: await requestsOf(t, o.id, 'en attente') })))
  const other = others.find((x) => x.pending.length)!
  const wrong = await call(t.app, camille, 'POST', '/api-protected/user-demandes-courrier/remove', { orderId: boulangerie, id: other.pending[0]!.id })
  assert.is(wrong.statusCode, 404, wrong.body)
  assert.ok((await requestsOf(t, other.o.id, 'en attente')).some((r) => r.id === other.pending[0]!.id), 'the other order’s request stays')
})

Cancel.run()

const Accountant = demoSuite('10 simultaneous requests for the accountant offer: one date, one e-mail')

Accountant('every answer says it is recorded; the support gets one e-mail', async ({ t, camille, boulangerie }) => {
  const mailsBefore = t.mails.length
  const responses = await fire(10, () => call(t.app, camille, 'GET', `/api-protected/want-comptable/${boulangerie}`))
  no5xx(responses)
  assert.ok(responses.every((r) => r.statusCode === 200 && r.json().wantComptable === true), responses.map((r) => r.body).join())
  assert.equal(t.mails.slice(mailsBefore).map((m) => m.subject), ['Offre expert-comptable : Boulangerie des Lilas SAS'])
  // Asked again later: still recorded, no second e-mail.
  assert.is((await call(t.app, camille, 'GET', `/api-protected/want-comptable/${boulangerie}`)).statusCode, 200)
  assert.is(t.mails.length, mailsBefore + 1)
})

Accountant.run()

const FolderRace = demoSuite('a letter moved into a folder while the folder is deleted: a 404 or the move, never a 500')

FolderRace('40 rounds of a move and a delete at the same moment', async ({ t, camille, boulangerie }) => {
  const letters = (await call(t.app, camille, 'GET', `/api-protected/documents?orderId=${boulangerie}`)).json() as { id: number }[]
  const seen = new Set<string>()
  for (let round = 0; round < 40; round++) {
    const folder = (await call(t.app, camille, 'POST', '/api-protected/folders', { name: `Course ${round}`, domiciliationOrderId: boulangerie })).json() as { id: number }
    const letter = letters[round % letters.length]!.id
    const [moved, deleted] = await Promise.all([
      call(t.app, camille, 'PUT', `/api-protected/documents/${letter}`, { folderId: folder.id }),
      call(t.app, camille, 'DELETE', `/api-protected/folders/${folder.id}`),
    ])
    // On PostgreSQL the move's write could meet the folder gone since its check: the foreign key's error was a 500.
    no5xx([moved, deleted])
    assert.is(deleted.statusCode, 200)
    if (moved.statusCode === 404) assert.is(moved.json().message, 'Dossier introuvable.')
    seen.add(String(moved.statusCode))
    // Whatever the order, the letter is in no deleted folder.
    const row = await t.deps.db.selectFrom('documents').select('folder_id').where('id', '=', letter).executeTakeFirstOrThrow()
    assert.is.not(row.folder_id, folder.id)
  }
  assert.ok([...seen].every((s) => s === '200' || s === '404'), [...seen].join(','))
})

FolderRace.run()
