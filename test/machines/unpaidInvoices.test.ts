import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import type { Notice } from '../../src/machines/shared.ts'
import { unpaidInvoicesMachine } from '../../src/machines/unpaidInvoices.machine.ts'
import { Deferreds, describePath, flush, replay, shortestPaths } from '../util/paths.ts'

const unpaid = { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 }
const clear = { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }

function start(orderId: number | null = 2) {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = unpaidInvoicesMachine.provide({
    actors: { fetchStatus: deferreds.actor(), pay: deferreds.actor() },
    actions: { notify: (_, n) => void notices.push(n) },
  })
  return { actor: createActor(machine, { input: { orderId } }), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.fetchStatus', output: unpaid },
  { type: 'xstate.done.actor.fetchStatus', output: clear },
  { type: 'xstate.error.actor.fetchStatus', error: new Error('Le service est momentanément indisponible.') },
  { type: 'unpaid.pay' },
  { type: 'unpaid.retry' },
  { type: 'xstate.done.actor.pay', output: { paidCount: 1, message: '1 facture réglée.' } },
  { type: 'xstate.error.actor.pay', error: new Error('Aucune carte enregistrée : ajoutez un moyen de paiement.') },
] as const

const ModelBased = suite('unpaidInvoices: every shortest path, replayed')
for (const path of shortestPaths(unpaidInvoicesMachine, { events, input: { orderId: 2 } })) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    // The banner shows exactly when the server says something is unpaid.
    assert.is(snapshot.hasTag('banner'), snapshot.context.status?.hasUnpaid === true && (snapshot.matches('unpaid') || snapshot.matches('paying')))
    for (const s of deferreds.started.filter((d) => d.id === 'pay')) assert.equal(s.input, { orderId: 2 })
    actor.stop()
  })
}
ModelBased.run()

const Unpaid = suite('unpaidInvoices')

/** Started, the status answered unpaid, 'Régler' clicked. */
async function paying(orderId: number | null) {
  const run = start(orderId)
  run.actor.start()
  await flush()
  run.deferreds.settle('fetchStatus', { output: unpaid })
  await flush()
  run.actor.send({ type: 'unpaid.pay' })
  await flush()
  return run
}

Unpaid("'Régler' pays, tells the result, and asks the status again", async () => {
  const { actor, deferreds, notices } = await paying(null)
  assert.equal(deferreds.started.at(-1), { id: 'pay', input: { orderId: null } })
  deferreds.settle('pay', { output: { paidCount: 1, message: '1 facture réglée.' } })
  await flush()
  assert.equal(notices, [{ kind: 'success', message: '1 facture réglée.' }])
  assert.equal(deferreds.started.at(-1)!.id, 'fetchStatus')
  deferreds.settle('fetchStatus', { output: clear })
  await flush()
  assert.ok(actor.getSnapshot().matches('upToDate'))
})

Unpaid('a refused payment keeps the banner and says why', async () => {
  const { actor, deferreds, notices } = await paying(2)
  deferreds.settle('pay', { error: new Error('Aucune carte enregistrée.') })
  await flush()
  assert.ok(actor.getSnapshot().hasTag('banner'))
  assert.equal(notices, [{ kind: 'error', message: 'Aucune carte enregistrée.' }])
})

Unpaid.run()
