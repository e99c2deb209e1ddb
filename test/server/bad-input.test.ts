// Bad bodies, query strings and ids on every route: a 4xx with a French message, never a 5xx (property-based).
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LightMyRequestResponse } from 'fastify'
import { routes, type RouteDef, type RouteName } from '../../server/contract/routes.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../server/http/json-body.ts'
import { buildTestApp, login, type TestApp } from '../util/server.ts'
import { operatorLogin, TEST_OPERATOR_TOKEN } from '../util/server.ts'
import { demoIds, sampleFor, sampleHeaders, send, tinyPdf, tokenFor, urlOf, type DemoIds, type Sample } from '../util/server-samples.ts'

interface Ctx {
  t: TestApp
  ids: DemoIds
  camille: string
  kbis: Buffer
  /** operators: the demo administrator's back-office session. */
  admin: string
}

const entries = Object.entries(routes) as [RouteName, RouteDef][]
const withJsonBody = entries.filter(([, r]) => r.schema.body && r.kind !== 'multipart')
const french = /[éèàêâçùô’]|\b(le|la|les|du|de|des|doit|est|être|identifiants|introuvable|veuillez|trop|aucune?)\b/i

function assertClientError(res: LightMyRequestResponse, what: string) {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`)
  if (res.statusCode >= 400) {
    const body = res.json()
    assert.type(body.message, 'string', what)
    assert.ok(french.test(body.message), `${what}: not French: ${body.message}`)
    assert.is(body.statusCode, res.statusCode)
    // The API's own codes: no framework's name (FST_ERR_…) in an answer.
    if (body.code !== undefined) assert.match(body.code, /^[A-Z][A-Z_]+$/, what)
    assert.not.match(String(body.code ?? ''), /^FST_/, `${what}: ${body.code}`)
  }
}

const headersFor = (route: RouteDef, token: string, operatorToken: string): Record<string, string> =>
  route.auth === 'none'
    ? {}
    : route.auth === 'operatorSession'
      ? { authorization: `Bearer ${operatorToken}` }
      : route.auth === 'operator'
        ? { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` }
        : route.auth === 'bearer'
          ? { authorization: `Bearer ${token}` }
          : { apitoken: token }

const setup = async (ctx: Ctx) => {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db, { compliance: true, messages: true })
  ctx.camille = await login(ctx.t.app)
  ctx.admin = await operatorLogin(ctx.t)
  ctx.kbis = await tinyPdf()
}

const bodies = suite<Ctx>('bad JSON bodies')
bodies.before(setup)
bodies.after((ctx) => ctx.t?.close())

