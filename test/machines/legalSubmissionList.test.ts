import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { LegalSubmission } from '../../server/contract/schemas.ts'
import { legalSubmissionListMachine } from '../../src/machines/legalSubmissionList.machine.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const submission: LegalSubmission = {
  id: 9, orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', kind: 'transfert-siege', status: 'Reçue', comment: null,
  receivedAt: '2026-11-20T10:00:00.000Z', startedAt: null, filedAt: null, completedAt: null,
}
const failure = new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')

function start(orderId: number | null) {
  const deferreds = new Deferreds()
  const machine = legalSubmissionListMachine.provide({ actors: { loadSubmissions: deferreds.actor() } })
  return { actor: createActor(machine, { input: { orderId } }), deferreds }
}

const events = [
  { type: 'xstate.done.actor.loadSubmissions', output: [submission] },
  { type: 'xstate.done.actor.loadSubmissions', output: [] },
  { type: 'xstate.error.actor.loadSubmissions', error: failure },
  { type: 'list.retry' },
] as const

const ModelBased = suite('legalSubmissionList: every shortest path, replayed')
for (const orderId of [2, null]) {
  for (const path of shortestPaths(legalSubmissionListMachine, { events, input: { orderId } })) {
    ModelBased(`${orderId ?? 'Tous'}: ${describePath(path)}`, async () => {
      const { actor, deferreds } = start(orderId)
      await replay(actor, deferreds, path)
      const { context } = actor.getSnapshot()
      // Always the scope asked for; the list shown is the last answer; an error only while failed.
      for (const s of deferreds.started) assert.equal(s.input, { orderId })
      const last = [...path.steps].reverse().find((s) => s.event.type.includes('loadSubmissions'))
      assert.equal(context.submissions, last?.event.type.startsWith('xstate.done') ? last.event.output : [])
      assert.is(context.error !== null, actor.getSnapshot().matches('failed'))
      actor.stop()
    })
  }
}
ModelBased.run()

const List = suite('legalSubmissionList')

List('a failure says why, and Réessayer loads again', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await flush()
  deferreds.settle('loadSubmissions', { error: failure })
  await flush()
  assert.is(actor.getSnapshot().context.error, failure.message)
  actor.send({ type: 'list.retry' })
  await flush()
  deferreds.settle('loadSubmissions', { output: [submission] })
  await flush()
  assert.ok(actor.getSnapshot().matches('loaded'))
  assert.equal(actor.getSnapshot().context.submissions, [submission])
  assert.is(deferreds.started.length, 2)
})

List.run()
