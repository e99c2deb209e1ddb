// The access matrix, built from the route table itself so that a new route cannot escape it.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes, type RouteDef, type RouteName } from '../../server/contract/routes.ts'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { OPERATOR_FAILURES } from '../../server/http/define-route.ts'
import { messages } from '../../server/http/errors.ts'
import { addConformiteOperator, buildTestApp, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from '../util/server.ts'
import { OPERATOR_ROLES, type OperatorRole } from '../../server/contract/route-def.ts'
import { demoContext, sampleFor, send, urlOf, type DemoContext, type DemoIds, type Sample } from '../util/server-samples.ts'

type Ctx = DemoContext

const entries = Object.entries(routes) as [RouteName, RouteDef][]
const isProtected = ([, r]: [RouteName, RouteDef]) => r.auth !== 'none'
/** The customers' and machines' routes; the back office's (auth 'operatorSession') have their own matrix below. */
const isCustomerOrMachine = ([, r]: [RouteName, RouteDef]) => r.auth !== 'none' && r.auth !== 'operatorSession'
const idFields = ['orderId', 'id', 'documentIds', 'invoiceIds', 'contractId', 'domiciliationOrderId']
/** Whether a route's sample names one of Camille's resources (an order, letter, folder, share, invoice…). */
const namesResource = (sample: Sample) =>
  Object.keys(sample.params ?? {}).length > 0 ||
  Object.keys(sample.query ?? {}).some((k) => idFields.includes(k)) ||
  Object.keys((sample.body as Record<string, unknown> | undefined) ?? {}).some((k) => idFields.includes(k)) ||
  sample.multipart !== undefined

const setup = async (ctx: Ctx) => void (await demoContext(ctx, undefined, { compliance: true, messages: true }))

const unauthenticated = suite<Ctx>('protected routes without a valid token: 401 in French')
unauthenticated.before(setup)
unauthenticated.after((ctx) => ctx.t?.close())

unauthenticated('the table has protected routes of every kind', () => {
  const kinds = new Set(entries.filter(isProtected).map(([, r]) => r.auth))
  assert.equal([...kinds].sort(), ['apiToken', 'bearer', 'operator', 'operatorSession'])
})

for (const [name, route] of entries.filter(isCustomerOrMachine)) {
  unauthenticated(`${route.method} ${route.path}`, async (ctx) => {
    const operator = route.auth === 'operator'
    // Each machine route sends two wrong tokens from the same address: counted afresh for each route, so that the table's
    // routes stay under OPERATOR_FAILURES together (its 429 has a test of its own below).
    if (operator) await ctx.t.deps.db.deleteFrom('rate_limits').where('key', 'like', 'operator-failures:%').execute()
    const sample = sampleFor(name, ctx.ids, ctx.pdf)
    const none = await send(ctx.t.app, name, sample, null)
    assert.is(none.statusCode, 401, none.body)
    assert.is(none.headers['cache-control'], 'no-store', 'no answer of the API is cached')
    assert.equal(none.json().message, operator ? messages.operatorNoToken : messages.noToken)
    const wrong = await send(ctx.t.app, name, sample, 'jeton-inconnu-0123456789')
    assert.is(wrong.statusCode, 401, wrong.body)
    assert.equal(wrong.json().message, operator ? messages.operatorBadToken : messages.badToken)
    if (!operator) return
    // A customer's apiToken opens no operator route, in either header.
    const customerBearer = await send(ctx.t.app, name, sample, ctx.camille)
    assert.is(customerBearer.statusCode, 401, customerBearer.body)
    const customerHeader = await ctx.t.app.inject({
      method: route.method,
      url: urlOf(name, sample),
      headers: { apitoken: ctx.camille },
      ...(sample.body ? { payload: sample.body as object } : {}),
    })
    assert.is(customerHeader.statusCode, 401, customerHeader.body)
    assert.equal(customerHeader.json().message, messages.operatorNoToken)
  })
}

unauthenticated('every answer read signed in is kept by no cache (the token travels in a header caches do not know)', async (ctx) => {
  // The live stream never ends (its own answer says no-store: notifications.test.ts).
  for (const [name, route] of entries.filter(
    ([, r]) => r.method === 'GET' && (r.auth === 'apiToken' || r.auth === 'bearer') && r.kind !== 'stream',
  )) {
    const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), ctx.camille)
    assert.ok(res.statusCode < 500, `${name}: ${res.statusCode}`)
    assert.match(String(res.headers['cache-control']), /no-store/, `${route.path}: ${res.headers['cache-control']}`)
  }
})

