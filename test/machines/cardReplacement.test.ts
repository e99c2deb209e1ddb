import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { PaymentMethod } from '../../server/contract/schemas.ts'
import {
  CARD_CVC_INVALID, CARD_EXPIRED, CARD_EXPIRY_INVALID, CARD_NUMBER_INVALID, CARD_REPLACED, cardProblems, cardReplacementMachine, passesLuhn,
} from '../../src/machines/cardReplacement.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const today = { year: 2026, month: 11 }
const mastercard: PaymentMethod = { id: 'pm_new', brand: 'mastercard', last4: '4444', expMonth: 8, expYear: 2029 }
const declined = new Error('Votre carte a été refusée.')

function start(orderId: number | null = 2) {
  const deferreds = new Deferreds()
  const changed: PaymentMethod[] = []
  const notices: Notice[] = []
  const machine = cardReplacementMachine.provide({
    actors: { createPaymentMethod: deferreds.actor(), attachPaymentMethod: deferreds.actor() },
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
  { type: 'xstate.done.actor.createPaymentMethod', output: mastercard },
  { type: 'xstate.error.actor.createPaymentMethod', error: declined },
  { type: 'xstate.done.actor.attachPaymentMethod', output: mastercard },
  { type: 'xstate.error.actor.attachPaymentMethod', error: new Error('Moyen de paiement inconnu : enregistrez à nouveau votre carte.') },
] as const

const ModelBased = suite('cardReplacement: every shortest path, replayed')
const paths = shortestPaths(cardReplacementMachine, { events, input: { orderId: 2, today } })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['closed', 'editing', 'creating', 'attaching']) assert.ok(reached.has(state), state)
})
for (const path of paths) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed } = start()
    await replay(actor, deferreds, path)
    const steps = path.steps.map((s) => s.event.type)
    // Only a card that passes Luhn, expiry and CVC goes to the provider; only the provider's id is attached.
    for (const { id, input } of deferreds.started) {
      if (id === 'createPaymentMethod') assert.equal(input, { number: '5555555555554444', expMonth: 8, expYear: 2029, cvc: '123' })
      else assert.equal(input, { orderId: 2, pm: 'pm_new' })
    }
    assert.is(changed.length, steps.includes('xstate.done.actor.attachPaymentMethod') ? 1 : 0)
    // Closed, the form keeps no card number.
    if (actor.getSnapshot().matches('closed')) assert.is(actor.getSnapshot().context.draft.number, '')
    actor.stop()
  })
}
ModelBased.run()

const Card = suite('cardReplacement: examples')

Card('Luhn, expiry MM/AA not past, CVC of 3 digits (4 for American Express)', () => {
  for (const number of ['4242 4242 4242 4242', '5555555555554444', '3782 822463 10005', '4000-0000-0000-0002']) assert.ok(passesLuhn(number), number)
  for (const number of ['4242 4242 4242 4241', '1234', '4242 4242 4242 424x', '']) assert.not.ok(passesLuhn(number), number)
  assert.equal(cardProblems({ number: '4242 4242 4242 4241', expiry: '13/29', cvc: '12' }, today), { number: CARD_NUMBER_INVALID, expiry: CARD_EXPIRY_INVALID, cvc: CARD_CVC_INVALID })
  assert.equal(cardProblems({ number: '4242424242424242', expiry: '10/26', cvc: '123' }, today), { expiry: CARD_EXPIRED })
  assert.equal(cardProblems({ number: '4242424242424242', expiry: '11/26', cvc: '123' }, today), {}, 'the current month is still valid')
  assert.equal(cardProblems({ number: '3782 822463 10005', expiry: '1/2030', cvc: '123' }, today), { cvc: CARD_CVC_INVALID })
  assert.equal(cardProblems({ number: '3782 822463 10005', expiry: '01/30', cvc: '1234' }, today), {})
})

Card('replaced: provider, then attach for the order; the portal told, the number forgotten', async () => {
  const { actor, deferreds, changed, notices } = start(2)
  actor.start()
  actor.send({ type: 'card.open' })
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
  actor.send({ type: 'card.open' })
  actor.send({ type: 'card.change', draft: { number: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' } })
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('createPaymentMethod', { error: declined })
  await flush()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.is(actor.getSnapshot().context.error, 'Votre carte a été refusée.')
  assert.equal(actor.getSnapshot().context.draft, { number: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' })
  assert.equal(changed, [])
  assert.equal(deferreds.started.map((s) => s.id), ['createPaymentMethod'])
})

Card('without an order (Tous) the default card is replaced', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  actor.send({ type: 'card.open' })
  actor.send({ type: 'card.change', draft: { number: '4242424242424242', expiry: '12/30', cvc: '123' } })
  actor.send({ type: 'card.submit' })
  await flush()
  deferreds.settle('createPaymentMethod', { output: { ...mastercard, id: 'pm_default' } })
  await flush()
  assert.equal(deferreds.started.at(-1), { id: 'attachPaymentMethod', input: { orderId: null, pm: 'pm_default' } })
})

Card.run()
