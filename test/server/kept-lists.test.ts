// GET documents keeps each list it wrote, with its orders' mail_version (migration 007, db/kept-lists.ts), and writes it
// again only when a version changed. Held here on PGlite and PostgreSQL: a kept list is served while nothing changed;
// every kind of change, whoever makes it (a route, plain SQL as an operator's script or the mail pipeline would, another
// server instance), is seen at the next request; access is checked at every request, kept or not.
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../../server/app.ts'
import { KeptLists, keptLists } from '../../server/db/kept-lists.ts'
import { messages } from '../../server/http/errors.ts'
import { sha256 } from '../../server/lib/crypto.ts'
import { buildTestApp, call, login, ordersByName, type TestApp } from '../util/server.ts'

interface Ctx {
  t: TestApp
  camille: string
  sophie: string
  boulangerie: number
  studio: number
}
interface Letter {
  id: number
  orderId: number
  raisonSociale: string
  read: boolean
  folderId: number | null
  sender: string
}

const test = suite<Ctx>('GET documents: the lists a server keeps are never stale')
test.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  const orders = await ordersByName(ctx.t.app, ctx.camille)
  ctx.boulangerie = orders['Boulangerie des Lilas SAS']!.id
  ctx.studio = orders['Studio Nuage SAS']!.id // shared with Camille
})
test.after((ctx) => ctx.t?.close())

const oneOrder = (ctx: Ctx) => `/api-protected/documents?orderId=${ctx.boulangerie}`
const MARK = '[{"kept":true}]'

async function letters(ctx: Ctx, url: string, token = ctx.camille): Promise<Letter[]> {
  const res = await call(ctx.t.app, token, 'GET', url)
  assert.is(res.statusCode, 200, res.body)
  return res.json() as Letter[]
}

/**
 * Reads the list (so that it is kept), then swaps the kept JSON for a mark at the same version: served again while nothing
 * changes, the mark shows that the list was not written again; after a change it must be gone.
 */
async function keepMarked(ctx: Ctx, key: string, url: string): Promise<void> {
  await letters(ctx, url)
  const kept = keptLists(ctx.t.deps.db).get(key)
  assert.ok(kept, `${key} kept`)
  keptLists(ctx.t.deps.db).set(key, kept.version, MARK)
  assert.is((await call(ctx.t.app, ctx.camille, 'GET', url)).body, MARK, 'served as kept while nothing changed')
}

test('a list is kept with its version and served as kept while nothing changes', async (ctx) => {
  const first = await letters(ctx, oneOrder(ctx))
  assert.ok(first.length > 10)
  const kept = keptLists(ctx.t.deps.db).get(`order:${ctx.boulangerie}`)
  assert.ok(kept)
  assert.match(kept.version, new RegExp(`^${ctx.boulangerie}:\\d+$`))
  assert.equal(JSON.parse(kept.json.toString()), first)
  await keepMarked(ctx, `order:${ctx.boulangerie}`, oneOrder(ctx))
  // The same order's list for another user who reaches it (Julien is a collaborator of the Boulangerie): the same kept list.
  const julien = await login(ctx.t.app, 'associe@example.com')
  assert.is((await call(ctx.t.app, julien, 'GET', oneOrder(ctx))).body, MARK)
  keptLists(ctx.t.deps.db).delete(`order:${ctx.boulangerie}`)
})

