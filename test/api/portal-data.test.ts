// Which calls the portal data loaders make (spec §4): the share endpoints for a shared order, every
// order for 'Tous', the user's own invoices plus the shared ones filtered by the selected order.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { configureApi } from '../../src/api/client.ts'
import { api } from '../../src/wiring/api.ts'
import { createLoaders } from '../../src/wiring/portal-data.ts'
import type { Resource, Scope } from '../../src/machines/session/portalData.machine.ts'
import * as F from '../util/fixtures.ts'

const requested: string[] = []
/** Answers per path: lists tagged with where they came from, so merging can be checked. */
const answers: Record<string, unknown> = {
  '/api-protected/user-packages': [{ id: 1, orderId: 2, receivedAt: '2026-10-01T00:00:00.000Z', from: 'own' }],
  '/api-protected/user-packages/share': [{ id: 2, orderId: 3, receivedAt: '2026-11-01T00:00:00.000Z', from: 'share' }],
  '/api-protected/user-demandes-courrier': [{ id: 1, orderId: 2, createdAt: '2026-10-01T00:00:00.000Z' }],
  '/api-protected/user-demandes-courrier/share': [{ id: 2, orderId: 3, createdAt: '2026-09-01T00:00:00.000Z' }],
  '/api-protected/folders': [{ id: 1, domiciliationOrderId: 2, name: 'Banque' }],
  '/api-protected/share-folders': [
    { id: 7, domiciliationOrderId: 3, name: 'Studio' },
    { id: 8, domiciliationOrderId: 5, name: 'Autre' },
  ],
  '/api-protected/invoices': [
    { id: 1, domId: 1, date: '2026-01-01T00:00:00.000Z' },
    { id: 2, domId: 2, date: '2026-02-01T00:00:00.000Z' },
  ],
  '/api-protected/invoices/share': [{ id: 3, domId: 3, date: '2026-03-01T00:00:00.000Z' }],
  '/api-protected/invoices/cal': [
    { id: 1, domId: 2 },
    { id: 2, domId: 3 },
  ],
  '/api-protected/documents': [
    { id: 1, receivedAt: '2026-01-01T00:00:00.000Z' },
    { id: 2, receivedAt: '2026-06-01T00:00:00.000Z' },
  ],
  '/api-protected/credit-card': { id: 'pm_user', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 },
}
const server = createServer((req, res) => {
  requested.push(req.url!)
  const path = req.url!.split('?')[0]!
  const payment = /^\/api-protected\/domiciliation-orders\/(\d+)\/payment-method$/.exec(path)
  const subscription = /^\/stripe\/subscription-informations\/(\d+)$/.exec(path)
  const body = payment ? { id: `pm_${payment[1]}` } : subscription ? { id: `sub_${subscription[1]}` } : answers[path]
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body ?? { message: 'introuvable' }))
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const orders = [F.atelier, F.boulangerie, F.studio, F.conseil]
const own: Scope = { order: F.boulangerie, orders }
const shared: Scope = { order: F.studio, orders }
const all: Scope = { order: null, orders }

async function load(resource: Resource, scope: Scope) {
  requested.length = 0
  const value = await createLoaders(api)({ resource, scope }, new AbortController().signal)
  return { value: value as any, paths: [...requested].sort() }
}

const Loaders = suite('portal data loaders: which calls, for which scope')
Loaders.before(() => configureApi({ baseURL, getToken: () => 'tok' }))

Loaders('an owned order: its own endpoints, with its id', async () => {
  assert.equal((await load('packages', own)).paths, ['/api-protected/user-packages?orderId=2'])
  assert.equal((await load('courierRequests', own)).paths, ['/api-protected/user-demandes-courrier?orderId=2'])
  assert.equal((await load('folders', own)).paths, ['/api-protected/folders?domiciliationOrderId=2'])
  assert.equal((await load('documents', own)).paths, ['/api-protected/documents?orderId=2'])
  assert.equal((await load('card', own)).paths, ['/api-protected/domiciliation-orders/2/payment-method'])
})

Loaders('a shared order: the share endpoints; no card (the owner’s)', async () => {
  assert.equal((await load('packages', shared)).paths, ['/api-protected/user-packages/share?orderId=3'])
  assert.equal((await load('courierRequests', shared)).paths, ['/api-protected/user-demandes-courrier/share?orderId=3'])
  const folders = await load('folders', shared)
  assert.equal(folders.paths, ['/api-protected/share-folders'])
  assert.equal(
    folders.value.map((f: { id: number }) => f.id),
    [7],
    'only the folders of that shared order',
  )
  const card = await load('card', shared)
  assert.equal(card.paths, [])
  assert.is(card.value, null)
})

Loaders("'Tous': own and shared lists together, newest first", async () => {
  const packages = await load('packages', all)
  assert.equal(packages.paths, ['/api-protected/user-packages', '/api-protected/user-packages/share'])
  assert.equal(
    packages.value.map((p: { id: number }) => p.id),
    [2, 1],
  )
  assert.equal((await load('folders', all)).paths, ['/api-protected/folders', '/api-protected/share-folders'])
  assert.equal((await load('card', all)).paths, ['/api-protected/credit-card'])
  assert.equal(
    (await load('documents', all)).value.map((d: { id: number }) => d.id),
    [2, 1],
  )
})

Loaders('invoices: the user’s own plus the shared ones, filtered by the selected order', async () => {
  const one = await load('invoices', own)
  assert.equal(one.paths, ['/api-protected/invoices', '/api-protected/invoices/share'])
  assert.equal(
    one.value.map((i: { id: number }) => i.id),
    [2],
  )
  assert.equal(
    (await load('invoices', shared)).value.map((i: { id: number }) => i.id),
    [3],
  )
  assert.equal(
    (await load('invoices', all)).value.map((i: { id: number }) => i.id),
    [3, 2, 1],
  )
  assert.equal(
    (await load('calendarInvoices', own)).value.map((i: { id: number }) => i.id),
    [1],
  )
})

Loaders('subscriptions: the selected order (a shared one read-only, billing), or every owned order with one for Tous', async () => {
  const one = await load('subscriptions', own)
  assert.is(one.paths.length, 1)
  assert.match(one.paths[0]!, /^\/stripe\/subscription-informations\/2\?key=[0-9a-f]{40}$/)
  assert.equal((await load('subscriptions', shared)).paths, [], 'a shared order whose subscription id is unknown: nothing to ask')
  const sharedWithSubscription = await load('subscriptions', { order: { ...F.studio, subscriptionId: 'sub_3' }, orders })
  assert.match(sharedWithSubscription.paths[0]!, /^\/stripe\/subscription-informations\/3\?key=[0-9a-f]{40}$/)
  const every = await load('subscriptions', all)
  assert.equal(
    every.value.map((s: { orderId: number }) => s.orderId),
    [1, 2, 4],
  )
})

Loaders.after(() => {
  server.close()
})
Loaders.run()