for (const [name, route] of withJsonBody) {
  bodies(`${route.method} ${route.path}: invalid JSON, empty body, wrong content type`, async (ctx) => {
    const url = urlOf(name, sampleFor(name, ctx.ids, ctx.kbis))
    const headers = headersFor(route, ctx.camille, ctx.admin)
    for (const [payload, type] of [
      ['{"oups": ', 'application/json'],
      ['', 'application/json'],
      ['[1,2]', 'application/json'],
      ['"texte"', 'application/json'],
      ['nom=valeur', 'text/plain'],
      ['<a/>', 'application/xml'],
    ]) {
      const res = await ctx.t.app.inject({ method: route.method, url, headers: { ...headers, 'content-type': type! }, payload })
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${name} ${JSON.stringify(payload)}: ${res.statusCode}`)
      assertClientError(res, `${name} ${JSON.stringify(payload)}`)
    }
  })

  bodies(`${route.method} ${route.path}: each field missing, of the wrong type, or huge`, async (ctx) => {
    const sample = sampleFor(name, ctx.ids, ctx.kbis)
    const valid = sample.body as Record<string, unknown>
    const required: string[] = (route.schema.body as { required?: string[] }).required ?? []
    for (const field of Object.keys(valid)) {
      const { [field]: _, ...without } = valid
      const missing = await send(ctx.t.app, name, { ...sample, body: without }, tokenFor(name, ctx.camille, ctx.admin))
      if (required.includes(field)) {
        assert.is(missing.statusCode, 400, `${name} without ${field}: ${missing.body}`)
        assert.match(missing.json().message, field, 'the message names the field')
      }
      assertClientError(missing, `${name} without ${field}`)
      for (const wrong of [{ nested: true }, [1], true, -1, 'x'.repeat(100_000)]) {
        const res = await send(ctx.t.app, name, { ...sample, body: { ...valid, [field]: wrong } }, tokenFor(name, ctx.camille, ctx.admin))
        assertClientError(res, `${name} ${field}=${JSON.stringify(wrong).slice(0, 20)}`)
      }
    }
    // Never ignored: a misspelt field (orderID for orderId) would otherwise act as if absent (pay every order's invoices).
    const extra = await send(ctx.t.app, name, { ...sample, body: { ...valid, champInconnu: 1 } }, tokenFor(name, ctx.camille, ctx.admin))
    assert.is(extra.statusCode, 400, `${name} with an unknown field: ${extra.body}`)
    assert.match(extra.json().message, 'champInconnu')
  })
}

bodies('a body without a file is refused past 256 KB, before it is parsed; a file still fits', async (ctx) => {
  const small = withJsonBody.filter(
    ([, route]) =>
      !Object.values((route.schema.body as { properties: Record<string, { maxLength?: number }> }).properties).some(
        (p) => (p.maxLength ?? 0) > 1_000_000,
      ),
  )
  assert.ok(small.length > 30)
  for (const [name] of small) {
    const sample = sampleFor(name, ctx.ids, ctx.kbis)
    // Past the limit whatever it holds: a long text, or JSON nested 200 000 levels deep.
    for (const payload of [
      JSON.stringify({ ...(sample.body as object), note: 'x'.repeat(300 * 1024) }),
      '['.repeat(200_000) + ']'.repeat(200_000),
    ]) {
      const res = await send(
        ctx.t.app,
        name,
        { ...sample, body: payload, headers: { ...sample.headers, 'content-type': 'application/json' } },
        tokenFor(name, ctx.camille, ctx.admin),
      )
      assert.is(res.statusCode, 413, `${name}: ${res.body}`)
      assert.is(res.json().message, 'Le corps de la requête est trop long (256 Ko au plus).')
      assert.is(res.json().code, 'BODY_TOO_LARGE')
    }
  }
  const kbis = await send(
    ctx.t.app,
    'updateContract',
    {
      params: { id: ctx.ids.contract },
      body: { kbis: `data:application/pdf;base64,${Buffer.concat([ctx.kbis, Buffer.alloc(400 * 1024, 0x20)]).toString('base64')}` },
    },
    ctx.camille,
  )
  assert.ok(kbis.statusCode !== 413, kbis.body)
})

bodies(
  "a file route's body nested deeper than 32 levels is refused before it is parsed (parsing 2 MB of it held the event loop ~1.4 s, 12 MB ~10 s)",
  async (ctx) => {
    const withFile = withJsonBody.filter(([, route]) =>
      Object.values((route.schema.body as { properties: Record<string, { maxLength?: number }> }).properties).some(
        (p) => (p.maxLength ?? 0) > 1_000_000,
      ),
    )
    assert.equal(
      withFile.map(([name]) => name).sort(),
      ['operatorAddDocument', 'operatorAddInvoice', 'updateContract', 'mailRoomUploadScan', 'mailRoomRegisterPackage'].sort(),
      'the routes that take a file as a data URL',
    )
    for (const [name] of withFile) {
      const sample = sampleFor(name, ctx.ids, ctx.kbis)
      const res = await send(
        ctx.t.app,
        name,
        {
          ...sample,
          body: '['.repeat(1_000_000) + ']'.repeat(1_000_000),
          headers: { ...sample.headers, 'content-type': 'application/json' },
        },
        tokenFor(name, ctx.camille, ctx.admin),
      )
      assert.equal(
        [res.statusCode, res.json().message, res.json().code],
        [400, tooDeepMessage, 'JSON_TOO_DEEP'],
        `${name}: ${res.body.slice(0, 200)}`,
      )
    }
    const kbis = await send(
      ctx.t.app,
      'updateContract',
      { params: { id: ctx.ids.contract }, body: { kbis: `data:application/pdf;base64,${ctx.kbis.toString('base64')}` } },
      ctx.camille,
    )
    assert.is(kbis.statusCode, 200, `a file still goes through: ${kbis.body}`)
  },
)

bodies('the depth check reads JSON as JSON: brackets and escaped quotes inside strings are text', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
  assert.is(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH), false)
  assert.is(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH), true)
  assert.is(nestsDeeperThan(JSON.stringify({ a: '['.repeat(100), b: '\\"{{{{', c: '"[[["' }), 2), false)
  assert.is(nestsDeeperThan(JSON.stringify({ a: '\\', b: [[[1]]] }), 2), true, 'a string ending with a backslash ends there')
  assert.is(nestsDeeperThan(JSON.stringify({ a: { b: { c: [1, { d: 'x' }] } } }), 5), false)
  assert.is(nestsDeeperThan(JSON.stringify({ a: { b: { c: [1, { d: 'x' }] } } }), 4), true, 'five levels')
  assert.is(nestsDeeperThan('{"a":"never closed [[[[', 2), false, 'an unterminated string is left to the parser')
})

bodies('a value outside a choice is told the values allowed', async (ctx) => {
  for (const [name, body, message] of [
    ['updateNotificationPreferences', { email: 'daily' }, 'Le champ « email » doit valoir « each », « digest » ou « none ».'],
    ['operatorKbisStatus', { status: 'valide' }, 'Le champ « status » doit valoir « validé ».'],
  ] as const) {
    const res = await send(ctx.t.app, name, { ...sampleFor(name, ctx.ids, ctx.kbis), body }, tokenFor(name, ctx.camille, ctx.admin))
    assert.is(res.statusCode, 400, res.body)
    assert.is(res.json().message, message)
  }
})

bodies('any JSON value as a body, on every route with a body', async (ctx) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...withJsonBody), fc.jsonValue({ maxDepth: 3 }), async ([name, route], value) => {
      const res = await ctx.t.app.inject({
        method: route.method,
        url: urlOf(name, sampleFor(name, ctx.ids, ctx.kbis)),
        headers: { ...headersFor(route, ctx.camille, ctx.admin), 'content-type': 'application/json' },
        payload: JSON.stringify(value),
      })
      assertClientError(res, `${name} ${JSON.stringify(value).slice(0, 80)}`)
    }),
    { numRuns: 300 },
  )
})

bodies('the valid body with one field replaced by any JSON value', async (ctx) => {
  const mutable = withJsonBody.filter(([name]) => Object.keys((sampleFor(name, ctx.ids, ctx.kbis).body as object) ?? {}).length > 0)
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...mutable), fc.nat(), fc.jsonValue({ maxDepth: 2 }), async ([name], index, value) => {
      const sample = sampleFor(name, ctx.ids, ctx.kbis)
      const body = { ...(sample.body as Record<string, unknown>) }
      const keys = Object.keys(body)
      body[keys[index % keys.length]!] = value
      assertClientError(
        await send(ctx.t.app, name, { ...sample, body }, tokenFor(name, ctx.camille, ctx.admin)),
        `${name} ${JSON.stringify(body).slice(0, 80)}`,
      )
    }),
    { numRuns: 300 },
  )
})

bodies.run()

const addresses = suite<Ctx>('bad ids and query strings')
addresses.before(setup)
addresses.after((ctx) => ctx.t?.close())

addresses('any string as a path parameter or query value', async (ctx) => {
  const parameterized = entries.filter(([name]) => {
    const s = sampleFor(name, ctx.ids, ctx.kbis)
    return Object.keys({ ...s.params, ...s.query }).length > 0
  })
  const odd = fc.oneof(fc.string(), fc.constantFrom('0', '-1', '1.5', '99999999999', '1e3', 'abc', '%00', '../..', ' 1'))
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...parameterized), odd, async ([name, route], value) => {
      const sample = sampleFor(name, ctx.ids, ctx.kbis)
      const params = Object.fromEntries(Object.keys(sample.params ?? {}).map((k) => [k, value]))
      const query = Object.fromEntries(Object.keys(sample.query ?? {}).map((k) => [k, value]))
      const res = await ctx.t.app.inject({
        method: route.method,
        url: urlOf(name, { params, query }),
        headers: { ...headersFor(route, ctx.camille, ctx.admin), ...sampleHeaders(sample) },
        ...(sample.body !== undefined ? { payload: sample.body as object } : sample.multipart ? { payload: sample.multipart.payload } : {}),
      })
      assertClientError(res, `${name} ${JSON.stringify(value)}`)
      // A search's words (`q` alone) may be anything a person types: « 0 » or « abc » is a search, not a bad id.
      const searchOnly = Object.keys(params).length === 0 && Object.keys(query).every((key) => key === 'q')
      if (!searchOnly && /^(abc|1\.5|-1|0|99999999999|1e3| 1)$/.test(value)) assert.ok(res.statusCode >= 400, `${name} accepted ${value}`)
    }),
    { numRuns: 300 },
  )
})

addresses('an unknown or misspelt query parameter is refused, never read as absent, on every route of the table', async (ctx) => {
  const withQuery = entries.filter(([, route]) => (route.schema as { querystring?: unknown }).querystring)
  assert.ok(withQuery.length >= 10)
  // A route that declares no query takes none (server/http/define-route.ts): `?id=17` is refused, not ignored.
  for (const [name, route] of entries) {
    const sample = sampleFor(name, ctx.ids, ctx.kbis)
    const extras = withQuery.some(([other]) => other === name) ? ['orderid', 'orderId[]', 'Year'] : ['id', 'orderId']
    for (const extra of extras) {
      const res = await send(
        ctx.t.app,
        name,
        { ...sample, query: { ...sample.query, [extra]: ctx.ids.order } },
        tokenFor(name, ctx.camille, ctx.admin),
      )
      assert.is(res.statusCode, 400, `${route.method} ${route.path} ?${extra}: ${res.statusCode} ${res.body}`)
      assert.match(res.json().message, extra)
      assertClientError(res, `${name} ?${extra}`)
    }
  }
})

addresses('DELETE users/me/sessions?id=17 answers 400 and signs nobody out', async (ctx) => {
  const other = await login(ctx.t.app)
  const res = await ctx.t.app.inject({
    method: 'DELETE',
    url: '/api-protected/users/me/sessions?id=17',
    headers: { apitoken: ctx.camille },
  })
  assert.is(res.statusCode, 400, res.body)
  assert.is(res.json().message, 'Le champ « id » n’est pas autorisé.')
  const still = await ctx.t.app.inject({ method: 'GET', url: '/api-protected/user/me', headers: { apitoken: other } })
  assert.is(still.statusCode, 200, 'the other device is still signed in')
})

addresses('HEAD never runs a GET of the API: no letter marked opened, no request recorded', async (ctx) => {
  const { db } = ctx.t.deps
  const traces = async () => [
    (await db.selectFrom('letter_history').select('id').execute()).length,
    (await db.selectFrom('orders').select('want_comptable_at').where('id', '=', ctx.ids.order).executeTakeFirstOrThrow()).want_comptable_at,
    ctx.t.mails.length,
  ]
  const before = await traces()
  for (const [name, route] of entries.filter(([, r]) => r.method === 'GET')) {
    const sample = sampleFor(name, ctx.ids, ctx.kbis)
    const res = await ctx.t.app.inject({
      method: 'HEAD',
      url: urlOf(name, sample),
      headers: { ...headersFor(route, ctx.camille, ctx.admin), ...sampleHeaders(sample) },
    })
    assert.is(res.statusCode, 404, `HEAD ${route.path}`)
  }
  assert.equal(await traces(), before)
})

addresses('unknown API paths answer a French JSON 404, never the SPA', async (ctx) => {
  for (const url of ['/api/nope', '/api-protected/nope', '/stripe/nope', '/api-protected/domiciliation-orders/abc:send-problem']) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })
    assert.is(res.statusCode, 404, url)
    assert.match(res.headers['content-type'] as string, 'application/json')
    assert.match(res.json().message, 'introuvable')
  }
})

addresses.run()

// Text that shows nothing: the same French 400 for spaces and for invisible characters only, nothing stored.
const blank = suite<Ctx & { invitation: string }>('blank text: spaces or invisible characters only')
blank.before(async (ctx) => {
  await setup(ctx)
  const invited = await ctx.t.app.inject({
    method: 'POST',
    url: `/api-protected/domiciliation-orders/${ctx.ids.order}/invite`,
    headers: { apitoken: ctx.camille },
    payload: { emails: ['vide@example.com'] },
  })
  assert.is(invited.statusCode, 200, invited.body)
  ctx.invitation = ctx.t.mails.at(-1)!.link!.split('/').pop()!
})
blank.after((ctx) => ctx.t?.close())

/** Spaces only answer the route's French 400; these, with nothing visible either, must answer the same. */
const invisibles = ['\u200b\u200b\u200b', '\u200c\u200d\u2060', '\ufeff\ufeff\ufeff', ' \u200b\u3164\u00a0', '\u00ad\u200e\u3000']
/** A line break is white space in free text; a single-line field refuses it for what it is (security.test.ts). */
const invisiblesOf = (field: string) => (field === 'message' ? [...invisibles, '\u00ad\u200e\n'] : invisibles)

interface BlankCase {
  name: RouteName
  fields: string[]
  sample?: (ctx: Ctx & { invitation: string }) => Partial<Sample>
  state: (ctx: Ctx) => Promise<unknown>
}
const rows =
  (table: 'folders' | 'mandataires' | 'packages' | 'documents' | 'letter_history' | 'users' | 'problem_reports' | 'termination_requests') =>
  async ({ t }: Ctx) =>
    (await t.deps.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id)
const blankCases: BlankCase[] = [
  { name: 'createFolder', fields: ['name'], state: rows('folders') },
  {
    name: 'updateFolder',
    fields: ['name'],
    state: ({ t, ids }) => t.deps.db.selectFrom('folders').selectAll().where('id', '=', ids.folder).executeTakeFirst(),
  },
  { name: 'addMandataire', fields: ['firstname', 'lastname'], state: rows('mandataires') },
  {
    name: 'createInvitationAccount',
    fields: ['firstname', 'lastname'],
    sample: ({ invitation }) => ({ params: { token: invitation } }),
    state: rows('users'),
  },
  {
    name: 'renamePasskey',
    fields: ['name'],
    state: ({ t, ids }) => t.deps.db.selectFrom('passkeys').selectAll().where('id', '=', ids.passkey).executeTakeFirst(),
  },
  {
    name: 'updateContract',
    fields: ['adressePostaleExpedition', 'codePostaleExpedition', 'villePostaleExpedition', 'paysPostaleExpedition'],
    sample: () => ({
      body: {
        adressePostaleExpedition: '3 place du Marché',
        codePostaleExpedition: '69002',
        villePostaleExpedition: 'Lyon',
        paysPostaleExpedition: 'France',
      },
    }),
    state: ({ t, ids }) => t.deps.db.selectFrom('contracts').selectAll().where('id', '=', ids.contract).executeTakeFirst(),
  },
  { name: 'operatorAddPackage', fields: ['carrier', 'sender'], state: rows('packages') },
  { name: 'operatorAddDocument', fields: ['sender'], state: rows('documents') },
  { name: 'operatorLetterForwarded', fields: ['address'], state: rows('letter_history') },
  { name: 'sendProblem', fields: ['message'], state: rows('problem_reports') },
  { name: 'terminationRequest', fields: ['reason'], state: rows('termination_requests') },
]

for (const { name, fields, sample: override, state } of blankCases) {
  blank(
    `${routes[name].method} ${routes[name].path}: ${fields.join(', ')} of invisible characters only, refused as spaces are`,
    async (ctx) => {
      const sample = { ...sampleFor(name, ctx.ids, ctx.kbis), ...override?.(ctx) }
      // The per-person hourly limits (a refused report is not one of the ten an hour); the per-address ones count every try.
      const limits = () => ctx.t.deps.db.selectFrom('rate_limits').selectAll().where('key', 'like', 'user:%').orderBy('key').execute()
      const before = [await state(ctx), await limits(), ctx.t.mails.length]
      for (const field of fields) {
        const answer = (value: string) =>
          send(ctx.t.app, name, { ...sample, body: { ...(sample.body as object), [field]: value } }, tokenFor(name, ctx.camille, ctx.admin))
        const spaces = await answer('   ')
        assert.is(spaces.statusCode, 400, `${field} of spaces: ${spaces.body}`)
        assertClientError(spaces, `${name} ${field} of spaces`)
        for (const value of invisiblesOf(field)) {
          const res = await answer(value)
          assert.equal([res.statusCode, res.json().message], [400, spaces.json().message], `${field}=${JSON.stringify(value)}: ${res.body}`)
        }
      }
      assert.equal([await state(ctx), await limits(), ctx.t.mails.length], before, 'nothing stored, counted nor e-mailed')
    },
  )
}

blank.run()
