import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  accountingExportMachine,
  BATCH_SIZE,
  EXPORT_BAD_EMAIL,
  EXPORT_NOTHING_PICKED,
  type ExportItem,
} from '../../../src/machines/mail/accountingExport.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const invoice: ExportItem = { kind: 'invoice', id: 41 }
const letter: ExportItem = { kind: 'document', id: 12 }
const failure = new Error('Impossible de joindre le serveur.')
/** What the page's progress bar shows (AccountingExportPage's progressOf): handled items out of all. */
const progressOf = (c: { total: number; queue: unknown[] }) => ({ done: c.total - c.queue.length, total: c.total })

function start(email: string | null = null) {
  const deferreds = new Deferreds()
  const remembered: string[] = []
  const machine = accountingExportMachine.provide({
    actors: { sendDext: deferreds.actor() },
    actions: { rememberEmail: (_, { email }) => void remembered.push(email) },
  })
  return { actor: createActor(machine, { input: { email, orderId: 2 } }), deferreds, remembered }
}

const events = [
  { type: 'export.email', email: 'factures@dext.example.com' },
  { type: 'export.email', email: 'pas-une-adresse' },
  { type: 'export.toggle', item: invoice },
  { type: 'export.toggle', item: letter },
  { type: 'export.submit' },
  { type: 'export.again' },
  { type: 'xstate.done.actor.sendDext', output: { sent: 2, failed: [], message: '2 pièce(s) envoyée(s).' } },
  {
    type: 'xstate.done.actor.sendDext',
    output: { sent: 1, failed: [{ kind: 'invoice', id: 41, reason: 'Facture introuvable.' }], message: '1 envoyée, 1 introuvable.' },
  },
  { type: 'xstate.error.actor.sendDext', error: failure },
  // Another company picked in the header, then back.
  { type: 'order.change', orderId: 1 },
  { type: 'order.change', orderId: 2 },
] as const

const ModelBased = suite('accountingExport: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(accountingExportMachine, { events, input: { email: null, orderId: 2 } })
ModelBased('the model reaches every state, a partial failure included', () => {
  const reached = new Set(paths.map((p) => String(p.state.value)))
  for (const state of ['editing', 'sending', 'done']) assert.ok(reached.has(state), state)
  assert.ok(
    paths.some((p) => p.state.value === 'done' && p.state.context.failed.length > 0 && p.state.context.sent > 0),
    'a partly failed export',
  )
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, remembered } = start()
    await replay(actor, deferreds, path)
    const { context } = actor.getSnapshot()
    // 'busy' exactly while a batch is out: the keeper (src/wiring/kept.ts) keeps the export past its page while busy,
    // and tells how it ended when it no longer is.
    assert.is(actor.getSnapshot().hasTag('busy'), deferreds.count('sendDext') > 0, 'busy while a batch is out, only then')
    // Only a valid address and something picked ever leave.
    for (const { input } of deferreds.started) {
      const body = input as { email: string; invoiceIds: number[]; documentIds: number[] }
      assert.is(body.email, 'factures@dext.example.com')
      assert.ok(body.invoiceIds.length + body.documentIds.length > 0)
    }
    if (actor.getSnapshot().matches('done')) {
      // A clear result: every batch was handled, what was sent is counted, what failed says why.
      assert.is(context.queue.length, 0)
      const answers = path.steps
        .map((s) => s.event as { type: string; output?: { sent: number } })
        .filter((e) => e.type === 'xstate.done.actor.sendDext')
      assert.is(
        context.sent,
        answers.reduce((sum, e) => sum + e.output!.sent, 0),
      )
      assert.ok(context.failed.every((f) => f.reason.length > 0))
      // The address is remembered exactly when something went through.
      assert.equal(remembered, context.sent > 0 ? ['factures@dext.example.com'] : [])
    }
    // What is picked was ticked in the lists shown since the last order change; no result of before it shows.
    const lastSwitch = path.steps.findLastIndex(
      (s, i) =>
        s.event.type === 'order.change' &&
        s.event.orderId !== (path.steps.slice(0, i).findLast((p) => p.event.type === 'order.change')?.event.orderId ?? 2),
    )
    if (lastSwitch >= 0) {
      const since = path.steps.slice(lastSwitch + 1).map((s) => s.event as { type: string; item?: ExportItem })
      for (const item of context.picked)
        assert.ok(
          since.some((e) => e.type === 'export.toggle' && e.item!.id === item.id),
          `${item.kind} ${item.id} was picked for the other order`,
        )
      // (An export under way at the change goes on: its answers still end it.)
      if (!since.some((e) => e.type === 'export.submit' || e.type.endsWith('.sendDext')))
        assert.not.ok(actor.getSnapshot().matches('done'), 'the other order’s result')
    }
    actor.stop()
  })
}
ModelBased.run()

const Export = suite('accountingExport: pick, send with progress, a clear result')

Export('refuses an empty choice or a bad address before sending', () => {
  const { actor, deferreds } = start()
  actor.start()
  actor.send({ type: 'export.submit' })
  assert.is(actor.getSnapshot().context.error, EXPORT_NOTHING_PICKED)
  actor.send({ type: 'export.toggle', item: invoice })
  actor.send({ type: 'export.submit' })
  assert.is(actor.getSnapshot().context.error, EXPORT_BAD_EMAIL)
  assert.equal(deferreds.started, [])
})

