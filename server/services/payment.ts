// The card-payment provider behind one interface (PRODUCT.md, "Money and the payment provider"):
// a local test provider storing Stripe-shaped objects in the database (the default), or Stripe itself
// (payment-stripe.ts, loaded only when STRIPE_SECRET_KEY is set: the Stripe SDK is ~0.7 MB of code to compile).
import { randomBytes } from 'node:crypto'
import type { PaymentMethod, Subscription } from '../contract/billing.ts'
import {
  addTestSubscriptionItem,
  cancelTestSubscription,
  cancelTestSubscriptionAt,
  attachTestPaymentMethod,
  findTestChargeId,
  findTestCustomerPaymentMethod,
  findTestPaymentMethod,
  findTestSubscription,
  findTestSubscriptionPaymentMethod,
  insertTestCharge,
  insertTestCustomer,
  insertTestPaymentMethod,
  insertTestSubscription,
  setTestCustomerPaymentMethod,
  setTestSubscriptionPaymentMethod,
  testPaymentMethodDeclinesCharges,
} from '../db/repositories/billing-test-provider.ts'
import type { Db } from '../db/schema.ts'
import { PaymentError } from '../lib/money.ts'
import { plans } from './plans.ts'

export interface TestCard {
  number: string
  expMonth: number
  expYear: number
  cvc: string
}

export interface ChargeRequest {
  customerId: string
  /** The card to charge: the order's subscription card, or the customer's default one. */
  paymentMethodId: string
  amountCents: number
  description: string
  /** Same key, same charge: a retry (after a crash, a timeout, a double click) never charges twice. */
  idempotencyKey: string
}

export interface NewSubscription {
  customerId: string
  planIds: string[]
  /** The day the domiciliation starts (its first period begins then). */
  start: Date
  /** Same key, same subscription: a retry after a lost answer makes no second one. */
  idempotencyKey: string
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe'
  createCustomer(email: string, name: string): Promise<string>
  getSubscription(subscriptionId: string): Promise<Subscription | null>
  /**
   * A subscription of the customer to these plans (a domiciliation plan and its options, all of one interval), made by
   * an operator for a new client who has no card yet: nothing is billed before `start` (Stripe: a trial until then), and
   * its invoices wait to be paid rather than charge a card (Stripe: `send_invoice`). Same key, same subscription.
   */
  createSubscription(request: NewSubscription): Promise<string>
  /** Cancels at once a subscription that nothing refers to (its order could not be saved). */
  cancelSubscription(subscriptionId: string): Promise<void>
  /** Ends a subscription at `at` (a termination accepted for a date): nothing is billed past it (Stripe: `cancel_at`). */
  cancelSubscriptionAt(subscriptionId: string, at: Date): Promise<void>
  addSubscriptionItem(subscriptionId: string, planId: string): Promise<Subscription>
  getSubscriptionPaymentMethod(subscriptionId: string): Promise<PaymentMethod | null>
  /** Attaches `pm` to the customer and makes it pay for the subscription. */
  setSubscriptionPaymentMethod(subscriptionId: string, customerId: string, pm: string): Promise<PaymentMethod>
  getDefaultPaymentMethod(customerId: string): Promise<PaymentMethod | null>
  setDefaultPaymentMethod(customerId: string, pm: string): Promise<PaymentMethod>
  /**
   * Charges a card of the customer once per idempotency key. Throws PaymentError when the provider refuses (nothing
   * was charged); any other error leaves the outcome unknown, to be settled by a retry with the same key.
   */
  charge(request: ChargeRequest): Promise<{ id: string }>
  /**
   * The charge made for this idempotency key, asked of the provider without charging: its id when it succeeded, null
   * when nothing was charged (no charge, or one refused or cancelled). Throws while the outcome is still unknown
   * (processing) or when the provider cannot be asked. For an attempt too old to send its key again: Stripe forgets
   * a key after 24 hours and would take the same key for a new charge.
   */
  findCharge(request: ChargeRequest): Promise<{ id: string } | null>
  /**
   * Test provider only: its card form (served apart from our API, see server/routes/billing/test-provider.ts) makes a
   * payment method that belongs to nobody until setSubscriptionPaymentMethod or setDefaultPaymentMethod attaches it.
   */
  createTestPaymentMethod?(card: TestCard): Promise<PaymentMethod>
  /**
   * Stripe only: a SetupIntent of the customer, whose client secret lets Stripe.js take a card in its hosted element and
   * make a payment method of it (attached afterwards by setSubscriptionPaymentMethod or setDefaultPaymentMethod).
   */
  createCardSetupIntent?(customerId: string, orderId: number | null): Promise<{ clientSecret: string }>
}

