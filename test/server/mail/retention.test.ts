// The mail retention that runs by itself, on a fixed clock: the notice 30 days before, once; the letters and their files
// deleted on the day, once, journaled; a crash or a mail server down resumes; other orders, invoices untouched.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { claimNotice } from '../../../server/db/repositories/mail-retention.ts'
import { addMinutes } from '../../../server/lib/time.ts'
import { addMonthsToDay, NOTICE_HOLD_MINUTES, runMailRetention } from '../../../server/services/retention.ts'
import { buildTestApp, type TestApp } from '../../util/server.ts'

interface Ctx {
  t: TestApp
  /** Sophie's Épicerie Solène SARL (terminated in these tests) and Camille's Boulangerie (active). */
  epicerie: number
  boulangerie: number
}

/** Noon in Paris on a day (10:00 UTC: the same day there, summer or winter). */
const at = (day: string) => new Date(`${day}T10:00:00Z`)
const TERMINATED = '2026-03-15'

async function setup(ctx: Ctx) {
  ctx.t = await buildTestApp()
  const { db } = ctx.t.deps
  const orderId = async (name: string) =>
    (await db.selectFrom('orders').select('id').where('raison_sociale', '=', name).executeTakeFirstOrThrow()).id
  ctx.epicerie = await orderId('Épicerie Solène SARL')
  ctx.boulangerie = await orderId('Boulangerie des Lilas SAS')
  const sophie = (await db.selectFrom('users').select('id').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()).id
  await db
    .insertInto('termination_requests')
    .values({ order_id: ctx.epicerie, user_id: sophie, reason: 'Cessation d’activité', date: TERMINATED, comment: null })
    .execute()
}

const run = (ctx: Ctx, day: string) => {
  ctx.t.clock.set(at(day))
  return runMailRetention(ctx.t.deps)
}
const letters = (ctx: Ctx, orderId: number) =>
  ctx.t.deps.db.selectFrom('documents').select(['id', 'file_key']).where('order_id', '=', orderId).execute()
const journal = (ctx: Ctx, action: string) =>
  ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', action).where('order_id', '=', ctx.epicerie).execute()
const notices = (ctx: Ctx) => ctx.t.mails.filter((m) => m.subject.includes('Épicerie Solène SARL sera supprimé'))

const days = suite<Ctx>('retention days')

days('a day moved by months keeps its date, or takes the shorter month’s last', () => {
  assert.is(addMonthsToDay('2026-03-15', 12), '2027-03-15')
  assert.is(addMonthsToDay('2026-01-31', 1), '2026-02-28')
  assert.is(addMonthsToDay('2027-04-14', -12), '2026-04-14')
  assert.is(addMonthsToDay('2026-12-31', -10), '2026-02-28')
})

days.run()

const retention = suite<Ctx>('letters of an order terminated 12 months ago: a notice 30 days before, then deleted, files included')
retention.before(setup)
retention.after((ctx) => ctx.t?.close())

retention('nothing before the notice’s day', async (ctx) => {
  assert.equal(await run(ctx, '2026-04-01'), { noticed: [], purged: [], failures: [] })
  assert.equal(await run(ctx, '2027-02-12'), { noticed: [], purged: [], failures: [] })
  assert.is(notices(ctx).length, 0)
})

retention('30 days before: one notice to the owner, offering « Mes données »; journaled; a second run sends nothing', async (ctx) => {
  const result = await run(ctx, '2027-02-13')
  assert.equal(result, { noticed: [ctx.epicerie], purged: [], failures: [] })
  const [mail] = notices(ctx)
  assert.is(mail!.to, 'solo@example.com')
  assert.is(mail!.subject, 'Domicilium : le courrier de Épicerie Solène SARL sera supprimé le 15 mars 2027')
  assert.match(mail!.text, 'a pris fin le 15 mars 2026')
  assert.match(mail!.text, '« Mes données »')
  assert.match(mail!.text, 'http://localhost:8080/informations-personnelles')
  const [row] = await journal(ctx, 'mail.retentionNotice')
  assert.equal([row?.system_actor, row?.operator_id, row?.api_key_id], ['retention', null, null])
  assert.equal(await run(ctx, '2027-02-13'), { noticed: [], purged: [], failures: [] })
  assert.equal(await run(ctx, '2027-03-14'), { noticed: [], purged: [], failures: [] }, 'the day before: nothing yet')
  assert.is(notices(ctx).length, 1)
  assert.is((await journal(ctx, 'mail.retentionNotice')).length, 1)
  assert.ok((await letters(ctx, ctx.epicerie)).length > 0)
})

