import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, type SnapshotFrom } from 'xstate'
import type { Notice } from '../../../src/machines/shared.ts'
import { unpaidInvoicesMachine } from '../../../src/machines/billing/unpaidInvoices.machine.ts'
import { Deferreds, describePath, flush, pathsToReplay, replay, shortestPaths } from '../../util/paths.ts'

const unpaid = { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 }
const clear = { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }
/** A new invoice issued: one more to pay. */
const more = { hasUnpaid: true, count: 2, amountInclTaxCents: 38280 }
const amountChanged = Object.assign(
  new Error(
    'Le montant à régler a changé depuis votre confirmation : 2 factures impayées, 382,80 € TTC. Rien n’a été prélevé : vérifiez le nouveau montant puis confirmez.',
  ),
  { status: 409, code: 'AMOUNT_CHANGED' },
)

type Snapshot = SnapshotFrom<typeof unpaidInvoicesMachine>

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  /** How many times the portal was told of a payment. */
  const paid: number[] = []
  /** The news sent, each with how many calls had started by then. */
  const news: number[] = []
  /** Every change of state, with the event that made it. */
  const changes: { event: { type: string; output?: unknown }; before: Snapshot; after: Snapshot }[] = []
  const machine = unpaidInvoicesMachine.provide({
    actors: { fetchStatus: deferreds.actor(), pay: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n), paid: () => void paid.push(1) },
  })
  let last: Snapshot | undefined
  const actor = createActor(machine, {
    inspect: (e) => {
      if (e.actorRef.sessionId !== e.rootId) return
      if (e.type === '@xstate.event' && e.event.type === 'unpaid.refresh') news.push(deferreds.started.length)
      if (e.type === '@xstate.snapshot') {
        if (last) changes.push({ event: e.event, before: last, after: e.snapshot as Snapshot })
        last = e.snapshot as Snapshot
      }
    },
  })
  return { actor, deferreds, notices, news, changes, paid }
}

const events = [
  { type: 'xstate.done.actor.fetchStatus', output: unpaid },
  { type: 'xstate.done.actor.fetchStatus', output: clear },
  { type: 'xstate.done.actor.fetchStatus', output: more },
  { type: 'xstate.error.actor.fetchStatus', error: new Error('Le service est momentanément indisponible.') },
  { type: 'unpaid.pay' },
  { type: 'unpaid.retry' },
  { type: 'unpaid.refresh' },
  { type: 'xstate.done.actor.pay', output: { paidCount: 1, message: '1 facture réglée.' } },
  { type: 'xstate.error.actor.pay', error: new Error('Aucune carte enregistrée : ajoutez un moyen de paiement.') },
  { type: 'xstate.error.actor.pay', error: amountChanged },
] as const

/** States told apart by when the last news came too (during a call, a payment, or at rest), for the graph to reach rest after each. */
const newsIn = new WeakMap<object, string>()
const moment = (s: Snapshot) => (s.children.pay ? 'payment' : s.children.fetchStatus ? 'read' : 'rest')
const serializeState = (s: Snapshot, event?: { type: string }, prev?: Snapshot) => {
  if (!newsIn.has(s)) newsIn.set(s, event?.type === 'unpaid.refresh' ? moment(prev!) : ((prev && newsIn.get(prev)) ?? 'none'))
  return JSON.stringify({ value: s.value, context: s.context, news: newsIn.get(s) })
}

