// GET my-domiciliation-orders keeps each user's list it wrote, with its orders' list_version (migration 008,
// db/kept-lists.ts), as GET documents does (kept-lists.test.ts). Held here on PGlite and PostgreSQL: while nothing
// changed the one statement of a request only checks the session and the version; every kind of change, whoever makes
// it (a route, plain SQL, another server instance), is seen at the next request; the session is checked every time.
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../../server/app.ts'
import { keptLists } from '../../server/db/kept-lists.ts'
import { messages } from '../../server/http/errors.ts'
import { sha256 } from '../../server/lib/crypto.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../util/server.ts'

interface Ctx {
  t: TestApp
  statements: string[]
  camille: string
  boulangerie: number
  studio: number
}
interface Order {
  id: number
  raisonSociale: string
  status: string
  qonto: boolean
  isShareOrder: boolean
  contractId: number | null
}

const test = suite<Ctx>('GET my-domiciliation-orders: the lists a server keeps are never stale')
test.before(async (ctx) => {
  ctx.statements = []
  ctx.t = await buildTestApp({ onStatement: (statement) => ctx.statements.push(statement) })
  ctx.camille = await login(ctx.t.app)
  const orders = await ordersByName(ctx.t.app, ctx.camille)
  ctx.boulangerie = orders['Boulangerie des Lilas SAS']!.id
  ctx.studio = orders['Studio Nuage SAS']!.id // shared with Camille
})
test.after((ctx) => ctx.t?.close())

const URL = '/api-protected/my-domiciliation-orders'
const MARK = '[{"kept":true}]'
const keyOf = (token: string) => `orders:${sha256(token)}`

async function orders(ctx: Ctx, token = ctx.camille): Promise<Order[]> {
  const res = await call(ctx.t.app, token, 'GET', URL)
  assert.is(res.statusCode, 200, res.body)
  return res.json() as Order[]
}

/** Reads the list (so that it is kept), then swaps the kept JSON for a mark at the same version (see kept-lists.test.ts). */
async function keepMarked(ctx: Ctx): Promise<void> {
  await orders(ctx)
  const kept = keptLists(ctx.t.deps.db).get(keyOf(ctx.camille))
  assert.ok(kept, 'kept')
  keptLists(ctx.t.deps.db).set(keyOf(ctx.camille), kept.version, MARK)
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', URL)).body, MARK, 'served as kept while nothing changed')
}

test('a list is kept with its version, served as kept in one statement that does not write it', async (ctx) => {
  const first = await orders(ctx)
  const kept = keptLists(ctx.t.deps.db).get(keyOf(ctx.camille))
  assert.ok(kept)
  assert.equal(JSON.parse(kept.json.toString()), first)
  assert.ok(
    kept.version.split(',').some((v) => v.startsWith(`${ctx.studio}:`)),
    'the shared order is part of the version',
  )
  ctx.statements.length = 0
  const again = await call(ctx.t.app, ctx.camille, 'GET', URL)
  assert.is(again.body, kept.json.toString())
  assert.is(again.headers['content-type'], 'application/json; charset=utf-8')
  assert.is(ctx.statements.length, 1, ctx.statements.join('\n'))
  assert.match(ctx.statements[0]!, /"api_tokens"/)
  assert.not.match(ctx.statements[0]!, /"contracts"/, 'the list is not written again')
  // Changed: the check, then the statement that writes the list.
  await sql`update orders set status = status || '' , qonto = not qonto where id = ${ctx.boulangerie}`.execute(ctx.t.deps.db)
  ctx.statements.length = 0
  assert.is((await orders(ctx)).find((o) => o.id === ctx.boulangerie)?.qonto, !first.find((o) => o.id === ctx.boulangerie)?.qonto)
  assert.is(ctx.statements.length, 2, ctx.statements.join('\n'))
})

