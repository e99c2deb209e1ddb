import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { LegalSubmission } from '../../../server/contract/company.ts'
import * as server from '../../../server/services/legal-formalities.ts'
import {
  CHECKS_FAILED,
  type CheckAnswers,
  type FormalityKind,
  FORMALITY_ORDERED,
  formalityOrderMachine,
  ORDER_OWNER_ONLY,
  type OrderChecks,
  refusalFor,
  refusals,
} from '../../../src/machines/company/formalityOrder.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const kinds: FormalityKind[] = [
  'creation',
  'transfert-siege',
  'changement-dirigeant',
  'modification-denomination-objet',
  'modification-capital',
  'dissolution-liquidation',
]
const registered: CheckAnswers = { completeKbis: true, waitingContract: false, attenteCourrierOrFinalise: true }
const awaitingKbis: CheckAnswers = { completeKbis: false, waitingContract: false, attenteCourrierOrFinalise: false }
const unknown: CheckAnswers = { completeKbis: true, waitingContract: undefined, attenteCourrierOrFinalise: true }
const failure = new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
const submission: LegalSubmission = {
  id: 9,
  orderId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  kind: 'transfert-siege',
  status: 'Reçue',
  comment: 'Depuis Lyon',
  receivedAt: '2026-11-20T10:00:00.000Z',
  startedAt: null,
  filedAt: null,
  completedAt: null,
}

function start(input: { orderId: number; isShareOrder: boolean }) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const ordered: LegalSubmission[] = []
  const machine = formalityOrderMachine.provide({
    actors: { checkOrder: deferreds.actor(), createSubmission: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n), ordered: (_, { submission }) => void ordered.push(submission) },
  })
  return { actor: createActor(machine, { input }), deferreds, notices, ordered }
}

const Rules = suite('the same rules as the server')

Rules('for every kind and every answer of the three checks, the portal and the server agree, word for word', () => {
  let cases = 0
  for (const completeKbis of [true, false]) {
    for (const waitingContract of [true, false]) {
      for (const attenteCourrierOrFinalise of [true, false]) {
        const checks: OrderChecks = { completeKbis, waitingContract, attenteCourrierOrFinalise }
        for (const kind of kinds) {
          assert.is(refusalFor(kind, checks), server.refusalFor(kind, checks), `${kind} ${JSON.stringify(checks)}`)
          cases++
        }
      }
    }
  }
  assert.is(cases, 48)
  assert.equal(refusals, server.refusals)
})

Rules('a registered company: everything but a creation; one waiting for its Kbis: only a creation', () => {
  assert.equal(
    kinds.filter((k) => refusalFor(k, registered as OrderChecks) === null),
    kinds.slice(1),
  )
  assert.equal(
    kinds.filter((k) => refusalFor(k, awaitingKbis as OrderChecks) === null),
    ['creation'],
  )
})

Rules.run()

const events = [
  { type: 'xstate.done.actor.checkOrder', output: registered },
  { type: 'xstate.done.actor.checkOrder', output: awaitingKbis },
  { type: 'xstate.done.actor.checkOrder', output: unknown },
  { type: 'xstate.error.actor.checkOrder', error: failure },
  { type: 'checks.retry' },
  { type: 'formality.choose', kind: 'creation' },
  { type: 'formality.choose', kind: 'transfert-siege' },
  { type: 'formality.comment', comment: '  Depuis Lyon ' },
  { type: 'formality.confirm' },
  { type: 'formality.cancel' },
  { type: 'xstate.done.actor.createSubmission', output: submission },
  { type: 'xstate.error.actor.createSubmission', error: new Error('Une demande de cette formalité est déjà en cours pour cette société.') },
] as const

const ModelBased = suite('formalityOrder: shortest paths covering every state and transition, replayed')
for (const input of [
  { orderId: 2, isShareOrder: false },
  { orderId: 3, isShareOrder: true },
]) {
  for (const path of pathsToReplay(shortestPaths(formalityOrderMachine, { events, input }), ModelBased)) {
    ModelBased(`${input.isShareOrder ? 'collaborator' : 'owner'}: ${describePath(path)}`, async () => {
      const { actor, deferreds, notices, ordered } = start(input)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const answers = [...path.steps].reverse().find((s) => s.event.type === 'xstate.done.actor.checkOrder')?.event.output as
        | CheckAnswers
        | undefined
      const requests = deferreds.started.filter((s) => s.id === 'createSubmission')
      // Nothing is ordered by a collaborator, nor before the checks are all known, nor what they refuse.
      if (input.isShareOrder) assert.equal(requests, [])
      for (const { input: sent } of requests) {
        const { kind, comment, orderId } = sent as { kind: FormalityKind; comment: string; orderId: number }
        assert.is(orderId, input.orderId)
        assert.ok(answers && Object.values(answers).every((a) => a !== undefined), 'checks known')
        assert.is(refusalFor(kind, answers as OrderChecks), null, `${kind} allowed`)
        assert.ok(comment === '' || comment === 'Depuis Lyon', 'the comment, trimmed')
      }
      // Followed up (toast and the way to /formalites) exactly when the server recorded it.
      const recorded = path.steps.some((s) => s.event.type === 'xstate.done.actor.createSubmission')
      assert.equal(ordered, recorded ? [submission] : [])
      assert.equal(notices, recorded ? [{ kind: 'success', message: FORMALITY_ORDERED }] : [])
      if (snapshot.matches('checkFailed')) assert.ok(snapshot.context.error)
      if (snapshot.matches('ready') && snapshot.context.error && !input.isShareOrder) {
        assert.ok(Object.values(refusals).includes(snapshot.context.error as never), 'a refusal says which check forbids it')
      }
      actor.stop()
    })
  }
}
ModelBased.run()

