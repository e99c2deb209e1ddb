import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  interestSent,
  OWNER_ONLY,
  type PartnerInterestInput,
  partnerInterestMachine,
} from '../../../src/machines/company/partnerInterest.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const failure = new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')

function start(input: PartnerInterestInput) {
  const deferreds = new Deferreds()
  const saved: { orderId: number; partner: string }[] = []
  const notices: Notice[] = []
  const machine = partnerInterestMachine.provide({
    actors: { sendInterest: deferreds.actor() },
    actions: { interestSaved: (_, p) => void saved.push(p), notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input }), deferreds, saved, notices }
}

const events = [
  { type: 'interest.send' },
  { type: 'xstate.done.actor.sendInterest', output: { qonto: true } },
  { type: 'xstate.error.actor.sendInterest', error: failure },
] as const

const inputs: [string, PartnerInterestInput][] = [
  ['an owner, not asked yet', { orderId: 2, partner: 'qonto', sent: false, isShareOrder: false }],
  ['an owner who asked before (a reload)', { orderId: 2, partner: 'shine', sent: true, isShareOrder: false }],
  ['a collaborator of a shared order', { orderId: 3, partner: 'expert-comptable', sent: false, isShareOrder: true }],
]

const ModelBased = suite('partnerInterest: shortest paths covering every state and transition, replayed')
for (const [who, input] of inputs) {
  for (const path of pathsToReplay(shortestPaths(partnerInterestMachine, { events, input }), ModelBased)) {
    ModelBased(`${who}: ${describePath(path)}`, async () => {
      const { actor, deferreds, saved, notices } = start(input)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const succeeded = path.steps.some((s) => s.event.type === 'xstate.done.actor.sendInterest')
      // Only an owner who has not asked yet sends, once at a time, for this order and partner.
      if (input.isShareOrder || input.sent) assert.equal(deferreds.started, [])
      for (const start of deferreds.started) assert.equal(start.input, { orderId: input.orderId, partner: input.partner })
      // "Demande envoyée" exactly when the server has it; the portal hears of it only then.
      assert.is(snapshot.hasTag('sent'), input.sent || succeeded)
      assert.equal(saved, succeeded ? [{ orderId: input.orderId, partner: input.partner }] : [])
      assert.equal(notices, succeeded ? [{ kind: 'success', message: interestSent(input.partner) }] : [])
      actor.stop()
    })
  }
}
ModelBased.run()

const Interest = suite('partnerInterest')

Interest('Qonto: sent, saved in the portal, told', async () => {
  const { actor, deferreds, saved, notices } = start(inputs[0]![1])
  actor.start()
  actor.send({ type: 'interest.send' })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('busy'))
  actor.send({ type: 'interest.send' })
  await flush()
  assert.is(deferreds.started.length, 1, 'a second click while sending sends nothing more')
  deferreds.settle('sendInterest', { output: { qonto: true } })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('sent'))
  assert.equal(saved, [{ orderId: 2, partner: 'qonto' }])
  assert.equal(notices, [{ kind: 'success', message: 'Votre intérêt pour Qonto est transmis : Qonto vous contactera.' }])
})

Interest('a failure says why and lets the customer try again', async () => {
  const { actor, deferreds } = start(inputs[0]![1])
  actor.start()
  actor.send({ type: 'interest.send' })
  await flush()
  deferreds.settle('sendInterest', { error: failure })
  await flush()
  assert.is(actor.getSnapshot().context.error, failure.message)
  actor.send({ type: 'interest.send' })
  await flush()
  assert.is(actor.getSnapshot().context.error, null)
  assert.is(deferreds.started.length, 2)
})

Interest('a collaborator is told the request is the owner’s', () => {
  const { actor, deferreds } = start(inputs[2]![1])
  actor.start()
  actor.send({ type: 'interest.send' })
  assert.is(actor.getSnapshot().context.error, OWNER_ONLY)
  assert.equal(deferreds.started, [])
})

Interest('the accountant request has its own words', () => {
  assert.match(interestSent('expert-comptable'), 'expert-comptable partenaire vous contactera sous 48 heures ouvrées')
  assert.is(interestSent('shine'), 'Votre intérêt pour Shine est transmis : Shine vous contactera.')
})

Interest.run()
