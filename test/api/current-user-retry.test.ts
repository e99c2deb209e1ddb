// Spec §8 signs the user out when the current-user fetch fails: an answer saying the service is away for a moment (no
// answer, 502, 503, 504: a server restarting, an instance leaving the balancer, the database restarting) is asked again
// first (src/wiring/portal.ts), so that opening the portal in that second does not sign anyone out; the contracts and
// the orders likewise, whose failure shows the startup's error screen.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, waitFor } from 'xstate'
import { ApiError } from '../../src/api/errors.ts'
import { askAgainWhileUnavailable, createStartup, STARTUP_RETRY_MS } from '../../src/wiring/portal.ts'
import * as F from '../util/fixtures.ts'

/** A call answering these in turn: a status fails with that ApiError, 'ok' succeeds. */
function answering(answers: (number | 'ok')[]) {
  const call = {
    count: 0,
    fn: async () => {
      const answer = answers[call.count++] ?? 'ok'
      if (answer === 'ok') return 'réponse'
      throw new ApiError(`statut ${answer}`, answer)
    },
  }
  return call
}

const Retry = suite('the current-user fetch asked again while the service is away')

Retry('no answer, then 503: asked again after each wait, and its answer taken', async () => {
  const call = answering([0, 503, 'ok'])
  assert.is(await askAgainWhileUnavailable(call.fn, new AbortController().signal, [5, 10]), 'réponse')
  assert.is(call.count, 3)
})

Retry('still away after the last wait: the last failure counts (then spec §8 signs out)', async () => {
  const call = answering([502, 504, 503, 'ok'])
  const error = await askAgainWhileUnavailable(call.fn, new AbortController().signal, [5, 10]).catch((e: unknown) => e)
  assert.instance(error, ApiError)
  assert.is((error as ApiError).status, 503)
  assert.is(call.count, 3, 'once, then once after each of the two waits')
})

Retry('any other failure counts at once: 401 above all, and 400, 403, 404, 429, 500', async () => {
  for (const status of [401, 400, 403, 404, 429, 500]) {
    const call = answering([status, 'ok'])
    const error = await askAgainWhileUnavailable(call.fn, new AbortController().signal, [5, 10]).catch((e: unknown) => e)
    assert.is((error as ApiError).status, status)
    assert.is(call.count, 1, `${status} asked once`)
  }
})

Retry('called off during a wait (the startup left its state): nothing asked again', async () => {
  const call = answering([503, 'ok'])
  const controller = new AbortController()
  let settled = false
  void askAgainWhileUnavailable(call.fn, controller.signal, [30]).finally(() => {
    settled = true
  })
  await new Promise((resolve) => setTimeout(resolve, 5))
  controller.abort()
  await new Promise((resolve) => setTimeout(resolve, 60))
  assert.is(call.count, 1)
  assert.is(settled, false, 'the stopped actor hears nothing')
})

Retry('the waits: half a second, then one and a half (about the 0.5–0.7 s a PostgreSQL restart lasts, with room)', () => {
  assert.equal([...STARTUP_RETRY_MS], [500, 1500])
})

const Startup = suite('the startup with it (src/wiring/portal.ts)')

function startupWith(userAnswers: (number | 'ok')[], others: { contracts?: (number | 'ok')[]; orders?: (number | 'ok')[] } = {}) {
  const user = answering(userAnswers)
  const contracts = answering(others.contracts ?? [])
  const orders = answering(others.orders ?? [])
  const api = {
    getCurrentUser: async () => (await user.fn(), F.user),
    getContracts: async () => (await contracts.fn(), []),
    getMyOrders: async () => (await orders.fn(), [F.boulangerie]),
  }
  const actor = createActor(createStartup({ api: api as never, navigate: () => {} }), { input: { storedChoice: F.boulangerie.id } })
  return { actor, user, contracts, orders }
}

Startup('a 503 then the user: the portal goes on, nobody signed out', async () => {
  const { actor, user } = startupWith([503, 'ok'])
  actor.start()
  const snapshot = await waitFor(actor, (s) => s.matches('ready') || s.status === 'done', { timeout: 5000 })
  assert.ok(snapshot.matches('ready'), JSON.stringify(snapshot.value))
  assert.is(user.count, 2)
  actor.stop()
})

Startup('away through every wait: the startup ends (the session then signs out, spec §8)', async () => {
  const { actor, user } = startupWith([503, 503, 503, 'ok'])
  actor.start()
  const snapshot = await waitFor(actor, (s) => s.status === 'done', { timeout: 5000 })
  assert.ok(snapshot.matches('signedOut'))
  assert.is(user.count, 3)
})

Startup('a 401: ends at once, asked once', async () => {
  const { actor, user } = startupWith([401, 'ok'])
  actor.start()
  await waitFor(actor, (s) => s.status === 'done', { timeout: 200 })
  assert.is(user.count, 1)
})

Startup(
  'the contracts, then the orders, away for a moment: asked again, the portal goes on instead of « Votre espace n’a pas pu être chargé »',
  async () => {
    const { actor, contracts, orders } = startupWith([], { contracts: [0, 'ok'], orders: [503, 'ok'] })
    actor.start()
    const snapshot = await waitFor(actor, (s) => s.matches('ready') || s.matches('failed') || s.status === 'done', { timeout: 5000 })
    assert.ok(snapshot.matches('ready'), JSON.stringify(snapshot.value))
    assert.equal([contracts.count, orders.count], [2, 2])
    actor.stop()
  },
)

Startup('the orders away through every wait: « Réessayer » as before, with the reason', async () => {
  const { actor, orders } = startupWith([], { orders: [503, 503, 503, 'ok'] })
  actor.start()
  const snapshot = await waitFor(actor, (s) => s.matches('failed') || s.matches('ready'), { timeout: 5000 })
  assert.ok(snapshot.matches({ failed: 'orders' }), JSON.stringify(snapshot.value))
  assert.is(snapshot.context.error, 'statut 503')
  assert.is(orders.count, 3)
  actor.stop()
})

Retry.run()
Startup.run()
