// The local test payment provider's own endpoint, kept out of the provider API's route table on purpose: a card
// number goes from the browser to the payment provider, never to our routes (as Stripe.js posts to Stripe). The
// server mounts it, under its own prefix, only while the test provider is in use (server/routes/billing/test-provider.ts).
import { Type, type Static } from 'typebox'
import { PaymentMethod } from './billing.ts'

/** The card form of the local test provider: only Stripe's public test numbers are accepted. */
export const TestCardBody = Type.Object(
  {
    number: Type.String({ minLength: 12, maxLength: 23, pattern: '^[0-9 -]+$' }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer({ minimum: 2000, maximum: 2100 }),
    cvc: Type.String({ minLength: 3, maxLength: 4, pattern: '^[0-9]+$' }),
  },
  { additionalProperties: false },
)
export type TestCardBody = Static<typeof TestCardBody>

export const testProviderRoute = {
  method: 'POST',
  path: '/test-provider/v1/payment_methods',
  /** No token of ours: the provider does not know our users. The method stays unattached until our API attaches it. */
  schema: { body: TestCardBody, response: { 200: PaymentMethod } },
} as const
