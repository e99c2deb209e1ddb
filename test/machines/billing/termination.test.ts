import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Notice } from '../../../src/machines/shared.ts'
import { frenchDay } from '../../../server/contract/rules/french-date.ts'
import {
  TERMINATION_NO_DATE,
  TERMINATION_NO_DETAILS,
  TERMINATION_NO_REASON,
  TERMINATION_SENT,
  terminationMachine,
  terminationProblems,
  terminationTooEarly,
  terminationTooFar,
} from '../../../src/machines/billing/termination.machine.ts'
import { latestTerminationDate } from '../../../server/contract/rules/termination.ts'
import { terminationTooFarMessage } from '../../../server/routes/billing/index.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const open = { request: null, earliestDate: '2027-06-11' }
const requested = {
  request: { date: '2027-07-01', reason: 'Autre motif', createdAt: '2026-11-20T10:00:00.000Z' },
  earliestDate: '2027-06-11',
}
const conflict = Object.assign(new Error('Une demande de résiliation est déjà enregistrée pour cette domiciliation.'), { status: 409 })
const refused = Object.assign(new Error('Le service est momentanément indisponible.'), { status: 503 })

function start(today?: string) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = terminationMachine.provide({
    actors: { loadStatus: deferreds.actor(), sendRequest: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: { orderId: 2, ...(today ? { today } : {}) } }), deferreds, notices }
}

const events = [
  { type: 'termination.retry' },
  { type: 'termination.open' },
  { type: 'termination.change', draft: { reason: 'Transfert du siège social' } },
  { type: 'termination.change', draft: { date: '2027-06-10' } },
  { type: 'termination.change', draft: { date: '9999-12-31' } },
  { type: 'termination.submit' },
  { type: 'termination.cancel' },
  { type: 'xstate.done.actor.loadStatus', output: open },
  { type: 'xstate.done.actor.loadStatus', output: requested },
  { type: 'xstate.error.actor.loadStatus', error: refused },
  { type: 'xstate.done.actor.sendRequest', output: { id: 1, message: 'ok' } },
  { type: 'xstate.error.actor.sendRequest', error: conflict },
  { type: 'xstate.error.actor.sendRequest', error: refused },
] as const

const ModelBased = suite('termination: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(terminationMachine, { events, input: { orderId: 2 } })
ModelBased('the model reaches every state', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['loading', 'failed', 'available', 'editing', 'sending', 'requested']) assert.ok(reached.has(state), state)
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    // Only a request with a listed reason and a date from the end of the period to two years ahead is ever sent.
    for (const { id, input } of deferreds.started.filter((s) => s.id === 'sendRequest')) {
      const body = input as { orderId: number; reason: string; date: string }
      assert.is(body.orderId, 2, id)
      assert.is(body.reason, 'Transfert du siège social')
      assert.ok(body.date >= open.earliestDate, body.date)
      assert.ok(body.date <= actor.getSnapshot().context.latestDate!, body.date)
    }
    // "Résiliation demandée pour le …" exactly when the server has the request.
    const snapshot = actor.getSnapshot()
    assert.is(snapshot.matches('requested'), snapshot.context.requestedDate !== null)
    actor.stop()
  })
}
ModelBased.run()

const Termination = suite('termination: examples')

async function opened(today?: string) {
  const started = start(today)
  started.actor.start()
  await flush()
  started.deferreds.settle('loadStatus', { output: open })
  await flush()
  started.actor.send({ type: 'termination.open' })
  return started
}

Termination('the form offers the earliest date; refuses an earlier one, a missing reason, "Autre motif" without details', async () => {
  const { actor, deferreds } = await opened()
  assert.is(actor.getSnapshot().context.draft.date, '2027-06-11')
  actor.send({ type: 'termination.change', draft: { date: '2027-06-10' } })
  actor.send({ type: 'termination.submit' })
  assert.equal(actor.getSnapshot().context.fieldErrors, { reason: TERMINATION_NO_REASON, date: terminationTooEarly('2027-06-11') })
  assert.is(
    terminationTooEarly('2027-06-11'),
    'La résiliation ne peut prendre effet avant la fin de la période en cours : choisissez le 11 juin 2027 ou une date ultérieure.',
  )
  actor.send({ type: 'termination.change', draft: { reason: 'Autre motif', date: '2027-07-01' } })
  assert.equal(actor.getSnapshot().context.fieldErrors, {}, 'a field changed loses its error')
  actor.send({ type: 'termination.submit' })
  assert.equal(actor.getSnapshot().context.fieldErrors, { comment: TERMINATION_NO_DETAILS })
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadStatus'],
    'nothing sent',
  )
  assert.equal(terminationProblems({ reason: 'Autre motif', comment: 'x', date: '31/01/2027' }, null), { date: TERMINATION_NO_DATE })
})

