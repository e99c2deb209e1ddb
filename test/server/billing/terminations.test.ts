// Résiliations: the termination requests, waiting first; « Accepter » for an end date (the subscription cancelled at that
// date at the payment provider, the owner e-mailed, the portal told « résiliée au … »; past it, no certificate and no
// forwarding); « Contacter le client », a conversation the customer reads in « Mes échanges ». Every write journaled.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { call, operatorLogin } from '../../util/server.ts'
import { demoContext, sampleFor, send, TERMINATION_DATE, type DemoContext } from '../../util/server-samples.ts'
import { parisDay } from '../../../server/lib/time.ts'
import { endOfParisDay } from '../../../server/routes/billing/backoffice-terminations.ts'

type Ctx = DemoContext & { courrier: string; request: number }

function bo(ctx: Ctx, token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return ctx.t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  })
}
const ok = (res: LightMyRequestResponse) => {
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}
const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

const test = suite<Ctx>('Résiliations')
test.before(async (ctx) => {
  await demoContext(ctx, undefined, { messages: true })
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  const asked = await send(ctx.t.app, 'terminationRequest', sampleFor('terminationRequest', ctx.ids, ctx.pdf), ctx.camille)
  assert.is(asked.statusCode, 200, asked.body)
  ctx.request = asked.json().id
})
test.after((ctx) => ctx.t?.close())

test('the requests, waiting ones first, the oldest first, with who asked and why', async (ctx) => {
  const list = ok(await bo(ctx, ctx.admin, 'GET', '/api/backoffice/terminations'))
  const mine = list.find((r: { id: number }) => r.id === ctx.request)
  assert.equal(
    { ...mine, createdAt: undefined },
    {
      id: ctx.request,
      orderId: ctx.ids.order,
      raisonSociale: 'Boulangerie des Lilas SAS',
      requestedBy: 'Camille Martin',
      reason:
        sampleFor('terminationRequest', ctx.ids, ctx.pdf).body &&
        (sampleFor('terminationRequest', ctx.ids, ctx.pdf).body as { reason: string }).reason,
      comment: mine.comment,
      requestedDate: TERMINATION_DATE,
      createdAt: undefined,
      state: 'en attente',
      endDate: null,
      acceptedAt: null,
      acceptedBy: null,
      conversationId: null,
    },
  )
  const created = list.filter((r: { state: string }) => r.state === 'en attente').map((r: { createdAt: string }) => r.createdAt)
  assert.equal(created, [...created].sort(), 'oldest first')
  const courrier = await bo(ctx, ctx.courrier, 'GET', '/api/backoffice/terminations')
  assert.is(courrier.statusCode, 403)
})