const Order = suite('formalityOrder')

async function ready(answers: CheckAnswers, isShareOrder = false) {
  const started = start({ orderId: isShareOrder ? 3 : 2, isShareOrder })
  started.actor.start()
  await flush()
  assert.equal(started.deferreds.started, [{ id: 'checkOrder', input: { orderId: isShareOrder ? 3 : 2 } }])
  started.deferreds.settle('checkOrder', { output: answers })
  await flush()
  return started
}

Order('a transfer of registered office: chosen, commented, confirmed, recorded', async () => {
  const { actor, deferreds, notices, ordered } = await ready(registered)
  actor.send({ type: 'formality.choose', kind: 'transfert-siege' })
  assert.ok(actor.getSnapshot().hasTag('modal'))
  actor.send({ type: 'formality.comment', comment: 'Depuis Lyon' })
  actor.send({ type: 'formality.confirm' })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('busy'))
  assert.equal(deferreds.started.at(-1), { id: 'createSubmission', input: { orderId: 2, kind: 'transfert-siege', comment: 'Depuis Lyon' } })
  deferreds.settle('createSubmission', { output: submission })
  await flush()
  assert.is(actor.getSnapshot().status, 'done')
  assert.equal(ordered, [submission])
  assert.equal(notices, [{ kind: 'success', message: FORMALITY_ORDERED }])
})

Order('refused by a check: says which, opens nothing, sends nothing', async () => {
  const { actor, deferreds } = await ready(registered)
  actor.send({ type: 'formality.choose', kind: 'creation' })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.error, refusals.alreadyRegistered)
  const other = await ready(awaitingKbis)
  other.actor.send({ type: 'formality.choose', kind: 'modification-capital' })
  assert.is(other.actor.getSnapshot().context.error, refusals.kbisMissing)
  assert.ok(deferreds.started.every((s) => s.id === 'checkOrder'))
})

Order('the server refuses: the modal stays, with the comment and why', async () => {
  const { actor, deferreds } = await ready(registered)
  actor.send({ type: 'formality.choose', kind: 'transfert-siege' })
  actor.send({ type: 'formality.comment', comment: 'Depuis Lyon' })
  actor.send({ type: 'formality.confirm' })
  await flush()
  deferreds.settle('createSubmission', { error: new Error('Une demande de cette formalité est déjà en cours pour cette société.') })
  await flush()
  const { context } = actor.getSnapshot()
  assert.ok(actor.getSnapshot().matches('confirming'))
  assert.equal([context.comment, context.error], ['Depuis Lyon', 'Une demande de cette formalité est déjà en cours pour cette société.'])
})

Order('a check that could not be answered: nothing can be ordered until a retry works', async () => {
  const { actor, deferreds } = await ready(unknown)
  assert.ok(actor.getSnapshot().matches('checkFailed'))
  assert.is(actor.getSnapshot().context.error, CHECKS_FAILED)
  actor.send({ type: 'formality.choose', kind: 'transfert-siege' })
  assert.ok(actor.getSnapshot().matches('checkFailed'))
  actor.send({ type: 'checks.retry' })
  await flush()
  deferreds.settle('checkOrder', { output: registered })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
})

Order('a collaborator reads the catalogue, orders nothing', async () => {
  const { actor } = await ready(registered, true)
  actor.send({ type: 'formality.choose', kind: 'transfert-siege' })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.error, ORDER_OWNER_ONLY)
})

Order('a comment pasted with line and paragraph separators (U+2028, U+2029) or a lone \\r is sent with plain line breaks', async () => {
  const { actor, deferreds } = await ready(registered)
  actor.send({ type: 'formality.choose', kind: 'transfert-siege' })
  actor.send({ type: 'formality.comment', comment: 'Nous quittons Lyon.\u2028Merci pour tout.\u2029L’équipe\rFin' })
  actor.send({ type: 'formality.confirm' })
  await flush()
  assert.equal(deferreds.started.at(-1), {
    id: 'createSubmission',
    input: { orderId: 2, kind: 'transfert-siege', comment: 'Nous quittons Lyon.\nMerci pour tout.\nL’équipe\nFin' },
  })
})

Order.run()