test('each change to the letters or to the order’s name is seen at the next request, whoever made it', async (ctx) => {
  const db = ctx.t.deps.db
  const key = `order:${ctx.boulangerie}`
  const [newest] = await letters(ctx, oneOrder(ctx))
  const folder = await db.selectFrom('folders').select('id').where('order_id', '=', ctx.boulangerie).executeTakeFirstOrThrow()
  const changes: [string, () => Promise<unknown>, (list: Letter[]) => boolean][] = [
    [
      'marked read through the route',
      () => call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${newest!.id}`, { readFlag: !newest!.read }),
      (list) => list.find((l) => l.id === newest!.id)?.read === !newest!.read,
    ],
    [
      'filed through the route',
      () => call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${newest!.id}`, { folderId: folder.id }),
      (list) => list.find((l) => l.id === newest!.id)?.folderId === folder.id,
    ],
    [
      'a sender corrected in SQL',
      () => sql`update documents set sender = 'Expéditeur corrigé' where id = ${newest!.id}`.execute(db),
      (list) => list.find((l) => l.id === newest!.id)?.sender === 'Expéditeur corrigé',
    ],
    [
      'a letter received (inserted in SQL)',
      () =>
        sql`insert into documents (order_id, sender, kind, received_at, pages, file_key)
      select order_id, 'Nouvel expéditeur', kind, now(), pages, file_key from documents where id = ${newest!.id}`.execute(db),
      (list) => list[0]?.sender === 'Nouvel expéditeur',
    ],
    [
      'a letter deleted (soft)',
      () => sql`update documents set deleted = true where sender = 'Nouvel expéditeur'`.execute(db),
      (list) => !list.some((l) => l.sender === 'Nouvel expéditeur'),
    ],
    [
      'a letter purged (hard delete)',
      () => sql`delete from documents where id = ${newest!.id}`.execute(db),
      (list) => !list.some((l) => l.id === newest!.id),
    ],
    [
      'the order renamed',
      () => sql`update orders set raison_sociale = 'Boulangerie des Lilas SA' where id = ${ctx.boulangerie}`.execute(db),
      (list) => list.every((l) => l.raisonSociale === 'Boulangerie des Lilas SA'),
    ],
  ]
  for (const [what, change, seen] of changes) {
    await keepMarked(ctx, key, oneOrder(ctx))
    await change()
    const list = await letters(ctx, oneOrder(ctx))
    assert.ok(seen(list), `${what}: not seen at the next request`)
    assert.equal(JSON.parse(keptLists(db).get(key)!.json.toString()), list, `${what}: the new list is kept`)
  }
})

test('one statement changing many letters bumps each of their orders once; other orders keep their version', async (ctx) => {
  const db = ctx.t.deps.db
  const version = async (id: number) =>
    (await db.selectFrom('orders').select('mail_version').where('id', '=', id).executeTakeFirstOrThrow()).mail_version
  const [boulangerie, studio] = [await version(ctx.boulangerie), await version(ctx.studio)]
  await sql`update documents set read = not read where order_id = ${ctx.boulangerie}`.execute(db)
  assert.is(BigInt(await version(ctx.boulangerie)), BigInt(boulangerie) + 1n)
  assert.is(await version(ctx.studio), studio)
  // Any other change to the order leaves the list's version as it was.
  await sql`update orders set status = status where id = ${ctx.boulangerie}`.execute(db)
  assert.is(BigInt(await version(ctx.boulangerie)), BigInt(boulangerie) + 1n)
})