test('« Accepter »: an end date today or later, within two years; the subscription ends then; once', async (ctx) => {
  const today = parisDay(ctx.t.clock.now())
  const accept = (endDate: string) => bo(ctx, ctx.admin, 'POST', `/api/backoffice/terminations/${ctx.request}:accept`, { endDate })
  const past = await accept(dayAfter(today, -1))
  assert.equal(
    [past.statusCode, past.json().message],
    [400, 'La date de fin ne peut pas être dans le passé : choisissez aujourd’hui ou une date ultérieure.'],
  )
  const far = await accept(dayAfter(TERMINATION_DATE, 800))
  assert.is(far.statusCode, 400)
  assert.match(far.json().message, 'La date de fin ne peut pas dépasser le ')
  const mailsBefore = ctx.t.mails.length
  const done = ok(await accept(today))
  assert.equal([done.state, done.endDate, done.acceptedBy], ['acceptée', today, 'Inès Garnier'])
  const mail = ctx.t.mails.slice(mailsBefore).find((m) => m.to === 'demo@example.com')!
  assert.match(mail.subject, 'Résiliation acceptée : Boulangerie des Lilas SAS')
  assert.match(mail.text, 'prend fin le ')
  const again = await accept(today)
  assert.is(again.statusCode, 409)
  assert.match(again.json().message, 'déjà acceptée')
  const [row] = await ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', 'termination.accepted').execute()
  assert.equal([row!.order_id, row!.operator_id !== null], [ctx.ids.order, true])
  assert.match(row!.summary, 'Résiliation de Boulangerie des Lilas SAS acceptée au ')

  // The test provider, as Stripe's cancel_at: active until the end of that day in Paris, cancelled after.
  const order = await ctx.t.deps.db.selectFrom('orders').select('subscription_id').where('id', '=', ctx.ids.order).executeTakeFirstOrThrow()
  const stored = await ctx.t.deps.db
    .selectFrom('test_subscriptions')
    .select('cancel_at')
    .where('id', '=', order.subscription_id!)
    .executeTakeFirstOrThrow()
  assert.is(Number(stored.cancel_at), endOfParisDay(today).getTime() / 1000)
  assert.is((await ctx.t.deps.payments.getSubscription(order.subscription_id!))!.status, 'active')

  // The portal's call tells the end date.
  const status = ok(await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/domiciliation-orders/${ctx.ids.order}/termination-request`))
  assert.is(status.request.endDate, today)
})

test('past the end date: the subscription cancelled, no certificate, no forwarding', async (ctx) => {
  const certificate = () => call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}/certificates`)
  assert.is((await certificate()).statusCode, 200, 'still on its last day')
  ctx.t.clock.advance(2 * 86_400_000)
  try {
    const camille = await (await import('../../util/server.ts')).login(ctx.t.app)
    const refused = await call(ctx.t.app, camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}/certificates`)
    assert.equal(
      [refused.statusCode, refused.json().message],
      [409, 'Cette domiciliation est résiliée : aucune attestation ne peut plus être délivrée.'],
    )
    const order = await ctx.t.deps.db
      .selectFrom('orders')
      .select('subscription_id')
      .where('id', '=', ctx.ids.order)
      .executeTakeFirstOrThrow()
    assert.is((await ctx.t.deps.payments.getSubscription(order.subscription_id!))!.status, 'canceled')
    const courrier = await operatorLogin(ctx.t, 'courrier@example.com')
    const shipped = await bo(ctx, courrier, 'POST', `/api/backoffice/forwarding-requests/${ctx.ids.pendingCourierRequest}:shipped`, {
      carrier: 'La Poste',
      trackingNumber: '6A12345678901',
    })
    assert.is(shipped.statusCode, 409, shipped.body)
    assert.match(
      shipped.json().message,
      /^La domiciliation Boulangerie des Lilas SAS est résiliée depuis le .* : son courrier n’est plus réexpédié\./,
    )
    const request = await ctx.t.deps.db
      .selectFrom('courier_requests')
      .select('status')
      .where('id', '=', ctx.ids.pendingCourierRequest)
      .executeTakeFirstOrThrow()
    assert.is(request.status, 'en attente', 'nothing changed')
  } finally {
    // Back by as much: the operators' codes already used stay in the past.
    ctx.t.clock.advance(-2 * 86_400_000)
  }
})

test('« Contacter le client »: a conversation the owner reads in « Mes échanges », e-mailed; once', async (ctx) => {
  const [other] = ctx.ids.messages!.terminationsToContact
  const admin = ctx.admin
  const blank = await bo(ctx, admin, 'POST', `/api/backoffice/terminations/${other}:contact`, { message: '  ' })
  assert.equal([blank.statusCode, blank.json().message], [400, 'Écrivez votre message au client avant de l’envoyer.'])
  const mailsBefore = ctx.t.mails.length
  const done = ok(
    await bo(ctx, admin, 'POST', `/api/backoffice/terminations/${other}:contact`, { message: 'Pouvez-vous confirmer la date ?' }),
  )
  assert.ok(done.conversationId)
  assert.is(done.state, 'en attente')
  const mail = ctx.t.mails.slice(mailsBefore)[0]!
  assert.equal([mail.to, mail.link], ['resiliations@example.com', `http://localhost:8080/mes-echanges/${done.conversationId}`])
  const owner = await (await import('../../util/server.ts')).login(ctx.t.app, 'resiliations@example.com')
  const read = ok(await call(ctx.t.app, owner, 'GET', `/api-protected/conversations/${done.conversationId}`))
  assert.equal([read.subject, read.messages.length, read.messages[0].author.kind], ['Votre demande de résiliation', 1, 'operator'])
  const conversation = ok(await bo(ctx, admin, 'GET', `/api/backoffice/conversations/${done.conversationId}`))
  assert.is(conversation.waitingSince, null, 'the provider wrote last: nothing waits for it')
  const again = await bo(ctx, admin, 'POST', `/api/backoffice/terminations/${other}:contact`, { message: 'Encore ?' })
  assert.equal(
    [again.statusCode, again.json().message],
    [409, 'Une conversation est déjà ouverte au sujet de cette résiliation : répondez-y dans Messages.'],
  )
  const rows = await ctx.t.deps.db.selectFrom('journal').select('summary').where('action', '=', 'termination.contacted').execute()
  assert.is(rows.length, 1)
})

test.run()
