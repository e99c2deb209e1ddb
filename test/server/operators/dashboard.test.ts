// The operators' dashboard: the queues of each role, their counts, the oldest item's age and its target; the targets'
// arithmetic (48 h, 24 working hours, the working day after a request).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { QueueId } from '../../../server/contract/operators.ts'
import { addWorkingHours, endOfDay, endOfNextWorkingDay, QUEUES, queueState } from '../../../server/routes/operators/dashboard.ts'
import { addConformiteOperator, call, operatorLogin, TEST_OPERATOR_TOKEN } from '../../util/server.ts'
import { demoContext, sampleFor, send, TERMINATION_DATE, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext & { courrier: string; conformite: string }
interface Queue {
  id: string
  count: number
  oldestAt: string | null
  oldestAgeMinutes: number | null
  target: string | null
  dueAt: string | null
  late: boolean
}

const board = async (ctx: Ctx, token: string) => {
  const res = await ctx.t.app.inject({ method: 'GET', url: '/api/backoffice/dashboard', headers: { authorization: `Bearer ${token}` } })
  assert.is(res.statusCode, 200, res.body)
  return res.json() as { at: string; queues: Queue[] }
}
const queue = async (ctx: Ctx, id: string) => (await board(ctx, ctx.admin)).queues.find((q) => q.id === id)!

const test = suite<Ctx>('the dashboard')
test.before(async (ctx) => {
  await demoContext(ctx, undefined, { messages: true })
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  await addConformiteOperator(ctx.t)
  ctx.conformite = await operatorLogin(ctx.t, 'conformite@example.com')
})
test.after((ctx) => ctx.t?.close())

test('each operator sees the queues of their roles; an administrator every one', async (ctx) => {
  const ids = async (token: string) => (await board(ctx, token)).queues.map((q) => q.id)
  assert.equal(await ids(ctx.admin), ['numerisation', 'justificatifs', 'messages', 'reexpeditions', 'resiliations'])
  assert.equal(await ids(ctx.courrier), ['numerisation', 'reexpeditions'])
  assert.equal(await ids(ctx.conformite), ['justificatifs', 'messages', 'resiliations'])
  assert.is(
    (await ctx.t.app.inject({ method: 'GET', url: '/api/backoffice/dashboard', headers: { apitoken: ctx.camille } })).statusCode,
    401,
  )
})

test('the demo’s queues: the Boulangerie’s Kbis filed yesterday, one forwarding request, no problem, no termination; the samples’ scans and requests', async (ctx) => {
  const kbis = await queue(ctx, 'justificatifs')
  assert.is(kbis.count, 1)
  assert.is(kbis.target, '48 h')
  const filed = await ctx.t.deps.db
    .selectFrom('contracts')
    .select('kbis_filed_at')
    .where('id', '=', ctx.ids.contract)
    .executeTakeFirstOrThrow()
  assert.is(kbis.oldestAt, new Date(filed.kbis_filed_at!).toISOString())
  assert.is(kbis.dueAt, new Date(new Date(filed.kbis_filed_at!).getTime() + 48 * 3_600_000).toISOString())
  assert.is(kbis.late, Date.parse(kbis.dueAt!) < ctx.t.clock.now().getTime())
  assert.ok(kbis.oldestAgeMinutes! > 0)
  const forwarding = await queue(ctx, 'reexpeditions')
  // The demo's one, and the route samples' own (test/util/server-samples.ts, the mail room's order).
  assert.is(forwarding.count, 1 + ctx.ids.mailRoom.pendingForwarding.length)
  assert.is(forwarding.target, 'le jour ouvré suivant la demande')
  assert.is(forwarding.dueAt, endOfNextWorkingDay(new Date(forwarding.oldestAt!)).toISOString())
  const scans = await queue(ctx, 'numerisation')
  const waitingScans = await ctx.t.deps.db
    .selectFrom('mail_scans')
    .select(['uploaded_at'])
    .where('state', '=', 'waiting')
    .orderBy('uploaded_at')
    .execute()
  assert.ok(waitingScans.length > 0, 'the samples’ scans wait')
  assert.is(scans.count, waitingScans.length)
  assert.is(scans.target, 'publiés le jour même')
  assert.is(scans.oldestAt, new Date(waitingScans[0]!.uploaded_at).toISOString())
  assert.is(scans.dueAt, endOfDay(new Date(scans.oldestAt!)).toISOString())
  // The route samples' own (test/util/server-samples.ts): open conversations waiting for an answer, requests not answered.
  const compliance = ctx.ids.messages!
  const messages = await queue(ctx, 'messages')
  assert.is(messages.count, 1 + compliance.conversationsToClose.length, 'the open ones, never the closed ones')
  assert.is(messages.dueAt, addWorkingHours(new Date(messages.oldestAt!), 24).toISOString())
  const terminations = await queue(ctx, 'resiliations')
  assert.is(terminations.count, compliance.terminationsToAccept.length + compliance.terminationsToContact.length)
  assert.equal([terminations.target, terminations.dueAt, terminations.late], [null, null, false], 'no target: never late')
})

test('an item comes in, grows late past its target, and leaves the queue when handled', async (ctx) => {
  const sent = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}:send-problem`, {
    message: 'Un colis attendu n’apparaît pas.',
  })
  assert.is(sent.statusCode, 200, sent.body)
  const before = await queue(ctx, 'messages')
  const compliance = ctx.ids.messages!
  const waitingBefore = 1 + compliance.conversationsToClose.length
  assert.is(before.count, waitingBefore + 1)
  assert.is(before.target, '24 h ouvrées')
  assert.is(before.late, false)
  assert.is(before.dueAt, addWorkingHours(new Date(before.oldestAt!), 24).toISOString())
  const asked = await send(ctx.t.app, 'terminationRequest', sampleFor('terminationRequest', ctx.ids, ctx.pdf), ctx.camille)
  assert.is(asked.statusCode, 200, asked.body)
  const terminations = await queue(ctx, 'resiliations')
  const requestsBefore = compliance.terminationsToAccept.length + compliance.terminationsToContact.length
  assert.is(terminations.count, requestsBefore + 1)
  assert.equal([terminations.target, terminations.dueAt, terminations.late], [null, null, false], 'no target: never late')

  // Answered by an operator, the conversation leaves the queue; the customer's next words bring it back.
  const [started] = await ctx.t.deps.db.selectFrom('conversations').select('id').orderBy('id', 'desc').limit(1).execute()
  const reply = (message: string) =>
    ctx.t.app.inject({
      method: 'POST',
      url: `/api/backoffice/conversations/${started!.id}/messages`,
      headers: { authorization: `Bearer ${ctx.conformite}` },
      payload: { message },
    })
  assert.is((await reply('Nous regardons.')).statusCode, 200)
  assert.is((await queue(ctx, 'messages')).count, waitingBefore)
  const answered = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/conversations/${started!.id}/messages`, { message: 'Merci.' })
  assert.is(answered.statusCode, 200, answered.body)
  assert.is((await queue(ctx, 'messages')).count, waitingBefore + 1)
  const [request] = await ctx.t.deps.db.selectFrom('termination_requests').select('id').where('order_id', '=', ctx.ids.order).execute()
  const accepted = await send(
    ctx.t.app,
    'operatorAcceptTermination',
    { params: { id: request!.id }, body: { endDate: TERMINATION_DATE } },
    ctx.conformite,
  )
  assert.is(accepted.statusCode, 200, accepted.body)
  assert.is((await queue(ctx, 'resiliations')).count, requestsBefore, 'accepted: answered')

  ctx.t.clock.advance(5 * 86_400_000)
  try {
    // Sessions end after 30 minutes idle: a new one, five days on.
    const later = await board(ctx, await operatorLogin(ctx.t))
    assert.is(later.at, ctx.t.clock.now().toISOString())
    const late = Object.fromEntries(later.queues.map((q) => [q.id, q.late]))
    assert.equal(late, { numerisation: true, justificatifs: true, messages: true, reexpeditions: true, resiliations: false })
    assert.ok(later.queues.find((q) => q.id === 'messages')!.oldestAgeMinutes! >= 5 * 24 * 60)
  } finally {
    ctx.t.clock.set(new Date())
  }

  const validated = await send(ctx.t.app, 'operatorKbisStatus', sampleFor('operatorKbisStatus', ctx.ids, ctx.pdf), TEST_OPERATOR_TOKEN)
  assert.is(validated.statusCode, 200, validated.body)
  const kbis = await queue(ctx, 'justificatifs')
  assert.equal([kbis.count, kbis.oldestAt, kbis.late], [0, null, false])
})

