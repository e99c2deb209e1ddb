import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { PaymentMethod } from '../../../server/contract/billing.ts'
import {
  CARD_CVC_INVALID,
  CARD_EXPIRED,
  CARD_EXPIRY_INVALID,
  CARD_NUMBER_INVALID,
  CARD_REPLACED,
  cardProblems,
  cardReplacementMachine,
  HOSTED_CARD_UNAVAILABLE,
  type HostedCard,
  passesLuhn,
} from '../../../src/machines/billing/cardReplacement.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const today = { year: 2026, month: 11 }
const mastercard: PaymentMethod = { id: 'pm_new', brand: 'mastercard', last4: '4444', expMonth: 8, expYear: 2029 }
const declined = new Error('Votre carte a été refusée.')
const hostedSetup = { mode: 'hosted', clientSecret: 'seti_1_secret_abc', publishableKey: 'pk_test_x' } as const
const hostedCard: HostedCard = { mount: () => {}, confirm: async () => 'pm_new', destroy: () => {} }

function start(orderId: number | null = 2) {
  const deferreds = new Deferreds()
  const changed: PaymentMethod[] = []
  const notices: Notice[] = []
  const machine = cardReplacementMachine.provide({
    actors: {
      prepareCard: deferreds.actor(),
      loadHostedCard: deferreds.actor(),
      confirmHostedCard: deferreds.actor(),
      createPaymentMethod: deferreds.actor(),
      attachPaymentMethod: deferreds.actor(),
    },
    actions: { cardChanged: (_, { card }) => void changed.push(card), notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: { orderId, today } }), deferreds, changed, notices }
}

const events = [
  { type: 'card.open' },
  { type: 'card.change', draft: { number: '5555 5555 5555 4444', expiry: '08/29', cvc: '123' } },
  { type: 'card.change', draft: { number: '5555 5555 5555 4445' } },
  { type: 'card.submit' },
  { type: 'card.cancel' },
  { type: 'card.retry' },
  { type: 'xstate.done.actor.prepareCard', output: { mode: 'test' } },
  { type: 'xstate.done.actor.prepareCard', output: hostedSetup },
  {
    type: 'xstate.error.actor.prepareCard',
    error: new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.'),
  },
  { type: 'xstate.done.actor.loadHostedCard', output: hostedCard },
  { type: 'xstate.error.actor.loadHostedCard', error: new Error('Failed to load Stripe.js') },
  { type: 'xstate.done.actor.confirmHostedCard', output: 'pm_new' },
  { type: 'xstate.error.actor.confirmHostedCard', error: declined },
  { type: 'xstate.done.actor.createPaymentMethod', output: mastercard },
  { type: 'xstate.error.actor.createPaymentMethod', error: declined },
  { type: 'xstate.done.actor.attachPaymentMethod', output: mastercard },
  { type: 'xstate.error.actor.attachPaymentMethod', error: new Error('Moyen de paiement inconnu : enregistrez à nouveau votre carte.') },
] as const

const ModelBased = suite('cardReplacement: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(cardReplacementMachine, { events, input: { orderId: 2, today } })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of [
    'closed',
    'preparing',
    'failed',
    'editing',
    'creating',
    'attaching',
    '{"hosted":"loading"}',
    '{"hosted":"ready"}',
    '{"hosted":"confirming"}',
  ]) {
    assert.ok(reached.has(state) || [...paths].some((p) => JSON.stringify(p.state.value) === state), state)
  }
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed } = start()
    await replay(actor, deferreds, path)
    const steps = path.steps.map((s) => s.event.type)
    // Only a card that passes Luhn, expiry and CVC goes to the provider; only the provider's id is attached.
    for (const { id, input } of deferreds.started) {
      if (id === 'createPaymentMethod') assert.equal(input, { number: '5555555555554444', expMonth: 8, expYear: 2029, cvc: '123' })
      else if (id === 'prepareCard') assert.equal(input, { orderId: 2 })
      else if (id === 'loadHostedCard') assert.equal(input, { publishableKey: 'pk_test_x' })
      else if (id === 'confirmHostedCard') assert.equal(input, { hosted: hostedCard, clientSecret: 'seti_1_secret_abc' })
      else assert.equal(input, { orderId: 2, pm: 'pm_new' })
    }
    // One mode per opening: the test form's card never goes out once the real provider answered, and the reverse.
    const started = deferreds.started.map((s) => s.id)
    const lastOpening = started.lastIndexOf('prepareCard')
    const sinceOpening = started.slice(lastOpening)
    assert.not.ok(sinceOpening.includes('createPaymentMethod') && sinceOpening.includes('confirmHostedCard'), started.join(' → '))
    // Stripe.js failing to load says so in French, never its own English message.
    if (steps.at(-1) === 'xstate.error.actor.loadHostedCard') assert.is(actor.getSnapshot().context.error, HOSTED_CARD_UNAVAILABLE)
    assert.is(changed.length, steps.includes('xstate.done.actor.attachPaymentMethod') ? 1 : 0)
    // Closed, the form keeps no card number.
    if (actor.getSnapshot().matches('closed')) {
      assert.is(actor.getSnapshot().context.draft.number, '')
      assert.is(actor.getSnapshot().context.hosted, null, 'the card field is let go with the dialog')
    }
    actor.stop()
  })
}
ModelBased.run()

const Card = suite('cardReplacement: examples')

