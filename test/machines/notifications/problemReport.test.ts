import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  PROBLEM_EMPTY,
  PROBLEM_NO_ORDER,
  PROBLEM_SENT,
  problemReportMachine,
} from '../../../src/machines/notifications/problemReport.machine.ts'
import type { Notice } from '../../../src/machines/shared.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const events = [
  { type: 'problem.open' },
  { type: 'problem.close' },
  { type: 'problem.change', message: 'Mon courrier du 3 novembre est illisible.' },
  { type: 'problem.change', message: '   ' },
  { type: 'problem.submit', orderId: null },
  { type: 'problem.submit', orderId: 2 },
  { type: 'xstate.done.actor.sendProblem', output: { message: 'ok' } },
  { type: 'xstate.error.actor.sendProblem', error: new Error('Le service est momentanément indisponible.') },
] as const

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = problemReportMachine.provide({
    actors: { sendProblem: deferreds.actor() },
    actions: { notify: (_, params) => void notices.push(params) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const ModelBased = suite('problemReport: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(problemReportMachine, { events })
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(`${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    // Nothing is ever sent without a specific order, nor without a message.
    for (const call of deferreds.started) {
      assert.is((call.input as any).orderId, 2)
      assert.ok((call.input as any).message.trim().length > 0)
    }
    // Every refusal for 'Tous' is told with the spec's words.
    const refusals = path.steps.filter(
      (s) => s.event.type === 'problem.submit' && (s.event as any).orderId === null && (s.state.value as any)?.open === 'editing',
    )
    assert.is(notices.filter((n) => n.message === PROBLEM_NO_ORDER).length, refusals.length)
    const last = path.steps.at(-1)?.event.type
    if (last === 'xstate.done.actor.sendProblem') {
      assert.ok(actor.getSnapshot().matches('closed'))
      assert.is(actor.getSnapshot().context.message, '', 'the box is cleared on success')
      assert.equal(notices.at(-1), { kind: 'success', message: PROBLEM_SENT })
    }
    if (last === 'xstate.error.actor.sendProblem') {
      assert.ok(actor.getSnapshot().context.message.trim().length > 0, 'the message is kept on failure')
      assert.is(notices.at(-1)?.kind, 'error')
    }
  })
}
ModelBased.run()

const Problem = suite('problemReport: spec §5, §8')

Problem("with 'Tous' it is refused with 'Veuillez sélectionner une commande spécifique' and nothing is sent", async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'problem.open' })
  actor.send({ type: 'problem.change', message: 'Bonjour' })
  actor.send({ type: 'problem.submit', orderId: null })
  await flush()
  assert.equal(notices, [{ kind: 'error', message: 'Veuillez sélectionner une commande spécifique' }])
  assert.is(deferreds.started.length, 0)
  assert.is(actor.getSnapshot().context.message, 'Bonjour', 'the message is kept')
})

Problem('with an order it is sent, the success toast shows and the box is cleared', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'problem.open' })
  actor.send({ type: 'problem.change', message: '  Colis abîmé  ' })
  actor.send({ type: 'problem.submit', orderId: 2 })
  await flush()
  assert.equal(deferreds.started, [{ id: 'sendProblem', input: { orderId: 2, message: 'Colis abîmé' } }])
  assert.ok(actor.getSnapshot().hasTag('busy'))
  deferreds.settle('sendProblem', { output: { message: 'ok' } })
  await flush()
  assert.equal(notices, [{ kind: 'success', message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' }])
  assert.is(actor.getSnapshot().context.message, '')
  assert.ok(actor.getSnapshot().matches('closed'))
})

Problem('an empty message is not sent', async () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'problem.open' })
  actor.send({ type: 'problem.submit', orderId: 2 })
  await flush()
  assert.is(deferreds.started.length, 0)
  assert.is(actor.getSnapshot().context.error, PROBLEM_EMPTY)
})

Problem('a failed send keeps the message and says why', async () => {
  const { actor, deferreds, notices } = start()
  actor.start()
  actor.send({ type: 'problem.open' })
  actor.send({ type: 'problem.change', message: 'Bonjour' })
  actor.send({ type: 'problem.submit', orderId: 2 })
  await flush()
  deferreds.settle('sendProblem', { error: new Error('Le service est momentanément indisponible.') })
  await flush()
  assert.ok(actor.getSnapshot().matches({ open: 'editing' }))
  assert.is(actor.getSnapshot().context.message, 'Bonjour')
  assert.equal(notices, [{ kind: 'error', message: 'Le service est momentanément indisponible.' }])
})

Problem.run()
