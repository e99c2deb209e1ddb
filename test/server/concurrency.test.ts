// Money moves once (defect 1): many identical requests at the same moment. On PGlite the
// queries of concurrent requests are serialised; on PostgreSQL (test:server:pg) they really run at
// once, several connections of the pool in parallel, which is where a missing lock shows.
import { createHash } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { claimUnpaidInvoices, recordPaymentSucceeded } from '../../server/db/repositories/billing.ts'
import { findTestSubscription } from '../../server/db/repositories/billing-test-provider.ts'
import { PAYMENT_LEASE_MINUTES } from '../../server/routes/billing/index.ts'
import { testPaymentProvider } from '../../server/services/payment.ts'
import { buildTestApp, call, login, ordersByName, secondApp, type TestApp } from '../util/server.ts'
import { TERMINATION_DATE } from '../util/server-samples.ts'
import { lockWaiters } from '../util/postgres.ts'

interface Ctx {
  t: TestApp
  camille: string
  boulangerie: number
}

const fire = <T>(n: number, request: () => Promise<T>) => Promise.all(Array.from({ length: n }, request))
const no5xx = (responses: LightMyRequestResponse[]) =>
  assert.equal(
    responses.filter((r) => r.statusCode >= 500).map((r) => r.body),
    [],
    'no 5xx',
  )

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
  s.after((ctx) => ctx.t?.close())
  return s
}

const Pay = demoSuite('30 simultaneous pay-unpaid-invoice: one charge')

Pay('the unpaid invoice is charged once, for its amount, and is paid', async ({ t, camille, boulangerie }) => {
  const unpaid = await t.deps.db
    .selectFrom('invoices')
    .select(['id', 'amount_incl_tax_cents'])
    .where('order_id', '=', boulangerie)
    .where('paid_at', 'is', null)
    .execute()
  assert.is(unpaid.length, 1, 'the demo Boulangerie has one unpaid invoice')
  const responses = await fire(30, () => call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: boulangerie }))
  no5xx(responses)
  const charges = await chargesOf(t, 'demo@example.com')
  assert.equal(
    charges.map((c) => c.amount),
    [unpaid[0]!.amount_incl_tax_cents],
    'one charge of the invoice amount',
  )
  const invoice = await t.deps.db
    .selectFrom('invoices')
    .select(['paid_at', 'payment_reference'])
    .where('id', '=', unpaid[0]!.id)
    .executeTakeFirstOrThrow()
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
  const date = TERMINATION_DATE
  const responses = await fire(20, () =>
    call(t.app, camille, 'POST', '/api-protected/termination-requests', { orderId: boulangerie, reason: 'Déménagement du siège', date }),
  )
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
interface CrashCtx extends Ctx {
  crash: { mode: Crash; providerUnreachable: boolean }
}

const DAY_MS = 24 * 3_600_000

const Retry = suite<CrashCtx>('a retry after a crash charges nothing twice')
Retry.before.each(async (ctx) => {
  ctx.crash = { mode: 'none', providerUnreachable: false }
  const crash = ctx.crash
  ctx.t = await buildTestApp({
    payments: ({ db, clock }) => {
      const provider = testPaymentProvider(db, clock.now)
      // Like Stripe: a key is forgotten 24 hours after its first use, and the same key then makes a new charge.
      const firstUse = new Map<string, number>()
      return {
        ...provider,
        async charge(request) {
          if (crash.mode === 'beforeCharge') throw new Error('connexion au fournisseur perdue')
          const first = firstUse.get(request.idempotencyKey) ?? clock.now().getTime()
          firstUse.set(request.idempotencyKey, first)
          const forgotten = clock.now().getTime() - first > DAY_MS
          const charge = await provider.charge(forgotten ? { ...request, idempotencyKey: `${request.idempotencyKey}-oubliée` } : request)
          if (crash.mode === 'afterCharge') throw new Error('processus arrêté avant d’enregistrer le paiement')
          return charge
        },
        async findCharge(request) {
          if (crash.providerUnreachable) throw new Error('fournisseur injoignable')
          return provider.findCharge(request)
        },
      }
    },
  })
  ctx.camille = await login(ctx.t.app)
  ctx.boulangerie = (await ordersByName(ctx.t.app, ctx.camille))['Boulangerie des Lilas SAS']!.id
})
Retry.after.each((ctx) => ctx.t.close())

const pay = ({ t, camille, boulangerie }: Ctx) =>
  call(t.app, camille, 'POST', '/api-protected/pay-unpaid-invoice', { orderId: boulangerie })
