// The real card-payment provider, Stripe (payment.ts has the interface and the local test provider). Its own module,
// loaded by main.ts only when STRIPE_SECRET_KEY is set: a start without Stripe never compiles the SDK.
import Stripe from 'stripe'
import type { PaymentMethod, Subscription } from '../contract/billing.ts'
import { PaymentError } from '../lib/money.ts'
import type { PaymentProvider } from './payment.ts'

/** The real provider. Its payment methods are created in the browser by Stripe.js; only their pm_… ids reach us. */
export function stripePaymentProvider(secretKey: string, client: Stripe = new Stripe(secretKey)): PaymentProvider {
  const toPaymentMethod = (pm: Stripe.PaymentMethod | string | null | undefined): PaymentMethod | null =>
    pm && typeof pm !== 'string' && pm.card
      ? { id: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year }
      : null
  const toSubscription = (s: Stripe.Subscription): Subscription => ({
    id: s.id,
    object: 'subscription',
    status: s.status,
    cancel_at_period_end: s.cancel_at_period_end,
    current_period_end: (s as unknown as { current_period_end?: number }).current_period_end ?? s.items.data[0]?.current_period_end ?? 0,
    items: {
      object: 'list',
      data: s.items.data.map((i) => {
        const p = i.plan
        return {
          id: i.id,
          quantity: i.quantity ?? 1,
          plan: {
            id: p.id,
            nickname: p.nickname ?? '',
            amount: p.amount ?? 0,
            currency: p.currency,
            interval: p.interval === 'year' ? 'year' : 'month',
            product: typeof p.product === 'string' ? p.product : (p.product?.id ?? ''),
          },
        }
      }),
    },
  })
  const fail = (error: unknown): never => {
    if (error instanceof Stripe.errors.StripeCardError) throw new PaymentError('Votre carte a été refusée.')
    if (error instanceof Stripe.errors.StripeInvalidRequestError)
      throw new PaymentError('Le fournisseur de paiement a refusé la demande.', 400)
    throw error
  }
  const retrieve = async (id: string) => {
    try {
      return await client.subscriptions.retrieve(id, { expand: ['default_payment_method'] })
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null
      throw error
    }
  }
  const attach = async (customerId: string, pm: string) => {
    const method = await client.paymentMethods.attach(pm, { customer: customerId }).catch(fail)
    return toPaymentMethod(method)!
  }
  return {
    kind: 'stripe',
    async createCustomer(email, name) {
      return (await client.customers.create({ email, name })).id
    },
    async getSubscription(id) {
      const s = await retrieve(id)
      return s && toSubscription(s)
    },
    async createSubscription({ customerId, planIds, start, idempotencyKey }) {
      const startSeconds = Math.floor(start.getTime() / 1000)
      const made = await client.subscriptions
        .create(
          {
            customer: customerId,
            items: planIds.map((price) => ({ price })),
            // No card yet: each invoice waits 30 days to be paid (by card in the portal, or by transfer).
            collection_method: 'send_invoice',
            days_until_due: 30,
            // Nothing billed before the domiciliation starts.
            ...(startSeconds > Math.floor(Date.now() / 1000) + 60 ? { trial_end: startSeconds } : {}),
          },
          { idempotencyKey },
        )
        .catch(fail)
      return made.id
    },
    async cancelSubscription(subscriptionId) {
      await client.subscriptions.cancel(subscriptionId)
    },
    async cancelSubscriptionAt(subscriptionId, at) {
      await client.subscriptions
        .update(subscriptionId, { cancel_at: Math.floor(at.getTime() / 1000), proration_behavior: 'none' })
        .catch(fail)
    },
    async addSubscriptionItem(subscriptionId, planId) {
      await client.subscriptionItems.create({ subscription: subscriptionId, price: planId }).catch(fail)
      return toSubscription((await retrieve(subscriptionId))!)
    },
    async getSubscriptionPaymentMethod(subscriptionId) {
      return toPaymentMethod((await retrieve(subscriptionId))?.default_payment_method)
    },
    async setSubscriptionPaymentMethod(subscriptionId, customerId, pm) {
      const method = await attach(customerId, pm)
      await client.subscriptions.update(subscriptionId, { default_payment_method: pm }).catch(fail)
      return method
    },
    async getDefaultPaymentMethod(customerId) {
      const customer = await client.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method'] })
      return customer.deleted ? null : toPaymentMethod(customer.invoice_settings.default_payment_method)
    },
    async setDefaultPaymentMethod(customerId, pm) {
      const method = await attach(customerId, pm)
      await client.customers.update(customerId, { invoice_settings: { default_payment_method: pm } }).catch(fail)
      return method
    },
    async createCardSetupIntent(customerId, orderId) {
      const intent = await client.setupIntents
        .create({
          customer: customerId,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
          metadata: orderId === null ? {} : { orderId: String(orderId) },
        })
        .catch(fail)
      if (!intent.client_secret) throw new Error(`SetupIntent ${intent.id} sans client_secret`)
      return { clientSecret: intent.client_secret }
    },
    async charge({ customerId, paymentMethodId, amountCents, description, idempotencyKey }) {
      const intent = await client.paymentIntents
        .create(
          {
            amount: amountCents,
            currency: 'eur',
            customer: customerId,
            description,
            payment_method: paymentMethodId,
            off_session: true,
            confirm: true,
            // Found again by findCharge once Stripe has forgotten the idempotency key.
            metadata: { payment_attempt: idempotencyKey },
          },
          { idempotencyKey },
        )
        .catch(fail)
      // 'processing' and the like: not refused, not paid yet; the retry with the same key will tell.
      if (intent.status !== 'succeeded') throw new Error(`paiement ${intent.id} dans l’état ${intent.status}`)
      return { id: intent.id }
    },
    async findCharge({ customerId, idempotencyKey }) {
      // The search index lags by a minute at most; an attempt is looked up this way only after a day.
      const found = await client.paymentIntents.search({
        query: `customer:'${customerId}' AND metadata['payment_attempt']:'${idempotencyKey}'`,
      })
      const succeeded = found.data.find((intent) => intent.status === 'succeeded')
      if (succeeded) return { id: succeeded.id }
      const pending = found.data.find((intent) => !['canceled', 'requires_payment_method'].includes(intent.status))
      if (pending) throw new Error(`paiement ${pending.id} dans l’état ${pending.status}`)
      return null
    },
  }
}
