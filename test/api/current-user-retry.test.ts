// Spec §8 signs the user out when the current-user fetch fails: an answer saying the service is away for a moment (no
// answer, 502, 503, 504: a server restarting, an instance leaving the balancer, the database restarting) is asked again
// first (src/wiring/portal.ts), so that opening the portal in that second does not sign anyone out.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, waitFor } from 'xstate'
import { ApiError } from '../../src/api/errors.ts'
import { askAgainWhileUnavailable, createStartup, CURRENT_USER_RETRY_MS } from '../../src/wiring/portal.ts'
import * as F from '../util/fixtures.ts'

/** A call answering these in turn: a status fails with that ApiError, 'ok' succeeds. */
function answering(answers: (number | 'ok')[]) {
  const call = { count: 0, fn: async () => {
    const answer = answers[call.count++] ?? 'ok'
    if (answer === 'ok') return 'réponse'
    throw new ApiError(`statut ${answer}`, answer)
  } }
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
  void askAgainWhileUnavailable(call.fn, controller.signal, [30]).finally(() => { settled = true })
  await new Promise((resolve) => setTimeout(resolve, 5))
  controller.abort()
  await new Promise((resolve) => setTimeout(resolve, 60))
  assert.is(call.count, 1)
  assert.is(settled, false, 'the stopped actor hears nothing')
})

Retry('the waits: half a second, then one and a half (about the 0.5–0.7 s a PostgreSQL restart lasts, with room)', () => {
  assert.equal([...CURRENT_USER_RETRY_MS], [500, 1500])
})

const Startup = suite('the startup with it (src/wiring/portal.ts)')

function startupWith(userAnswers: (number | 'ok')[]) {
  const user = answering(userAnswers)
  const api = {
    getCurrentUser: async () => (await user.fn(), F.user),
    getContracts: async () => [],
    getMyOrders: async () => [F.boulangerie],
  }
  const actor = createActor(createStartup({ api: api as never, navigate: () => {} }), { input: { storedChoice: F.boulangerie.id } })
  return { actor, user }
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

Retry.run()
Startup.run()