const unpaidCount = async ({ t, boulangerie }: Ctx) =>
  (await t.deps.db.selectFrom('invoices').select('id').where('order_id', '=', boulangerie).where('paid_at', 'is', null).execute()).length
const attempts = ({ t }: Ctx) =>
  t.deps.db.selectFrom('payment_attempts').select(['status', 'charge_id', 'idempotency_key']).orderBy('id').execute()

for (const mode of ['afterCharge', 'beforeCharge'] as const) {
  Retry(
    `dies ${mode === 'afterCharge' ? 'after' : 'before'} the provider charged: the pending attempt is resumed with its key, one charge in all`,
    async (ctx) => {
      ctx.crash.mode = mode
      const crashed = await pay(ctx)
      assert.is(crashed.statusCode, 503, crashed.body)
      assert.match(crashed.json().message, 'vérifié avant tout nouveau prélèvement')
      assert.is((await chargesOf(ctx.t, 'demo@example.com')).length, mode === 'afterCharge' ? 1 : 0)
      assert.equal(
        (await attempts(ctx)).map((a) => a.status),
        ['pending'],
        'recorded before the provider was called, left pending',
      )
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
      assert.is(
        (await ctx.t.deps.db.selectFrom('test_charges').select('idempotency_key').executeTakeFirstOrThrow()).idempotency_key,
        attempt!.idempotency_key,
      )
      assert.is(retries.filter((r) => r.statusCode === 200 && r.json().paidCount === 1).length, 1)
    },
  )
}

for (const mode of ['afterCharge', 'beforeCharge'] as const) {
  Retry(
    `paid again two days after dying ${mode === 'afterCharge' ? 'after' : 'before'} the provider charged: the provider is asked what the old key charged, one charge in all`,
    async (ctx) => {
      ctx.crash.mode = mode
      assert.is((await pay(ctx)).statusCode, 503)
      ctx.crash.mode = 'none'
      ctx.t.clock.advance(2 * DAY_MS)
      const later = await pay(ctx)
      assert.is(later.statusCode, 200, later.body)
      assert.is(later.json().paidCount, 1)
      const charges = await chargesOf(ctx.t, 'demo@example.com')
      assert.is(charges.length, 1, 'one charge in all (the key, forgotten by the provider, was not sent again)')
      assert.is(await unpaidCount(ctx), 0)
      const settled = await attempts(ctx)
      // Charged: the old attempt is recorded with its charge. Not charged: it fails, and a new attempt (a new key) pays.
      assert.equal(
        settled.map((a) => a.status),
        mode === 'afterCharge' ? ['succeeded'] : ['failed', 'succeeded'],
      )
      assert.is(settled.at(-1)!.charge_id, charges[0]!.id)
      assert.is(await pay(ctx).then((r) => r.json().paidCount ?? 0), 0, 'nothing left to pay')
    },
  )
}

Retry('an old pending attempt whose provider cannot be asked stays pending: 503, nothing charged again', async (ctx) => {
  ctx.crash.mode = 'afterCharge'
  assert.is((await pay(ctx)).statusCode, 503)
  ctx.crash.mode = 'none'
  ctx.crash.providerUnreachable = true
  ctx.t.clock.advance(2 * DAY_MS)
  const unreachable = await pay(ctx)
  assert.is(unreachable.statusCode, 503, unreachable.body)
  assert.is(unreachable.json().code, 'PAYMENT_UNCONFIRMED')
  assert.is((await chargesOf(ctx.t, 'demo@example.com')).length, 1)
  assert.equal(
    (await attempts(ctx)).map((a) => a.status),
    ['pending'],
  )
  ctx.crash.providerUnreachable = false
  ctx.t.clock.advance((PAYMENT_LEASE_MINUTES + 1) * 60_000)
  assert.is((await pay(ctx)).statusCode, 200)
  assert.is((await chargesOf(ctx.t, 'demo@example.com')).length, 1, 'still one charge')
})

