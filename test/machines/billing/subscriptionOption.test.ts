import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Subscription, SubscriptionOption } from '../../../server/contract/billing.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { optionAdded, subscriptionOptionMachine } from '../../../src/machines/billing/subscriptionOption.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const target = { orderId: 2, contractId: 102, subscriptionId: 'sub_2' }
const reexpedition: SubscriptionOption = {
  option: 'reexpedition',
  planId: 'option-reexpedition-annuelle',
  nickname: 'Réexpédition hebdomadaire du courrier',
  interval: 'year',
  amountExclTaxCents: 15000,
  amountInclTaxCents: 18000,
}
const standard: SubscriptionOption = {
  option: 'standard',
  planId: 'option-standard-annuelle',
  nickname: 'Permanence téléphonique',
  interval: 'year',
  amountExclTaxCents: 29000,
  amountInclTaxCents: 34800,
}
const plan = (id: string) => ({ id, nickname: id, amount: 100, currency: 'eur', interval: 'year' as const, product: 'p' })
const withOption: Subscription = {
  id: 'sub_2',
  object: 'subscription',
  status: 'active',
  current_period_end: 1_900_000_000,
  cancel_at_period_end: false,
  items: {
    object: 'list',
    data: [
      { id: 'si_1', plan: plan('domiciliation-annuelle'), quantity: 1 },
      { id: 'si_2', plan: plan(reexpedition.planId), quantity: 1 },
    ],
  },
}
const refusal = new Error('Votre abonnement comprend déjà cette option.')

function start() {
  const deferreds = new Deferreds()
  const changed: { orderId: number; subscription: Subscription }[] = []
  const notices: Notice[] = []
  const machine = subscriptionOptionMachine.provide({
    actors: { loadOptions: deferreds.actor(), requestOption: deferreds.actor(), confirmOption: deferreds.actor() },
    actions: { subscriptionChanged: (_, change) => void changed.push(change), notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: target }), deferreds, changed, notices }
}

const events = [
  { type: 'option.open' },
  { type: 'option.retry' },
  { type: 'option.pick', planId: reexpedition.planId },
  { type: 'option.pick', planId: 'option-jacuzzi' },
  { type: 'option.confirm' },
  { type: 'option.back' },
  { type: 'option.close' },
  { type: 'xstate.done.actor.loadOptions', output: [reexpedition, standard] },
  { type: 'xstate.error.actor.loadOptions', error: new Error('Le service est momentanément indisponible.') },
  {
    type: 'xstate.done.actor.requestOption',
    output: { message: 'ok', planId: reexpedition.planId, expiresAt: '2026-11-23T10:15:00.000Z' },
  },
  { type: 'xstate.error.actor.requestOption', error: refusal },
  { type: 'xstate.done.actor.confirmOption', output: withOption },
  { type: 'xstate.error.actor.confirmOption', error: new Error('Demande d’option en attente pour ce contrat introuvable.') },
] as const

const ModelBased = suite('subscriptionOption: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(subscriptionOptionMachine, { events, input: target })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['closed', 'loading', 'failed', 'choosing', 'confirming', 'requesting', 'confirmingOption'])
    assert.ok(reached.has(state), state)
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed } = start()
    await replay(actor, deferreds, path)
    const steps = path.steps.map((s) => s.event.type)
    // Only an offered option, once confirmed, is requested; it is confirmed only once the request succeeded.
    for (const { id, input } of deferreds.started) {
      if (id === 'requestOption') {
        assert.equal(input, { orderId: 2, subscriptionId: 'sub_2', option: 'reexpedition' })
        assert.ok(steps.includes('option.confirm'))
      }
      if (id === 'confirmOption') {
        assert.equal(input, { contractId: 102, planId: reexpedition.planId, orderId: 2, nickname: reexpedition.nickname })
        assert.ok(steps.includes('xstate.done.actor.requestOption'))
      }
    }
    // The card changes exactly when the provider confirmed the option.
    assert.equal(changed, steps.includes('xstate.done.actor.confirmOption') ? [{ orderId: 2, subscription: withOption }] : [])
    actor.stop()
  })
}
ModelBased.run()

const Option = suite('subscriptionOption: examples')

async function toConfirmation() {
  const started = start()
  started.actor.start()
  started.actor.send({ type: 'option.open' })
  await flush()
  started.deferreds.settle('loadOptions', { output: [reexpedition, standard] })
  await flush()
  started.actor.send({ type: 'option.pick', planId: standard.planId })
  return started
}

Option('added: request, confirm, the card changes and a toast names the option', async () => {
  const { actor, deferreds, changed, notices } = await toConfirmation()
  assert.equal(actor.getSnapshot().context.chosen, standard)
  actor.send({ type: 'option.confirm' })
  await flush()
  deferreds.settle('requestOption', { output: { message: 'ok', planId: standard.planId, expiresAt: '' } })
  await flush()
  deferreds.settle('confirmOption', { output: withOption })
  await flush()
  assert.ok(actor.getSnapshot().matches('closed'))
  assert.is(changed.length, 1)
  assert.equal(notices, [{ kind: 'success', message: 'L’option « Permanence téléphonique » a été ajoutée à votre abonnement.' }])
  assert.is(optionAdded(standard), notices[0]!.message)
})

Option('refused: the confirmation stays, with the reason; nothing changes', async () => {
  const { actor, deferreds, changed } = await toConfirmation()
  actor.send({ type: 'option.confirm' })
  await flush()
  deferreds.settle('requestOption', { error: refusal })
  await flush()
  assert.ok(actor.getSnapshot().matches('confirming'))
  assert.is(actor.getSnapshot().context.error, refusal.message)
  assert.equal(changed, [])
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadOptions', 'requestOption'],
  )
})

Option.run()
