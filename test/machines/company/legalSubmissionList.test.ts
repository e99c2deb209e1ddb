import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { LegalSubmission } from '../../../server/contract/company.ts'
import { legalSubmissionListMachine } from '../../../src/machines/company/legalSubmissionList.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const submission: LegalSubmission = {
  id: 9,
  orderId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  kind: 'transfert-siege',
  status: 'Reçue',
  comment: null,
  receivedAt: '2026-11-20T10:00:00.000Z',
  startedAt: null,
  filedAt: null,
  completedAt: null,
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
  { type: 'list.refresh' },
] as const

const ModelBased = suite('legalSubmissionList: shortest paths covering every state and transition, replayed')
const states = new Set<string>()
for (const orderId of [2, null]) {
  const paths = shortestPaths(legalSubmissionListMachine, { events, input: { orderId } })
  for (const path of paths) states.add(String(path.state.value))
  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`${orderId ?? 'Tous'}: ${describePath(path)}`, async () => {
      const { actor, deferreds } = start(orderId)
      await replay(actor, deferreds, path)
      const { context } = actor.getSnapshot()
      // Always the scope asked for; the list shown is the last list answered (a failed refresh keeps it);
      // an error only while failed, or stale after a failed refresh.
      for (const s of deferreds.started) assert.equal(s.input, { orderId })
      const last = [...path.steps].reverse().find((s) => s.event.type.startsWith('xstate.done.actor.loadSubmissions'))
      assert.equal(context.submissions, last ? last.event.output : [])
      assert.is(context.error !== null, actor.getSnapshot().matches('failed') || actor.getSnapshot().matches('stale'))
      actor.stop()
    })
  }
}
ModelBased('the model reaches every state', () => {
  assert.equal([...states].sort(), ['failed', 'loaded', 'loading', 'refreshing', 'stale'])
})
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

List('news: read again with the requests still shown; a failure keeps them and says why; news during a load starts it again', async () => {
  const signals: AbortSignal[] = []
  const answers: { resolve: (v: LegalSubmission[]) => void; reject: (e: unknown) => void }[] = []
  const { fromPromise } = await import('xstate')
  const machine = legalSubmissionListMachine.provide({
    actors: {
      loadSubmissions: fromPromise<LegalSubmission[], any>(({ signal }) => {
        signals.push(signal)
        return new Promise((resolve, reject) => answers.push({ resolve, reject }))
      }),
    },
  })
  const actor = createActor(machine, { input: { orderId: 2 } })
  actor.start()
  answers[0]!.resolve([submission])
  await flush()
  actor.send({ type: 'list.refresh' })
  assert.ok(actor.getSnapshot().matches('refreshing'))
  assert.equal(actor.getSnapshot().context.submissions, [submission], 'still shown')
  answers[1]!.reject(failure)
  await flush()
  assert.ok(actor.getSnapshot().matches('stale'))
  assert.equal(actor.getSnapshot().context.submissions, [submission])
  assert.is(actor.getSnapshot().context.error, failure.message)
  actor.send({ type: 'list.retry' })
  actor.send({ type: 'list.refresh' })
  assert.is(signals.length, 4)
  assert.ok(signals[2]!.aborted && !signals[3]!.aborted, 'the earlier read is cancelled')
  assert.is(actor.getSnapshot().context.error, null)
  const moved = { ...submission, status: 'En cours' as const, startedAt: '2026-11-21T10:00:00.000Z' }
  answers[3]!.resolve([moved])
  await flush()
  assert.ok(actor.getSnapshot().matches('loaded'))
  assert.equal(actor.getSnapshot().context.submissions, [moved])
})

List.run()
