// GET documents and GET my-domiciliation-orders are written as JSON by the database (server/db/json.ts) and
// sent past the route's serializer: this holds each text to the contract (MailDocument, Order) and to the same rows read
// the ordinary way (rows → toDocument; rows → toOrder, here), on PGlite and on PostgreSQL, with every kind of value they can hold
// (null and not null, a deadline with and without an amount, missing documents, a time with microseconds).
import { sql } from 'kysely'
import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MailDocument } from '../../server/contract/mail.ts'
import { Order } from '../../server/contract/session.ts'
import { listDocumentsById } from '../../server/db/repositories/mail.ts'
import type { OrderRow } from '../../server/db/schema.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  orders: Record<string, { id: number }>
}

const test = suite<Ctx>('GET documents and my-domiciliation-orders: the JSON the database writes')
test.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.orders = await ordersByName(ctx.t.app, ctx.camille)
})
test.after((ctx) => ctx.t?.close())

const List = Compile(Type.Array(MailDocument))

/** The same letters read as rows and built in Node, newest first (the route's order). */
async function expected(ctx: Ctx, ids: number[]) {
  const letters = await listDocumentsById(ctx.t.deps.db, ids)
  return letters.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt) || b.id - a.id)
}

async function check(ctx: Ctx, url: string) {
  const res = await call(ctx.t.app, ctx.camille, 'GET', url)
  assert.is(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/)
  const body = res.json() as MailDocument[]
  assert.ok(List.Check(body), `${url}: not a MailDocument[]: ${JSON.stringify([...List.Errors(body)].slice(0, 3))}`)
  assert.equal(
    body,
    await expected(
      ctx,
      body.map((d) => d.id),
    ),
    url,
  )
  for (const letter of body) assert.is(letter.receivedAt, new Date(letter.receivedAt).toISOString(), 'an ISO date as toISOString writes it')
  return body
}

test('each order and every order: the contract’s shape, the same letters as the rows give, newest first', async (ctx) => {
  const db = ctx.t.deps.db
  const boulangerie = ctx.orders['Boulangerie des Lilas SAS']!.id
  const [first, second, third] = await db
    .selectFrom('documents')
    .select('id')
    .where('order_id', '=', boulangerie)
    .where('deleted', '=', false)
    .orderBy('id')
    .limit(3)
    .execute()
  const folder = await db.selectFrom('folders').select('id').where('order_id', '=', boulangerie).executeTakeFirst()
  await sql`update documents set received_at = '2026-11-20T10:11:12.345678Z', deadline_date = '2026-12-01', deadline_amount_cents = null,
    folder_id = ${folder?.id ?? null} where id = ${first!.id}`.execute(db)
  await sql`update documents set deadline_date = '2027-01-15', deadline_amount_cents = 123456 where id = ${second!.id}`.execute(db)
  await sql`update documents set deadline_date = null, deadline_amount_cents = null, folder_id = null where id = ${third!.id}`.execute(db)

  const letters = await check(ctx, `/api-protected/documents?orderId=${boulangerie}`)
  assert.ok(letters.length >= 3)
  const byId = new Map(letters.map((d) => [d.id, d]))
  assert.is(byId.get(first!.id)!.receivedAt, '2026-11-20T10:11:12.345Z')
  assert.equal(byId.get(first!.id)!.deadline, { date: '2026-12-01', amountCents: null })
  assert.equal(byId.get(second!.id)!.deadline, { date: '2027-01-15', amountCents: 123456 })
  assert.is(byId.get(third!.id)!.deadline, null)
  assert.is(byId.get(third!.id)!.folderId, null)
  if (folder) assert.is(byId.get(first!.id)!.folderId, folder.id)

  for (const { id } of Object.values(ctx.orders)) await check(ctx, `/api-protected/documents?orderId=${id}`)
  const all = await check(ctx, '/api-protected/documents')
  assert.ok(all.length > letters.length)
})

const Orders = Compile(Type.Array(Order))

/** An order read the ordinary way: its row, field by field, as the route built it before the database wrote the JSON. */
const toOrder = (row: OrderRow, isShareOrder: boolean, contractId: number | null): Order => ({
  id: row.id,
  raisonSociale: row.raison_sociale,
  orderDate: row.order_date.toISOString(),
  status: row.status,
  hasKbis: row.has_kbis,
  missingDocuments: row.missing_documents,
  missingDocumentsValidatedAt: row.missing_documents_validated_at?.toISOString() ?? null,
  subscriptionId: row.subscription_id,
  isShareOrder,
  contractId,
  siren: row.siren,
  legalForm: row.legal_form,
  domiciliationAddress: row.domiciliation_address,
  qonto: row.qonto,
  shine: row.shine,
  wantComptable: row.want_comptable_at !== null,
  kbisRefusal: null,
})

async function checkOrders(ctx: Ctx, token: string) {
  const res = await call(ctx.t.app, token, 'GET', '/api-protected/my-domiciliation-orders')
  assert.is(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/)
  const body = res.json() as Order[]
  assert.ok(Orders.Check(body), `not an Order[]: ${JSON.stringify([...Orders.Errors(body)].slice(0, 3))}`)
  const user = (await call(ctx.t.app, token, 'GET', '/api-protected/user/me')).json() as { id: number }
  const db = ctx.t.deps.db
  const rows = await db
    .selectFrom('orders')
    .leftJoin('contracts', 'contracts.order_id', 'orders.id')
    .selectAll('orders')
    .select('contracts.id as contract_id')
    .where((eb) =>
      eb.or([
        eb('orders.owner_id', '=', user.id),
        eb('orders.id', 'in', eb.selectFrom('shares').select('order_id').where('user_id', '=', user.id)),
      ]),
    )
    .orderBy('orders.order_date')
    .orderBy('orders.id')
    .execute()
  assert.equal(
    body,
    rows.map((row) => toOrder(row, row.owner_id !== user.id, row.contract_id)),
  )
  return body
}

test('my-domiciliation-orders: the contract’s shape, the same orders as the rows give, oldest first', async (ctx) => {
  const db = ctx.t.deps.db
  const boulangerie = ctx.orders['Boulangerie des Lilas SAS']!.id
  await sql`update orders set order_date = '2025-01-02T03:04:05.678912Z', missing_documents = ${JSON.stringify([{ type: 'kbis', label: 'Extrait « Kbis »' }])}::jsonb,
    missing_documents_validated_at = '2025-02-03T04:05:06Z', want_comptable_at = now(), siren = null where id = ${boulangerie}`.execute(db)
  const orders = await checkOrders(ctx, ctx.camille)
  const mine = orders.find((o) => o.id === boulangerie)!
  assert.is(mine.orderDate, '2025-01-02T03:04:05.678Z')
  assert.equal(mine.missingDocuments, [{ type: 'kbis', label: 'Extrait « Kbis »' }])
  assert.is(mine.missingDocumentsValidatedAt, '2025-02-03T04:05:06.000Z')
  assert.is(mine.wantComptable, true)
  assert.ok(orders.some((o) => o.isShareOrder) && orders.some((o) => !o.isShareOrder), 'owned and shared orders')
  await checkOrders(ctx, await login(ctx.t.app, 'solo@example.com'))
})

test('an order without letters is an empty array, not null', async (ctx) => {
  const db = ctx.t.deps.db
  const boulangerie = ctx.orders['Boulangerie des Lilas SAS']!.id
  await db.updateTable('documents').set({ deleted: true }).where('order_id', '=', boulangerie).execute()
  const res = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${boulangerie}`)
  assert.is(res.statusCode, 200)
  assert.is(res.body, '[]')
})

test.run()
