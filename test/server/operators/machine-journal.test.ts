// Every machine's write (auth 'operator' in the route table) writes its journal row, naming the API key, in the
// transaction of its change; a read writes none, nor does a refused call or a retry that makes nothing.
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes, type RouteDef, type RouteName } from '../../../server/contract/routes.ts'
import { TEST_OPERATOR_TOKEN } from '../../util/server.ts'
import { demoContext, sampleFor, send, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext & { key: string; keyId: number }

const machineRoutes = (Object.entries(routes) as [RouteName, RouteDef][]).filter(([, r]) => r.auth === 'operator')

/** The journal's action of each machine's write, and the order its sample is about (a route added without one fails). */
const expected: Partial<Record<RouteName, { action: string; order: (ctx: Ctx) => number | null; summary: RegExp }>> = {
  operatorAddDocument: {
    action: 'letter.added',
    order: (ctx) => ctx.ids.order,
    summary: /^Courrier ajouté pour Boulangerie des Lilas SAS : URSSAF Île-de-France \(administratif, 1 page\)$/,
  },
  operatorAddPackage: {
    action: 'package.added',
    order: (ctx) => ctx.ids.order,
    summary: /^Colis ajouté pour Boulangerie des Lilas SAS : de Moulins Bourgeois, par Colissimo$/,
  },
  operatorAddInvoice: {
    action: 'invoice.added',
    order: (ctx) => ctx.ids.order,
    summary: /^Facture FA-ESSAI-\d+ ajoutée pour Boulangerie des Lilas SAS : 348,00\s€ TTC$/,
  },
  operatorUpdateLegalSubmission: {
    action: 'formality.moved',
    order: (ctx) => ctx.ids.sharedOrder,
    summary: /^Formalité « Changement de dirigeant » de Studio Nuage SAS : En cours → Déposée au greffe$/,
  },
  operatorKbisStatus: {
    action: 'kbis.validated',
    order: (ctx) => ctx.ids.order,
    summary: /^Kbis de Boulangerie des Lilas SAS validé \(contrat \d+\)$/,
  },
  operatorBackupDatabase: {
    action: 'backup.database',
    order: () => null,
    summary: /^Sauvegarde de la base embarquée \([\d,]+ Mo\)$/,
  },
  operatorStorageCheck: {
    action: 'storage.checked',
    order: () => null,
    // The route tests' sample scans name files never written (test/util/server-samples.ts): a loss, said so.
    summary: /^Vérification des fichiers : \d+ référencés, \d+ manquants, 0 endommagés, \d+ orphelins \(PERTE\)$/,
  },
  operatorLetterForwarded: {
    action: 'letter.forwarded',
    order: (ctx) => ctx.ids.order,
    summary: /^Courrier \d+ réexpédié à 12 rue des Lilas, 69003 Lyon$/,
  },
}

const journalRows = (ctx: Ctx) => ctx.t.deps.db.selectFrom('journal').selectAll().where('operator_id', 'is', null).orderBy('id').execute()

const test = suite<Ctx>('the journal of the machines’ calls')
test.before(async (ctx) => {
  await demoContext(ctx)
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/backoffice/api-keys',
    payload: { name: 'Scanner salle 2' },
    headers: { authorization: `Bearer ${ctx.admin}` },
  })
  ctx.key = res.json().key
  ctx.keyId = res.json().apiKey.id
})
test.after((ctx) => ctx.t?.close())

test('the table’s machine routes are the writes listed here and three reads', () => {
  const writes = machineRoutes.filter(([, r]) => r.method !== 'GET').map(([name]) => name)
  assert.equal(writes.sort(), Object.keys(expected).sort())
  assert.equal(machineRoutes.filter(([, r]) => r.method === 'GET').length, 3)
})

