// The local test payment provider's Stripe-shaped customers, cards, subscriptions and charges (services/payment.ts).
import { sql } from 'kysely'
import type { PaymentMethod, Subscription } from '../../contract/billing.ts'
import type { Db } from '../schema.ts'

type Item = Subscription['items']['data'][number]

export async function insertTestCustomer(db: Db, id: string, defaultPaymentMethod: string | null): Promise<void> {
  await db.insertInto('test_customers').values({ id, default_payment_method: defaultPaymentMethod }).execute()
}

/** The id of the customer's default card, or null (also for an unknown customer). */
export async function findTestCustomerPaymentMethod(db: Db, customerId: string): Promise<string | null> {
  const row = await db.selectFrom('test_customers').select('default_payment_method').where('id', '=', customerId).executeTakeFirst()
  return row?.default_payment_method ?? null
}

export async function setTestCustomerPaymentMethod(db: Db, customerId: string, paymentMethodId: string): Promise<void> {
  await db.updateTable('test_customers').set({ default_payment_method: paymentMethodId }).where('id', '=', customerId).execute()
}

export async function insertTestPaymentMethod(
  db: Db,
  id: string,
  customerId: string | null,
  card: Omit<PaymentMethod, 'id'> & { declinesCharges?: boolean },
): Promise<void> {
  await db
    .insertInto('test_payment_methods')
    .values({
      id,
      customer_id: customerId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      declines_charges: card.declinesCharges ?? false,
    })
    .execute()
}

/** Whether every charge on this card is declined (a test card made for that). */
export async function testPaymentMethodDeclinesCharges(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('test_payment_methods').select('declines_charges').where('id', '=', id).executeTakeFirst()
  return row?.declines_charges ?? false
}

/** Attaches a card to a customer: one that belongs to nobody yet, or to that customer already. The card, or null. */
export async function attachTestPaymentMethod(db: Db, id: string, customerId: string): Promise<PaymentMethod | null> {
  const row = await db
    .updateTable('test_payment_methods')
    .set({ customer_id: customerId })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('customer_id', 'is', null), eb('customer_id', '=', customerId)]))
    .returningAll()
    .executeTakeFirst()
  return row ? { id: row.id, brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year } : null
}

/** A card by id, or null; with `customerId`, only if it belongs to that customer. */
export async function findTestPaymentMethod(db: Db, id: string | null, customerId?: string): Promise<PaymentMethod | null> {
  if (!id) return null
  const row = await db
    .selectFrom('test_payment_methods')
    .selectAll()
    .where('id', '=', id)
    .$if(customerId !== undefined, (q) => q.where('customer_id', '=', customerId!))
    .executeTakeFirst()
  return row ? { id: row.id, brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year } : null
}

export async function insertTestSubscription(
  db: Db,
  subscription: {
    id: string
    customerId: string
    items: Item[]
    currentPeriodEnd: number
    defaultPaymentMethod: string | null
  },
): Promise<void> {
  await db
    .insertInto('test_subscriptions')
    .values({
      id: subscription.id,
      customer_id: subscription.customerId,
      status: 'active',
      cancel_at_period_end: false,
      default_payment_method: subscription.defaultPaymentMethod,
      current_period_end: subscription.currentPeriodEnd,
      items: JSON.stringify(subscription.items),
    })
    .execute()
}

/** Stripe's cancel: at once, the subscription stays readable with its status. */
export async function cancelTestSubscription(db: Db, id: string): Promise<void> {
  await db.updateTable('test_subscriptions').set({ status: 'canceled' }).where('id', '=', id).execute()
}

/** Stripe's `cancel_at`: the subscription ends at that instant (it reads 'canceled' from then on); false: no such subscription. */
export async function cancelTestSubscriptionAt(db: Db, id: string, at: Date): Promise<boolean> {
  const done = await db
    .updateTable('test_subscriptions')
    .set({ cancel_at: Math.floor(at.getTime() / 1000) })
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(done.numUpdatedRows) > 0
}

/** `now`: past a `cancel_at`, the subscription reads 'canceled', as Stripe's once it has ended. */
export async function findTestSubscription(db: Db, id: string, now?: Date): Promise<Subscription | null> {
  const row = await db.selectFrom('test_subscriptions').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return null
  const ended = row.cancel_at !== null && now !== undefined && now.getTime() / 1000 >= Number(row.cancel_at)
  return {
    id: row.id,
    object: 'subscription',
    status: ended ? 'canceled' : row.status,
    current_period_end: Number(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    items: { object: 'list', data: row.items as Item[] },
  }
}

/**
 * Adds an item to the subscription unless one of its plan is there, in one statement: two options confirmed at the
 * same moment both stay (read, then the whole list written back, lost one in 13 rounds of 15 on
 * PostgreSQL). A concurrent update waits on the row and is evaluated again on the new list.
 */
export async function addTestSubscriptionItem(db: Db, id: string, item: Item): Promise<void> {
  await db
    .updateTable('test_subscriptions')
    .set({ items: sql`items || jsonb_build_array(${JSON.stringify(item)}::jsonb)` })
    .where('id', '=', id)
    .where(sql<boolean>`not exists (select 1 from jsonb_array_elements(items) as held where held->'plan'->>'id' = ${item.plan.id})`)
    .execute()
}

/** The id of the card paying for the subscription, or null (also for an unknown subscription). */
export async function findTestSubscriptionPaymentMethod(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('test_subscriptions').select('default_payment_method').where('id', '=', id).executeTakeFirst()
  return row?.default_payment_method ?? null
}

export async function setTestSubscriptionPaymentMethod(db: Db, id: string, paymentMethodId: string): Promise<void> {
  await db.updateTable('test_subscriptions').set({ default_payment_method: paymentMethodId }).where('id', '=', id).execute()
}

/** Records a charge once per idempotency key: a repeat with the same key answers the first charge's id. */
export async function insertTestCharge(
  db: Db,
  charge: { id: string; customerId: string; paymentMethodId: string; amountCents: number; description: string; idempotencyKey: string },
): Promise<string> {
  const inserted = await db
    .insertInto('test_charges')
    .values({
      id: charge.id,
      customer_id: charge.customerId,
      payment_method: charge.paymentMethodId,
      amount: charge.amountCents,
      description: charge.description,
      idempotency_key: charge.idempotencyKey,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted?.id ?? (await findTestChargeId(db, charge.idempotencyKey))!
}

/** The charge made with this idempotency key, or null. */
export async function findTestChargeId(db: Db, idempotencyKey: string): Promise<string | null> {
  const row = await db.selectFrom('test_charges').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirst()
  return row?.id ?? null
}