test('a new Kbis filed is counted from its filing, set by the database', async (ctx) => {
  const res = await send(ctx.t.app, 'updateContract', sampleFor('updateContract', ctx.ids, ctx.pdf), ctx.camille)
  assert.is(res.statusCode, 200, res.body)
  const kbis = await queue(ctx, 'justificatifs')
  assert.is(kbis.count, 1)
  assert.ok(Math.abs(Date.parse(kbis.oldestAt!) - Date.now()) < 60_000, 'filed just now')
  assert.is(kbis.late, false)
})

const rules = suite('the dashboard’s targets')

// Paris is UTC+1 in winter, UTC+2 in summer.
rules('24 working hours: Monday to Friday only, in Paris time', () => {
  // Friday 9 January 2026, 15:00 in Paris → Monday 12 January, 15:00.
  assert.is(addWorkingHours(new Date('2026-01-09T14:00:00Z'), 24).toISOString(), '2026-01-12T14:00:00.000Z')
  // Tuesday 10:00 → Wednesday 10:00.
  assert.is(addWorkingHours(new Date('2026-01-06T09:00:00Z'), 24).toISOString(), '2026-01-07T09:00:00.000Z')
  // Saturday 11:00 → the weekend does not count: Tuesday 00:00.
  assert.is(addWorkingHours(new Date('2026-01-10T10:00:00Z'), 24).toISOString(), '2026-01-12T23:00:00.000Z')
  // Across the clocks going forward (Sunday 29 March 2026): Friday 27 March 12:00 → Monday 30 March 12:00 (summer time).
  assert.is(addWorkingHours(new Date('2026-03-27T11:00:00Z'), 24).toISOString(), '2026-03-30T10:00:00.000Z')
})