test('every order at once: kept per session; a share taken away or given back changes it', async (ctx) => {
  const db = ctx.t.deps.db
  const all = '/api-protected/documents'
  const key = `session:${sha256(ctx.camille)}`
  assert.ok((await letters(ctx, all)).some((l) => l.orderId === ctx.studio))
  await keepMarked(ctx, key, all)
  const share = await db
    .selectFrom('shares')
    .innerJoin('users', 'users.id', 'shares.user_id')
    .select('shares.id')
    .where('shares.order_id', '=', ctx.studio)
    .where('users.email', '=', 'demo@example.com')
    .executeTakeFirstOrThrow()
  await db.updateTable('shares').set({ user_id: null }).where('id', '=', share.id).execute()
  try {
    assert.not.ok(
      (await letters(ctx, all)).some((l) => l.orderId === ctx.studio),
      'the share taken away',
    )
    assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.studio}`)).statusCode, 404)
  } finally {
    await sql`update shares set user_id = (select id from users where email = 'demo@example.com') where id = ${share.id}`.execute(db)
  }
  assert.ok(
    (await letters(ctx, all)).some((l) => l.orderId === ctx.studio),
    'the share given back',
  )
})

test('access is checked at every request: a kept list is not another user’s, nor an ended session’s', async (ctx) => {
  await letters(ctx, oneOrder(ctx))
  assert.ok(keptLists(ctx.t.deps.db).get(`order:${ctx.boulangerie}`))
  const stranger = await call(ctx.t.app, ctx.sophie, 'GET', oneOrder(ctx))
  assert.is(stranger.statusCode, 404, stranger.body)
  assert.is(stranger.json().message, 'Domiciliation introuvable.')
  const unknown = await call(ctx.t.app, 'jeton-inconnu-0123456789', 'GET', oneOrder(ctx))
  assert.is(unknown.statusCode, 401)
  assert.is(unknown.json().message, messages.badToken)
  const [phone, laptop] = [await login(ctx.t.app, 'associe@example.com'), await login(ctx.t.app, 'associe@example.com')]
  await letters(ctx, oneOrder(ctx), phone)
  // "Déconnecter les autres appareils" from the laptop: the phone's next request is refused, its list kept or not.
  assert.is((await call(ctx.t.app, laptop, 'DELETE', '/api-protected/users/me/sessions')).statusCode, 200)
  assert.is((await call(ctx.t.app, phone, 'GET', oneOrder(ctx))).statusCode, 401)
})

test('two instances on one database: a letter read through one is read in the list the other kept', async (ctx) => {
  // Another Kysely on the same database: another process's kept lists.
  const other = await buildApp(
    { ...ctx.t.deps, db: ctx.t.deps.db.withoutPlugins() },
    { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
  )
  try {
    const get = async () => (await other.inject({ url: oneOrder(ctx), headers: { apitoken: ctx.camille } })).json() as Letter[]
    const [newest] = await get()
    assert.ok(keptLists(ctx.t.deps.db.withoutPlugins()) !== keptLists(ctx.t.deps.db))
    await letters(ctx, oneOrder(ctx))
    const put = await other.inject({
      method: 'PUT',
      url: `/api-protected/documents/${newest!.id}`,
      headers: { apitoken: ctx.camille },
      payload: { readFlag: !newest!.read },
    })
    assert.is(put.statusCode, 200, put.body)
    assert.is(
      (await letters(ctx, oneOrder(ctx))).find((l) => l.id === newest!.id)?.read,
      !newest!.read,
      'seen by the instance that did not make the change',
    )
    assert.is((await get()).find((l) => l.id === newest!.id)?.read, !newest!.read)
  } finally {
    await other.close()
  }
})

test('the kept lists hold at most their size in bytes, the least recently used going first', () => {
  const lists = new KeptLists(12)
  lists.set('a', '1:1', '[1,2,3]')
  lists.set('b', '2:1', '[4]')
  assert.ok(lists.get('a')) // a is now the most recently used
  lists.set('c', '3:1', '[5,6]')
  assert.is(lists.get('b'), undefined, 'b, the least recently used, went')
  assert.is(lists.get('a')?.json.toString(), '[1,2,3]')
  assert.is(lists.bytes, '[1,2,3]'.length + '[5,6]'.length)
  lists.set('a', '1:2', '[7]')
  assert.is(lists.bytes, '[7]'.length + '[5,6]'.length, 'a list kept again replaces the old one')
  lists.set('d', '4:1', '[1234567890123]')
  assert.is(lists.get('d'), undefined, 'a list bigger than the whole is not kept')
  assert.is(lists.size, 2)
  const bytes = new KeptLists()
  bytes.set('e', '5:1', '[é]')
  assert.is(bytes.bytes, 4, 'counted in UTF-8 bytes, as sent')
})

test.run()