const ModelBased = suite('unpaidInvoices: every shortest path, replayed')
const paths = shortestPaths(unpaidInvoicesMachine, { events, serializeState, limit: 20_000 })
ModelBased('the model reaches every state, and rest after news during a payment', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'failed',
    'loading',
    'paying',
    'refreshing',
    'unpaid',
    'upToDate',
  ])
  assert.ok(paths.some((p) => newsIn.get(p.state) === 'payment' && p.state.matches('unpaid')))
})
// Every path: the news each one ends with must ask the status again from any state the graph tells apart, the moment
// of the last news included, not only from those a path adding a transition happens to end in.
for (const path of pathsToReplay(paths, ModelBased, { every: true })) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, news, changes, paid } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    // The banner shows exactly when the server says something is unpaid.
    assert.is(
      snapshot.hasTag('banner'),
      snapshot.context.status?.hasUnpaid === true && (['unpaid', 'paying', 'refreshing'] as const).some((s) => snapshot.matches(s)),
    )
    // 'Régler' pays the total shown when it was pressed, no more: the server refuses any other.
    const payments = deferreds.started.filter((d) => d.id === 'pay')
    const pressed = changes.filter(({ before, after }) => after.matches('paying') && !before.matches('paying'))
    assert.equal(
      payments.map((p) => p.input),
      pressed.map(({ before }) => ({ expectedAmountInclTaxCents: before.context.status!.amountInclTaxCents })),
    )
    // The portal is told of each payment made, and of nothing else (its lists then show the invoices paid).
    assert.is(paid.length, path.steps.filter((s) => s.event.type === 'xstate.done.actor.pay').length, 'the portal told of each payment')
    // News and the banner at rest: the status was asked after the last news.
    if (news.length && (['unpaid', 'upToDate', 'failed'] as const).some((s) => snapshot.matches(s))) {
      assert.ok(
        deferreds.started.slice(news.at(-1)!).some((s) => s.id === 'fetchStatus'),
        'asked after the last news',
      )
    }
    for (const { event, before, after } of changes) {
      // A banner shown goes only when the server says all is paid, or once 'Régler' paid.
      if (before.hasTag('banner') && !after.hasTag('banner')) {
        assert.ok(
          event.type === 'xstate.done.actor.pay' ||
            (event.type === 'xstate.done.actor.fetchStatus' && !(event.output as typeof clear).hasUnpaid),
          `banner hidden by ${event.type}`,
        )
      }
      // What it says changes only with an answer; never during a payment.
      if (after.context.status !== before.context.status) assert.is(event.type, 'xstate.done.actor.fetchStatus')
      // A payment ends only with its answer: news does not interrupt it.
      if (before.matches('paying') && !after.matches('paying'))
        assert.ok(event.type.endsWith('.actor.pay'), `payment left on ${event.type}`)
    }
    // News now, whatever the state: the status is asked again at once (the banner kept), or after the payment under way.
    const startedBefore = deferreds.started.length
    actor.send({ type: 'unpaid.refresh' })
    await flush()
    const after = actor.getSnapshot()
    const askedNow = deferreds.started.slice(startedBefore).some((s) => s.id === 'fetchStatus')
    if (snapshot.matches('paying'))
      assert.ok(after.matches('paying') && after.context.refreshPending && !askedNow, 'kept for after the payment')
    else assert.ok(askedNow, 'asked again')
    assert.is(after.hasTag('banner'), snapshot.hasTag('banner'), 'the banner as it was')
    actor.stop()
  })
}
ModelBased.run()

const Unpaid = suite('unpaidInvoices')

/** Started, the status answered unpaid, 'Régler' clicked. */
async function paying() {
  const run = start()
  run.actor.start()
  await flush()
  run.deferreds.settle('fetchStatus', { output: unpaid })
  await flush()
  run.actor.send({ type: 'unpaid.pay' })
  await flush()
  return run
}

Unpaid("'Régler' pays, tells the result, and asks the status again", async () => {
  const { actor, deferreds, notices } = await paying()
  assert.equal(deferreds.started.at(-1), { id: 'pay', input: { expectedAmountInclTaxCents: 3480 } })
  deferreds.settle('pay', { output: { paidCount: 1, message: '1 facture réglée.' } })
  await flush()
  assert.equal(notices, [{ kind: 'success', message: '1 facture réglée.' }])
  assert.equal(deferreds.started.at(-1)!.id, 'fetchStatus')
  deferreds.settle('fetchStatus', { output: clear })
  await flush()
  assert.ok(actor.getSnapshot().matches('upToDate'))
})

Unpaid('a refused payment keeps the banner and says why', async () => {
  const { actor, deferreds, notices } = await paying()
  deferreds.settle('pay', { error: new Error('Aucune carte enregistrée.') })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('banner'))
  assert.equal(notices, [{ kind: 'error', message: 'Aucune carte enregistrée.' }])
  assert.is(actor.getSnapshot().context.noCard, false, 'not for want of a card')
})

Unpaid('refused for want of a card: said so (the banner links to a card); news then clears the reason with the figures', async () => {
  const { actor, deferreds } = await paying()
  deferreds.settle('pay', {
    error: Object.assign(new Error('Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.'), {
      status: 402,
      code: 'NO_CARD',
    }),
  })
  await flush()
  assert.equal(
    [actor.getSnapshot().context.noCard, actor.getSnapshot().context.error],
    [true, 'Aucune carte enregistrée : ajoutez un moyen de paiement puis réessayez.'],
  )
  actor.send({ type: 'unpaid.refresh' })
  await flush()
  assert.equal([actor.getSnapshot().context.noCard, actor.getSnapshot().context.error], [false, null])
})

