import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { MailScan } from '../../../../server/contract/mail-backoffice.ts'
import {
  deletedScan,
  ORDER_NEEDED,
  publishedFor,
  reviewProblems,
  SENDER_NEEDED,
  scanReviewMachine,
} from '../../../../src/backoffice/machines/mail/scanReview.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { publishedOf, scan } from '../../../util/backoffice-mail.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const taken = failure(409, 'Ce scan vient d’être publié par Inès Garnier.')
const terminated = failure(409, 'Cette domiciliation est résiliée depuis le 1 novembre 2026 : aucun courrier n’y est plus publié.')
const shown = scan(4)
const saved = scan(4, { confirmed: true, orderId: 14, raisonSociale: 'Studio Nuage SAS', sender: 'Impots.gouv', kind: 'administratif' })
const values = { orderId: 14, sender: ' Impots.gouv ', kind: 'administratif' as const, confirmed: true }

function start(initial: MailScan = shown) {
  const deferreds = new Deferreds()
  const changed: MailScan[] = []
  const removed: number[] = []
  const notices: Notice[] = []
  const machine = scanReviewMachine.provide({
    actors: { review: deferreds.actor(), publish: deferreds.actor(), remove: deferreds.actor() },
    actions: {
      changed: (_, { scan }) => void changed.push(scan),
      removed: (_, { id }) => void removed.push(id),
      notify: (_, notice) => void notices.push(notice),
    },
  })
  return { actor: createActor(machine, { input: { scan: initial } }), deferreds, changed, removed, notices }
}

const events = [
  { type: 'review.save', values },
  { type: 'review.save', values: { ...values, orderId: 0, sender: ' ' } },
  { type: 'xstate.done.actor.review', output: saved },
  { type: 'xstate.error.actor.review', error: terminated },
  { type: 'review.publish' },
  { type: 'xstate.done.actor.publish', output: publishedOf(saved) },
  { type: 'xstate.error.actor.publish', error: taken },
  { type: 'xstate.error.actor.publish', error: down },
  { type: 'review.delete' },
  { type: 'review.cancel' },
  { type: 'review.confirmDelete' },
  { type: 'xstate.done.actor.remove', output: { message: 'Supprimé.' } },
  { type: 'xstate.error.actor.remove', error: down },
] as const

const ModelBased = suite('back office, scanReview: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(scanReviewMachine, {
  events,
  input: { scan: shown },
  serializeState: (s: any) => JSON.stringify([s.value, s.context.scan.confirmed, s.context.problems, s.context.error]),
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'confirmingDelete',
    'deleting',
    'editing',
    'gone',
    'publishing',
    'saving',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, changed, removed, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; values?: typeof values })
    const last = steps.at(-1)
    // Saved as typed (the sender trimmed), only when complete; the queue hears of each save.
    for (const s of deferreds.started.filter((x) => x.id === 'review'))
      assert.equal(s.input, { id: 4, body: { orderId: 14, sender: 'Impots.gouv', kind: 'administratif', confirmed: true } })
    assert.equal(
      changed,
      steps.filter((e) => e.type === 'xstate.done.actor.review').map(() => saved),
    )
    if (last?.values?.orderId === 0) assert.equal(snapshot.context.problems, { orderId: ORDER_NEEDED, sender: SENDER_NEEDED })
    // « Publier » only once the scan is confirmed.
    const publishes = deferreds.started.filter((x) => x.id === 'publish')
    if (publishes.length) assert.ok(steps.some((e) => e.type === 'xstate.done.actor.review'))
    // Deleted only after the confirmation.
    assert.is(deferreds.started.filter((x) => x.id === 'remove').length, steps.filter((e) => e.type === 'review.confirmDelete').length)
    // Gone from the queue once published (by anyone) or deleted; told why.
    assert.equal(removed, snapshot.matches('gone') ? [4] : [])
    if (last?.type === 'xstate.done.actor.publish')
      assert.equal(notices.at(-1), { kind: 'success', message: publishedFor(publishedOf(saved)) })
    if (last?.error === taken) assert.equal(notices.at(-1), { kind: 'info', message: taken.message })
    if (last?.type === 'xstate.done.actor.remove') assert.equal(notices.at(-1), { kind: 'success', message: deletedScan(shown.fileName) })
    if (last?.error === down || last?.error === terminated) assert.is(snapshot.context.error, last.error.message)
    assert.is(snapshot.hasTag('busy'), ['saving', 'publishing', 'deleting'].includes(snapshot.value as string))
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, scanReview: the form')
Rules('an order and a sender are needed; a scan « À vérifier » is not published until reviewed', async () => {
  assert.equal(reviewProblems({ orderId: 12, sender: 'URSSAF' }), {})
  assert.equal(reviewProblems({ sender: '\u200b' }), { orderId: ORDER_NEEDED, sender: SENDER_NEEDED })
  const { actor, deferreds } = start(scan(5, { confirmed: true, toCheck: 'Aucune domiciliation reconnue.' }))
  actor.start()
  actor.send({ type: 'review.publish' })
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.equal(deferreds.started, [])
  // A newer copy of the scan (the queue read again) is taken while editing.
  actor.send({ type: 'review.sync', scan: scan(5, { confirmed: true }) })
  actor.send({ type: 'review.publish' })
  assert.ok(actor.getSnapshot().matches('publishing'))
  actor.stop()
})
Rules.run()
