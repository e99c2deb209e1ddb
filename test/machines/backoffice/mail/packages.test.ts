import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { PackageCollector } from '../../../../server/contract/mail-backoffice.ts'
import { FILE_TOO_LARGE } from '../../../../server/contract/rules/uploads.ts'
import {
  handedOver,
  HANDOVER_MESSAGES,
  handoverBody,
  handoverMachine,
  handoverProblems,
} from '../../../../src/backoffice/machines/mail/handover.machine.ts'
import {
  ARRIVAL_MESSAGES,
  type ArrivalValues,
  arrivalProblems,
  packageDeskMachine,
  registered,
} from '../../../../src/backoffice/machines/mail/packageDesk.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { parcel } from '../../../util/backoffice-mail.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const terminated = failure(409, 'Cette domiciliation est résiliée : aucun colis n’y est plus enregistré.')
const waiting = [{ orderId: 12, raisonSociale: 'Boulangerie des Lilas SAS', packages: [parcel(8), parcel(9)] }]
const arrival: ArrivalValues = { orderId: 12, carrier: 'Colissimo', sender: 'Moulins Bourgeois', photo: null }
const incomplete: ArrivalValues = {
  orderId: null,
  carrier: ' ',
  sender: '',
  photo: { name: 'a.gif', size: 10, type: 'image/gif', file: new Blob() },
}

function startDesk() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = packageDeskMachine.provide({
    actors: { load: deferreds.actor(), register: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const deskEvents = [
  { type: 'xstate.done.actor.load', output: waiting },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'arrival.send', values: arrival },
  { type: 'arrival.send', values: incomplete },
  { type: 'xstate.done.actor.register', output: parcel(10) },
  { type: 'xstate.error.actor.register', error: terminated },
  { type: 'package.handedOver', id: 8 },
] as const

const Desk = suite('back office, packageDesk: shortest paths covering every state and transition, replayed')
const deskPaths = shortestPaths(packageDeskMachine, {
  events: deskEvents,
  serializeState: (s: any) =>
    JSON.stringify([s.value, s.context.waiting, s.context.problems, s.context.arrivalError, Math.min(s.context.registeredCount, 1)]),
})
Desk('the model reaches every state of both halves', () => {
  const values = deskPaths.map((p) => p.state.value as Record<string, string>)
  assert.equal([...new Set(values.map((v) => v.list))].sort(), ['failed', 'loading', 'shown'])
  assert.equal([...new Set(values.map((v) => v.arrival))].sort(), ['editing', 'sending'])
})
for (const path of pathsToReplay(deskPaths, Desk)) {
  Desk(describePath(path), async () => {
    const { actor, deferreds, notices } = startDesk()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; values?: ArrivalValues })
    const last = steps.at(-1)
    // Only a complete arrival is sent; registered, the list is read again and the form starts empty.
    assert.ok(deferreds.started.filter((s) => s.id === 'register').every((s) => s.input === arrival))
    if (last?.values === incomplete)
      assert.equal(snapshot.context.problems, {
        orderId: ARRIVAL_MESSAGES.orderId,
        carrier: ARRIVAL_MESSAGES.carrier,
        sender: ARRIVAL_MESSAGES.sender,
        photo: ARRIVAL_MESSAGES.photo,
      })
    if (last?.type === 'xstate.done.actor.register') {
      assert.ok(snapshot.matches({ list: 'loading' }))
      assert.is(snapshot.context.arrival, null)
      assert.equal(notices, [{ kind: 'success', message: registered(parcel(10)) }])
    }
    if (last?.error === terminated) assert.equal([snapshot.context.arrivalError, snapshot.context.arrival], [terminated.message, arrival])
    // A package handed over leaves its order's list.
    if (last?.type === 'package.handedOver' && snapshot.context.waiting)
      assert.equal(
        snapshot.context.waiting[0]!.packages.map((p) => p.id),
        [9],
      )
    actor.stop()
  })
}
Desk.run()

const collectors: PackageCollector[] = [
  { kind: 'titulaire', mandataireId: null, name: 'Camille Martin' },
  { kind: 'mandataire', mandataireId: 7, name: 'Paul Girard' },
]
const now = new Date('2026-11-20T10:00:00.000Z')
const choice = { collector: 1, identityChecked: true, collectedAt: '2026-11-20T09:30:00.000Z' }
const unchecked = { collector: null, identityChecked: false, collectedAt: '2026-11-21T09:30:00.000Z' }