const providerId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`

/** Stripe's public test card numbers (https://docs.stripe.com/testing): the only ones the local provider accepts. */
const testCards: Record<string, { brand: string; declined?: boolean; declinesCharges?: boolean }> = {
  '4242424242424242': { brand: 'visa' },
  '4000056655665556': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '2223003122003222': { brand: 'mastercard' },
  '5200828282828210': { brand: 'mastercard' },
  '5105105105105100': { brand: 'mastercard' },
  '378282246310005': { brand: 'amex' },
  '371449635398431': { brand: 'amex' },
  '6011111111111117': { brand: 'discover' },
  '3056930009020004': { brand: 'diners' },
  '3566002020360505': { brand: 'jcb' },
  '6200000000000005': { brand: 'unionpay' },
  '4000002500001001': { brand: 'cartes_bancaires' },
  '4000000000000002': { brand: 'visa', declined: true },
  '4000000000009995': { brand: 'visa', declined: true },
  // Saved without trouble, declined at every charge.
  '4000000000000341': { brand: 'visa', declinesCharges: true },
}

type Item = Subscription['items']['data'][number]
const item = (planId: string): Item => ({ id: providerId('si'), plan: plans[planId]!, quantity: 1 })

/** Creates the Stripe-shaped rows of the test provider; used by the provider and by the seed. */
export const testProviderRows = {
  async customer(db: Db, defaultPaymentMethod: string | null = null): Promise<string> {
    const id = providerId('cus')
    await insertTestCustomer(db, id, defaultPaymentMethod)
    return id
  },
  async paymentMethod(
    db: Db,
    customerId: string | null,
    card: { brand: string; last4: string; expMonth: number; expYear: number; declinesCharges?: boolean },
  ): Promise<string> {
    const id = providerId('pm')
    await insertTestPaymentMethod(db, id, customerId, card)
    return id
  },
  async subscription(
    db: Db,
    customerId: string,
    planIds: string[],
    currentPeriodEnd: Date,
    defaultPaymentMethod: string | null = null,
  ): Promise<string> {
    const id = providerId('sub')
    await insertTestSubscription(db, {
      id,
      customerId,
      items: planIds.map(item),
      currentPeriodEnd: Math.floor(currentPeriodEnd.getTime() / 1000),
      defaultPaymentMethod,
    })
    return id
  },
}

export function testPaymentProvider(db: Db, now: () => Date): PaymentProvider {
  const paymentMethod = (id: string | null) => findTestPaymentMethod(db, id)
  // As Stripe's attach: a method of another customer is refused.
  async function attach(customerId: string, pm: string): Promise<PaymentMethod> {
    const method = await attachTestPaymentMethod(db, pm, customerId)
    if (!method) throw new PaymentError('Moyen de paiement inconnu : enregistrez à nouveau votre carte.', 400)
    return method
  }
  const subscription = (id: string) => findTestSubscription(db, id, now())
  return {
    kind: 'test',
    createCustomer: () => testProviderRows.customer(db),
    getSubscription: subscription,
    async createSubscription({ customerId, planIds, start }) {
      const interval = plans[planIds[0]!]?.interval
      if (!interval || planIds.some((id) => plans[id]?.interval !== interval)) throw new PaymentError('Formule ou option introuvable.', 400)
      const end = new Date(start)
      if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
      else end.setUTCMonth(end.getUTCMonth() + 1)
      return testProviderRows.subscription(db, customerId, planIds, end)
    },
    async cancelSubscription(subscriptionId) {
      await cancelTestSubscription(db, subscriptionId)
    },
    async cancelSubscriptionAt(subscriptionId, at) {
      if (!(await cancelTestSubscriptionAt(db, subscriptionId, at))) throw new PaymentError('Abonnement introuvable.', 404)
    },
    async addSubscriptionItem(subscriptionId, planId) {
      const current = await subscription(subscriptionId)
      if (!current || !plans[planId]) throw new PaymentError('Abonnement ou option introuvable.', 404)
      await addTestSubscriptionItem(db, subscriptionId, item(planId))
      return (await subscription(subscriptionId))!
    },
    async getSubscriptionPaymentMethod(subscriptionId) {
      return paymentMethod(await findTestSubscriptionPaymentMethod(db, subscriptionId))
    },
    async setSubscriptionPaymentMethod(subscriptionId, customerId, pm) {
      const method = await attach(customerId, pm)
      await setTestSubscriptionPaymentMethod(db, subscriptionId, pm)
      return method
    },
    async getDefaultPaymentMethod(customerId) {
      return paymentMethod(await findTestCustomerPaymentMethod(db, customerId))
    },
    async setDefaultPaymentMethod(customerId, pm) {
      const method = await attach(customerId, pm)
      await setTestCustomerPaymentMethod(db, customerId, pm)
      return method
    },
    async charge({ customerId, paymentMethodId, amountCents, description, idempotencyKey }) {
      // Like Stripe's Idempotency-Key: the same key answers the first charge, whatever happened since.
      const earlier = await findTestChargeId(db, idempotencyKey)
      if (earlier) return { id: earlier }
      const method = await findTestPaymentMethod(db, paymentMethodId, customerId)
      if (!method) throw new PaymentError('Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.')
      const today = now()
      if (method.expYear < today.getFullYear() || (method.expYear === today.getFullYear() && method.expMonth < today.getMonth() + 1)) {
        throw new PaymentError('Votre carte a expiré : enregistrez une nouvelle carte puis réessayez.')
      }
      if (await testPaymentMethodDeclinesCharges(db, method.id)) {
        throw new PaymentError('Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.')
      }
      return {
        id: await insertTestCharge(db, {
          id: providerId('ch'),
          customerId,
          paymentMethodId: method.id,
          amountCents,
          description,
          idempotencyKey,
        }),
      }
    },
    async findCharge({ idempotencyKey }) {
      const id = await findTestChargeId(db, idempotencyKey)
      return id ? { id } : null
    },
    async createTestPaymentMethod(card) {
      const number = card.number.replace(/[\s-]/g, '')
      const known = testCards[number]
      if (!known)
        throw new PaymentError(
          'Seuls les numéros de carte de test du fournisseur de paiement sont acceptés (par exemple 4242 4242 4242 4242).',
          400,
        )
      if (known.declined) throw new PaymentError('Votre carte a été refusée.')
      const today = now()
      if (card.expYear < today.getFullYear() || (card.expYear === today.getFullYear() && card.expMonth < today.getMonth() + 1)) {
        throw new PaymentError("La date d'expiration de la carte est dépassée.", 400)
      }
      const id = await testProviderRows.paymentMethod(db, null, {
        brand: known.brand,
        last4: number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
        declinesCharges: known.declinesCharges,
      })
      return (await paymentMethod(id))!
    },
  }
}