for (const [name, route] of machineRoutes) {
  test(`${route.method} ${route.path}`, async (ctx) => {
    const before = (await journalRows(ctx)).length
    const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), ctx.key)
    // PostgreSQL is dumped by pg_dump itself: the server refuses, and writes nothing.
    if (name === 'operatorBackupDatabase' && process.env.DATABASE_URL) {
      assert.is(res.statusCode, 409)
      assert.is((await journalRows(ctx)).length, before)
      return
    }
    assert.ok(res.statusCode < 300, `${res.statusCode} ${res.body}`)
    const rows = (await journalRows(ctx)).slice(before)
    const want = expected[name]
    if (!want) {
      assert.is(route.method, 'GET')
      assert.is(rows.length, 0, 'a read writes no row')
      return
    }
    assert.is(rows.length, 1, 'one row per write')
    const row = rows[0]!
    assert.is(row.action, want.action)
    assert.is(row.api_key_id, ctx.keyId, 'the key is named')
    assert.is(row.operator_id, null)
    assert.is(row.order_id, want.order(ctx))
    assert.match(row.summary, want.summary)
  })
}

test('the bootstrap OPERATOR_TOKEN writes its row with neither operator nor key; the journal page says so', async (ctx) => {
  const res = await send(ctx.t.app, 'operatorAddPackage', sampleFor('operatorAddPackage', ctx.ids, ctx.pdf), TEST_OPERATOR_TOKEN)
  assert.is(res.statusCode, 200, res.body)
  const row = (await journalRows(ctx)).at(-1)!
  assert.is(row.action, 'package.added')
  assert.is(row.api_key_id, null)
  const page = await ctx.t.app.inject({
    method: 'GET',
    url: `/api/backoffice/journal?apiKeyId=${ctx.keyId}`,
    headers: { authorization: `Bearer ${ctx.admin}` },
  })
  // PostgreSQL: no dump through the server, no row.
  const writes = Object.keys(expected).length - (process.env.DATABASE_URL ? 1 : 0)
  assert.is(page.json().total, writes, 'the key’s rows, one per write above')
  assert.equal(page.json().entries[0].apiKey, { id: ctx.keyId, name: 'Scanner salle 2', prefix: ctx.key.slice(0, 11) })
})

test('a refused call and a retry that makes nothing write no row', async (ctx) => {
  const before = (await journalRows(ctx)).length
  const sample = sampleFor('operatorAddPackage', ctx.ids, ctx.pdf)
  const unknownOrder = await send(ctx.t.app, 'operatorAddPackage', { ...sample, params: { id: 999_999 } }, ctx.key)
  assert.is(unknownOrder.statusCode, 404)
  const blank = await send(ctx.t.app, 'operatorAddPackage', { ...sample, body: { carrier: '   ', sender: 'X' } }, ctx.key)
  assert.is(blank.statusCode, 400)
  const again = await send(ctx.t.app, 'operatorKbisStatus', sampleFor('operatorKbisStatus', ctx.ids, ctx.pdf), ctx.key)
  assert.is(again.statusCode, 409, 'the Kbis is validated already')
  assert.is((await journalRows(ctx)).length, before)
  const retried = { ...sample, headers: { 'idempotency-key': 'colis-essai-1' } }
  assert.is((await send(ctx.t.app, 'operatorAddPackage', retried, ctx.key)).statusCode, 200)
  const replay = await send(ctx.t.app, 'operatorAddPackage', retried, ctx.key)
  assert.is(replay.headers['idempotent-replayed'], 'true')
  assert.is((await journalRows(ctx)).length, before + 1, 'the first call only')
})

test('the change and its row commit together: a journal that cannot be written takes the letter back', async (ctx) => {
  const { db } = ctx.t.deps
  const letters = async () =>
    Number(
      (
        await db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const before = await letters()
  // A check that the letter's journal row fails (new rows only; removed below): the letter's transaction must fail whole.
  await sql`alter table journal add constraint journal_essai_refus check (action <> 'letter.added') not valid`.execute(db)
  try {
    const res = await send(ctx.t.app, 'operatorAddDocument', sampleFor('operatorAddDocument', ctx.ids, ctx.pdf), ctx.key)
    assert.ok(res.statusCode >= 400, res.body)
    assert.is(await letters(), before, 'no letter without its journal row')
  } finally {
    await db.schema.alterTable('journal').dropConstraint('journal_essai_refus').execute()
  }
})

test.run()
