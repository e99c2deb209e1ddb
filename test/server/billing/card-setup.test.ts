// The real provider's hosted card element: POST /api-protected/card-setup-intents makes a Stripe SetupIntent
// whose client secret Stripe.js uses in the browser; the test provider answers 409; the CSP lets Stripe.js in only when
// STRIPE_SECRET_KEY is set. Stripe itself is a fake client here: this machine cannot reach api.stripe.com.
import type Stripe from 'stripe'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig } from '../../../server/config.ts'
import { contentSecurityPolicy } from '../../../server/http/spa.ts'
import { stripePaymentProvider } from '../../../server/services/payment-stripe.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../../util/server.ts'

const BOULANGERIE = 'Boulangerie des Lilas SAS'

interface Created {
  customer?: string
  usage?: string
  allowed_payment_method_types?: string[]
  metadata?: Record<string, string>
}
function fakeStripe(created: Created[]) {
  return {
    customers: { create: async () => ({ id: 'cus_fake' }) },
    setupIntents: {
      create: async (params: Created) => {
        created.push(params)
        return { id: `seti_${created.length}`, client_secret: `seti_${created.length}_secret_abc` }
      },
    },
  } as unknown as Stripe
}

interface Ctx {
  t: TestApp
  created: Created[]
}
const Stripejs = suite<Ctx>('the hosted card element: a SetupIntent for Stripe.js')
Stripejs.before(async (ctx) => {
  ctx.created = []
  ctx.t = await buildTestApp({
    config: { stripeSecretKey: 'sk_test_fake', stripePublishableKey: 'pk_test_fake' },
    payments: () => stripePaymentProvider('sk_test_fake', fakeStripe(ctx.created)),
  })
})
Stripejs.after(async (ctx) => ctx.t?.close())

Stripejs("the owner gets the SetupIntent's client secret and the publishable key, for her order or for 'Tous'", async ({ t, created }) => {
  const camille = await login(t.app)
  const order = (await ordersByName(t.app, camille))[BOULANGERIE]!
  const res = await call(t.app, camille, 'POST', '/api-protected/card-setup-intents', { orderId: order.id })
  assert.is(res.statusCode, 200, res.body)
  assert.equal(res.json(), { provider: 'stripe', clientSecret: 'seti_1_secret_abc', publishableKey: 'pk_test_fake' })
  assert.is(created.length, 1)
  assert.is(created[0]!.usage, 'off_session', 'the card will pay later, without the customer')
  assert.equal(created[0]!.allowed_payment_method_types, ['card'])
  assert.equal(created[0]!.metadata, { orderId: String(order.id) })
  assert.ok(created[0]!.customer, 'for the customer of the account')
  const all = await call(t.app, camille, 'POST', '/api-protected/card-setup-intents', {})
  assert.is(all.statusCode, 200, all.body)
  assert.equal(created[1]!.metadata, {})
})

Stripejs('a collaborator or another customer gets nothing, and no SetupIntent is made', async ({ t, created }) => {
  const before = created.length
  const camille = await login(t.app)
  const order = (await ordersByName(t.app, camille))[BOULANGERIE]!
  for (const email of ['associe@example.com', 'solo@example.com']) {
    const token = await login(t.app, email)
    const res = await call(t.app, token, 'POST', '/api-protected/card-setup-intents', { orderId: order.id })
    assert.ok([403, 404].includes(res.statusCode), `${email}: ${res.statusCode}`)
  }
  assert.is((await call(t.app, null, 'POST', '/api-protected/card-setup-intents', {})).statusCode, 401)
  assert.is(created.length, before)
})

Stripejs("index.html's CSP lets Stripe.js, its frames and its API in", async () => {
  const csp = contentSecurityPolicy('n0nce', { stripe: true })
  assert.match(csp, "script-src 'self' 'nonce-n0nce' https://js.stripe.com;")
  assert.match(csp, /frame-src [^;]*https:\/\/js\.stripe\.com/)
  assert.match(csp, "connect-src 'self' https://api.stripe.com;")
  assert.not.match(csp, 'unsafe-inline')
})

Stripejs.run()

const TestProvider = suite<{ t: TestApp }>('the hosted card element with the local test provider')
TestProvider.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
TestProvider.after(async (ctx) => ctx.t?.close())

TestProvider("{provider: 'test'}, not an error: the test card form takes cards; no Stripe host in the CSP", async ({ t }) => {
  const camille = await login(t.app)
  const res = await call(t.app, camille, 'POST', '/api-protected/card-setup-intents', {})
  assert.is(res.statusCode, 200, res.body)
  assert.equal(res.json(), { provider: 'test' })
  assert.not.match(contentSecurityPolicy('n0nce'), 'stripe')
})

TestProvider('the configuration: a publishable key of the same mode is required with the secret key', () => {
  assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }), /STRIPE_PUBLISHABLE_KEY manque/)
  assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'abc' }), /pk_test_ ou pk_live_/)
  assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }), /pk_live_/)
  assert.is(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }).stripePublishableKey, 'pk_live_x')
  assert.is(loadConfig({}).stripePublishableKey, undefined)
})

TestProvider.run()
