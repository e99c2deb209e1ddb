// The billing area's French words and small computations for the views.
import type { PaymentMethod, Subscription } from '../../../../server/contract/billing.ts'
import type { Order } from '../../../../server/contract/session.ts'

/** French VAT on domiciliation services (the server's plans.ts): plan amounts are excluding tax. */
export const inclTax = (amountExclTaxCents: number) => Math.round(amountExclTaxCents * 1.2)

/** Spec §3: 'month' means monthly. */
export const intervalLabel = (interval: 'month' | 'year') => (interval === 'month' ? 'Mensuel' : 'Annuel')
export const perPeriod = (interval: 'month' | 'year') => (interval === 'month' ? 'par mois' : 'par an')

export const planOf = (subscription: Subscription) => subscription.items.data[0]?.plan ?? null
export const optionsOf = (subscription: Subscription) => subscription.items.data.slice(1).map((i) => i.plan)
export const totalInclTax = (subscription: Subscription) =>
  subscription.items.data.reduce((sum, i) => sum + inclTax(i.plan.amount * i.quantity), 0)
/** The next due date: the end of the current period (seconds since 1970). */
export const nextDueDate = (subscription: Subscription) => new Date(subscription.current_period_end * 1000).toISOString()

const brands: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Carte Bancaire',
}
export const brandLabel = (brand: string) => brands[brand] ?? brand

/** "12/2028" */
export const expiryLabel = (card: PaymentMethod) => `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`

export type CardExpiry = 'valid' | 'soon' | 'expired'

/** A card expires at the end of its month: "Expirée" once that month is past, "Expire bientôt" within 60 days of its end. */
export function cardExpiry(card: PaymentMethod, today: Date): CardExpiry {
  // The first day after its month, at midnight where the customer is.
  const end = new Date(card.expYear, card.expMonth, 1)
  if (today.getTime() >= end.getTime()) return 'expired'
  return end.getTime() - today.getTime() <= 60 * 86_400_000 ? 'soon' : 'valid'
}

/** The orders a billing page shows: the selected one, or every order the user owns ('Tous'). */
export const ordersInScope = (order: Order | null, orders: Order[]) => (order ? [order] : orders.filter((o) => !o.isShareOrder))

export const OWNER_ONLY = 'Géré par le titulaire de la domiciliation.'