unauthenticated('a token in the wrong header is no token', async (ctx) => {
  const bearerOnApiTokenRoute = await ctx.t.app.inject({
    method: 'GET',
    url: '/api-protected/user/me',
    headers: { authorization: `Bearer ${ctx.camille}` },
  })
  assert.is(bearerOnApiTokenRoute.statusCode, 401)
  const apiTokenOnBearerRoute = await ctx.t.app.inject({
    method: 'GET',
    url: '/api-protected/contracts',
    headers: { apitoken: ctx.camille },
  })
  assert.is(apiTokenOnBearerRoute.statusCode, 401)
})

unauthenticated('a token expires', async (ctx) => {
  const token = await login(ctx.t.app)
  assert.is((await send(ctx.t.app, 'currentUser', {}, token)).statusCode, 200)
  ctx.t.clock.advance((ctx.t.deps.config.tokenTtlDays + 1) * 86_400_000)
  const expired = await send(ctx.t.app, 'currentUser', {}, token)
  ctx.t.clock.set(new Date())
  assert.is(expired.statusCode, 401)
  assert.equal(expired.json().message, messages.badToken)
})

unauthenticated('tokens are stored hashed', async (ctx) => {
  const stored = await ctx.t.deps.db.selectFrom('api_tokens').select('token_hash').execute()
  assert.ok(stored.length > 0)
  assert.not.ok(stored.some((row) => row.token_hash === ctx.camille))
})

unauthenticated.run()

const backOffice = suite<Ctx & { roleTokens: () => Promise<Record<OperatorRole, string>> }>(
  'the back office: every operator route × each role × a customer × anonymous; an operator session opens no other route',
)
backOffice.before(async (ctx) => {
  await demoContext(ctx, undefined, { compliance: true, messages: true })
  // One operator per role: the demo's administrator and Courrier, and a Conformité one made here (the samples' spare
  // operator is changed and deactivated by them).
  await addConformiteOperator(ctx.t)
  // Fresh sessions for each route: a sample may end one (sign-out).
  ctx.roleTokens = async () => ({
    admin: await operatorLogin(ctx.t),
    courrier: await operatorLogin(ctx.t, 'courrier@example.com'),
    conformite: await operatorLogin(ctx.t, 'conformite@example.com'),
  })
})
backOffice.after((ctx) => ctx.t?.close())

/**
 * Routes on the signed-in operator's own things, whose one static sample the handler refuses once the access check let the
 * role in: a registration answer that no challenge of theirs matches (the ceremony itself: operators/passkeys.test.ts),
 * and the administrator's key for the others (each removes only their own). The handler's code proves the route was open.
 */
const refusedPastAccess: Partial<Record<RouteName, string>> = {
  operatorRegisterPasskey: 'PASSKEY_REFUSED',
  operatorDeletePasskey: 'NOT_FOUND',
}

for (const [name, route] of entries.filter(([, r]) => r.auth === 'operatorSession')) {
  backOffice(`${route.method} ${route.path} (${route.roles ? route.roles.join(', ') : 'every operator'})`, async (ctx) => {
    const sample = sampleFor(name, ctx.ids, ctx.pdf)
    const none = await send(ctx.t.app, name, sample, null)
    assert.is(none.statusCode, 401, none.body)
    assert.is(none.json().message, messages.operatorSessionNone)
    assert.is(none.headers['cache-control'], 'no-store')
    for (const [who, token] of [
      ['an unknown token', 'jeton-inconnu-0123456789'],
      ["a customer's session", ctx.camille],
      ["the machines' OPERATOR_TOKEN", TEST_OPERATOR_TOKEN],
    ]) {
      const res = await send(ctx.t.app, name, sample, token!)
      assert.is(res.statusCode, 401, `${who}: ${res.body}`)
      assert.is(res.json().message, messages.operatorSessionInvalid, who)
    }
    const customerHeader = await ctx.t.app.inject({
      method: route.method,
      url: urlOf(name, sample),
      headers: { apitoken: ctx.camille },
      ...(sample.body ? { payload: sample.body as object } : {}),
    })
    assert.is(customerHeader.statusCode, 401, 'a customer token in its own header')
    const tokens = await ctx.roleTokens()
    for (const role of OPERATOR_ROLES) {
      const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), tokens[role])
      if (!route.roles || route.roles.includes(role)) {
        const past = refusedPastAccess[name]
        assert.ok(res.statusCode < 400 || (past !== undefined && res.json().code === past), `${role}: ${res.statusCode} ${res.body}`)
      } else {
        assert.is(res.statusCode, 403, `${role}: ${res.body}`)
        assert.equal(res.json(), { message: messages.operatorRoleRequired(route.roles), statusCode: 403, code: 'FORBIDDEN_ROLE' })
        assert.match(res.json().message, /^Cette action est réservée aux opérateurs ayant le rôle « /)
      }
    }
  })
}

