// The startup with a page to land on (an e-mail's link): spec §4's sequence unchanged (its calls, their order, its
// decisions), then, once the portal is reached, that page, whatever came in between (the selection screen,
// /missing-document), with the order it names selected; the dashboard when that order is not the user's.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import { letterPath } from '../../../server/contract/rules/mail.ts'
import { linkedOrderId } from '../../../server/contract/rules/links.ts'
import type { Order } from '../../../server/contract/session.ts'
import { DASHBOARD_PATH, type StoredChoice, startupMachine } from '../../../src/machines/session/startup.machine.ts'
import * as F from '../../util/fixtures.ts'
import { applyEvent, Deferreds, describePath, flush, pathsToReplay, shortestPaths } from '../../util/paths.ts'

const failure = new Error('Le service est momentanément indisponible.')
const fourOrders = [F.atelier, F.boulangerie, F.studio, F.conseil]
/** Boulangerie's letter, as the « Nouveau courrier » e-mail links to it. */
const LETTER = letterPath(F.boulangerie.id, 24)
/** A letter of an order that is not the user's. */
const ELSEWHERE = letterPath(999, 24)
/** A page that names no order (another area's page, a conversation). */
const PAGE = '/mes-echanges/12'

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
  { type: 'xstate.done.actor.selection', output: { orderId: F.atelier.id } },
  { type: 'xstate.done.actor.selection', output: { orderId: F.conseil.id } },
  { type: 'xstate.done.actor.selection', output: { orderId: null } },
  { type: 'xstate.done.actor.selection', output: { cancelled: true } },
  { type: 'order.select', orderId: F.studio.id },
  { type: 'order.reopen' },
  { type: 'documents.completed', orderId: F.conseil.id, missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt },
  { type: 'startup.retry' },
] as const

const traversable = startupMachine.provide({ actions: { forwardToSelection: () => {}, forwardToData: () => {}, reloadData: () => {} } })
const serializeState = (s: any) =>
  JSON.stringify([
    s.value,
    s.context.selectedOrderId,
    s.context.orders.map((o: Order) => [o.id, o.missingDocumentsValidatedAt]),
    !!s.context.user,
    s.context.contracts.length,
    !!s.context.error,
    s.context.hasChoice,
    s.context.destination,
  ])

type Navigation = { to: string; replace?: boolean }

function start(storedChoice: StoredChoice | null, destination: string | null) {
  const deferreds = new Deferreds()
  const persisted: StoredChoice[] = []
  const navigations: Navigation[] = []
  const machine = startupMachine.provide({
    actors: {
      fetchUser: deferreds.actor(),
      fetchContracts: deferreds.actor(),
      fetchOrders: deferreds.actor(),
      orderSelection: deferreds.actor() as any,
      portalData: deferreds.actor() as any,
    },
    actions: {
      persistChoice: (_, params) => void persisted.push(params.choice),
      navigate: (_, params) => void navigations.push(params),
    },
  })
  return { actor: createActor(machine, { input: { storedChoice, destination } }), deferreds, persisted, navigations }
}

const ModelBased = suite('startup with a page to land on: shortest paths, replayed')

