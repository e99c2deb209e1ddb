import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { ForwardingDone } from '../../../../server/contract/mail-backoffice.ts'
import {
  FORWARDING_MESSAGES,
  forwardingDone,
  forwardingMachine,
  outcomeProblems,
} from '../../../../src/backoffice/machines/mail/forwarding.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { forwardingRequest } from '../../../util/backoffice-mail.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const handled = failure(409, 'Cette demande est déjà traitée.')
const first = forwardingRequest(3)
const second = forwardingRequest(5, { raisonSociale: 'Studio Nuage SAS', orderId: 14 })
const shipped = { kind: 'shipped' as const, carrier: 'Colissimo', trackingNumber: '6A 1234 5678' }
const impossible = { kind: 'impossible' as const, reason: 'Adresse incomplète : le numéro de rue manque.' }
const done: ForwardingDone = {
  id: 3,
  orderId: 12,
  status: 'traitée',
  outcome: { kind: 'expédiée', at: '2026-11-20T10:00:00.000Z', carrier: 'Colissimo', trackingNumber: '6A12345678', trackingUrl: null },
}

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = forwardingMachine.provide({
    actors: { load: deferreds.actor(), send: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [first, second] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'request.open', id: 3, kind: 'shipped' },
  { type: 'request.open', id: 3, kind: 'impossible' },
  { type: 'request.cancel' },
  { type: 'request.send', outcome: shipped },
  { type: 'request.send', outcome: impossible },
  { type: 'request.send', outcome: { ...shipped, trackingNumber: '12' } },
  { type: 'xstate.done.actor.send', output: done },
  { type: 'xstate.error.actor.send', error: handled },
] as const

const ModelBased = suite('back office, forwarding: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(forwardingMachine, {
  events,
  serializeState: (s: any) =>
    JSON.stringify([s.value, s.context.requests?.length ?? null, s.context.open, s.context.problems, s.context.sendError]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), ['failed', 'form', 'list', 'loading', 'sending'])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; outcome?: { trackingNumber?: string } })
    const last = steps.at(-1)
    // Sent only complete, and only the outcome of the form open (« Expédié » sends no reason, « Impossible » no number).
    for (const s of deferreds.started.filter((x) => x.id === 'send')) {
      const { outcome } = s.input as { id: number; outcome: { kind: string } }
      assert.ok(outcome === shipped || outcome === impossible)
    }
    if (last?.outcome?.trackingNumber === '12')
      assert.equal(snapshot.context.problems, { trackingNumber: FORWARDING_MESSAGES.trackingNumber })
    // Done: the request leaves the list, the operator is told; a refusal keeps the form open with the reason.
    if (last?.type === 'xstate.done.actor.send') {
      assert.equal(snapshot.context.requests, [second])
      assert.equal(notices, [{ kind: 'success', message: forwardingDone(first, done) }])
    }
    if (last?.error === handled) assert.equal([snapshot.value, snapshot.context.sendError], ['form', handled.message])
    assert.is(snapshot.hasTag('busy'), snapshot.matches('sending'))
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, forwarding: the forms')
Rules('a carrier and a tracking number as carriers print them; a reason of 3 characters at least', () => {
  assert.equal(outcomeProblems(shipped), {})
  assert.equal(outcomeProblems({ kind: 'shipped', carrier: ' ', trackingNumber: '6A-12' }), { carrier: FORWARDING_MESSAGES.carrier })
  assert.equal(outcomeProblems({ ...shipped, trackingNumber: '6A_1234' }), { trackingNumber: FORWARDING_MESSAGES.trackingNumber })
  assert.equal(outcomeProblems({ kind: 'impossible', reason: ' ok ' }), { reason: FORWARDING_MESSAGES.reason })
})
Rules.run()
