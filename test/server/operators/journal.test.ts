// The journal: one row per operator write, in the transaction of the change; rows the database refuses to change or
// delete; the administrators' filters, pages and CSV export.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { recordJournal } from '../../../server/db/repositories/operators-journal.ts'
import { JOURNAL_CSV_HEADERS, JOURNAL_PAGE_SIZE, journalMessages, parisMidnight } from '../../../server/routes/operators/journal.ts'
import { buildTestApp, operatorLogin, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  admin: string
  adminId: number
}
const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const journal = (ctx: Ctx, query = '') =>
  ctx.t.app.inject({ method: 'GET', url: `/api/backoffice/journal${query}`, headers: auth(ctx.admin) })
const rows = (ctx: Ctx) => ctx.t.deps.db.selectFrom('journal').selectAll().orderBy('id').execute()

const test = suite<Ctx>('the journal')
test.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: true })
  ctx.admin = await operatorLogin(ctx.t)
  ctx.adminId = (await ctx.t.app.inject({ method: 'GET', url: '/api/backoffice/me', headers: auth(ctx.admin) })).json().id
})
test.after((ctx) => ctx.t?.close())

test('an invitation, a change of roles and a deactivation each write their row, with the operator, before and after', async (ctx) => {
  const { t } = ctx
  const invited = await t.app.inject({
    method: 'POST',
    url: '/api/backoffice/operators',
    payload: { email: 'nina@example.com', name: 'Nina Roussel', roles: ['courrier'] },
    headers: auth(ctx.admin),
  })
  const id = invited.json().operator.id
  await t.app.inject({
    method: 'PUT',
    url: `/api/backoffice/operators/${id}/roles`,
    payload: { roles: ['conformite'] },
    headers: auth(ctx.admin),
  })
  await t.app.inject({ method: 'POST', url: `/api/backoffice/operators/${id}:deactivate`, headers: auth(ctx.admin) })
  const written = await rows(ctx)
  assert.equal(
    written.map((r) => [r.operator_id, r.action]),
    [
      [ctx.adminId, 'operator.invited'],
      [ctx.adminId, 'operator.roles'],
      [ctx.adminId, 'operator.deactivated'],
    ],
  )
  assert.is(written[1]!.summary, 'Rôles de nina@example.com : Courrier → Conformité')
  assert.equal(written[1]!.before, { roles: ['courrier'] })
  assert.equal(written[1]!.after, { roles: ['conformite'] })
  assert.not.ok(JSON.stringify(written).includes(invited.json().enrolmentUrl.split('/').pop()), 'no link token in the journal')
})

test('a refused write (an address taken, bad input) writes no row', async (ctx) => {
  const before = (await rows(ctx)).length
  for (const payload of [
    { email: 'courrier@example.com', name: 'X', roles: ['courrier'] },
    { email: 'x@example.com', name: 'X', roles: ['patron'] },
  ]) {
    const res = await ctx.t.app.inject({ method: 'POST', url: '/api/backoffice/operators', payload, headers: auth(ctx.admin) })
    assert.ok(res.statusCode === 400 || res.statusCode === 409, res.body)
  }
  assert.is((await rows(ctx)).length, before)
})

test('a change rolled back takes its journal row with it', async (ctx) => {
  const before = (await rows(ctx)).length
  await ctx.t.deps.db
    .transaction()
    .execute(async (tx) => {
      await recordJournal(tx, { actor: { operatorId: ctx.adminId }, action: 'test.rollback', summary: 'annulé', at: ctx.t.clock.now() })
      throw new Error('la modification échoue')
    })
    .catch(() => {})
  assert.is((await rows(ctx)).length, before)
})

test('the database refuses to change or delete a row, whoever asks: the row stays as it was', async (ctx) => {
  const { db } = ctx.t.deps
  const [first] = await rows(ctx)
  const refusals: string[] = []
  for (const attempt of [
    () => db.updateTable('journal').set({ summary: 'réécrit' }).where('id', '=', first!.id).execute(),
    () => db.updateTable('journal').set({ operator_id: null }).execute(),
    () => db.deleteFrom('journal').where('id', '=', first!.id).execute(),
    () => db.deleteFrom('journal').execute(),
  ]) {
    const error = await attempt().then(
      () => null,
      (e: unknown) => e as Error,
    )
    assert.ok(error, 'refused')
    refusals.push(error!.message)
  }
  for (const message of refusals) assert.match(message, /une ligne du journal ne peut être ni modifiée ni supprimée/)
  const truncate = await sql`truncate journal`.execute(db).then(
    () => null,
    (e: unknown) => e as Error,
  )
  assert.ok(truncate, 'TRUNCATE refused too')
  assert.equal((await rows(ctx))[0], first, 'unchanged')
})