Retry('a declined card settles the attempt as failed, frees the invoice, charges nothing; the next card pays it', async (ctx) => {
  const { t, camille, boulangerie } = ctx
  const provider = testPaymentProvider(t.deps.db, t.clock.now)
  const declining = await provider.createTestPaymentMethod!({ number: '4000000000000341', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.is(
    (await call(t.app, camille, 'PUT', `/api-protected/domiciliation-orders/${boulangerie}/payment-method`, { pm: declining.id }))
      .statusCode,
    200,
  )
  const declined = await pay(ctx)
  assert.is(declined.statusCode, 402)
  assert.match(declined.json().message, 'refusée')
  assert.equal(
    (await attempts(ctx)).map((a) => a.status),
    ['failed'],
  )
  assert.is(await unpaidCount(ctx), 1)
  assert.equal(await chargesOf(t, 'demo@example.com'), [])
  const good = await provider.createTestPaymentMethod!({ number: '5555555555554444', expMonth: 1, expYear: 2099, cvc: '123' })
  assert.is(
    (await call(t.app, camille, 'PUT', `/api-protected/domiciliation-orders/${boulangerie}/payment-method`, { pm: good.id })).statusCode,
    200,
  )
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
  const responses = await fire(10, () =>
    call(t.app, camille, 'POST', '/api-protected/user-demandes-courrier/remove', { orderId: boulangerie, id: pending.id }),
  )
  no5xx(responses)
  assert.equal(
    responses.filter((r) => r.statusCode === 200).map((r) => r.json().message),
    ['La demande a été annulée.'],
  )
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
  assert.ok(
    (await requestsOf(t, boulangerie, 'traitée')).some((r) => r.id === processed.id),
    'it stays',
  )
  // A pending request of another of her orders, named with the wrong order: not found, and not cancelled.
  const orders = await ordersByName(t.app, camille)
  const others = await Promise.all(
    Object.values(orders)
      .filter((o) => o.id !== boulangerie)
      .map(async (o) => ({ o, pending: await requestsOf(t, o.id, 'en attente') })),
  )
  const other = others.find((x) => x.pending.length)!
  const wrong = await call(t.app, camille, 'POST', '/api-protected/user-demandes-courrier/remove', {
    orderId: boulangerie,
    id: other.pending[0]!.id,
  })
  assert.is(wrong.statusCode, 404, wrong.body)
  assert.ok(
    (await requestsOf(t, other.o.id, 'en attente')).some((r) => r.id === other.pending[0]!.id),
    'the other order’s request stays',
  )
})

Cancel.run()

const Accountant = demoSuite('10 simultaneous requests for the accountant offer: one date, one e-mail')

Accountant('every answer says it is recorded; the support gets one e-mail', async ({ t, camille, boulangerie }) => {
  const mailsBefore = t.mails.length
  const responses = await fire(10, () => call(t.app, camille, 'GET', `/api-protected/want-comptable/${boulangerie}`))
  no5xx(responses)
  assert.ok(
    responses.every((r) => r.statusCode === 200 && r.json().wantComptable === true),
    responses.map((r) => r.body).join(),
  )
  assert.equal(
    t.mails.slice(mailsBefore).map((m) => m.subject),
    ['Offre expert-comptable : Boulangerie des Lilas SAS'],
  )
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
    const folder = (
      await call(t.app, camille, 'POST', '/api-protected/folders', { name: `Course ${round}`, domiciliationOrderId: boulangerie })
    ).json() as { id: number }
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
  assert.ok(
    [...seen].every((s) => s === '200' || s === '404'),
    [...seen].join(','),
  )
})

FolderRace.run()

const RenameRace = demoSuite('a folder renamed while another collaborator deletes it: the new folder or a 404, never an empty 200')

RenameRace('30 rounds of a rename and a delete at the same moment, on two API instances', async ({ t, camille, boulangerie }) => {
  const other = await secondApp(t)
  const julien = await login(other, 'associe@example.com')
  const seen = new Set<string>()
  try {
    for (let round = 0; round < 30; round++) {
      const folder = (
        await call(t.app, camille, 'POST', '/api-protected/folders', { name: `Course ${round}`, domiciliationOrderId: boulangerie })
      ).json() as { id: number }
      const [renamed, deleted] = await Promise.all([
        call(t.app, camille, 'PUT', `/api-protected/folders/${folder.id}`, { name: `Renommé ${round}` }),
        call(other, julien, 'DELETE', `/api-protected/folders/${folder.id}`),
      ])
      no5xx([renamed, deleted])
      assert.is(deleted.statusCode, 200, deleted.body)
      // The folder deleted between the rename's check and its answer: it answered 200 with an empty body (22 rounds in 50).
      assert.ok(renamed.body, `round ${round}: ${renamed.statusCode} with an empty body`)
      if (renamed.statusCode === 200)
        assert.equal(renamed.json(), { id: folder.id, name: `Renommé ${round}`, domiciliationOrderId: boulangerie, documentCount: 0 })
      else assert.equal([renamed.statusCode, renamed.json().message], [404, 'Dossier introuvable.'], renamed.body)
      seen.add(String(renamed.statusCode))
    }
  } finally {
    await other.close()
  }
  assert.ok(
    [...seen].every((s) => s === '200' || s === '404'),
    [...seen].join(','),
  )
})

RenameRace.run()

const FileTwice = demoSuite('a letter filed into the same folder by two collaborators at the same moment: one « moved » line')

FileTwice('20 rounds on two API instances: both answer 200, the history tells the move once', async ({ t, camille, boulangerie }) => {
  const other = await secondApp(t)
  const julien = await login(other, 'associe@example.com')
  const letters = (await call(t.app, camille, 'GET', `/api-protected/documents?orderId=${boulangerie}`)).json() as { id: number }[]
  try {
    for (let round = 0; round < 20; round++) {
      const name = `Classement ${round}`
      const folder = (await call(t.app, camille, 'POST', '/api-protected/folders', { name, domiciliationOrderId: boulangerie })).json() as {
        id: number
      }
      const letter = letters[round % letters.length]!.id
      const filed = await Promise.all([
        call(t.app, camille, 'PUT', `/api-protected/documents/${letter}`, { folderId: folder.id }),
        call(other, julien, 'PUT', `/api-protected/documents/${letter}`, { folderId: folder.id }),
      ])
      assert.equal(
        filed.map((r) => r.statusCode),
        [200, 200],
        filed.map((r) => r.body).join('\n'),
      )
      // Each compared the folder it had read before its write: both wrote a line (30 rounds in 30 on PostgreSQL).
      const moved = await t.deps.db
        .selectFrom('letter_history')
        .select('id')
        .where('document_id', '=', letter)
        .where('kind', '=', 'moved')
        .where('detail', '=', name)
        .execute()
      assert.is(moved.length, 1, `round ${round}: ${moved.length} « moved » lines`)
    }
  } finally {
    await other.close()
  }
})

FileTwice.run()

const Options = demoSuite('three options confirmed at the same moment: all three added')

Options('each confirmed option is in the subscription, whatever the order the confirmations land in (5 rounds)', async ({ t, camille }) => {
  const atelier = (await ordersByName(t.app, camille))['Atelier Lumière SARL']!
  const key = createHash('sha1')
    .update(String(atelier.id) + atelier.subscriptionId)
    .digest('hex')
  const items = async () => (await findTestSubscription(t.deps.db, atelier.subscriptionId!))!.items.data
  const base = await items()
  for (let round = 0; round < 5; round++) {
    await t.deps.db
      .updateTable('test_subscriptions')
      .set({ items: JSON.stringify(base) })
      .where('id', '=', atelier.subscriptionId!)
      .execute()
    const planIds: string[] = []
    for (const option of ['reexpedition', 'standard', 'scan']) {
      const requested = await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${atelier.id}:add-option`, { option, key })
      assert.is(requested.statusCode, 200, requested.body)
      planIds.push(requested.json().planId)
    }
    const confirmed = await Promise.all(
      planIds.map((planId) =>
        t.app.inject({ method: 'POST', url: '/stripe/add-option-subscription', payload: { contractId: atelier.contractId, planId } }),
      ),
    )
    no5xx(confirmed)
    assert.equal(
      confirmed.map((r) => r.statusCode),
      [200, 200, 200],
    )
    const held = (await items()).map((i) => i.plan.id)
    for (const planId of planIds) assert.ok(held.includes(planId), `round ${round + 1}: ${planId} kept`)
    assert.is(held.length, base.length + 3, 'each once')
  }
})

Options.run()

// PostgreSQL only (PGlite has one connection: a transaction holding a row stops every other statement).
if (process.env.DATABASE_URL) {
  /** A transaction of another connection holding one row (`select … for update`) until released: what arrives meanwhile waits. */
  const holdRow = async (t: TestApp, table: 'invoices' | 'option_requests', id: number) => {
    const holder = await t.connectAgain()
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let holding!: () => void
    const held = new Promise<void>((resolve) => {
      holding = resolve
    })
    const done = holder.db.transaction().execute(async (tx) => {
      await tx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute()
      holding()
      await released
    })
    await held
    return {
      release: () => {
        release()
        return done
      },
    }
  }
  /** Waits until `n` statements of this test's connections wait on a lock (the holder's row), and checks they do. */
  const untilWaitingOnLocks = async (db: TestApp['deps']['db'], n: number, what: string) => {
    const waiting = () => lockWaiters(db)
    for (let i = 0; i < 100 && (await waiting()) < n; i++) await new Promise((r) => setTimeout(r, 20))
    assert.is(await waiting(), n, what)
  }

  const Settle = demoSuite('a payment settled while its invoices are claimed again: no deadlock (PostgreSQL)')
  Settle('the settlement and the claim lock the invoices in one order: both end, neither is a deadlock', async ({ t }) => {
    const db = t.deps.db
    const order = await db
      .selectFrom('orders')
      .select(['id', 'owner_id'])
      .where('raison_sociale', '=', 'Conseil Horizon EURL')
      .executeTakeFirstOrThrow()
    await db.updateTable('invoices').set({ paid_at: new Date() }).where('order_id', '=', order.id).where('paid_at', 'is', null).execute()
    // Dated in the reverse order of their ids: a claim locks them by date, an UPDATE meets them by id.
    const base = Date.now()
    const inserted = await db
      .insertInto('invoices')
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          order_id: order.id,
          number: `VERROU-${i}`,
          date: new Date(base - i * 86_400_000),
          amount_excl_tax_cents: 100,
          amount_incl_tax_cents: 120,
          paid_at: null,
          payment_reference: null,
          file_key: 'x',
          payment_attempt_id: null,
        })),
      )
      .returning('id')
      .execute()
    const now = new Date()
    const request = {
      userId: order.owner_id,
      customerId: 'cus_x',
      paymentMethodId: 'pm_x',
      orderIds: [order.id],
      now,
      leaseExpiresAt: new Date(now.getTime() + 120_000),
    }
    const claim = await claimUnpaidInvoices(db, request)
    assert.is(claim.kind, 'claimed')
    const other = await t.connectAgain()
    // A third transaction holds the middle invoice, so that the settlement and the new claim each lock what they can, then wait.
    const holder = await holdRow(t, 'invoices', inserted[3]!.id)
    const settled = recordPaymentSucceeded(db, (claim as { attempt: { id: number } }).attempt.id, 'ch_verrou', now)
    const claimedAgain = claimUnpaidInvoices(other.db, request)
    await untilWaitingOnLocks(db, 2, 'both wait on the held invoice')
    const results = await Promise.allSettled([settled, claimedAgain, holder.release()])
    assert.equal(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      [],
      'no deadlock',
    )
    assert.equal(await claimedAgain, { kind: 'nothing' }, 'the claim after the settlement finds them paid')
    assert.is(
      (await db.selectFrom('invoices').select('id').where('order_id', '=', order.id).where('paid_at', 'is', null).execute()).length,
      0,
    )
  })
  Settle.run()

  const Confirm = demoSuite('one option request confirmed twice at the same moment: once (PostgreSQL)')
  Confirm(
    'the second confirmation, which waited on the first, finds the request consumed: 200 then 404, one item',
    async ({ t, camille }) => {
      const atelier = (await ordersByName(t.app, camille))['Atelier Lumière SARL']!
      const key = createHash('sha1')
        .update(String(atelier.id) + atelier.subscriptionId)
        .digest('hex')
      const requested = await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${atelier.id}:add-option`, {
        option: 'scan',
        key,
      })
      assert.is(requested.statusCode, 200, requested.body)
      const { planId } = requested.json() as { planId: string }
      const request = await t.deps.db
        .selectFrom('option_requests')
        .select('id')
        .where('order_id', '=', atelier.id)
        .where('plan_id', '=', planId)
        .executeTakeFirstOrThrow()
      const other = await secondApp(t)
      try {
        // Both confirmations find the pending request, then wait on its row (held here so that they surely meet): the
        // second to get it used to re-check only its id and consume it again (9 rounds in 20 before), so that Stripe's
        // subscriptionItems.create ran twice.
        const holder = await holdRow(t, 'option_requests', request.id)
        const confirm = (app: typeof t.app) =>
          app.inject({ method: 'POST', url: '/stripe/add-option-subscription', payload: { contractId: atelier.contractId, planId } })
        const confirmations = Promise.all([confirm(t.app), confirm(other)])
        await untilWaitingOnLocks(t.deps.db, 2, 'both confirmations wait on the request')
        await holder.release()
        const answers = await confirmations
        no5xx(answers)
        assert.equal(answers.map((r) => r.statusCode).sort(), [200, 404], answers.map((r) => r.body).join('\n'))
        assert.is(answers.find((r) => r.statusCode === 404)!.json().message, 'Demande d’option en attente pour ce contrat introuvable.')
        const held = (await findTestSubscription(t.deps.db, atelier.subscriptionId!))!.items.data.map((i) => i.plan.id)
        assert.is(held.filter((id) => id === planId).length, 1)
      } finally {
        await other.close()
      }
    },
  )
  Confirm.run()
}