retention('on the day: every letter and its files go, once, journaled; other orders and the invoices stay', async (ctx) => {
  const { db, storage } = ctx.t.deps
  const held = await letters(ctx, ctx.epicerie)
  assert.ok(held.length >= 5)
  for (const letter of held) assert.ok(await storage.get(letter.file_key), 'the demo letter’s file is there')
  const boulangerie = (await letters(ctx, ctx.boulangerie)).length
  const invoices = await db.selectFrom('invoices').select('id').where('order_id', '=', ctx.epicerie).execute()

  const result = await run(ctx, '2027-03-15')
  assert.equal(result, { noticed: [], purged: [{ orderId: ctx.epicerie, letters: held.length }], failures: [] })
  assert.is((await letters(ctx, ctx.epicerie)).length, 0)
  for (const letter of held) assert.is(await storage.get(letter.file_key), null, letter.file_key)
  assert.is(
    (await db.selectFrom('notifications').select('id').where('order_id', '=', ctx.epicerie).where('kind', '=', 'letter').execute()).length,
    0,
    'no bell left pointing at them',
  )
  assert.is((await letters(ctx, ctx.boulangerie)).length, boulangerie, 'an active order keeps its mail')
  assert.equal(await db.selectFrom('invoices').select('id').where('order_id', '=', ctx.epicerie).execute(), invoices)
  const purges = await journal(ctx, 'mail.retentionPurge')
  assert.is(purges.length, 1)
  assert.is(purges[0]!.system_actor, 'retention')
  assert.match(purges[0]!.summary, `${held.length} courriers supprimés`)

  assert.equal(await run(ctx, '2027-03-16'), { noticed: [], purged: [], failures: [] }, 'twice deletes once')
  assert.is((await journal(ctx, 'mail.retentionPurge')).length, 1)
  assert.is(notices(ctx).length, 1, 'and sends nothing more')
})

retention('a letter that arrives afterwards goes at the next run', async (ctx) => {
  const { db } = ctx.t.deps
  await db
    .insertInto('documents')
    .values({
      order_id: ctx.epicerie,
      sender: 'URSSAF',
      kind: 'administratif',
      received_at: at('2027-03-20'),
      pages: 1,
      file_key: 'documents/2027-03/retard.pdf',
    })
    .execute()
  const result = await run(ctx, '2027-03-21')
  assert.equal(result.purged, [{ orderId: ctx.epicerie, letters: 1 }])
  assert.is((await journal(ctx, 'mail.retentionPurge')).length, 2)
})

retention.run()

const resume = suite<Ctx>('a run that fails or crashes half-way: the next one resumes')
resume.before(setup)
resume.after((ctx) => ctx.t?.close())

resume('a mail server down: nothing recorded, the next run sends the notice', async (ctx) => {
  const mailer = ctx.t.deps.mailer
  ctx.t.deps.mailer = {
    send: async () => {
      throw new Error('SMTP indisponible')
    },
  }
  try {
    assert.equal(await run(ctx, '2027-02-20'), { noticed: [], purged: [], failures: [ctx.epicerie] })
  } finally {
    ctx.t.deps.mailer = mailer
  }
  assert.is((await journal(ctx, 'mail.retentionNotice')).length, 0)
  assert.equal((await run(ctx, '2027-02-21')).noticed, [ctx.epicerie])
  assert.is(notices(ctx).length, 1)
  // Late by a week: the letters still get their 30 days from the notice, not the 15 March.
  assert.match(notices(ctx)[0]!.subject, 'supprimé le 23 mars 2027')
  assert.equal((await run(ctx, '2027-03-22')).purged, [])
  assert.equal((await run(ctx, '2027-03-23')).purged, [{ orderId: ctx.epicerie, letters: 5 }])
})

resume('a notice claimed by a run that crashed is sent again once its hold runs out, once', async (ctx) => {
  const { db } = ctx.t.deps
  const boulangerieOwner = (await db.selectFrom('orders').select('owner_id').where('id', '=', ctx.boulangerie).executeTakeFirstOrThrow())
    .owner_id
  await db
    .insertInto('termination_requests')
    .values({ order_id: ctx.boulangerie, user_id: boulangerieOwner, reason: 'Déménagement', date: '2026-04-30', comment: null })
    .execute()
  const now = at('2027-04-01')
  // A run claimed it, then died before sending.
  assert.ok(await claimNotice(db, ctx.boulangerie, now, addMinutes(now, NOTICE_HOLD_MINUTES)))
  ctx.t.clock.set(addMinutes(now, 1))
  assert.equal((await runMailRetention(ctx.t.deps)).noticed, [], 'held by the crashed run')
  ctx.t.clock.set(addMinutes(now, NOTICE_HOLD_MINUTES + 1))
  assert.equal((await runMailRetention(ctx.t.deps)).noticed, [ctx.boulangerie])
  assert.equal((await runMailRetention(ctx.t.deps)).noticed, [])
  const told = ctx.t.mails.filter((m) => m.subject.includes('Boulangerie des Lilas SAS sera supprimé')).map((m) => m.to)
  // The owner and the collaborator who accepted (Julien); an invitation still pending is nobody.
  assert.equal(told.sort(), ['associe@example.com', 'demo@example.com'])
})

resume.run()