backOffice("an administrator's session opens no customer route and no machine route", async (ctx) => {
  const admin = await operatorLogin(ctx.t)
  for (const [name, route] of entries.filter(isCustomerOrMachine)) {
    const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), admin)
    assert.is(res.statusCode, 401, `${name}: ${res.body}`)
    assert.is(res.json().message, route.auth === 'operator' ? messages.operatorBadToken : messages.badToken, name)
  }
  assert.is((await send(ctx.t.app, 'operatorMe', {}, admin)).statusCode, 200, 'still signed in to the back office')
})

backOffice.run()

const disabled = suite<{ t: TestApp; key: string }>('the operator API without OPERATOR_TOKEN: API keys only')
disabled.before(async (ctx) => {
  ctx.t = await buildTestApp({ config: { operatorToken: undefined } })
  const admin = await operatorLogin(ctx.t)
  const made = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/backoffice/api-keys',
    payload: { name: 'Scanner salle 2' },
    headers: { authorization: `Bearer ${admin}` },
  })
  ctx.key = made.json().key
})
disabled.after((ctx) => ctx.t?.close())

for (const [name, route] of entries.filter(([, r]) => r.auth === 'operator')) {
  disabled(`${route.method} ${route.path}: 401 for anything but an API key`, async (ctx) => {
    for (const token of [TEST_OPERATOR_TOKEN, null]) {
      const res = await send(ctx.t.app, name, sampleFor(name, { order: 1, contractKbisTag: '"x"' } as DemoIds, Buffer.from('')), token)
      assert.is(res.statusCode, 401)
      assert.equal(res.json().message, token ? messages.operatorBadToken : messages.operatorNoToken)
    }
  })
}

disabled('an API key opens the operator API', async (ctx) => {
  const res = await send(ctx.t.app, 'operatorOrders', {}, ctx.key)
  assert.is(res.statusCode, 200, res.body)
})

disabled.run()

const guessing = suite<{ t: TestApp; lines: string[] }>(
  'guessing the operator token: 20 wrong ones per address and 15 minutes, then 429 (free)',
)
guessing.before(async (ctx) => {
  ctx.lines = []
  const stream = new Writable({
    write(chunk, _, done) {
      ctx.lines.push(String(chunk))
      done()
    },
  })
  ctx.t = await buildTestApp({ seed: false, logger: pino({ level: 'warn' }, stream) })
})
guessing.after((ctx) => ctx.t?.close())

