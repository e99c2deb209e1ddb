// The provider's price list: the domiciliation plans and the options a customer can add to a subscription.
import type { Plan } from '../contract/billing.ts'

type Interval = Plan['interval']

const plan = (id: string, nickname: string, amount: number, interval: Interval, product: string): Plan => ({
  id,
  nickname,
  amount,
  currency: 'eur',
  interval,
  product,
})

export const plans: Record<string, Plan> = Object.fromEntries(
  [
    plan('domiciliation-mensuelle', 'Domiciliation commerciale (mensuel)', 2900, 'month', 'prod_domiciliation'),
    plan('domiciliation-annuelle', 'Domiciliation commerciale (annuel)', 29000, 'year', 'prod_domiciliation'),
    plan('option-reexpedition-mensuelle', 'Réexpédition hebdomadaire du courrier', 1500, 'month', 'prod_reexpedition'),
    plan('option-reexpedition-annuelle', 'Réexpédition hebdomadaire du courrier', 15000, 'year', 'prod_reexpedition'),
    plan('option-scan-mensuelle', 'Numérisation illimitée du courrier', 900, 'month', 'prod_scan'),
    plan('option-scan-annuelle', 'Numérisation illimitée du courrier', 9000, 'year', 'prod_scan'),
    plan('option-standard-mensuelle', 'Permanence téléphonique', 2900, 'month', 'prod_standard'),
    plan('option-standard-annuelle', 'Permanence téléphonique', 29000, 'year', 'prod_standard'),
  ].map((p) => [p.id, p]),
)

/** French VAT on domiciliation services: plan amounts are excluding tax. */
export const VAT_RATE_PERCENT = 20
export const inclTax = (amountExclTaxCents: number) => Math.round((amountExclTaxCents * (100 + VAT_RATE_PERCENT)) / 100)

/** The options of :add-option, by the name the SPA sends. */
export const optionNames = ['reexpedition', 'scan', 'standard'] as const

/** The plan of an option at the subscription's own billing interval, or undefined for an unknown option. */
export function optionPlanId(option: string, interval: Interval): string | undefined {
  if (!(optionNames as readonly string[]).includes(option)) return undefined
  return `option-${option}-${interval === 'month' ? 'mensuelle' : 'annuelle'}`
}