Export('the remembered address is there at once', () => {
  const { actor } = start('factures@dext.example.com')
  actor.start()
  assert.is(actor.getSnapshot().context.email, 'factures@dext.example.com')
})

Export('goes in batches: the progress is real, the result adds them up', async () => {
  const { actor, deferreds, remembered } = start('factures@dext.example.com')
  actor.start()
  const items: ExportItem[] = Array.from({ length: BATCH_SIZE + 3 }, (_, i) => ({ kind: i % 2 ? 'invoice' : 'document', id: i + 1 }))
  actor.send({ type: 'export.pick', items })
  actor.send({ type: 'export.submit' })
  await flush()
  assert.equal(progressOf(actor.getSnapshot().context), { done: 0, total: BATCH_SIZE + 3 })
  const first = deferreds.started[0]!.input as { invoiceIds: number[]; documentIds: number[] }
  assert.is(first.invoiceIds.length + first.documentIds.length, BATCH_SIZE)
  deferreds.settle('sendDext', { output: { sent: BATCH_SIZE, failed: [], message: 'ok' } })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('busy'))
  assert.equal(progressOf(actor.getSnapshot().context), { done: BATCH_SIZE, total: BATCH_SIZE + 3 })
  // The second batch fails as a whole (the network): its items are reported with the reason.
  deferreds.settle('sendDext', { error: failure })
  await flush()
  const { context } = actor.getSnapshot()
  assert.ok(actor.getSnapshot().matches('done'))
  assert.is(context.sent, BATCH_SIZE)
  assert.equal(
    context.failed.map((f) => [f.id, f.reason]),
    [
      [11, failure.message],
      [12, failure.message],
      [13, failure.message],
    ],
  )
  assert.equal(remembered, ['factures@dext.example.com'])
  // Again: what failed is still picked, ready to go.
  actor.send({ type: 'export.again' })
  assert.equal(
    actor.getSnapshot().context.picked.map((p) => p.id),
    [11, 12, 13],
  )
})

Export('nothing sent at all: the address is not remembered, the choice is kept', async () => {
  const { actor, deferreds, remembered } = start()
  actor.start()
  actor.send({ type: 'export.email', email: 'factures@dext.example.com' })
  actor.send({ type: 'export.toggle', item: letter })
  actor.send({ type: 'export.submit' })
  await flush()
  deferreds.settle('sendDext', { error: new Error('Aucune des pièces demandées n’a été trouvée.') })
  await flush()
  assert.equal(remembered, [])
  assert.equal(actor.getSnapshot().context.failed, [{ ...letter, reason: 'Aucune des pièces demandées n’a été trouvée.' }])
  actor.send({ type: 'export.again' })
  assert.equal(actor.getSnapshot().context.picked, [letter])
})

Export.run()

const OrderChange = suite('accountingExport: another company picked in the header')

OrderChange('what was picked for the other company is dropped: nothing of it can be sent', async () => {
  const { actor, deferreds } = start('factures@dext.example.com')
  actor.start()
  actor.send({ type: 'export.toggle', item: invoice })
  actor.send({ type: 'export.toggle', item: letter })
  actor.send({ type: 'order.change', orderId: 2 })
  assert.is(actor.getSnapshot().context.picked.length, 2, 'the same company again: the choice stays')
  actor.send({ type: 'order.change', orderId: 1 })
  assert.equal(actor.getSnapshot().context.picked, [])
  actor.send({ type: 'export.submit' })
  await flush()
  assert.is(actor.getSnapshot().context.error, EXPORT_NOTHING_PICKED)
  assert.equal(deferreds.started, [])
})

OrderChange('an export under way goes on, but what failed is not picked again for the next company; a result shown goes', async () => {
  const { actor, deferreds } = start('factures@dext.example.com')
  actor.start()
  actor.send({ type: 'export.pick', items: [invoice, letter] })
  actor.send({ type: 'export.submit' })
  await flush()
  actor.send({ type: 'order.change', orderId: 1 })
  deferreds.settle('sendDext', {
    output: { sent: 1, failed: [{ kind: 'invoice', id: 41, reason: 'Facture introuvable.' }], message: 'partiel' },
  })
  await flush()
  assert.ok(actor.getSnapshot().matches('done'), 'the result of what was asked')
  actor.send({ type: 'export.again' })
  assert.equal(actor.getSnapshot().context.picked, [])
  actor.send({ type: 'export.pick', items: [letter] })
  actor.send({ type: 'export.submit' })
  await flush()
  deferreds.settle('sendDext', { output: { sent: 1, failed: [], message: 'ok' } })
  await flush()
  actor.send({ type: 'order.change', orderId: 2 })
  const { context } = actor.getSnapshot()
  assert.ok(actor.getSnapshot().matches('editing'))
  assert.equal([context.picked, context.sent, context.failed, context.total], [[], 0, [], 0])
})

OrderChange.run()