guessing(
  'the 21st guess from one address is refused without its token compared, even the right one; another address is not held; the window ends',
  async (ctx) => {
    const list = (token: string, ip: string) =>
      ctx.t.app.inject({
        method: 'GET',
        url: '/api/operator/domiciliation-orders',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${token}` },
      })
    assert.is((await list(TEST_OPERATOR_TOKEN, '203.0.113.7')).statusCode, 200)
    for (let i = 0; i < OPERATOR_FAILURES.max; i++) assert.is((await list(`devine-${i}-0123456789abcdef`, '203.0.113.7')).statusCode, 401)
    const held = await list(TEST_OPERATOR_TOKEN, '203.0.113.7')
    assert.is(held.statusCode, 429, held.body)
    assert.is(held.json().message, messages.operatorLocked(15))
    assert.is(held.json().message, 'Trop de jetons opérateur invalides depuis cette adresse : réessayez dans 15 minutes.')
    assert.is((await list(TEST_OPERATOR_TOKEN, '203.0.113.8')).statusCode, 200, 'another address')
    const warnings = ctx.lines.filter((l) => l.includes('jeton opérateur refusé'))
    assert.is(warnings.length, OPERATOR_FAILURES.max, 'each wrong token logged')
    assert.ok(
      warnings.every((l) => l.includes('203.0.113.7') && !l.includes('devine-')),
      'the address, never the token',
    )
    ctx.t.clock.advance(OPERATOR_FAILURES.windowMs + 1000)
    try {
      assert.is((await list(TEST_OPERATOR_TOKEN, '203.0.113.7')).statusCode, 200)
    } finally {
      ctx.t.clock.set(new Date())
    }
  },
)

guessing.run()

const strangers = suite<Ctx>("another customer's ids: 404")
strangers.before(setup)
strangers.after((ctx) => ctx.t?.close())

// Operators reach every order by design; their routes are covered by the 401 matrix above.
for (const [name, route] of entries.filter(([, r]) => r.auth === 'apiToken' || r.auth === 'bearer')) {
  strangers(`${route.method} ${route.path}`, async (ctx) => {
    const sample = sampleFor(name, ctx.ids, ctx.pdf)
    if (!namesResource(sample)) {
      // A route about the caller only (their profile, their lists): nothing of Camille's to reach.
      assert.not.ok(route.access === 'owner' && route.schema.params, `${name} names an order but its sample does not`)
      return
    }
    const res = await send(ctx.t.app, name, sample, ctx.sophie)
    assert.is(res.statusCode, 404, `${name}: ${res.body}`)
    assert.match(res.json().message, /introuvable|trouvée/)
  })
}

strangers('the calls without a token reveal nothing to a stranger either', async (ctx) => {
  const wrongKey = await send(
    ctx.t.app,
    'subscriptionInformations',
    { params: { orderId: ctx.ids.order }, query: { key: 'f'.repeat(40) } },
    null,
  )
  assert.is(wrongKey.statusCode, 404)
  const unknownOrder = await send(
    ctx.t.app,
    'subscriptionInformations',
    { params: { orderId: 999999 }, query: { key: ctx.ids.subscriptionKey } },
    null,
  )
  assert.is(unknownOrder.statusCode, 404)
  assert.equal(unknownOrder.json().message, wrongKey.json().message, 'same answer: no oracle for order ids')
  const unrequested = await send(ctx.t.app, 'addOptionSubscription', sampleFor('addOptionSubscription', ctx.ids, ctx.pdf), null)
  assert.is(unrequested.statusCode, 404, 'no option was requested by the owner')
})

strangers.run()

const collaborators = suite<Ctx>('a collaborator of a shared order')
collaborators.before(setup)
collaborators.after((ctx) => ctx.t?.close())

for (const [name, route] of entries.filter(([, r]) => r.access === 'owner')) {
  collaborators(`cannot ${route.method} ${route.path}`, async (ctx) => {
    const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), ctx.julien)
    assert.ok(res.statusCode === 403 || res.statusCode === 404, `${name}: ${res.statusCode} ${res.body}`)
    if (res.statusCode === 403) assert.equal(res.json().message, messages.ownerOnly)
  })
}

for (const [name, route] of entries.filter(([, r]) => r.access === 'member' && r.method === 'GET')) {
  collaborators(`can ${route.method} ${route.path}`, async (ctx) => {
    const res = await send(ctx.t.app, name, sampleFor(name, ctx.ids, ctx.pdf), ctx.julien)
    assert.is(res.statusCode, 200, `${name}: ${res.body}`)
  })
}

collaborators('sees the shared order flagged isShareOrder, and its letters', async (ctx) => {
  const orders = (await send(ctx.t.app, 'myOrders', {}, ctx.julien)).json()
  const shared = orders.find((o: { id: number }) => o.id === ctx.ids.order)
  assert.is(shared.isShareOrder, true)
  const letters = (await send(ctx.t.app, 'documents', { query: { orderId: ctx.ids.order } }, ctx.julien)).json()
  assert.ok(letters.length >= 30)
})

collaborators('loses access when the owner removes the share', async (ctx) => {
  const julienShare = await ctx.t.deps.db
    .selectFrom('shares')
    .select('id')
    .where('order_id', '=', ctx.ids.order)
    .where('email', '=', 'associe@example.com')
    .executeTakeFirstOrThrow()
  assert.is((await send(ctx.t.app, 'deleteShare', { params: { id: ctx.ids.order, shareId: julienShare.id } }, ctx.camille)).statusCode, 200)
  const res = await send(ctx.t.app, 'documents', { query: { orderId: ctx.ids.order } }, ctx.julien)
  assert.is(res.statusCode, 404)
})

collaborators.run()

// Writes that store something are limited per user, in the route table (perUserHourly) or, where a call takes several
// hits or its limit has its own words, in its handler. A new write must choose: the list below says why the others
// need none.
const limitedInHandler: readonly RouteName[] = [
  'updateEmail',
  'updatePassword',
  'sendProblem',
  'sendInvite',
  'invite',
  'sendDocuments',
  'sendDextInvoices',
  'updateContract',
  'uploadIdentity',
  // the password typed again, counted with the password change's tries
  'closeAccount',
]
const storesNothingNew: Record<string, string> = {
  acceptInvitation: 'a single-use link, used once',
  signOutOtherSessions: 'removes rows',
  signOut: 'removes a row',
  deletePasskey: 'removes a row',
  deleteShare: 'removes a row',
  leaveSharedOrder: 'removes a row',
  deleteMandataire: 'removes a row',
  deleteFolder: 'removes a row',
  removeCourierRequest: 'removes a row',
  renamePasskey: 'changes a name in place',
  updateDocument: 'changes a letter in place',
  updateFolder: 'changes a name in place',
  setQonto: 'one flag of the order',
  setShine: 'one flag of the order',
  payUnpaidInvoice: 'pays what is due, once',
  addOption: 'one subscription item per option, refused twice',
  updatePaymentMethod: 'replaces the card in place',
  updateCreditCardWeb: 'replaces the card in place',
  readNotification: 'one flag',
  readAllNotifications: 'flags',
  updateNotificationPreferences: 'one row per order, in place',
}

const perUser = suite<Ctx>('writes that store something: limited per user, a French 429 past the limit and nothing stored')
perUser.before(setup)
perUser.after((ctx) => ctx.t?.close())

perUser('every signed-in write has a per-user limit, or a reason in this file why it needs none', () => {
  const writes = entries.filter(([, r]) => r.method !== 'GET' && (r.auth === 'apiToken' || r.auth === 'bearer'))
  const undecided = writes
    .filter(([name, r]) => !r.perUserHourly && !limitedInHandler.includes(name) && !(name in storesNothingNew))
    .map(([name]) => name)
  assert.equal(undecided, [], 'writes with neither a limit nor a reason')
  assert.ok(entries.filter(([, r]) => r.perUserHourly).length >= 8)
})

for (const [name, route] of entries.filter(([, r]) => r.perUserHourly)) {
  perUser(
    `${route.method} ${route.path}: ${route.perUserHourly} successes an hour per user, then a 429; a refused call counts nothing`,
    async (ctx) => {
      const sample = sampleFor(name, ctx.ids, ctx.pdf)
      const camille = await ctx.t.deps.db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
      const key = `user:${camille.id}:route:${name}`
      const counted = async () =>
        (await ctx.t.deps.db.selectFrom('rate_limits').select('count').where('key', '=', key).executeTakeFirst())?.count ?? 0
      const first = await send(ctx.t.app, name, sample, ctx.camille)
      assert.ok(first.statusCode < 500 && first.statusCode !== 429, `${name}: ${first.statusCode} ${first.body}`)
      assert.is(await counted(), first.statusCode < 400 ? 1 : 0, 'a success counts once, a refusal not at all')
      // The hour's successes used up.
      const resetAt = new Date(ctx.t.clock.now().getTime() + 3_600_000)
      await ctx.t.deps.db
        .insertInto('rate_limits')
        .values({ key, count: route.perUserHourly!, reset_at: resetAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({ count: route.perUserHourly!, reset_at: resetAt }))
        .execute()
      const rows = async () =>
        Promise.all([
          ctx.t.deps.db
            .selectFrom('certificates')
            .select(({ fn }) => fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow(),
          ctx.t.deps.db
            .selectFrom('webauthn_challenges')
            .select(({ fn }) => fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow(),
        ])
      const before = await rows()
      const refused = await send(ctx.t.app, name, sample, ctx.camille)
      assert.is(refused.statusCode, 429, refused.body)
      assert.equal(refused.json(), { message: messages.tooManyWrites, statusCode: 429, code: 'RATE_LIMITED' })
      assert.equal(await rows(), before, 'nothing stored')
      assert.is(await counted(), route.perUserHourly, 'a refusal is not counted')
      // Another person is not held back.
      if (route.access === undefined) assert.not.equal((await send(ctx.t.app, name, sample, ctx.sophie)).statusCode, 429)
    },
  )
}

perUser.run()
