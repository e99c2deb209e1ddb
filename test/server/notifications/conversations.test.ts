// Messages and « Mes échanges »: every « Signaler un problème » becomes a conversation of its order; operators (Conformité,
// Administrateur) answer, close and reopen it, each write journaled; the customers read and answer it in the portal, an
// answer reopening a closed one; a person sees the conversations of their orders only (a collaborator those of the
// orders shared with them), route by route.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { addConformiteOperator, call, operatorLogin } from '../../util/server.ts'
import { demoContext, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext & { conformite: string; courrier: string; started: number }

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
const journal = (ctx: Ctx, action: string) =>
  ctx.t.deps.db.selectFrom('journal').selectAll().where('action', '=', action).orderBy('id').execute()

const test = suite<Ctx>('a conversation, from the problem reported to its close')
test.before(async (ctx) => {
  await demoContext(ctx, undefined, { messages: true })
  ctx.courrier = await operatorLogin(ctx.t, 'courrier@example.com')
  await addConformiteOperator(ctx.t)
  ctx.conformite = await operatorLogin(ctx.t, 'conformite@example.com')
})
test.after((ctx) => ctx.t?.close())

test('« Signaler un problème » (the spec’s call, unchanged) starts a conversation the operators see first', async (ctx) => {
  const sent = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}:send-problem`, {
    message: '  La lettre de l’URSSAF est illisible.  ',
  })
  assert.equal(ok(sent), { message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' })
  const list = ok(await bo(ctx, ctx.conformite, 'GET', '/api/backoffice/conversations?status=open'))
  const mine = list.find((c: { lastMessage: string }) => c.lastMessage === 'La lettre de l’URSSAF est illisible.')
  assert.ok(mine, 'listed')
  ctx.started = mine.id
  assert.equal(
    [mine.orderId, mine.raisonSociale, mine.subject, mine.status, mine.messageCount],
    [ctx.ids.order, 'Boulangerie des Lilas SAS', 'Signaler un problème', 'open', 1],
  )
  assert.ok(mine.waitingSince, 'waits for the provider')
  // Open ones first, the one waiting longest first.
  const waits = list.map((c: { waitingSince: string | null }) => c.waitingSince ?? '9999')
  assert.equal(waits, [...waits].sort())
  const closed = ok(await bo(ctx, ctx.admin, 'GET', '/api/backoffice/conversations?status=closed'))
  assert.ok(closed.length > 0 && closed.every((c: { status: string }) => c.status === 'closed'))
  const all = ok(await bo(ctx, ctx.admin, 'GET', '/api/backoffice/conversations'))
  const firstClosed = all.findIndex((c: { status: string }) => c.status === 'closed')
  assert.ok(
    all.slice(firstClosed).every((c: { status: string }) => c.status === 'closed'),
    'open ones first',
  )
})

test('an answer: who wrote it, the customers e-mailed with the link, the bell, the journal; then the queue is clear', async (ctx) => {
  const mailsBefore = ctx.t.mails.length
  const blank = await bo(ctx, ctx.conformite, 'POST', `/api/backoffice/conversations/${ctx.started}/messages`, { message: ' \n ' })
  assert.is(blank.statusCode, 400)
  assert.is(blank.json().message, 'Écrivez votre réponse avant de l’envoyer.')
  const answered = ok(
    await bo(ctx, ctx.conformite, 'POST', `/api/backoffice/conversations/${ctx.started}/messages`, {
      message: 'Bonjour, nous la numérisons à nouveau aujourd’hui.',
    }),
  )
  assert.is(answered.messages.length, 2)
  assert.equal(answered.messages[0].author, { kind: 'customer', name: 'Camille Martin' })
  assert.equal(answered.messages[1].author, { kind: 'operator', name: 'Chloé Perrin' })
  assert.is(answered.waitingSince, null)
  const mails = ctx.t.mails.slice(mailsBefore)
  assert.equal(
    mails.map((m) => m.to),
    ['demo@example.com'],
    'the customer who wrote',
  )
  assert.match(mails[0]!.subject, 'Boulangerie des Lilas SAS')
  assert.match(mails[0]!.text, 'Bonjour, nous la numérisons à nouveau aujourd’hui.')
  assert.match(mails[0]!.text, `http://localhost:8080/mes-echanges/${ctx.started}`)
  const bell = ok(await call(ctx.t.app, ctx.julien, 'GET', '/api-protected/notifications')).notifications.find(
    (n: { kind: string }) => n.kind === 'message',
  )
  assert.equal(
    [bell.title, bell.link, bell.orderId],
    ['Nouvelle réponse', `/mes-echanges/${ctx.started}`, ctx.ids.order],
    'each person of the order',
  )
  const [row] = await journal(ctx, 'conversation.replied')
  assert.equal(
    [row!.order_id, row!.summary],
    [ctx.ids.order, 'Réponse de Chloé Perrin à « Signaler un problème » (Boulangerie des Lilas SAS)'],
  )
})

