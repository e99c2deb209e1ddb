// « Nouveau client »: the owner's account (or an existing customer's), the order 'En attente de KBIS', its subscription
// at the payment provider, the invitation through the portal's reset link, the journal; and every refusal, in French,
// leaving nothing behind.
import { sql } from 'kysely'
import type Stripe from 'stripe'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SIREN_INVALID } from '../../../server/contract/rules/company.ts'
import { parisDay } from '../../../server/lib/time.ts'
import { clientMessages, CLIENT_INVITATION_DAYS } from '../../../server/routes/operators/clients.ts'
import { stripePaymentProvider } from '../../../server/services/payment-stripe.ts'
import { call, login, operatorLogin, ordersByName } from '../../util/server.ts'
import { demoContext, freshSiren, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext
const auth = (token: string) => ({ authorization: `Bearer ${token}` })
let sirens = 500

const body = (overrides: Record<string, unknown> = {}) => ({
  raisonSociale: 'Menuiserie Lefèvre SARL',
  siren: freshSiren(++sirens),
  legalForm: 'SARL',
  owner: { firstname: 'Marc', lastname: 'Lefèvre', email: `marc.lefevre.${sirens}@example.com` },
  plan: 'domiciliation-annuelle',
  options: ['reexpedition', 'scan'],
  startDate: parisDay(new Date()),
  ...overrides,
})
const create = (ctx: Ctx, payload: unknown, token = ctx.admin) =>
  ctx.t.app.inject({ method: 'POST', url: '/api/backoffice/clients', payload: payload as object, headers: auth(token) })

/** What a refused call must leave as it was. */
const counts = async (ctx: Ctx) => {
  const { db } = ctx.t.deps
  const n = async (table: 'users' | 'orders' | 'contracts' | 'password_resets' | 'journal' | 'outbox') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const live = await db.selectFrom('test_subscriptions').select('id').where('status', '<>', 'canceled').execute()
  return {
    users: await n('users'),
    orders: await n('orders'),
    contracts: await n('contracts'),
    resets: await n('password_resets'),
    journal: await n('journal'),
    subscriptions: live.length,
    mails: ctx.t.mails.length,
  }
}

const test = suite<Ctx>('« Nouveau client »')
test.before(async (ctx) => void (await demoContext(ctx)))
test.after((ctx) => ctx.t?.close())

test('a new owner: the account, the order waiting for its Kbis, its subscription, the invitation, the journal', async (ctx) => {
  const { db } = ctx.t.deps
  const sent = body({ siren: '732829320', raisonSociale: '  Menuiserie Lefèvre SARL ' })
  const res = await create(ctx, sent)
  assert.is(res.statusCode, 200, res.body)
  const made = res.json()
  assert.is(made.status, 'En attente de KBIS')
  assert.equal(made.owner, { userId: made.owner.userId, email: sent.owner.email, name: 'Marc Lefèvre', newAccount: true })
  assert.ok(made.ownerNotified)
  assert.is(made.message, clientMessages.created('Menuiserie Lefèvre SARL', sent.owner.email))

  const order = await db.selectFrom('orders').selectAll().where('id', '=', made.orderId).executeTakeFirstOrThrow()
  assert.is(order.raison_sociale, 'Menuiserie Lefèvre SARL')
  assert.is(order.siren, '732 829 320', 'kept as people read it')
  assert.is(order.legal_form, 'SARL')
  assert.is(order.has_kbis, false)
  assert.is(order.owner_id, made.owner.userId)
  assert.is(order.domiciliation_address, '12 rue de la Paix, 75002 Paris', 'the address of the other orders')
  assert.ok(await db.selectFrom('contracts').select('id').where('order_id', '=', made.orderId).executeTakeFirst(), 'its contract')
  const subscription = await ctx.t.deps.payments.getSubscription(order.subscription_id!)
  assert.is(subscription!.id, made.subscriptionId)
  assert.equal(
    subscription!.items.data.map((i) => i.plan.id),
    ['domiciliation-annuelle', 'option-reexpedition-annuelle', 'option-scan-annuelle'],
  )
  const user = await db.selectFrom('users').selectAll().where('id', '=', made.owner.userId).executeTakeFirstOrThrow()
  assert.is(user.email_verified, false)
  const customer = await db
    .selectFrom('test_subscriptions')
    .select('customer_id')
    .where('id', '=', made.subscriptionId)
    .executeTakeFirstOrThrow()
  assert.is(customer.customer_id, user.payment_customer_id, 'the subscription is the owner’s customer’s')

  const reset = await db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
  const days = (new Date(reset.expires_at).getTime() - ctx.t.clock.now().getTime()) / 86_400_000
  assert.is(Math.round(days), CLIENT_INVITATION_DAYS)
  const mail = ctx.t.mails.at(-1)!
  assert.is(mail.to, sent.owner.email)
  assert.match(mail.subject, /votre espace client pour Menuiserie Lefèvre SARL$/)
  assert.match(mail.link!, /\/set-password\/[\w-]{43}$/)
  assert.match(mail.text, /Bonjour Marc,/)

  const journal = await db.selectFrom('journal').selectAll().where('action', '=', 'client.created').executeTakeFirstOrThrow()
  assert.is(journal.order_id, made.orderId)
  const admin = await db.selectFrom('operators').select('id').where('email', '=', 'operateur@example.com').executeTakeFirstOrThrow()
  assert.is(journal.operator_id, admin.id)
  assert.match(
    journal.summary,
    /^Nouveau client : Menuiserie Lefèvre SARL \(SIREN 732 829 320\), titulaire Marc Lefèvre <.+> \(compte créé\)$/,
  )

  // The portal's own flow: the link sets the first password, then the owner signs in and sees the Kbis banner's order.
  const token = mail.link!.split('/').pop()
  const chosen = await ctx.t.app.inject({
    method: 'POST',
    url: '/reset-password',
    payload: { token, password: 'trois mots au hasard' },
  })
  assert.is(chosen.statusCode, 200, chosen.body)
  const session = await login(ctx.t.app, sent.owner.email, 'trois mots au hasard')
  const orders = await ordersByName(ctx.t.app, session)
  const own = (await call(ctx.t.app, session, 'GET', '/api-protected/my-domiciliation-orders')).json()
  assert.equal(Object.keys(orders), ['Menuiserie Lefèvre SARL'])
  assert.is(own[0].status, 'En attente de KBIS')
  assert.is(own[0].hasKbis, false)
  assert.is(own[0].isShareOrder, false)
})

test('a customer’s address: the order joins that account (no new password asked), whatever the case typed', async (ctx) => {
  const before = await counts(ctx)
  const res = await create(ctx, body({ owner: { firstname: 'Sophie', lastname: 'Bernard', email: 'SOLO@example.com' } }))
  assert.is(res.statusCode, 200, res.body)
  const made = res.json()
  assert.is(made.owner.newAccount, false)
  assert.is(made.owner.email, 'solo@example.com')
  const after = await counts(ctx)
  assert.is(after.users, before.users, 'no second account')
  assert.is(after.resets, before.resets, 'no reset link: Sophie has a password')
  const mail = ctx.t.mails.at(-1)!
  assert.is(mail.to, 'solo@example.com')
  assert.match(mail.subject, /est ajoutée à votre espace client$/)
  assert.match(mail.link!, /\/login$/)
  const sophie = await login(ctx.t.app, 'solo@example.com')
  assert.equal(Object.keys(await ordersByName(ctx.t.app, sophie)).sort(), ['Menuiserie Lefèvre SARL', 'Épicerie Solène SARL'].sort())
  const customer = await ctx.t.deps.db
    .selectFrom('users')
    .select('payment_customer_id')
    .where('email', '=', 'solo@example.com')
    .executeTakeFirstOrThrow()
  const subscription = await ctx.t.deps.db
    .selectFrom('test_subscriptions')
    .select('customer_id')
    .where('id', '=', made.subscriptionId)
    .executeTakeFirstOrThrow()
  assert.is(subscription.customer_id, customer.payment_customer_id, 'Sophie’s customer at the provider')
})

test('a start day ahead: kept on the order, and the first period begins then', async (ctx) => {
  const start = parisDay(new Date(Date.now() + 40 * 86_400_000))
  const res = await create(ctx, body({ startDate: start, plan: 'domiciliation-mensuelle', options: [] }))
  assert.is(res.statusCode, 200, res.body)
  const { orderId, subscriptionId } = res.json()
  const page = await ctx.t.app.inject({ method: 'GET', url: `/api/backoffice/orders/${orderId}`, headers: auth(ctx.admin) })
  assert.is(page.json().startsOn, start)
  assert.equal(
    page.json().subscription.items.map((i: { planId: string }) => i.planId),
    ['domiciliation-mensuelle'],
  )
  const subscription = await ctx.t.deps.payments.getSubscription(subscriptionId)
  const end = new Date(subscription!.current_period_end * 1000)
  assert.ok(end.getTime() > new Date(`${start}T00:00:00Z`).getTime() + 27 * 86_400_000, 'a month after the start')
})

test('a SIREN with a wrong key, or not nine digits: SIREN_INVALID in French, and nothing made', async (ctx) => {
  const before = await counts(ctx)
  for (const siren of ['732 829 321', '000 000 000', '73282932', '7328293200', '732-829-320', 'ABCDEFGHI']) {
    const res = await create(ctx, body({ siren }))
    assert.is(res.statusCode, 400, `${siren}: ${res.body}`)
    assert.equal(res.json(), { message: SIREN_INVALID, statusCode: 400, code: 'SIREN_INVALID' })
  }
  assert.equal(await counts(ctx), before)
})

test('a SIREN that already has an order: a French 409 naming it, before the payment provider is asked', async (ctx) => {
  const before = await counts(ctx)
  const res = await create(ctx, body({ siren: '823456785' }))
  assert.is(res.statusCode, 409)
  assert.is(res.json().message, clientMessages.sirenTaken('Boulangerie des Lilas SAS', ctx.ids.order))
  assert.equal(await counts(ctx), before)
})

test('bad input: a French 400 for each field, and nothing made', async (ctx) => {
  const before = await counts(ctx)
  const yesterday = parisDay(new Date(Date.now() - 86_400_000))
  const past = await create(ctx, body({ startDate: yesterday }))
  assert.is(past.statusCode, 400)
  assert.is(past.json().message, clientMessages.startTooEarly)
  const far = await create(ctx, body({ startDate: parisDay(new Date(Date.now() + 400 * 86_400_000)) }))
  assert.is(far.statusCode, 400)
  assert.is(far.json().message, clientMessages.startTooLate)
  const owner = { firstname: 'Marc', lastname: 'Lefèvre', email: 'marc@example.com' }
  for (const bad of [
    { raisonSociale: '' },
    { raisonSociale: 'Menuiserie\nLefèvre' },
    { legalForm: 'GIE' },
    { plan: 'domiciliation-hebdomadaire' },
    { options: ['reexpedition', 'reexpedition'] },
    { options: ['coffre-fort'] },
    { owner: { ...owner, email: 'pas-une-adresse' } },
    { owner: { ...owner, firstname: '' } },
    { owner: { ...owner, role: 'admin' } },
    { startDate: '2026-02-30' },
    { siren: undefined },
    { commentaire: 'x' },
  ]) {
    const res = await create(ctx, body(bad))
    assert.is(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`)
    assert.match(res.json().message, /[éèàêùô’«]|doit|est obligatoire/, JSON.stringify(bad))
  }
  assert.equal(await counts(ctx), before)
})

test('the order cannot be saved: the subscription made for it is cancelled, and no account stays', async (ctx) => {
  const { db } = ctx.t.deps
  await sql`alter table orders add constraint orders_essai_refus check (raison_sociale <> 'Refusée SARL') not valid`.execute(db)
  try {
    const before = await counts(ctx)
    const res = await create(ctx, body({ raisonSociale: 'Refusée SARL' }))
    assert.ok(res.statusCode >= 500, res.body)
    const after = await counts(ctx)
    assert.equal(after, before, 'no account, order, link, journal row, live subscription or e-mail')
    const cancelled = await db.selectFrom('test_subscriptions').select('id').where('status', '=', 'canceled').execute()
    assert.is(cancelled.length, 1)
  } finally {
    await sql`alter table orders drop constraint orders_essai_refus`.execute(db)
  }
})

test('only administrators create a client', async (ctx) => {
  for (const email of ['courrier@example.com']) {
    const res = await create(ctx, body(), await operatorLogin(ctx.t, email))
    assert.is(res.statusCode, 403)
    assert.match(res.json().message, /« Administrateur »/)
  }
})

test.run()

const stripe = suite('« Nouveau client » with Stripe: the calls made')

stripe('a subscription of the plan and options, invoices to pay (no card yet), a trial until a later start; cancel', async () => {
  const calls: unknown[] = []
  const fake = {
    subscriptions: {
      create: async (params: unknown, options: unknown) => {
        calls.push(['create', params, options])
        return { id: 'sub_nouveau' }
      },
      cancel: async (id: string) => {
        calls.push(['cancel', id])
        return { id, status: 'canceled' }
      },
    },
  }
  const provider = stripePaymentProvider('sk_test_x', fake as unknown as Stripe)
  const later = new Date(Date.UTC(2099, 0, 1))
  const id = await provider.createSubscription({
    customerId: 'cus_1',
    planIds: ['domiciliation-annuelle', 'option-scan-annuelle'],
    start: later,
    idempotencyKey: 'nouveau-client:1',
  })
  assert.is(id, 'sub_nouveau')
  await provider.createSubscription({ customerId: 'cus_1', planIds: ['domiciliation-mensuelle'], start: new Date(), idempotencyKey: 'k2' })
  await provider.cancelSubscription('sub_nouveau')
  assert.equal(calls, [
    [
      'create',
      {
        customer: 'cus_1',
        items: [{ price: 'domiciliation-annuelle' }, { price: 'option-scan-annuelle' }],
        collection_method: 'send_invoice',
        days_until_due: 30,
        trial_end: later.getTime() / 1000,
      },
      { idempotencyKey: 'nouveau-client:1' },
    ],
    [
      'create',
      { customer: 'cus_1', items: [{ price: 'domiciliation-mensuelle' }], collection_method: 'send_invoice', days_until_due: 30 },
      { idempotencyKey: 'k2' },
    ],
    ['cancel', 'sub_nouveau'],
  ])
})

stripe.run()
