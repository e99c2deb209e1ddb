// Subscription, options, cards, unpaid invoices and termination, through the payment provider interface.
import type { Kysely } from 'kysely'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import { orderIdsInScope, requireOrder } from '../../db/repositories/orders.ts'
import type { SessionUser } from '../../db/repositories/users.ts'
import type { Database } from '../../db/schema.ts'
import { sameDigest, subscriptionKey } from '../../services/crypto.ts'
import type { PaymentProvider } from '../../services/payment.ts'
import { optionNames, optionPlanId } from '../../services/plans.ts'
import { addMinutes } from '../../services/time.ts'

/** How long an option requested with :add-option may be confirmed by add-option-subscription. */
export const OPTION_CONFIRMATION_MINUTES = 15

const noSubscription = () => notFound('Abonnement')

/** The user's customer at the payment provider, created the first time it is needed. */
async function customerOf(db: Kysely<Database>, payments: PaymentProvider, user: SessionUser): Promise<string> {
  if (user.paymentCustomerId) return user.paymentCustomerId
  const id = await payments.createCustomer(user.email, `${user.firstname} ${user.lastname}`)
  const row = await db.updateTable('users').set({ payment_customer_id: id })
    .where('id', '=', user.id).where('payment_customer_id', 'is', null).returning('payment_customer_id').executeTakeFirst()
  // Another request may have created one meanwhile: keep the one stored first.
  return row?.payment_customer_id ?? (await db.selectFrom('users').select('payment_customer_id').where('id', '=', user.id).executeTakeFirstOrThrow()).payment_customer_id!
}

