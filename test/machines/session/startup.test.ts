import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type AnyActorLogic, createActor, fromCallback } from 'xstate'
import { orderSelectionMachine } from '../../../src/machines/session/orderSelection.machine.ts'
import { type StoredChoice, selectedOrder, startupMachine } from '../../../src/machines/session/startup.machine.ts'
import { hasMissingDocuments } from '../../../src/machines/shared.ts'
import type { Contract, Order } from '../../../server/contract/session.ts'
import * as F from '../../util/fixtures.ts'
import { applyEvent, Deferreds, describePath, flush, pathsToReplay, shortestPaths } from '../../util/paths.ts'

const failure = new Error('Le service est momentanément indisponible.')
const fourOrders = [F.atelier, F.boulangerie, F.studio, F.conseil]
const atelierKbis = `/api-protected/contracts/${F.atelier.contractId}/kbis`
/** The contracts as the server has them once the team validated Boulangerie's Kbis. */
const validatedContracts = F.contracts.map((c) =>
  c.id === F.boulangerie.contractId
    ? { ...c, kbis: `/api-protected/contracts/${c.id}/kbis`, kbisValidatedAt: '2026-11-25T09:00:00.000Z' }
    : c,
)

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
  { type: 'order.kbisFiled', orderId: F.atelier.id, contractId: F.atelier.contractId!, kbis: atelierKbis },
  { type: 'order.changed', orderId: F.boulangerie.id, changes: { qonto: true } },
] as const
/** The contracts read again on a Kbis validated: the same in every route to 'ready', so walked from one stored choice only. */
const contractEvents = [
  { type: 'news.arrived', kind: 'kbis' },
  { type: 'news.arrived', kind: 'letter' },
  { type: 'xstate.done.actor.rereadContracts', output: validatedContracts },
  { type: 'xstate.error.actor.rereadContracts', error: failure },
] as const

/** In the graph, the children do not exist: the forwarding actions are left out of the traversal only. */
const traversable = startupMachine.provide({ actions: { forwardToSelection: () => {}, forwardToData: () => {}, reloadData: () => {} } })
const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.selectedOrderId,
    s.context.orders.map((o: Order) => [o.id, o.hasKbis, o.missingDocumentsValidatedAt, o.qonto]),
    !!s.context.user,
    s.context.contracts.map((c: Contract) => [c.id, c.kbis, c.kbisValidatedAt]),
    !!s.context.error,
    s.context.hasChoice,
  ])

interface Children {
  selection?: 'real'
  data?: AnyActorLogic
}

function start(storedChoice: StoredChoice | null, children: Children = {}) {
  const deferreds = new Deferreds()
  const persisted: StoredChoice[] = []
  /** Whose default order each write was: the browser keeps one per person. */
  const owners: number[] = []
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
      persistChoice: (_, params) => {
        persisted.push(params.choice)
        owners.push(params.userId)
      },
      navigate: (_, params) => void navigations.push(params.to),
    },
  })
  const actor = createActor(machine, { input: { storedChoice } })
  return { actor, deferreds, persisted, owners, navigations }
}

const ModelBased = suite('startup: shortest paths covering every state and transition, replayed')