for (const destination of [LETTER, ELSEWHERE, PAGE]) {
  for (const storedChoice of [null, F.atelier.id, 'all'] as const) {
    const paths = shortestPaths(traversable, { events, input: { storedChoice, destination }, limit: 20000, serializeState })
    const name = `${destination}, stored ${JSON.stringify(storedChoice)}`

    ModelBased(`${name}: the graph reaches the portal, the selection screen and /missing-document`, () => {
      const reached = new Set(paths.map((p) => (typeof p.state.value === 'string' ? p.state.value : Object.keys(p.state.value)[0])))
      for (const state of ['ready', 'missingDocuments', 'signedOut', 'failed', 'noOrders', ...(storedChoice === null ? ['selecting'] : [])])
        assert.ok(reached.has(state), `no path reaches ${state}`)
    })

    for (const path of pathsToReplay(paths, ModelBased)) {
      ModelBased(`${name}: ${describePath(path)} → ${JSON.stringify(path.state.value)}`, async () => {
        // The same path replayed without a page to land on, in step: spec §4 as it was, to compare with.
        const linked = start(storedChoice, destination)
        const plain = start(storedChoice, null)
        for (const run of [linked, plain]) run.actor.start()
        await flush()
        const orderId = linkedOrderId(destination)
        let landed = false
        for (const [i, step] of path.steps.entries()) {
          const navigated = linked.navigations.length
          for (const run of [linked, plain]) await applyEvent(run.actor, run.deferreds, step.event)
          const [snapshot, asBefore] = [linked.actor.getSnapshot(), plain.actor.getSnapshot()]
          const at = `step ${i + 1} of ${describePath(path)}`
          assert.equal(snapshot.value, step.state.value, at)
          assert.equal(snapshot.value, asBefore.value, `the same states as without a page to land on, ${at}`)
          assert.equal(
            linked.deferreds.started.map((s) => s.id),
            plain.deferreds.started.map((s) => s.id),
            `the same calls in the same order, ${at}`,
          )
          const made = linked.navigations.slice(navigated)
          if (!landed && snapshot.matches('ready')) {
            landed = true
            const theirs = orderId === null || snapshot.context.orders.some((o) => o.id === orderId)
            // The page once, in place of the address shown (the dashboard when its order is not the user's), nothing else.
            assert.equal(made, [{ to: theirs ? destination : DASHBOARD_PATH, replace: true }], `landing, ${at}`)
            assert.is(snapshot.context.destination, null, 'forgotten once used')
            const chosen = asBefore.context.selectedOrderId
            if (theirs && orderId !== null && chosen !== null) {
              // Its order shown, and kept as the default one, as the header's pick would.
              assert.is(snapshot.context.selectedOrderId, orderId)
              assert.is(linked.persisted.at(-1), orderId)
            } else {
              assert.is(snapshot.context.selectedOrderId, chosen, "'Tous', a page naming no order, or not theirs: the order chosen")
              assert.equal(linked.persisted, plain.persisted)
            }
          } else if (!landed) {
            // Spec §4 untouched on the way: what it does without a page to land on, never the page nor the dashboard.
            assert.equal(linked.navigations, plain.navigations, at)
            assert.ok(
              made.every((n) => n.to === '/missing-document'),
              `before the portal, ${JSON.stringify(made)} (${at})`,
            )
            assert.equal(linked.persisted, plain.persisted, at)
            assert.is(snapshot.context.destination, destination, 'kept until the portal is reached')
          } else {
            assert.ok(
              made.every((n) => n.to !== destination),
              `the page once only, ${JSON.stringify(made)} (${at})`,
            )
          }
        }
        for (const run of [linked, plain]) run.actor.stop()
      })
    }
  }
}
ModelBased.run()

const Scenarios = suite('startup with a page to land on: the journeys')

async function boot(storedChoice: StoredChoice | null, destination: string | null, orders: Order[]) {
  const run = start(storedChoice, destination)
  run.actor.start()
  await flush()
  run.deferreds.settle('fetchUser', { output: F.user })
  run.deferreds.settle('fetchContracts', { output: F.contracts })
  await flush()
  run.deferreds.settle('fetchOrders', { output: orders })
  await flush()
  return run
}

Scenarios('several orders, none kept: the selection screen first (spec §4), then the letter on its order', async () => {
  const { actor, deferreds, navigations, persisted } = await boot(null, LETTER, fourOrders)
  assert.ok(actor.getSnapshot().matches('selecting'))
  assert.equal(navigations, [])
  deferreds.settle('selection', { output: { orderId: F.atelier.id } })
  await flush()
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(navigations, [{ to: LETTER, replace: true }])
  assert.is(actor.getSnapshot().context.selectedOrderId, F.boulangerie.id)
  assert.equal(persisted, [F.atelier.id, F.boulangerie.id], 'the choice made, then the letter’s order')
  assert.equal(deferreds.started.at(-1)!.input, { scope: { order: F.boulangerie, orders: fourOrders } }, 'the data read for it')
})

Scenarios('the only order misses documents: /missing-document, then the page instead of the dashboard', async () => {
  const { actor, navigations } = await boot(null, PAGE, [F.conseil])
  assert.equal(navigations, [{ to: '/missing-document' }])
  actor.send({ type: 'documents.completed', orderId: F.conseil.id, missingDocumentsValidatedAt: null })
  assert.ok(actor.getSnapshot().matches('missingDocuments'), 'still missing: the page waits')
  actor.send({
    type: 'documents.completed',
    orderId: F.conseil.id,
    missingDocumentsValidatedAt: F.conseilCompleted.missingDocumentsValidatedAt,
  })
  assert.ok(actor.getSnapshot().matches('ready'))
  assert.equal(navigations, [{ to: '/missing-document' }, { to: PAGE, replace: true }])
})

Scenarios('a letter of an order that is not the user’s: the dashboard, the order kept', async () => {
  const { actor, navigations, persisted } = await boot(F.atelier.id, ELSEWHERE, fourOrders)
  assert.equal(navigations, [{ to: DASHBOARD_PATH, replace: true }])
  assert.is(actor.getSnapshot().context.selectedOrderId, F.atelier.id)
  assert.equal(persisted, [])
})

Scenarios('no page to land on: nothing changes (the address shown stays, spec §4 as before)', async () => {
  const { navigations } = await boot(F.atelier.id, null, fourOrders)
  assert.equal(navigations, [])
})

Scenarios.run()
