// Subscription, options, cards, unpaid invoices and termination, through the payment provider interface.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'
import {
  claimUnpaidInvoices,
  confirmOptionRequest,
  createOptionRequest,
  createTerminationRequest,
  findOrderSubscription,
  findTerminationRequest,
  recordPaymentFailed,
  recordPaymentSucceeded,
  unpaidTotal,
} from '../../db/repositories/billing.ts'
import { deleteTerminationRequest } from '../../db/repositories/billing.ts'
import { orderIdsInScope, requireOrder } from '../../db/repositories/company-orders.ts'
import { keepPaymentCustomerId, type SessionUser } from '../../db/repositories/session.ts'
import type { Db } from '../../db/schema.ts'
import { sameDigest, subscriptionKey } from '../../lib/crypto.ts'
import type { PaymentProvider } from '../../services/payment.ts'
import { MAX_PAYMENT_CENTS, PaymentError } from '../../lib/money.ts'
import { inclTax, optionNames, optionPlanId, plans } from '../../services/plans.ts'
import { eurosText } from '../../services/events.ts'
import { addMinutes, parisDay } from '../../lib/time.ts'
import { isBlank, trimmedOrNull } from '../../contract/rules/text.ts'
import { frenchDay } from '../../contract/rules/french-date.ts'
import { certificateRoutes } from './certificates.ts'
import { terminationBackofficeRoutes } from './backoffice-terminations.ts'
import { latestTerminationDate, terminationTooFarText } from '../../contract/rules/termination.ts'
import { invoiceRoutes } from './invoices.ts'
import { billingOperatorRoutes } from './operator.ts'

/** How long an option requested with :add-option may be confirmed by add-option-subscription. */
export const OPTION_CONFIRMATION_MINUTES = 15
/** How long a payment attempt belongs to the request that made it; past that, a retry may resume it (longer than any provider call). */
export const PAYMENT_LEASE_MINUTES = 2
/**
 * How long a pending attempt's idempotency key may be sent again. Stripe forgets a key after 24 hours and would then
 * take it for a new charge (a payment left unconfirmed, paid again two days later, was charged
 * twice); past this age the provider is asked what the key charged instead (findCharge).
 */
export const PAYMENT_KEY_TTL_MS = 23 * 3_600_000

const paymentUnconfirmed = () =>
  new HttpError(
    503,
    'Le paiement n’a pas pu être confirmé par le fournisseur. Il sera vérifié avant tout nouveau prélèvement : réessayez dans quelques minutes.',
    'PAYMENT_UNCONFIRMED',
  )
const paidMessage = (invoiceCount: number) => ({
  paidCount: invoiceCount,
  message: invoiceCount > 1 ? `${invoiceCount} factures ont été réglées.` : 'Votre facture a été réglée.',
})

export const NO_CARD_MESSAGE = 'Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.'
export const TERMINATION_NO_REASON = 'Indiquez le motif de votre résiliation.'
export const terminationTooFarMessage = (latest: string) => terminationTooFarText(frenchDay(latest))
export const TERMINATION_EXISTS = 'Une demande de résiliation est déjà enregistrée pour cette domiciliation.'
/** The total changed between the confirmation and the payment (an invoice issued, or paid elsewhere): nothing charged. */
export const amountChangedMessage = (count: number, amountCents: number) =>
  `Le montant à régler a changé depuis votre confirmation : ${count} facture${count > 1 ? 's' : ''} impayée${count > 1 ? 's' : ''}, ${eurosText(amountCents)} TTC. Rien n’a été prélevé : vérifiez le nouveau montant puis confirmez.`
/** More than one card payment carries (a total over MAX_PAYMENT_CENTS): nothing charged, the support arranges another way. */
export const amountTooLargeMessage = (amountCents: number, supportEmail: string) =>
  `Le montant à régler, ${eurosText(amountCents)} TTC, dépasse ce qu’un paiement par carte peut prélever en une fois (${eurosText(MAX_PAYMENT_CENTS)}). ` +
  `Rien n’a été prélevé : écrivez à ${supportEmail} pour convenir d’un autre moyen de paiement.`
const nothingToPay = { paidCount: 0, message: 'Vous n’avez aucune facture impayée.' }

const noSubscription = () => notFound('Abonnement')

/** The user's customer at the payment provider, created the first time it is needed. */
async function customerOf(db: Db, payments: PaymentProvider, user: SessionUser): Promise<string> {
  if (user.paymentCustomerId) return user.paymentCustomerId
  return keepPaymentCustomerId(db, user.id, await payments.createCustomer(user.email, `${user.firstname} ${user.lastname}`))
}