test('filters: operator, order, action, days (Paris time, both included); pages of 50, newest first', async (ctx) => {
  const { db } = ctx.t.deps
  const courrier = (await db.selectFrom('operators').select('id').where('email', '=', 'courrier@example.com').executeTakeFirstOrThrow()).id
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < 60; i++)
      await recordJournal(tx, {
        actor: { operatorId: i % 2 ? courrier : ctx.adminId },
        action: 'letter.added',
        orderId: i % 3 === 0 ? 7 : 8,
        summary: `Courrier ${i}`,
        after: { n: i },
        // 60 rows over 60 hours, from 2026-03-01 00:00 Paris (23:00 UTC the day before).
        at: new Date(parisMidnight('2026-03-01').getTime() + i * 3_600_000),
      })
  })
  const all = (await journal(ctx, '?action=letter.added')).json()
  assert.is(all.total, 60)
  assert.is(all.pageSize, JOURNAL_PAGE_SIZE)
  assert.is(all.entries.length, 50)
  assert.is(all.entries[0].summary, 'Courrier 59', 'newest first')
  const second = (await journal(ctx, '?action=letter.added&page=2')).json()
  assert.is(second.entries.length, 10)
  assert.is(second.entries[9].summary, 'Courrier 0')
  assert.is((await journal(ctx, `?action=letter.added&operatorId=${courrier}`)).json().total, 30)
  assert.is((await journal(ctx, '?action=letter.added&orderId=7')).json().total, 20)
  assert.is((await journal(ctx, '?orderId=7')).json().entries[0].orderId, 7)
  // 1 March (Paris): hours 0 to 23.
  const day = (await journal(ctx, '?action=letter.added&from=2026-03-01&to=2026-03-01')).json()
  assert.is(day.total, 24)
  assert.is((await journal(ctx, '?action=letter.added&from=2026-03-02')).json().total, 36)
  assert.is((await journal(ctx, '?action=letter.added&to=2026-02-28')).json().total, 0)
  assert.equal(day.entries[0].operator && Object.keys(day.entries[0].operator), ['id', 'name', 'email'])
})

test('bad filters: a French 400 and nothing read', async (ctx) => {
  for (const [query, message] of [
    ['?from=2026-03-02&to=2026-03-01', journalMessages.badRange],
    ['?from=hier', null],
    ['?operatorId=abc', null],
    ['?page=0', null],
    ['?inconnu=1', null],
  ] as const) {
    const res = await journal(ctx, query)
    assert.is(res.statusCode, 400, `${query}: ${res.body}`)
    if (message) assert.is(res.json().message, message)
    else assert.match(res.json().message, /[«é]/)
  }
})

test('the CSV export: UTF-8 with a BOM, semicolons, French headers, the same filters, and no formula runs in Excel', async (ctx) => {
  await ctx.t.deps.db.transaction().execute((tx) =>
    recordJournal(tx, {
      actor: {},
      action: 'letter.added',
      orderId: 9,
      summary: '=HYPERLINK("http://exemple.invalid";"cliquez") « courrier »',
      at: parisMidnight('2026-04-01'),
    }),
  )
  const res = await ctx.t.app.inject({ method: 'GET', url: '/api/backoffice/journal.csv?orderId=9', headers: auth(ctx.admin) })
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.headers['content-type'], 'text/csv; charset=utf-8')
  assert.is(res.headers['content-disposition'], 'attachment; filename="journal.csv"')
  assert.match(String(res.headers['cache-control']), /no-store/)
  assert.equal([...res.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a BOM')
  const lines = res.body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
  assert.is(lines[0], JOURNAL_CSV_HEADERS.map((h) => `"${h}"`).join(';'))
  assert.is(lines.length, 2, 'the filter holds')
  assert.is(
    lines[1],
    '"2026-04-01 00:00:00";"serveur (OPERATOR_TOKEN ou commande)";"letter.added";"9";"\'=HYPERLINK(""http://exemple.invalid"";""cliquez"") « courrier »";"";""',
  )
  const refused = await ctx.t.app.inject({ method: 'GET', url: '/api/backoffice/journal.csv?page=2', headers: auth(ctx.admin) })
  assert.is(refused.statusCode, 400)
})

test('a Courrier operator reads no journal', async (ctx) => {
  const courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  for (const url of ['/api/backoffice/journal', '/api/backoffice/journal.csv']) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers: auth(courrier) })
    assert.is(res.statusCode, 403)
  }
})

test.run()
