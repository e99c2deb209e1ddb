// billing: helpers of the billing server tests.
import * as assert from 'uvu/assert'
import type { PaymentMethod } from '../../server/contract/billing.ts'
import { testProviderRoute } from '../../server/contract/test-provider.ts'
import type { TestApp } from './server.ts'

/** A card made by the local test provider's own form (no token of ours), not yet attached to anyone. */
export async function testProviderCard(t: TestApp, number: string, cvc = '123'): Promise<PaymentMethod> {
  const res = await t.app.inject({
    method: 'POST',
    url: testProviderRoute.path,
    payload: { number, expMonth: 12, expYear: t.clock.now().getFullYear() + 3, cvc },
  })
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}