for (const storedChoice of [null, F.boulangerie.id, 'all', 999] as const) {
  const paths = shortestPaths(traversable, {
    events: storedChoice === F.boulangerie.id ? [...events, ...contractEvents] : events,
    input: { storedChoice },
    limit: 20000,
    serializeState,
  })

  ModelBased(`stored default ${JSON.stringify(storedChoice)}: the graph reaches every top-level state`, () => {
    const reached = new Set(paths.map((p) => (typeof p.state.value === 'string' ? p.state.value : Object.keys(p.state.value)[0])))
    for (const state of ['account', 'loadingOrders', 'noOrders', 'selecting', 'missingDocuments', 'ready', 'failed', 'signedOut'])
      assert.ok(reached.has(state), `no path reaches ${state}`)
  })

  for (const path of pathsToReplay(paths, ModelBased)) {
    ModelBased(`stored ${JSON.stringify(storedChoice)}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
      const { actor, deferreds, persisted, owners, navigations } = start(storedChoice)
      // Replayed step by step (as util/paths.ts's replay does), noting the steps that started a read of the contracts.
      const readStartedAt: number[] = []
      // How each startup call last ended: a retry after a failure repeats the calls that failed or never answered, only.
      const ended: Record<string, 'answered' | 'failed'> = {}
      actor.start()
      await flush()
      for (const [i, step] of path.steps.entries()) {
        const before = deferreds.started.length
        const retried = step.event.type === 'startup.retry' && actor.getSnapshot().matches('failed')
        const failed = Object.keys(ended).filter((id) => ended[id] === 'failed')
        await applyEvent(actor, deferreds, step.event)
        const started = deferreds.started.slice(before).map((s) => s.id)
        if (started.includes('rereadContracts')) readStartedAt.push(i)
        if (retried) {
          assert.ok(
            started.every((id) => ended[id] !== 'answered'),
            `a retry asked again ${started.filter((id) => ended[id] === 'answered')}, answered already (${describePath(path)})`,
          )
          assert.ok(
            failed.every((id) => started.includes(id)),
            `a retry did not ask again ${failed.filter((id) => !started.includes(id))}, which failed (${describePath(path)})`,
          )
        }
        const outcome = /^xstate\.(done|error)\.actor\.(fetchUser|fetchContracts|fetchOrders)$/.exec(step.event.type)
        if (outcome) ended[outcome[2]!] = outcome[1] === 'done' ? 'answered' : 'failed'
        assert.equal(actor.getSnapshot().value, step.state.value, `step ${i + 1} of ${describePath(path)}`)
      }
      const snapshot = actor.getSnapshot()
      const { context } = snapshot
      const kept = persisted.at(-1) ?? storedChoice
      assert.ok(
        owners.every((id) => id === F.user.id),
        'every choice is kept as the signed-in user’s',
      )
      if (snapshot.matches('ready')) {
        // The pages show a known order or 'Tous', and that choice is what the browser keeps.
        assert.ok(context.selectedOrderId === null || context.orders.some((o) => o.id === context.selectedOrderId))
        assert.equal(kept, context.selectedOrderId ?? 'all')
        assert.ok(context.hasChoice)
      }
      // An order still missing documents shows in the layout only as the kept default order (spec §4, 2.) or by the header's
      // pick: a choice made or dismissed on the selection screen goes through the missing-documents check.
      if (snapshot.matches('ready') && hasMissingDocuments(selectedOrder(context))) {
        const lastSelecting = path.steps.findLastIndex((s) => s.state.matches('selecting'))
        assert.ok(
          lastSelecting === -1 || path.steps.slice(lastSelecting).some((s) => s.event.type === 'order.select'),
          'the selection screen led to an order missing documents',
        )
      }
      if (snapshot.matches('missingDocuments')) {
        assert.ok(hasMissingDocuments(selectedOrder(context)))
        assert.is(navigations.at(-1), '/missing-document')
      }
      if (snapshot.matches('selecting'))
        assert.ok(context.orders.length > 1 || context.hasChoice, 'a single order is only re-chosen on request')
      const steps = path.steps
      const lastKbisNews = steps.findLastIndex(
        (s, i) => s.event.type === 'news.arrived' && s.event.kind === 'kbis' && i > 0 && steps[i - 1]!.state.matches('ready'),
      )
      const lastRead = steps.findLastIndex((s) => /^xstate\.(done|error)\.actor\.rereadContracts$/.test(s.event.type))
      if (snapshot.matches({ ready: 'contractsRead' })) {
        // After a Kbis validated, the contracts shown were read after it (or kept when that read failed).
        assert.ok(lastKbisNews === -1 || lastRead > lastKbisNews, 'no Kbis news is left unread')
        const filedAfter = steps.slice(lastRead).some((s) => s.event.type === 'order.kbisFiled')
        if (lastRead >= 0 && steps[lastRead]!.event.type.startsWith('xstate.done') && !filedAfter)
          assert.equal(context.contracts, validatedContracts)
      }
      if (snapshot.matches('ready') && lastKbisNews >= 0)
        assert.ok(readStartedAt.at(-1)! >= lastKbisNews, 'the last read started at the last Kbis news, not before')
      // A Kbis sent is on its contract at once, awaiting the team's check, until a read tells otherwise.
      const filed = steps.findLastIndex(
        (s, i) =>
          s.event.type === 'order.kbisFiled' &&
          i > 0 &&
          steps[i - 1]!.state.status === 'active' &&
          steps[i - 1]!.state.context.contracts.length > 0,
      )
      if (filed >= 0 && !steps.slice(filed).some((s) => s.event.type === 'xstate.done.actor.rereadContracts')) {
        const contract = context.contracts.find((c) => c.id === F.atelier.contractId)!
        assert.equal([contract.kbis, contract.kbisValidatedAt], [atelierKbis, null])
      }
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
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['fetchUser', 'fetchContracts'],
  )
  deferreds.settle('fetchUser', { output: F.user })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['fetchUser', 'fetchContracts'],
  )
  deferreds.settle('fetchContracts', { output: F.contracts })
  await flush()
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['fetchUser', 'fetchContracts', 'fetchOrders'],
  )
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
  actor.send({
    type: 'documents.completed',
    orderId: F.conseil.id,
    missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt,
  })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(navigations, ['/missing-document', '/tableau-de-bord'])
})

Scenarios(
  'a kept default order missing documents (a reload on /missing-document): the layout directly, and sending them completes there too',
  async () => {
    const { actor, navigations } = await boot(F.conseil.id, [F.boulangerie, F.conseil])
    assert.ok(actor.getSnapshot().matches('ready'), 'spec §4, 2.: a kept default order shows the layout directly')
    actor.send({ type: 'documents.completed', orderId: F.conseil.id, missingDocumentsValidatedAt: null })
    assert.equal(navigations, [], 'the server still waits for something: the page stays')
    actor.send({
      type: 'documents.completed',
      orderId: F.conseil.id,
      missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt,
    })
    assert.ok(actor.getSnapshot().matches('ready'))
    assert.equal(selectedOrder(actor.getSnapshot().context), F.conseilCompleted)
    assert.equal(navigations, ['/tableau-de-bord'])
  },
)

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

Scenarios('a failed orders fetch shows the error; "Réessayer" asks the orders again, not the user nor the contracts', async () => {
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
  await flush()
  assert.ok(actor.getSnapshot().matches('loadingOrders'))
  assert.is(actor.getSnapshot().context.error, null)
  assert.equal(
    deferreds.started.map((s) => s.id),
    ['fetchUser', 'fetchContracts', 'fetchOrders', 'fetchOrders'],
  )
  deferreds.settle('fetchOrders', { output: [F.boulangerie] })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
})

Scenarios(
  'failed contracts: "Réessayer" asks the contracts again (the user too if it had not answered), then the orders (spec §4)',
  async () => {
    const { actor, deferreds } = start(null)
    actor.start()
    await flush()
    deferreds.settle('fetchUser', { output: F.user })
    deferreds.settle('fetchContracts', { error: failure })
    await flush()
    assert.ok(actor.getSnapshot().matches('failed'))
    actor.send({ type: 'startup.retry' })
    await flush()
    assert.equal(
      deferreds.started.map((s) => s.id),
      ['fetchUser', 'fetchContracts', 'fetchContracts'],
      'the user answered: not asked again',
    )
    deferreds.settle('fetchContracts', { output: F.contracts })
    await flush()
    assert.equal(deferreds.started.map((s) => s.id).slice(3), ['fetchOrders'], 'then the orders')
    // The contracts failed before the user answered: the user's call was dropped, so it is asked again with them.
    const second = start(null)
    second.actor.start()
    await flush()
    second.deferreds.settle('fetchContracts', { error: failure })
    await flush()
    assert.ok(second.actor.getSnapshot().matches('failed'))
    second.actor.send({ type: 'startup.retry' })
    await flush()
    assert.equal(
      second.deferreds.started
        .map((s) => s.id)
        .slice(2)
        .sort(),
      ['fetchContracts', 'fetchUser'],
    )
  },
)

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

Selection('a selection reopened from the missing-documents notice and dismissed: the same check, back to /missing-document', async () => {
  const { actor, navigations } = await boot(null, fourOrders, { selection: 'real' })
  actor.send({ type: 'order.choose', orderId: F.conseil.id })
  await flush()
  actor.send({ type: 'order.reopen' })
  assert.ok(actor.getSnapshot().matches('selecting'))
  actor.send({ type: 'selection.cancel' })
  await flush()
  assert.ok(actor.getSnapshot().matches('missingDocuments'), 'not the full dashboard for an order missing documents')
  assert.is(actor.getSnapshot().context.selectedOrderId, F.conseil.id)
  assert.equal(navigations, ['/missing-document', '/missing-document'])
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
  assert.equal(received.slice(-2), [
    { type: 'document.select', documentId: 7 },
    { type: 'data.retry', resource: 'packages' },
  ])
})

Selection('a filed Kbis updates the order everywhere', async () => {
  const { actor } = await boot(F.atelier.id, fourOrders)
  actor.send({ type: 'order.kbisFiled', orderId: F.atelier.id, contractId: F.atelier.contractId!, kbis: atelierKbis })
  assert.ok(selectedOrder(actor.getSnapshot().context)!.hasKbis)
})

Selection('a Kbis validated reads the contracts again: news during the read starts it again, a failed read keeps those shown', async () => {
  const { actor, deferreds } = await boot(F.boulangerie.id, fourOrders)
  const reads = () => deferreds.started.filter((s) => s.id === 'rereadContracts').length
  actor.send({ type: 'news.arrived', kind: 'letter' })
  await flush()
  assert.is(reads(), 0, 'other news reads no contracts')
  actor.send({ type: 'news.arrived', kind: 'kbis' })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: 'rereadingContracts' }))
  actor.send({ type: 'news.arrived', kind: 'kbis' })
  await flush()
  assert.is(reads(), 2, 'news during the read starts it again')
  deferreds.settleAt('rereadContracts', 0, { output: F.contracts })
  await flush()
  assert.ok(
    actor.getSnapshot().matches({ ready: 'rereadingContracts' }),
    'the answer of the read started before the news is not waited for',
  )
  deferreds.settle('rereadContracts', { output: validatedContracts })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: 'contractsRead' }))
  assert.equal(actor.getSnapshot().context.contracts, validatedContracts)
  actor.send({ type: 'news.arrived', kind: 'kbis' })
  await flush()
  deferreds.settle('rereadContracts', { error: failure })
  await flush()
  assert.ok(actor.getSnapshot().matches({ ready: 'contractsRead' }))
  assert.equal(actor.getSnapshot().context.contracts, validatedContracts, 'a failed read keeps the contracts shown')
})

Selection('a Kbis sent, or an address saved, while the contracts are read again: kept, and read again after it', async () => {
  const { actor, deferreds } = await boot(F.atelier.id, fourOrders)
  actor.send({ type: 'news.arrived', kind: 'kbis' })
  await flush()
  actor.send({ type: 'order.kbisFiled', orderId: F.atelier.id, contractId: F.atelier.contractId!, kbis: atelierKbis })
  await flush()
  const reads = () => deferreds.started.filter((s) => s.id === 'rereadContracts').length
  assert.is(reads(), 2, 'read again after the change')
  deferreds.settleAt('rereadContracts', 0, { output: validatedContracts })
  await flush()
  const atelier = () => actor.getSnapshot().context.contracts.find((c) => c.id === F.atelier.contractId)!
  assert.is(atelier().kbis, atelierKbis, 'an answer started before the Kbis was sent does not undo it')
  const onServer = validatedContracts.map((c) => (c.id === F.atelier.contractId ? { ...c, kbis: atelierKbis } : c))
  deferreds.settle('rereadContracts', { output: onServer })
  await flush()
  assert.equal(actor.getSnapshot().context.contracts, onServer)
  actor.send({ type: 'news.arrived', kind: 'kbis' })
  await flush()
  const moved = { ...onServer.find((c) => c.id === F.boulangerie.contractId)!, villePostaleExpedition: 'Lyon' }
  actor.send({ type: 'contract.changed', contract: moved })
  await flush()
  assert.is(reads(), 4)
  assert.is(actor.getSnapshot().context.contracts.find((c) => c.id === moved.id)!.villePostaleExpedition, 'Lyon', 'shown at once')
})

Selection('a Kbis sent is on its contract at once, awaiting the team’s check', async () => {
  const { actor } = await boot(F.atelier.id, fourOrders)
  actor.send({ type: 'order.kbisFiled', orderId: F.atelier.id, contractId: F.atelier.contractId!, kbis: atelierKbis })
  const contract = actor.getSnapshot().context.contracts.find((c) => c.id === F.atelier.contractId)!
  assert.equal([contract.kbis, contract.kbisValidatedAt], [atelierKbis, null])
  assert.ok(
    actor
      .getSnapshot()
      .context.contracts.filter((c) => c.id !== F.atelier.contractId)
      .every((c) => c.kbis === null),
    'the other contracts are left as they were',
  )
})

Selection('a partner or accountant request updates that order everywhere, and only that one', async () => {
  const { actor } = await boot(F.boulangerie.id, fourOrders)
  actor.send({ type: 'order.changed', orderId: F.boulangerie.id, changes: { qonto: true, wantComptable: true } })
  const orders = actor.getSnapshot().context.orders
  assert.equal(
    [
      selectedOrder(actor.getSnapshot().context)!.qonto,
      selectedOrder(actor.getSnapshot().context)!.wantComptable,
      selectedOrder(actor.getSnapshot().context)!.shine,
    ],
    [true, true, false],
  )
  assert.ok(orders.filter((o) => o.id !== F.boulangerie.id).every((o) => !o.qonto && !o.wantComptable))
})

// --- billing
Selection('a forwarding address saved replaces that contract; the billing changes reach the data', async () => {
  const received: unknown[] = []
  const data = fromCallback(({ receive }) => receive((event) => void received.push(event)))
  const { actor } = await boot(F.boulangerie.id, fourOrders, { data })
  const moved = { ...F.contracts[1]!, villePostaleExpedition: 'Lyon' }
  actor.send({ type: 'contract.changed', contract: moved })
  assert.equal(
    actor.getSnapshot().context.contracts.map((c) => c.villePostaleExpedition),
    [null, 'Lyon', null],
  )
  const card = { id: 'pm_2', brand: 'visa', last4: '4444', expMonth: 1, expYear: 2030 }
  actor.send({ type: 'card.changed', card })
  actor.send({ type: 'invoices.paid', orderId: 2 })
  assert.equal(received, [
    { type: 'card.changed', card },
    { type: 'invoices.paid', orderId: 2 },
  ])
  // The dashboard's 'Régler' paid every order the user owns: each of them (not Studio Nuage, shared with her).
  received.length = 0
  actor.send({ type: 'invoices.paidOwned' })
  assert.equal(
    received,
    fourOrders.filter((o) => !o.isShareOrder).map((o) => ({ type: 'invoices.paid', orderId: o.id })),
  )
  assert.is(received.length, 3)
})

Scenarios.run()
Selection.run()