export function billingRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, payments, clock, mailer, config, oneAtATime } = deps
  certificateRoutes(define, deps)
  define('subscriptionInformations', async ({ params, query }) => {
    const order = await findOrderSubscription(db, params.orderId)
    // Unknown order, no subscription and wrong key answer alike: the key is the only proof asked of the caller.
    if (!order?.subscription_id || !sameDigest(query.key.toLowerCase(), subscriptionKey(order.id, order.subscription_id)))
      throw noSubscription()
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
    await createOptionRequest(db, { orderId: order.id, userId: user.id, planId, expiresAt })
    return { message: 'Option demandée : confirmez-la pour l’ajouter à votre abonnement.', planId, expiresAt: expiresAt.toISOString() }
  })

  define('addOptionSubscription', async ({ body }) => {
    const confirmed = await confirmOptionRequest(db, body.contractId, body.planId, clock.now())
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

  // The owner's check comes first, so a collaborator or a stranger learns nothing of the provider in use.
  define('cardSetup', async ({ user, body }) => {
    const order = body.orderId !== undefined ? await requireOrder(db, user.id, body.orderId, 'owner') : null
    if (order && !order.subscription_id) throw noSubscription()
    // Not an error: the dialog then shows the test provider's own card form (a 4xx would be logged by every browser).
    if (!payments.createCardSetupIntent) return { provider: 'test' as const }
    // loadConfig refuses STRIPE_SECRET_KEY without it; only a hand-built app could lack it.
    if (!config.stripePublishableKey) throw new Error('STRIPE_PUBLISHABLE_KEY manque')
    const { clientSecret } = await payments.createCardSetupIntent(await customerOf(db, payments, user), order?.id ?? null)
    return { provider: 'stripe' as const, clientSecret, publishableKey: config.stripePublishableKey }
  })

  define('updateCreditCardWeb', async ({ user, body }) => payments.setDefaultPaymentMethod(await customerOf(db, payments, user), body.pm))

  define('unpaidStatus', async ({ user }) => {
    const { count, amountInclTaxCents } = await unpaidTotal(db, await orderIdsInScope(db, user.id, 'own'))
    return { hasUnpaid: count > 0, count, amountInclTaxCents }
  })

  define('payUnpaidInvoice', async ({ user, body, req }) => {
    const order = body.orderId !== undefined ? await requireOrder(db, user.id, body.orderId, 'owner') : null
    const orderIds = order ? [order.id] : await orderIdsInScope(db, user.id, 'own')
    const due = await unpaidTotal(db, orderIds)
    if (due.count === 0) return nothingToPay
    const tooLarge = (amountCents: number) =>
      new HttpError(422, amountTooLargeMessage(amountCents, config.supportEmail), 'AMOUNT_TOO_LARGE')
    if (due.amountInclTaxCents > MAX_PAYMENT_CENTS) throw tooLarge(due.amountInclTaxCents)
    // The card on file: the one paying for the order's subscription, else the customer's default card. Invoices of
    // 0 € need none: they are settled without a charge.
    const card =
      due.amountInclTaxCents === 0 || !user.paymentCustomerId
        ? null
        : ((order?.subscription_id ? await payments.getSubscriptionPaymentMethod(order.subscription_id) : null) ??
          (await payments.getDefaultPaymentMethod(user.paymentCustomerId)))
    if (due.amountInclTaxCents > 0 && !card) throw new HttpError(402, NO_CARD_MESSAGE, 'NO_CARD')
    const customerId = card ? user.paymentCustomerId : null
    const claimNow = () => {
      const now = clock.now()
      return claimUnpaidInvoices(db, {
        userId: user.id,
        customerId,
        paymentMethodId: card?.id ?? null,
        orderIds,
        now,
        leaseExpiresAt: addMinutes(now, PAYMENT_LEASE_MINUTES),
        ...(body.expectedAmountInclTaxCents !== undefined ? { expectedAmountCents: body.expectedAmountInclTaxCents } : {}),
      })
    }
    let claim = await claimNow()
    // A pending attempt too old for its key to be sent again: the provider says what that key charged. Charged, it is
    // recorded; not charged, the attempt fails and the invoices are claimed anew (a new key, the amount checked again).
    if (claim.kind === 'resumed' && clock.now().getTime() - claim.attempt.createdAt.getTime() > PAYMENT_KEY_TTL_MS) {
      const old = claim.attempt
      const charged = await payments.findCharge(old).catch((error: unknown) => {
        req.log.error({ err: error, paymentAttempt: old.id }, 'paiement ancien à l’issue inconnue : tentative laissée en attente')
        throw paymentUnconfirmed()
      })
      if (charged) {
        await recordPaymentSucceeded(db, old.id, charged.id, clock.now())
        return paidMessage(claim.invoiceCount)
      }
      await recordPaymentFailed(db, old.id, 'rien n’a été prélevé (vérifié auprès du fournisseur) : tentative remplacée', clock.now())
      claim = await claimNow()
    }
    if (claim.kind === 'nothing') return nothingToPay
    if (claim.kind === 'settled') return paidMessage(claim.invoiceCount)
    if (claim.kind === 'tooLarge') throw tooLarge(claim.amountCents)
    if (claim.kind === 'amountChanged') throw new HttpError(409, amountChangedMessage(claim.count, claim.amountCents), 'AMOUNT_CHANGED')
    if (claim.kind === 'inProgress')
      throw conflict('Un paiement de ces factures est déjà en cours : patientez quelques instants, puis rechargez la page.')
    const { attempt, invoiceCount } = claim
    try {
      // A resumed attempt keeps its key, amount and card: if its first call charged, this one answers that charge.
      const charge = await payments.charge(attempt)
      await recordPaymentSucceeded(db, attempt.id, charge.id, clock.now())
    } catch (error) {
      if (!(error instanceof PaymentError)) {
        req.log.error({ err: error, paymentAttempt: attempt.id }, 'paiement à l’issue inconnue : tentative laissée en attente')
        throw paymentUnconfirmed()
      }
      await recordPaymentFailed(db, attempt.id, error.message, clock.now())
      throw error
    }
    return paidMessage(invoiceCount)
  })

  /** The first day a termination may take effect: the end of the current period, or today once it has passed. */
  async function earliestTerminationDate(subscriptionId: string | null): Promise<string> {
    const today = parisDay(clock.now())
    const subscription = subscriptionId ? await payments.getSubscription(subscriptionId) : null
    const periodEnd = subscription ? parisDay(new Date(subscription.current_period_end * 1000)) : today
    // biome-ignore lint/complexity/useMathMinMax: two days as 'YYYY-MM-DD' strings, compared as text
    return periodEnd > today ? periodEnd : today
  }

  define('terminationStatus', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    return { request: await findTerminationRequest(db, order.id), earliestDate: await earliestTerminationDate(order.subscription_id) }
  })

  define('subscriptionOptions', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    const subscription = order.subscription_id ? await payments.getSubscription(order.subscription_id) : null
    if (!subscription) throw noSubscription()
    const interval = subscription.items.data[0]?.plan.interval ?? 'month'
    const held = new Set(subscription.items.data.map((i) => i.plan.id))
    return optionNames.flatMap((option) => {
      const plan = plans[optionPlanId(option, interval)!]!
      return held.has(plan.id)
        ? []
        : [
            {
              option,
              planId: plan.id,
              nickname: plan.nickname,
              interval,
              amountExclTaxCents: plan.amount,
              amountInclTaxCents: inclTax(plan.amount),
            },
          ]
    })
  })

  define('terminationRequest', async ({ user, body }) => {
    const order = await requireOrder(db, user.id, body.orderId, 'owner')
    if (isBlank(body.reason)) throw badRequest(TERMINATION_NO_REASON)
    const comment = trimmedOrNull(body.comment)
    if (body.date < parisDay(clock.now())) throw badRequest('La date de résiliation ne peut pas être dans le passé.', 'PAST_DATE')
    const earliest = await earliestTerminationDate(order.subscription_id)
    if (body.date < earliest) {
      throw badRequest(
        `La résiliation ne peut prendre effet avant la fin de la période en cours : choisissez le ${frenchDay(earliest)} ou une date ultérieure.`,
        'BEFORE_PERIOD_END',
      )
    }
    const latest = latestTerminationDate(parisDay(clock.now()), earliest)
    if (body.date > latest) throw badRequest(terminationTooFarMessage(latest), 'TOO_FAR')
    // Under the order's key: a request met here is kept (its e-mail has left), not one about to be taken back.
    return oneSendAtATime(oneAtATime, `termination:${order.id}`, async () => {
      const id = await createTerminationRequest(db, { orderId: order.id, userId: user.id, reason: body.reason, date: body.date, comment })
      // The unique index decides between simultaneous requests: only the one that recorded a row sends the e-mail.
      if (id === null) throw conflict(TERMINATION_EXISTS)
      // An e-mail that cannot leave takes the request back (a French 503): the retry records it and sends it again.
      await sendOrUndo(
        mailer,
        {
          to: config.supportEmail,
          subject: `Demande de résiliation : ${order.raison_sociale}`,
          text: `${user.firstname} ${user.lastname} <${user.email}> demande la résiliation de la domiciliation de ${order.raison_sociale} (commande ${order.id}) au ${body.date}.\nMotif : ${body.reason}\n${comment ?? ''}`,
        },
        () => deleteTerminationRequest(db, id),
      )
      return { id, message: 'Votre demande de résiliation a bien été enregistrée ; nous vous confirmons sa prise en compte par e-mail.' }
    })
  })

  invoiceRoutes(define, deps)
  billingOperatorRoutes(define, deps)
  terminationBackofficeRoutes(define, deps)
}