test('each change to an order, its contract or its shares is seen at the next request, whoever made it', async (ctx) => {
  const db = ctx.t.deps.db
  const contract = await db.selectFrom('contracts').selectAll().where('order_id', '=', ctx.boulangerie).executeTakeFirstOrThrow()
  const boulangerie = (list: Order[]) => list.find((o) => o.id === ctx.boulangerie)
  const qonto = boulangerie(await orders(ctx))!.qonto
  const share = await db
    .selectFrom('shares')
    .innerJoin('users', 'users.id', 'shares.user_id')
    .select('shares.id')
    .where('shares.order_id', '=', ctx.studio)
    .where('users.email', '=', 'demo@example.com')
    .executeTakeFirstOrThrow()
  const changes: [string, () => Promise<unknown>, (list: Order[]) => boolean][] = [
    [
      'Qonto through the route',
      () => call(ctx.t.app, ctx.camille, 'POST', `/api/domiciliation-orders/${ctx.boulangerie}:set-qonto`, { qonto: !qonto }),
      (list) => boulangerie(list)?.qonto === !qonto,
    ],
    [
      'a status changed in SQL',
      () => sql`update orders set status = 'Suspendue' where id = ${ctx.boulangerie}`.execute(db),
      (list) => boulangerie(list)?.status === 'Suspendue',
    ],
    [
      'the order renamed',
      () => sql`update orders set raison_sociale = 'Boulangerie des Lilas SA' where id = ${ctx.boulangerie}`.execute(db),
      (list) => boulangerie(list)?.raisonSociale === 'Boulangerie des Lilas SA',
    ],
    [
      'its contract deleted',
      () => db.deleteFrom('contracts').where('id', '=', contract.id).execute(),
      (list) => boulangerie(list)?.contractId === null,
    ],
    [
      'its contract back (inserted)',
      () => db.insertInto('contracts').values(contract).execute(),
      (list) => boulangerie(list)?.contractId === contract.id,
    ],
    [
      'a share taken away',
      () => db.updateTable('shares').set({ user_id: null }).where('id', '=', share.id).execute(),
      (list) => !list.some((o) => o.id === ctx.studio),
    ],
    [
      'the share given back',
      () => sql`update shares set user_id = (select id from users where email = 'demo@example.com') where id = ${share.id}`.execute(db),
      (list) => list.find((o) => o.id === ctx.studio)?.isShareOrder === true,
    ],
    [
      'an order given to her (owner changed)',
      () => sql`update orders set owner_id = (select id from users where email = 'demo@example.com') where id = ${ctx.studio}`.execute(db),
      (list) => list.find((o) => o.id === ctx.studio)?.isShareOrder === false,
    ],
  ]
  for (const [what, change, seen] of changes) {
    await keepMarked(ctx)
    const done = await change()
    if (done && typeof done === 'object' && 'statusCode' in done)
      assert.is(done.statusCode, 200, `${what}: ${(done as unknown as { body: string }).body}`)
    const list = await orders(ctx)
    assert.ok(seen(list), `${what}: not seen at the next request`)
    assert.equal(JSON.parse(keptLists(db).get(keyOf(ctx.camille))!.json.toString()), list, `${what}: the new list is kept`)
  }
})

test('letters do not move the orders list’s version; a change to one order leaves the others’', async (ctx) => {
  const db = ctx.t.deps.db
  const version = async (id: number) =>
    (await db.selectFrom('orders').select('list_version').where('id', '=', id).executeTakeFirstOrThrow()).list_version
  const [boulangerie, studio] = [await version(ctx.boulangerie), await version(ctx.studio)]
  await sql`update documents set read = not read where order_id = ${ctx.boulangerie}`.execute(db)
  await sql`update orders set status = status where id = ${ctx.boulangerie}`.execute(db)
  assert.is(await version(ctx.boulangerie), boulangerie, 'nothing the list shows changed')
  await sql`update orders set shine = not shine where id = ${ctx.boulangerie}`.execute(db)
  assert.is(BigInt(await version(ctx.boulangerie)), BigInt(boulangerie) + 1n)
  assert.is(await version(ctx.studio), studio)
})

test('the session is checked at every request, the list kept or not', async (ctx) => {
  await orders(ctx)
  const unknown = await call(ctx.t.app, 'jeton-inconnu-0123456789', 'GET', URL)
  assert.is(unknown.statusCode, 401)
  assert.is(unknown.json().message, messages.badToken)
  const [phone, laptop] = [await login(ctx.t.app, 'associe@example.com'), await login(ctx.t.app, 'associe@example.com')]
  await orders(ctx, phone)
  assert.ok(keptLists(ctx.t.deps.db).get(keyOf(phone)))
  assert.is((await call(ctx.t.app, laptop, 'DELETE', '/api-protected/users/me/sessions')).statusCode, 200)
  const ended = await call(ctx.t.app, phone, 'GET', URL)
  assert.is(ended.statusCode, 401)
  assert.is(ended.json().message, messages.badToken)
})

test('two instances on one database: an order changed through one is changed in the list the other kept', async (ctx) => {
  const other = await buildApp(
    { ...ctx.t.deps, db: ctx.t.deps.db.withoutPlugins() },
    { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
  )
  try {
    const shine = (await orders(ctx)).find((o) => o.id === ctx.boulangerie) as Order & { shine: boolean }
    assert.ok(keptLists(ctx.t.deps.db).get(keyOf(ctx.camille)))
    const set = await other.inject({
      method: 'POST',
      url: `/api/domiciliation-orders/${ctx.boulangerie}:set-shine`,
      headers: { apitoken: ctx.camille },
      payload: { shine: !shine.shine },
    })
    assert.is(set.statusCode, 200, set.body)
    const seen = (await orders(ctx)).find((o) => o.id === ctx.boulangerie) as Order & { shine: boolean }
    assert.is(seen.shine, !shine.shine, 'seen by the instance that did not make the change')
  } finally {
    await other.close()
  }
})

test.run()
