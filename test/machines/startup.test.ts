import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type AnyActorLogic, createActor, fromCallback } from 'xstate'
import { orderSelectionMachine } from '../../src/machines/orderSelection.machine.ts'
import { type StoredChoice, selectedOrder, startupMachine } from '../../src/machines/startup.machine.ts'
import { hasMissingDocuments } from '../../src/machines/shared.ts'
import type { Order } from '../../server/contract/schemas.ts'
import * as F from '../util/fixtures.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const failure = new Error('Le service est momentanément indisponible.')
const fourOrders = [F.atelier, F.boulangerie, F.studio, F.conseil]

const events = [
  { type: 'xstate.done.actor.fetchUser', output: F.user },
  { type: 'xstate.error.actor.fetchUser', error: failure },
  { type: 'xstate.done.actor.fetchContracts', output: F.contracts },
  { type: 'xstate.error.actor.fetchContracts', error: failure },
  { type: 'xstate.done.actor.fetchOrders', output: [] },
  { type: 'xstate.done.actor.fetchOrders', output: [F.boulangerie] },
  { type: 'xstate.done.actor.fetchOrders', output: [F.conseil] },
  { type: 'xstate.done.actor.fetchOrders', output: fourOrders },
  { type: 'xstate.error.actor.fetchOrders', error: failure },
  { type: 'xstate.done.actor.selection', output: { orderId: F.boulangerie.id } },
  { type: 'xstate.done.actor.selection', output: { orderId: F.conseil.id } },
  { type: 'xstate.done.actor.selection', output: { orderId: null } },
  { type: 'xstate.done.actor.selection', output: { cancelled: true } },
  { type: 'order.select', orderId: F.studio.id },
  { type: 'order.select', orderId: null },
  { type: 'order.reopen' },
  { type: 'documents.completed', orderId: F.conseil.id, missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt },
  { type: 'startup.retry' },
  { type: 'order.kbisFiled', orderId: F.atelier.id },
  { type: 'order.changed', orderId: F.boulangerie.id, changes: { qonto: true } },
] as const

/** In the graph, the children do not exist: the forwarding actions are left out of the traversal only. */
const traversable = startupMachine.provide({ actions: { forwardToSelection: () => {}, forwardToData: () => {}, reloadData: () => {} } })
const serializeState = (s: any) =>
  JSON.stringify([s.value, s.context.selectedOrderId, s.context.orders.map((o: Order) => [o.id, o.hasKbis, o.missingDocumentsValidatedAt, o.qonto]), !!s.context.user, s.context.contracts.length, !!s.context.error, s.context.hasChoice])

interface Children {
  selection?: 'real'
  data?: AnyActorLogic
}

function start(storedChoice: StoredChoice | null, children: Children = {}) {
  const deferreds = new Deferreds()
  const persisted: StoredChoice[] = []
  const navigations: string[] = []
  const machine = startupMachine.provide({
    actors: {
      fetchUser: deferreds.actor(),
      fetchContracts: deferreds.actor(),
      fetchOrders: deferreds.actor(),
      orderSelection: children.selection === 'real' ? orderSelectionMachine : (deferreds.actor() as any),
      portalData: (children.data ?? deferreds.actor()) as any,
    },
    actions: {
      persistChoice: (_, params) => void persisted.push(params.choice),
      navigate: (_, params) => void navigations.push(params.to),
    },
  })
  const actor = createActor(machine, { input: { storedChoice } })
  return { actor, deferreds, persisted, navigations }
}

const ModelBased = suite('startup: every shortest path, replayed')