Termination('more than two years ahead: refused before sending, in the server’s words; two years to the day is sent', async () => {
  const { actor, deferreds } = await opened('2026-11-22')
  assert.is(actor.getSnapshot().context.latestDate, '2028-11-22')
  actor.send({ type: 'termination.change', draft: { reason: 'Cessation d’activité', date: '2028-11-23' } })
  actor.send({ type: 'termination.submit' })
  assert.equal(actor.getSnapshot().context.fieldErrors, { date: terminationTooFar('2028-11-22') })
  assert.is(
    terminationTooFar('2028-11-22'),
    'La résiliation ne peut être demandée plus de deux ans à l’avance : choisissez le 22 novembre 2028 ou une date antérieure.',
  )
  assert.is(terminationTooFar('2028-11-22'), terminationTooFarMessage('2028-11-22'), 'the server’s words')
  assert.equal(
    actor.getSnapshot().context.draft,
    { reason: 'Cessation d’activité', comment: '', date: '2028-11-23' },
    'what was typed is kept',
  )
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['loadStatus'],
    'nothing sent',
  )
  actor.send({ type: 'termination.change', draft: { date: '2028-11-22' } })
  actor.send({ type: 'termination.submit' })
  await flush()
  assert.equal(deferreds.started.at(-1)!.input, { orderId: 2, reason: 'Cessation d’activité', date: '2028-11-22' })
  // A period that ends later still: its end is the last day too (the server's rule).
  assert.is(latestTerminationDate('2026-11-22', '2029-01-31'), '2029-01-31')
})

Termination('sent: "Résiliation demandée" with the date, a toast; the comment trimmed, left out when empty', async () => {
  const { actor, deferreds, notices } = await opened()
  actor.send({ type: 'termination.change', draft: { reason: 'Cessation d’activité', comment: '  ' } })
  actor.send({ type: 'termination.submit' })
  await flush()
  assert.equal(deferreds.started.at(-1)!.input, { orderId: 2, reason: 'Cessation d’activité', date: '2027-06-11' })
  deferreds.settle('sendRequest', { output: { id: 1, message: 'ok' } })
  await flush()
  assert.ok(actor.getSnapshot().matches('requested'))
  assert.is(actor.getSnapshot().context.requestedDate, '2027-06-11')
  assert.equal(notices, [{ kind: 'success', message: TERMINATION_SENT }])
  assert.is(frenchDay('2027-06-11'), '11 juin 2027')
})

Termination('refused by the server: the form stays as typed, with the reason', async () => {
  const { actor, deferreds } = await opened()
  actor.send({ type: 'termination.change', draft: { reason: 'Tarifs trop élevés', comment: 'Trop cher' } })
  actor.send({ type: 'termination.submit' })
  await flush()
  deferreds.settle('sendRequest', { error: refused })
  await flush()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.equal(actor.getSnapshot().context.draft, { reason: 'Tarifs trop élevés', comment: 'Trop cher', date: '2027-06-11' })
  assert.is(actor.getSnapshot().context.error, refused.message)
})

Termination('a second request (409): the French message, then the request as the server has it', async () => {
  const { actor, deferreds, notices } = await opened()
  actor.send({ type: 'termination.change', draft: { reason: 'Tarifs trop élevés' } })
  actor.send({ type: 'termination.submit' })
  await flush()
  deferreds.settle('sendRequest', { error: conflict })
  await flush()
  assert.equal(notices, [{ kind: 'error', message: conflict.message }])
  assert.ok(actor.getSnapshot().matches('loading'))
  deferreds.settle('loadStatus', { output: requested })
  await flush()
  assert.is(actor.getSnapshot().context.requestedDate, '2027-07-01')
})

Termination(
  'a comment pasted with line and paragraph separators (U+2028, U+2029) or a lone \\r is sent with plain line breaks',
  async () => {
    const { actor, deferreds } = await opened()
    actor.send({
      type: 'termination.change',
      draft: { reason: 'Cessation d’activité', comment: 'Nous quittons Lyon.\u2028Merci pour tout.\u2029L’équipe\rFin' },
    })
    assert.is(
      actor.getSnapshot().context.draft.comment,
      'Nous quittons Lyon.\nMerci pour tout.\nL’équipe\nFin',
      'the form shows the same breaks',
    )
    actor.send({ type: 'termination.submit' })
    await flush()
    assert.equal(deferreds.started.at(-1)!.input, {
      orderId: 2,
      reason: 'Cessation d’activité',
      comment: 'Nous quittons Lyon.\nMerci pour tout.\nL’équipe\nFin',
      date: '2027-06-11',
    })
  },
)

Termination.run()
