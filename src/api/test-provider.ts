// The local test payment provider's own card form endpoint (server/contract/test-provider.ts): the card number goes
// to the provider, never to our API routes, and never with our token, as Stripe.js would send it to Stripe.
import type { PaymentMethod } from '../../server/contract/schemas.ts'
import type { TestCardBody } from '../../server/contract/test-provider.ts'
import { type CallOptions, call } from './client.ts'

export const TEST_PROVIDER_PATH = '/test-provider/v1/payment_methods'

/** Makes a payment method of a public test card; its `pm_…` id is then attached by PUT …/payment-method {pm}. */
export const createTestPaymentMethod = (card: TestCardBody, options?: CallOptions) =>
  call<PaymentMethod>({ auth: 'none', method: 'POST', path: TEST_PROVIDER_PATH, body: card }, options)