for (const storedChoice of [null, F.boulangerie.id, 'all', 999] as const) {
  const paths = shortestPaths(traversable, { events, input: { storedChoice }, limit: 20000, serializeState })

  ModelBased(`stored default ${JSON.stringify(storedChoice)}: the graph reaches every top-level state`, () => {
    const reached = new Set(paths.map((p) => (typeof p.state.value === 'string' ? p.state.value : Object.keys(p.state.value)[0])))
    for (const state of ['account', 'loadingOrders', 'noOrders', 'selecting', 'missingDocuments', 'ready', 'failed', 'signedOut']) assert.ok(reached.has(state), `no path reaches ${state}`)
  })

  for (const path of paths) {
    ModelBased(`stored ${JSON.stringify(storedChoice)}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const { actor, deferreds, persisted, navigations } = start(storedChoice)
      await replay(actor, deferreds, path)
      const snapshot = actor.getSnapshot()
      const { context } = snapshot
      const kept = persisted.at(-1) ?? storedChoice
      if (snapshot.matches('ready')) {
        // The pages show a known order or 'Tous', and that choice is what the browser keeps.
        assert.ok(context.selectedOrderId === null || context.orders.some((o) => o.id === context.selectedOrderId))
        assert.equal(kept, context.selectedOrderId ?? 'all')
        assert.ok(context.hasChoice)
      }
      if (snapshot.matches('missingDocuments')) {
        assert.ok(hasMissingDocuments(selectedOrder(context)))
        assert.is(navigations.at(-1), '/missing-document')
      }
      if (snapshot.matches('selecting')) assert.ok(context.orders.length > 1 || context.hasChoice, 'a single order is only re-chosen on request')
      if (snapshot.matches('noOrders')) assert.is(context.orders.length, 0)
      if (snapshot.matches('failed')) assert.ok(context.error && context.error.length > 0)
      if (snapshot.matches('signedOut')) {
        assert.is(snapshot.status, 'done')
        assert.equal(snapshot.output, { reason: 'unauthorized' })
      }
      actor.stop()
    })
  }
}
ModelBased.run()

const Scenarios = suite('startup: the outcomes spec §4 names')

async function boot(storedChoice: StoredChoice | null, orders: Order[], children: Children = {}) {
  const run = start(storedChoice, children)
  run.actor.start()
  await flush()
  run.deferreds.settle('fetchUser', { output: F.user })
  run.deferreds.settle('fetchContracts', { output: F.contracts })
  await flush()
  run.deferreds.settle('fetchOrders', { output: orders })
  await flush()
  return run
}

Scenarios('user and contracts are fetched together, the orders only after both', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await flush()
  assert.equal(deferreds.started.map((s) => s.id), ['fetchUser', 'fetchContracts'])
  deferreds.settle('fetchUser', { output: F.user })
  await flush()
  assert.equal(deferreds.started.map((s) => s.id), ['fetchUser', 'fetchContracts'])
  deferreds.settle('fetchContracts', { output: F.contracts })
  await flush()
  assert.equal(deferreds.started.map((s) => s.id), ['fetchUser', 'fetchContracts', 'fetchOrders'])
  assert.ok(actor.getSnapshot().hasTag('loading'))
})

Scenarios('exactly one order → it becomes the default, and the dashboard shows', async () => {
  const { actor, persisted, navigations } = await boot(null, [F.boulangerie])
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.selectedOrderId, F.boulangerie.id)
  assert.equal(persisted, [F.boulangerie.id])
  assert.equal(navigations, [])
})

Scenarios('several orders and no default → the selection screen', async () => {
  const { actor, persisted } = await boot(null, fourOrders)
  assert.ok(actor.getSnapshot().matches('selecting'))
  assert.equal(persisted, [])
})

Scenarios('a default order kept from an earlier visit → the layout directly', async () => {
  const { actor, persisted } = await boot(F.atelier.id, fourOrders)
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.selectedOrderId, F.atelier.id)
  assert.equal(persisted, [], 'nothing to write again')
})

Scenarios("a kept default that is no longer the user's order is ignored", async () => {
  const { actor } = await boot(999, fourOrders)
  assert.ok(actor.getSnapshot().matches('selecting'))
})

Scenarios('the only order misses documents → /missing-document', async () => {
  const { actor, navigations } = await boot(null, [F.conseil])
  assert.ok(actor.getSnapshot().matches('missingDocuments'))
  assert.equal(navigations, ['/missing-document'])
  actor.send({ type: 'documents.completed', orderId: F.conseil.id, missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(navigations, ['/missing-document', '/tableau-de-bord'])
})

Scenarios('zero orders → the empty state', async () => {
  const { actor } = await boot(null, [])
  assert.ok(actor.getSnapshot().matches('noOrders'))
})

Scenarios('a failed current-user fetch ends the machine (the session then signs out)', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await flush()
  deferreds.settle('fetchUser', { error: failure })
  await flush()
  assert.is(actor.getSnapshot().status, 'done')
  assert.equal(actor.getSnapshot().output, { reason: 'unauthorized' })
})

Scenarios('a failed orders fetch shows the error and can be retried', async () => {
  const { actor, deferreds } = start(null)
  actor.start()
  await flush()
  deferreds.settle('fetchUser', { output: F.user })
  deferreds.settle('fetchContracts', { output: F.contracts })
  await flush()
  deferreds.settle('fetchOrders', { error: failure })
  await flush()
  assert.ok(actor.getSnapshot().matches('failed'))
  assert.is(actor.getSnapshot().context.error, failure.message)
  actor.send({ type: 'startup.retry' })
  assert.ok(actor.getSnapshot().matches('account'))
  assert.is(actor.getSnapshot().context.error, null)
})

const Selection = suite('startup with the real selection screen')

Selection('choosing an order sets the default, closes the selection and applies the check', async () => {
  const { actor, persisted, navigations } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'order.choose', orderId: F.boulangerie.id })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.selectedOrderId, F.boulangerie.id)
  assert.equal(persisted, [F.boulangerie.id])
  assert.equal(navigations, [])
})

Selection('choosing an order with missing documents leads to /missing-document', async () => {
  const { actor, navigations } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'order.choose', orderId: F.conseil.id })
  await flush()
  assert.ok(actor.getSnapshot().matches('missingDocuments'))
  assert.equal(navigations, ['/missing-document'])
})

Selection("'Tous' means no single order", async () => {
  const { actor, persisted } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'order.choose', orderId: null })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.selectedOrderId, null)
  assert.equal(persisted, ['all'])
})

Selection('an unknown order id is not a choice', async () => {
  const { actor } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'order.choose', orderId: 999 })
  await flush()
  assert.ok(actor.getSnapshot().matches('selecting'))
})

Selection('the first selection cannot be dismissed; a reopened one can, keeping the order', async () => {
  const { actor } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'selection.cancel' })
  await flush()
  assert.ok(actor.getSnapshot().matches('selecting'))
  actor.send({ type: 'order.choose', orderId: F.atelier.id })
  await flush()
  actor.send({ type: 'order.reopen' })
  assert.ok(actor.getSnapshot().matches('selecting'))
  actor.send({ type: 'selection.cancel' })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.is(actor.getSnapshot().context.selectedOrderId, F.atelier.id)
})

Selection('the header pick changes the order shown, keeps it and reloads the portal data', async () => {
  const received: unknown[] = []
  const inputs: unknown[] = []
  const data = fromCallback(({ receive, input }) => {
    inputs.push(input)
    receive((event) => void received.push(event))
  })
  const { actor, persisted } = await boot(F.boulangerie.id, fourOrders, { data })
  assert.equal(inputs, [{ scope: { order: F.boulangerie, orders: fourOrders } }])
  actor.send({ type: 'order.select', orderId: F.studio.id })
  assert.is(actor.getSnapshot().context.selectedOrderId, F.studio.id)
  assert.equal(persisted, [F.studio.id])
  assert.equal(received, [{ type: 'order.select', scope: { order: F.studio, orders: fourOrders } }])
  actor.send({ type: 'order.select', orderId: F.studio.id })
  assert.is(received.length, 1, 'picking the same order again reloads nothing')
  actor.send({ type: 'order.select', orderId: null })
  assert.equal(persisted, [F.studio.id, 'all'])
  assert.equal(received.at(-1), { type: 'order.select', scope: { order: null, orders: fourOrders } })
  actor.send({ type: 'document.select', documentId: 7 })
  actor.send({ type: 'data.retry', resource: 'packages' })
  assert.equal(received.slice(-2), [{ type: 'document.select', documentId: 7 }, { type: 'data.retry', resource: 'packages' }])
})

Selection('a filed Kbis updates the order everywhere', async () => {
  const { actor } = await boot(F.atelier.id, fourOrders)
  actor.send({ type: 'order.kbisFiled', orderId: F.atelier.id })
  assert.ok(selectedOrder(actor.getSnapshot().context)!.hasKbis)
})

Selection('a partner or accountant request updates that order everywhere, and only that one', async () => {
  const { actor } = await boot(F.boulangerie.id, fourOrders)
  actor.send({ type: 'order.changed', orderId: F.boulangerie.id, changes: { qonto: true, wantComptable: true } })
  const orders = actor.getSnapshot().context.orders
  assert.equal([selectedOrder(actor.getSnapshot().context)!.qonto, selectedOrder(actor.getSnapshot().context)!.wantComptable, selectedOrder(actor.getSnapshot().context)!.shine], [true, true, false])
  assert.ok(orders.filter((o) => o.id !== F.boulangerie.id).every((o) => !o.qonto && !o.wantComptable))
})

// --- billing
Selection('a forwarding address saved replaces that contract; the billing changes reach the data', async () => {
  const received: unknown[] = []
  const data = fromCallback(({ receive }) => receive((event) => void received.push(event)))
  const { actor } = await boot(F.boulangerie.id, fourOrders, { data })
  const moved = { ...F.contracts[1]!, villePostaleExpedition: 'Lyon' }
  actor.send({ type: 'contract.changed', contract: moved })
  assert.equal(actor.getSnapshot().context.contracts.map((c) => c.villePostaleExpedition), [null, 'Lyon', null])
  const card = { id: 'pm_2', brand: 'visa', last4: '4444', expMonth: 1, expYear: 2030 }
  actor.send({ type: 'card.changed', card })
  actor.send({ type: 'invoices.paid', orderId: 2 })
  assert.equal(received, [{ type: 'card.changed', card }, { type: 'invoices.paid', orderId: 2 }])
})

Scenarios.run()
Selection.run()