test('the customers read it in « Mes échanges »: the owner and the collaborator; a stranger never', async (ctx) => {
  for (const token of [ctx.camille, ctx.julien]) {
    const list = ok(await call(ctx.t.app, token, 'GET', '/api-protected/conversations'))
    const mine = list.find((c: { id: number }) => c.id === ctx.started)
    assert.equal([mine.lastAuthor, mine.status], ['operator', 'open'])
    const read = ok(await call(ctx.t.app, token, 'GET', `/api-protected/conversations/${ctx.started}`))
    assert.is(read.messages.at(-1).body, 'Bonjour, nous la numérisons à nouveau aujourd’hui.')
  }
  const list = ok(await call(ctx.t.app, ctx.sophie, 'GET', '/api-protected/conversations'))
  assert.not.ok(
    list.some((c: { orderId: number }) => c.orderId === ctx.ids.order),
    'none of the Boulangerie',
  )
  for (const [method, url, payload] of [
    ['GET', `/api-protected/conversations/${ctx.started}`, undefined],
    ['POST', `/api-protected/conversations/${ctx.started}/messages`, { message: 'Je ne devrais pas pouvoir écrire ici.' }],
    ['GET', `/api-protected/conversations?orderId=${ctx.ids.order}`, undefined],
    ['GET', '/api-protected/conversations/999999', undefined],
  ] as const) {
    const res = await call(ctx.t.app, ctx.sophie, method, url, payload)
    assert.is(res.statusCode, 404, `${method} ${url}`)
  }
  const written = await ctx.t.deps.db.selectFrom('conversation_messages').select('id').where('conversation_id', '=', ctx.started).execute()
  assert.is(written.length, 2, 'nothing written by the stranger')
  // A collaborator sees only the orders shared with him: none of Camille's own others.
  const julien = ok(await call(ctx.t.app, ctx.julien, 'GET', '/api-protected/conversations'))
  const julienOrders = new Set(julien.map((c: { orderId: number }) => c.orderId))
  assert.not.ok(julienOrders.has(ctx.atelier))
})

test('close, reopen; an operator answers an open one only; a customer’s answer reopens a closed one', async (ctx) => {
  const closed = ok(await bo(ctx, ctx.conformite, 'POST', `/api/backoffice/conversations/${ctx.started}:close`))
  assert.equal([closed.status, closed.closedBy], ['closed', 'Chloé Perrin'])
  const again = await bo(ctx, ctx.conformite, 'POST', `/api/backoffice/conversations/${ctx.started}:close`)
  assert.equal([again.statusCode, again.json().message], [409, 'Cette conversation est déjà close.'])
  const refused = await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}/messages`, {
    message: 'Encore une chose.',
  })
  assert.equal([refused.statusCode, refused.json().message], [409, 'Cette conversation est close : rouvrez-la avant d’y répondre.'])
  const reopened = ok(await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}:reopen`))
  assert.equal([reopened.status, reopened.closedAt], ['open', null])
  ok(await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}:close`))
  assert.equal(
    (await journal(ctx, 'conversation.closed')).map((r) => r.summary),
    [
      '« Signaler un problème » (Boulangerie des Lilas SAS) close par Chloé Perrin',
      '« Signaler un problème » (Boulangerie des Lilas SAS) close par Inès Garnier',
    ],
  )
  assert.is((await journal(ctx, 'conversation.reopened')).length, 1)

  // « Mes échanges »: the open ones first, even when a closed one had the latest word.
  ok(
    await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/domiciliation-orders/${ctx.ids.order}:send-problem`, {
      message: 'Un colis manque aussi.',
    }),
  )
  ok(await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}:reopen`))
  ok(await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}/messages`, { message: 'C’est réglé.' }))
  ok(await bo(ctx, ctx.admin, 'POST', `/api/backoffice/conversations/${ctx.started}:close`))
  const mine = ok(await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/conversations')) as { id: number; status: string }[]
  const statuses = mine.map((c) => c.status)
  assert.equal(
    statuses,
    [...statuses].sort((a, b) => Number(b === 'open') - Number(a === 'open')),
    'open ones first',
  )
  assert.ok(statuses.includes('open') && mine.at(-1)!.status === 'closed')
  const firstClosed = statuses.indexOf('closed')
  assert.is(mine[firstClosed]!.id, ctx.started, 'the latest closed one first among the closed')

  const blank = await call(ctx.t.app, ctx.julien, 'POST', `/api-protected/conversations/${ctx.started}/messages`, { message: '   ' })
  assert.equal([blank.statusCode, blank.json().message], [400, 'Écrivez votre message avant de l’envoyer.'])
  const answer = ok(
    await call(ctx.t.app, ctx.julien, 'POST', `/api-protected/conversations/${ctx.started}/messages`, { message: 'Reçue, merci !' }),
  )
  assert.equal([answer.status, answer.closedAt, answer.lastAuthor], ['open', null, 'customer'])
  assert.equal(answer.messages.at(-1).author, { kind: 'customer', name: 'Julien Moreau' })
  const seen = ok(await bo(ctx, ctx.conformite, 'GET', `/api/backoffice/conversations/${ctx.started}`))
  assert.ok(seen.waitingSince, 'waits for the provider again')
})

test('a Courrier operator reaches none of it', async (ctx) => {
  for (const [method, url] of [
    ['GET', '/api/backoffice/conversations'],
    ['GET', `/api/backoffice/conversations/${ctx.started}`],
    ['POST', `/api/backoffice/conversations/${ctx.started}:reopen`],
  ] as const) {
    const res = await bo(ctx, ctx.courrier, method, url)
    assert.is(res.statusCode, 403, url)
  }
  const unknown = await bo(ctx, ctx.admin, 'GET', '/api/backoffice/conversations/999999')
  assert.equal([unknown.statusCode, unknown.json().message], [404, 'Conversation introuvable.'])
})

test.run()
