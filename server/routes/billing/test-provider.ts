// The local test payment provider's card form endpoint. It stands for the provider's own API (Stripe.js posts the card
// to Stripe, never to us), so it lives outside our route table: no token of ours, not in our OpenAPI document nor our
// client; the payment method it makes belongs to nobody until our API attaches its pm_… id. Mounted only while the
// test provider is in use; the body is never logged (Fastify logs method and URL only; errors carry no field value).
import type { FastifyInstance } from 'fastify'
import { ApiErrorBody } from '../../contract/common.ts'
import { testProviderRoute, type TestCardBody } from '../../contract/test-provider.ts'
import type { PaymentProvider } from '../../services/payment.ts'

/** Card forms per minute and per IP: the endpoint needs no sign-in. */
export const TEST_PROVIDER_RATE_LIMIT = 30

export function testProviderRoutes(app: FastifyInstance, payments: PaymentProvider) {
  const create = payments.createTestPaymentMethod
  if (!create) return
  app.route<{ Body: TestCardBody }>({
    method: testProviderRoute.method,
    url: testProviderRoute.path,
    schema: {
      ...testProviderRoute.schema,
      response: { ...testProviderRoute.schema.response, 400: ApiErrorBody, 402: ApiErrorBody, 429: ApiErrorBody },
      hide: true,
    },
    config: { rateLimit: { max: TEST_PROVIDER_RATE_LIMIT, timeWindow: 60_000, groupId: 'testProvider' } },
    handler: async (req) => create(req.body),
  })
}
