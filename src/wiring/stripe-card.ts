// Stripe.js's card field for the hosted card element (STRIPE_SECRET_KEY): loaded only when /moyen-de-paiement opens
// the card dialog with the real provider (this module is imported on demand), from js.stripe.com as Stripe requires
// (@stripe/stripe-js/pure adds its script tag then, never at page load). The card number stays in Stripe's frame.
import { loadStripe } from '@stripe/stripe-js/pure'
import type { HostedCard } from '../machines/billing/cardReplacement.machine.ts'

/** When Stripe refuses the card without a message of its own. */
export const CARD_DECLINED_DEFAULT = 'La carte n’a pas pu être enregistrée : vérifiez-la ou essayez une autre carte.'

export async function loadHostedCard(publishableKey: string): Promise<HostedCard> {
  const stripe = await loadStripe(publishableKey, { locale: 'fr' })
  if (!stripe) throw new Error('Stripe.js indisponible')
  const card = stripe.elements({ locale: 'fr' }).create('card', { hidePostalCode: true })
  return {
    mount: (element) => card.mount(element),
    destroy: () => card.destroy(),
    async confirm(clientSecret) {
      const { setupIntent, error } = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } })
      // Stripe's messages are in French with locale 'fr' (a declined card, an incomplete number…).
      if (error || !setupIntent?.payment_method) throw new Error(error?.message || CARD_DECLINED_DEFAULT)
      const pm = setupIntent.payment_method
      return typeof pm === 'string' ? pm : pm.id
    },
  }
}