function startHandover() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const done: number[] = []
  const machine = handoverMachine.provide({
    actors: { loadCollectors: deferreds.actor(), handOver: deferreds.actor() },
    actions: { notify: (_, notice) => void notices.push(notice), done: (_, { id }) => void done.push(id) },
  })
  return { actor: createActor(machine, { input: { parcel: parcel(8) } }), deferreds, notices, done }
}

const handoverEvents = [
  { type: 'xstate.done.actor.loadCollectors', output: collectors },
  { type: 'xstate.error.actor.loadCollectors', error: down },
  { type: 'collectors.retry' },
  { type: 'handover.send', values: choice, now },
  { type: 'handover.send', values: unchecked, now },
  { type: 'xstate.done.actor.handOver', output: parcel(8, { status: 'Retiré' }) },
  { type: 'xstate.error.actor.handOver', error: down },
] as const

const Handover = suite('back office, handover: shortest paths covering every state and transition, replayed')
const handoverPaths = shortestPaths(handoverMachine, {
  events: handoverEvents,
  input: { parcel: parcel(8) },
  serializeState: (s: any) => JSON.stringify([s.value, s.context.collectors.length, s.context.problems, s.context.error]),
})
Handover('the model reaches every state', () => {
  assert.equal([...new Set(handoverPaths.map((p) => String(p.state.value)))].sort(), ['choosing', 'done', 'failed', 'loading', 'sending'])
})
for (const path of pathsToReplay(handoverPaths, Handover)) {
  Handover(describePath(path), async () => {
    const { actor, deferreds, notices, done } = startHandover()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; values?: unknown })
    const last = steps.at(-1)
    // The collector is one of the list read, the identity checked: only then is it sent, as the route wants it.
    for (const s of deferreds.started.filter((x) => x.id === 'handOver'))
      assert.equal(s.input, {
        id: 8,
        body: { collector: { kind: 'mandataire', mandataireId: 7 }, identityChecked: true, collectedAt: choice.collectedAt },
      })
    if (last?.values === unchecked)
      assert.equal(snapshot.context.problems, {
        collector: HANDOVER_MESSAGES.collector,
        identityChecked: HANDOVER_MESSAGES.identityChecked,
        collectedAt: HANDOVER_MESSAGES.collectedAtFuture,
      })
    assert.equal(done, snapshot.matches('done') ? [8] : [])
    if (snapshot.matches('done')) assert.equal(notices, [{ kind: 'success', message: handedOver(parcel(8), 'Paul Girard') }])
    if (last?.type === 'xstate.error.actor.handOver') assert.equal([snapshot.value, snapshot.context.error], ['choosing', down.message])
    actor.stop()
  })
}
Handover.run()

const Rules = suite('back office, Colis: the rules of the forms')
Rules('an arrival: an order, a carrier, a sender; a photo JPEG, PNG or PDF of 10 MB at most', () => {
  assert.equal(arrivalProblems(arrival), {})
  const photo = { name: 'p.jpg', size: 11 * 1024 * 1024, type: 'image/jpeg', file: new Blob() }
  assert.equal(arrivalProblems({ ...arrival, photo }), { photo: FILE_TOO_LARGE })
})
Rules('a handover: neither before the arrival nor in the future; the owner sent as « titulaire »', () => {
  const received = parcel(8).receivedAt
  assert.equal(handoverProblems({ ...choice, collectedAt: '2026-11-18T09:00:00.000Z' }, collectors, received, now), {
    collectedAt: HANDOVER_MESSAGES.collectedAtEarly,
  })
  assert.equal(handoverProblems({ ...choice, collectedAt: 'pas une date' }, collectors, received, now), {
    collectedAt: HANDOVER_MESSAGES.collectedAtInvalid,
  })
  assert.equal(handoverProblems({ ...choice, collector: 5 }, collectors, received, now), { collector: HANDOVER_MESSAGES.collector })
  assert.equal(handoverBody({ ...choice, collector: 0 }, collectors).collector, { kind: 'titulaire' })
})
Rules.run()