/** Opened with the local test provider: the server's `{provider: 'test'}` makes it `{ mode: 'test' }`, its own card form. */
async function openTestForm(actor: ReturnType<typeof start>['actor'], deferreds: Deferreds) {
  actor.send({ type: 'card.open' })
  await flush()
  deferreds.settle('prepareCard', { output: { mode: 'test' } })
  await flush()
}

Card('with the real provider: Stripe.js loaded, the SetupIntent confirmed, its pm attached; a refusal keeps the field', async () => {
  const { actor, deferreds, changed, notices } = start(2)
  actor.start()
  actor.send({ type: 'card.open' })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('preparing'))
  deferreds.settle('prepareCard', { output: hostedSetup })
  await flush()
  deferreds.settle('loadHostedCard', { output: hostedCard })
  await flush()
  assert.ok(actor.getSnapshot().matches({ hosted: 'ready' }))
  assert.is(actor.getSnapshot().context.hosted, hostedCard)
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('confirmHostedCard', { error: declined })
  await flush()
  assert.ok(actor.getSnapshot().matches({ hosted: 'ready' }))
  assert.is(actor.getSnapshot().context.error, 'Votre carte a été refusée.')
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('confirmHostedCard', { output: 'pm_new' })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'attachPaymentMethod', input: { orderId: 2, pm: 'pm_new' } })
  deferreds.settle('attachPaymentMethod', { output: mastercard })
  await flush()
  assert.ok(actor.getSnapshot().matches('closed'))
  assert.equal(changed, [mastercard])
  assert.equal(notices, [{ kind: 'success', message: CARD_REPLACED }])
  assert.not.ok(
    deferreds.started.some((s) => s.id === 'createPaymentMethod'),
    'no card number handled by our code',
  )
})

Card('Stripe.js cannot be loaded: a French message and Réessayer, which asks for a new SetupIntent', async () => {
  const { actor, deferreds } = start(2)
  actor.start()
  actor.send({ type: 'card.open' })
  await flush()
  deferreds.settle('prepareCard', { output: hostedSetup })
  await flush()
  deferreds.settle('loadHostedCard', { error: new Error('Failed to load Stripe.js') })
  await flush()
  assert.ok(actor.getSnapshot().matches('failed'))
  assert.is(actor.getSnapshot().context.error, HOSTED_CARD_UNAVAILABLE)
  actor.send({ type: 'card.retry' })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['prepareCard', 'loadHostedCard', 'prepareCard'],
  )
})

Card('Luhn, expiry MM/AA not past, CVC of 3 digits (4 for American Express)', () => {
  for (const number of ['4242 4242 4242 4242', '5555555555554444', '3782 822463 10005', '4000-0000-0000-0002'])
    assert.ok(passesLuhn(number), number)
  for (const number of ['4242 4242 4242 4241', '1234', '4242 4242 4242 424x', '']) assert.not.ok(passesLuhn(number), number)
  assert.equal(cardProblems({ number: '4242 4242 4242 4241', expiry: '13/29', cvc: '12' }, today), {
    number: CARD_NUMBER_INVALID,
    expiry: CARD_EXPIRY_INVALID,
    cvc: CARD_CVC_INVALID,
  })
  assert.equal(cardProblems({ number: '4242424242424242', expiry: '10/26', cvc: '123' }, today), { expiry: CARD_EXPIRED })
  assert.equal(cardProblems({ number: '4242424242424242', expiry: '11/26', cvc: '123' }, today), {}, 'the current month is still valid')
  assert.equal(cardProblems({ number: '3782 822463 10005', expiry: '1/2030', cvc: '123' }, today), { cvc: CARD_CVC_INVALID })
  assert.equal(cardProblems({ number: '3782 822463 10005', expiry: '01/30', cvc: '1234' }, today), {})
})

Card('replaced: provider, then attach for the order; the portal told, the number forgotten', async () => {
  const { actor, deferreds, changed, notices } = start(2)
  actor.start()
  await openTestForm(actor, deferreds)
  actor.send({ type: 'card.change', draft: { number: '5555 5555 5555 4444', expiry: '8/29', cvc: '123' } })
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('createPaymentMethod', { output: mastercard })
  await flush()
  deferreds.settle('attachPaymentMethod', { output: mastercard })
  await flush()
  assert.equal(changed, [mastercard])
  assert.equal(notices, [{ kind: 'success', message: CARD_REPLACED }])
  assert.equal(actor.getSnapshot().context.draft, { number: '', expiry: '', cvc: '' })
})

Card('declined: the form stays with what was typed and the provider’s French reason; nothing attached', async () => {
  const { actor, deferreds, changed } = start(null)
  actor.start()
  await openTestForm(actor, deferreds)
  actor.send({ type: 'card.change', draft: { number: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' } })
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('createPaymentMethod', { error: declined })
  await flush()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.error, 'Votre carte a été refusée.')
  assert.equal(actor.getSnapshot().context.draft, { number: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' })
  assert.equal(changed, [])
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['prepareCard', 'createPaymentMethod'],
  )
})

Card('without an order (Tous) the default card is replaced', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await openTestForm(actor, deferreds)
  actor.send({ type: 'card.change', draft: { number: '4242424242424242', expiry: '12/30', cvc: '123' } })
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('createPaymentMethod', { output: { ...mastercard, id: 'pm_default' } })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'attachPaymentMethod', input: { orderId: null, pm: 'pm_default' } })
})

Card.run()