rules('a forwarding request is due by the end of the next working day; a scan by the end of its own', () => {
  // Friday 9 January 2026 → the end of Monday 12 January (Paris midnight = 23:00 UTC).
  assert.is(endOfNextWorkingDay(new Date('2026-01-09T10:00:00Z')).toISOString(), '2026-01-12T23:00:00.000Z')
  // Wednesday → the end of Thursday.
  assert.is(endOfNextWorkingDay(new Date('2026-01-07T10:00:00Z')).toISOString(), '2026-01-08T23:00:00.000Z')
  // 23:30 in Paris on a summer Tuesday is already Tuesday's last half hour: due by the end of Wednesday.
  assert.is(endOfNextWorkingDay(new Date('2026-07-07T21:30:00Z')).toISOString(), '2026-07-08T22:00:00.000Z')
  assert.is(endOfDay(new Date('2026-07-07T21:30:00Z')).toISOString(), '2026-07-07T22:00:00.000Z')
})

rules('the queue list: one entry per queue of the contract, each owned by a role', async () => {
  const ids = QUEUES.map((q) => q.id)
  assert.is(new Set(ids).size, ids.length)
  const known = (QueueId.anyOf as { const: string }[]).map((s) => s.const)
  for (const q of QUEUES) {
    assert.ok(known.includes(q.id), q.id)
    assert.ok(q.roles.length > 0, q.id)
    assert.match(q.path, /^\/operateur\/[a-z]+$/)
  }
  // A queue without a target is never late; an empty one has nothing to be late.
  const fixed = { ...QUEUES[0]!, waiting: async () => ({ count: 0, oldest: null }) }
  const empty = await queueState(undefined as never, fixed, new Date())
  assert.equal([empty.count, empty.oldestAt, empty.dueAt, empty.late], [0, null, null, false])
})

test.run()
rules.run()