Unpaid(
  'a total changed since it was shown (409 AMOUNT_CHANGED): nothing paid, the status asked at once, the reason kept; then the new total pays',
  async () => {
    const { actor, deferreds, notices } = await paying()
    deferreds.settle('pay', { error: amountChanged })
    await flush()
    assert.ok(actor.getSnapshot().matches('refreshing'), 'asked again, the banner still shown')
    assert.equal(deferreds.started.at(-1)!.id, 'fetchStatus')
    assert.equal(notices, [{ kind: 'error', message: amountChanged.message }])
    deferreds.settle('fetchStatus', { output: more })
    await flush()
    assert.ok(actor.getSnapshot().matches('unpaid'))
    assert.equal([actor.getSnapshot().context.status, actor.getSnapshot().context.error], [more, amountChanged.message])
    actor.send({ type: 'unpaid.pay' })
    await flush()
    assert.equal(deferreds.started.at(-1), { id: 'pay', input: { expectedAmountInclTaxCents: 38280 } })
  },
)

Unpaid.run()

const News = suite('unpaidInvoices: news of an invoice issued')
const failure = new Error('Le service est momentanément indisponible.')

/** Started, the status answered. */
async function shown(status = unpaid) {
  const run = start()
  run.actor.start()
  await flush()
  run.deferreds.settle('fetchStatus', { output: status })
  await flush()
  return run
}

News('the status is asked again, the banner still shown meanwhile; it then says what is due now', async () => {
  const { actor, deferreds } = await shown()
  actor.send({ type: 'unpaid.refresh' })
  assert.ok(actor.getSnapshot().matches('refreshing'))
  assert.ok(actor.getSnapshot().hasTag('banner'), 'no blink')
  assert.equal(actor.getSnapshot().context.status, unpaid)
  // News again before the answer: asked again.
  actor.send({ type: 'unpaid.refresh' })
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['fetchStatus', 'fetchStatus', 'fetchStatus'],
  )
  deferreds.settle('fetchStatus', { output: more })
  await flush()
  assert.ok(actor.getSnapshot().matches('unpaid'))
  assert.equal(actor.getSnapshot().context.status, more)
})

News('nothing due before: the banner appears', async () => {
  const { actor, deferreds } = await shown(clear)
  actor.send({ type: 'unpaid.refresh' })
  await flush()
  deferreds.settle('fetchStatus', { output: unpaid })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('banner'))
})

News('news during the first call asks again', async () => {
  const { actor, deferreds } = start()
  actor.start()
  await flush()
  actor.send({ type: 'unpaid.refresh' })
  await flush()
  assert.is(deferreds.count('fetchStatus'), 2)
  deferreds.settle('fetchStatus', { output: more })
  await flush()
  assert.equal(actor.getSnapshot().context.status, more)
})

News('a re-read that fails keeps the banner as it was', async () => {
  const { actor, deferreds } = await shown()
  actor.send({ type: 'unpaid.refresh' })
  await flush()
  deferreds.settle('fetchStatus', { error: failure })
  await flush()
  assert.ok(actor.getSnapshot().matches('unpaid'))
  assert.equal(actor.getSnapshot().context.status, unpaid)
  assert.ok(actor.getSnapshot().hasTag('banner'))
})

News('news during a payment waits: asked after a refusal, and once after a payment', async () => {
  const refused = await paying()
  refused.actor.send({ type: 'unpaid.refresh' })
  await flush()
  assert.ok(refused.actor.getSnapshot().matches('paying'), 'the payment goes on')
  assert.equal(
    refused.deferreds.started.map((s) => s.id),
    ['fetchStatus', 'pay'],
  )
  refused.deferreds.settle('pay', { error: new Error('Aucune carte enregistrée.') })
  await flush()
  assert.ok(refused.actor.getSnapshot().matches('refreshing'))
  assert.is(refused.actor.getSnapshot().context.error, 'Aucune carte enregistrée.', 'the refusal still said')
  refused.deferreds.settle('fetchStatus', { output: more })
  await flush()
  assert.ok(refused.actor.getSnapshot().matches('unpaid'))
  assert.equal(refused.actor.getSnapshot().context.status, more)

  const paid = await paying()
  paid.actor.send({ type: 'unpaid.refresh' })
  paid.deferreds.settle('pay', { output: { paidCount: 1, message: '1 facture réglée.' } })
  await flush()
  paid.deferreds.settle('fetchStatus', { output: clear })
  await flush()
  assert.ok(paid.actor.getSnapshot().matches('upToDate'))
  assert.equal(
    paid.deferreds.started.map((s) => s.id),
    ['fetchStatus', 'pay', 'fetchStatus'],
    'asked once',
  )
})

News.run()