export function billingRoutes(define: DefineRoute, { db, payments, clock, mailer, config }: AppDeps) {
  define('subscriptionInformations', async ({ params, query }) => {
    const order = await db.selectFrom('orders').select(['id', 'subscription_id']).where('id', '=', params.orderId).executeTakeFirst()
    // Unknown order, no subscription and wrong key answer alike: the key is the only proof asked of the caller.
    if (!order?.subscription_id || !sameDigest(query.key.toLowerCase(), subscriptionKey(order.id, order.subscription_id))) throw noSubscription()
    const subscription = await payments.getSubscription(order.subscription_id)
    if (!subscription) throw noSubscription()
    return subscription
  })

  define('addOption', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    if (!order.subscription_id) throw noSubscription()
    if (!sameDigest(body.key.toLowerCase(), subscriptionKey(order.id, order.subscription_id))) {
      throw new HttpError(403, 'La clé d’abonnement ne correspond pas à cette domiciliation.', 'BAD_SUBSCRIPTION_KEY')
    }
    const subscription = await payments.getSubscription(order.subscription_id)
    if (!subscription) throw noSubscription()
    const interval = subscription.items.data[0]?.plan.interval ?? 'month'
    const planId = optionPlanId(body.option, interval)
    if (!planId) throw badRequest(`Option inconnue : choisissez l’une des options ${optionNames.join(', ')}.`, 'UNKNOWN_OPTION')
    if (subscription.items.data.some((i) => i.plan.id === planId)) throw conflict('Votre abonnement comprend déjà cette option.')
    const expiresAt = addMinutes(clock.now(), OPTION_CONFIRMATION_MINUTES)
    await db.insertInto('option_requests').values({ order_id: order.id, user_id: user.id, plan_id: planId, expires_at: expiresAt }).execute()
    return { message: 'Option demandée : confirmez-la pour l’ajouter à votre abonnement.', planId, expiresAt: expiresAt.toISOString() }
  })

  define('addOptionSubscription', async ({ body }) => {
    const now = clock.now()
    const confirmed = await db.transaction().execute(async (tx) => {
      const contract = await tx.selectFrom('contracts').innerJoin('orders', 'orders.id', 'contracts.order_id')
        .select(['orders.id as order_id', 'orders.subscription_id']).where('contracts.id', '=', body.contractId).executeTakeFirst()
      if (!contract?.subscription_id) return null
      // Single use: the pending request is consumed by the statement that finds it.
      const request = await tx.updateTable('option_requests').set({ confirmed_at: now })
        .where('id', '=', (eb) => eb.selectFrom('option_requests').select('id')
          .where('order_id', '=', contract.order_id).where('plan_id', '=', body.planId)
          .where('confirmed_at', 'is', null).where('expires_at', '>', now)
          .orderBy('id', 'desc').limit(1))
        .returning('id').executeTakeFirst()
      return request ? contract.subscription_id : null
    })
    if (!confirmed) throw notFound('Demande d’option en attente pour ce contrat')
    return payments.addSubscriptionItem(confirmed, body.planId)
  })

  define('paymentMethod', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    return order.subscription_id ? payments.getSubscriptionPaymentMethod(order.subscription_id) : null
  })

  define('creditCard', async ({ user }) => (user.paymentCustomerId ? payments.getDefaultPaymentMethod(user.paymentCustomerId) : null))

  define('updatePaymentMethod', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    if (!order.subscription_id) throw noSubscription()
    return payments.setSubscriptionPaymentMethod(order.subscription_id, await customerOf(db, payments, user), body.pm)
  })

  define('updateCreditCardWeb', async ({ user, body }) => payments.setDefaultPaymentMethod(await customerOf(db, payments, user), body.pm))

  define('createTestPaymentMethod', async ({ user, body }) => {
    if (!payments.createTestPaymentMethod) throw notFound('Formulaire de carte de test')
    return payments.createTestPaymentMethod(await customerOf(db, payments, user), body)
  })

  define('unpaidStatus', async ({ user }) => {
    const orderIds = await orderIdsInScope(db, user.id, 'own')
    if (!orderIds.length) return { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }
    const row = await db.selectFrom('invoices')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('amount_incl_tax_cents'), eb.lit(0)).as('amount')])
      .where('order_id', 'in', orderIds).where('paid_at', 'is', null).executeTakeFirstOrThrow()
    const count = Number(row.count)
    return { hasUnpaid: count > 0, count, amountInclTaxCents: Number(row.amount) }
  })

  define('payUnpaidInvoice', async ({ user, body }) => {
    const orderIds = body.orderId !== undefined
      ? [(await requireOrder(db, user.id, body.orderId, 'owner')).id]
      : await orderIdsInScope(db, user.id, 'own')
    const unpaid = orderIds.length
      ? await db.selectFrom('invoices').select(['id', 'number', 'amount_incl_tax_cents']).where('order_id', 'in', orderIds).where('paid_at', 'is', null).orderBy('date').execute()
      : []
    if (!unpaid.length) return { paidCount: 0, message: 'Vous n’avez aucune facture impayée.' }
    if (!user.paymentCustomerId) throw new HttpError(402, 'Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.', 'NO_CARD')
    const total = unpaid.reduce((sum, i) => sum + i.amount_incl_tax_cents, 0)
    const charge = await payments.charge(user.paymentCustomerId, total, `Factures ${unpaid.map((i) => i.number).join(', ')}`)
    await db.updateTable('invoices').set({ paid_at: clock.now(), payment_reference: charge.id })
      .where('id', 'in', unpaid.map((i) => i.id)).where('paid_at', 'is', null).execute()
    return { paidCount: unpaid.length, message: unpaid.length > 1 ? `${unpaid.length} factures ont été réglées.` : 'Votre facture a été réglée.' }
  })

  define('terminationRequest', async ({ user, body }) => {
    const order = await requireOrder(db, user.id, body.orderId, 'owner')
    if (body.date < clock.now().toISOString().slice(0, 10)) throw badRequest('La date de résiliation ne peut pas être dans le passé.', 'PAST_DATE')
    const pending = await db.selectFrom('termination_requests').select('id').where('order_id', '=', order.id).executeTakeFirst()
    if (pending) throw conflict('Une demande de résiliation est déjà enregistrée pour cette domiciliation.')
    const row = await db.insertInto('termination_requests')
      .values({ order_id: order.id, user_id: user.id, reason: body.reason, date: body.date, comment: body.comment ?? null })
      .returning('id').executeTakeFirstOrThrow()
    await mailer.send({
      to: config.supportEmail,
      subject: `Demande de résiliation : ${order.raison_sociale}`,
      text: `${user.firstname} ${user.lastname} <${user.email}> demande la résiliation de la domiciliation de ${order.raison_sociale} (commande ${order.id}) au ${body.date}.\nMotif : ${body.reason}\n${body.comment ?? ''}`,
    })
    return { id: row.id, message: 'Votre demande de résiliation a bien été enregistrée ; nous vous confirmons sa prise en compte par e-mail.' }
  })
}
