// The security promises of docs/SECURITY.md, in process (app.inject, or a real socket where the
// HTTP parser itself answers). Crash and shutdown of a real server: test/server/lifecycle.test.ts.
import { connect as connectSocket } from 'node:net'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { crc32 } from 'node:zlib'
import fc from 'fast-check'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { PDFDocument, PDFName, PDFString } from 'pdf-lib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes, type RouteDef, type RouteName } from '../../server/contract/routes.ts'
import { STORED_FILE_COLUMNS } from '../../server/db/repositories/stored-files.ts'
import { SWEEP_GRACE_MS, sweepStorage } from '../../server/services/storage-sweep.ts'
import { PERMISSIONS_POLICY } from '../../server/http/security-headers.ts'
import { buildTestApp, callBearer, login, operatorLogin, TEST_OPERATOR_TOKEN, type TestApp } from '../util/server.ts'
import { demoIds, multipart, sampleFor, sampleHeaders, tinyPdf, tinyPng, type DemoIds, type Sample } from '../util/server-samples.ts'

const french = /[éèàêâçùô’]|\b(le|la|les|du|de|des|doit|est|être|identifiants|introuvable|veuillez|trop|aucune?)\b/i

/** The security headers of an ordinary answer: every other answer must carry the same. */
async function referenceHeaders(t: TestApp): Promise<Record<string, string>> {
  const res = await t.app.inject({ method: 'GET', url: '/health' })
  const notSecurity = new Set([
    'content-type',
    'content-length',
    'date',
    'connection',
    'keep-alive',
    'cache-control',
    'vary',
    'content-encoding',
  ])
  const headers = Object.fromEntries(
    Object.entries(res.headers)
      .filter(([name]) => !notSecurity.has(name))
      .map(([name, value]) => [name, String(value)]),
  )
  assert.is(headers['x-content-type-options'], 'nosniff', 'the reference answer has the security headers')
  assert.is(headers['permissions-policy'], PERMISSIONS_POLICY, 'and the Permissions-Policy')
  return headers
}

function assertSecurityHeaders(headers: Record<string, unknown>, reference: Record<string, string>, what: string) {
  for (const [name, value] of Object.entries(reference)) assert.is(String(headers[name]), value, `${what}: ${name}`)
}

function assertFrench4xx(res: LightMyRequestResponse, status: number, what: string) {
  assert.is(res.statusCode, status, `${what}: ${res.body}`)
  assert.match(res.headers['content-type'] as string, 'application/json', what)
  const body = res.json()
  assert.ok(french.test(body.message), `${what}: not French: ${body.message}`)
  assert.is(body.statusCode, status)
}

/** One raw HTTP/1.1 exchange, for what never reaches Fastify's router (the Node HTTP parser answers). */
function rawRequest(port: number, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
    socket.end(request)
  })
}

interface EdgeCtx {
  t: TestApp
  camille: string
  reference: Record<string, string>
  port: number
}

const edges = suite<EdgeCtx>('edges of the HTTP layer: French answers with the security headers')
edges.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.reference = await referenceHeaders(ctx.t)
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' })
  ctx.port = (ctx.t.app.server.address() as { port: number }).port
})
edges.after((ctx) => ctx.t?.close())

edges('a malformed URL (bad percent-encoding) is a French 400', async (ctx) => {
  for (const url of [
    '/api-protected/documents/%C0%AE',
    '/api-protected/documents/%E0%A4%A',
    '/api-protected/documents/%ED%A0%80/file',
    '/api/%FF',
  ]) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers: { apitoken: ctx.camille } })
    assertFrench4xx(res, 400, url)
    assert.match(res.json().message, 'adresse')
    assertSecurityHeaders(res.headers, ctx.reference, url)
  }
})

edges('an id over 100 characters is a French 414', async (ctx) => {
  const res = await ctx.t.app.inject({
    method: 'GET',
    url: `/api-protected/documents/${'1'.repeat(101)}/file`,
    headers: { apitoken: ctx.camille },
  })
  assertFrench4xx(res, 414, 'long id')
  assertSecurityHeaders(res.headers, ctx.reference, 'long id')
})

edges('a request line over 16 KB is a French 431, straight from the HTTP parser', async (ctx) => {
  const res = await rawRequest(
    ctx.port,
    `GET /api-protected/documents?orderId=${'1'.repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
  )
  assert.is(res.status, 431)
  assert.match(res.headers['content-type']!, 'application/json')
  const body = JSON.parse(res.body)
  assert.ok(french.test(body.message), body.message)
  assert.is(body.statusCode, 431)
  assertSecurityHeaders(res.headers, ctx.reference, '431')
})

edges('a request the HTTP parser cannot read is a French 400', async (ctx) => {
  const res = await rawRequest(ctx.port, 'CECI N’EST PAS HTTP\r\n\r\n')
  assert.is(res.status, 400)
  assert.ok(french.test(JSON.parse(res.body).message))
  assertSecurityHeaders(res.headers, ctx.reference, 'garbage')
})

edges('Swagger UI (/api/docs) answers with a strict Content-Security-Policy', async (ctx) => {
  for (const url of ['/api/docs/', '/api/docs/static/swagger-initializer.js']) {
    const res = await ctx.t.app.inject({ method: 'GET', url })
    assert.is(res.statusCode, 200, url)
    const csp = String(res.headers['content-security-policy'] ?? '')
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"])
      assert.match(csp, directive, url)
    assert.not.match(/script-src[^;]*/.exec(csp)![0], 'unsafe', 'no inline script')
    assertSecurityHeaders(res.headers, ctx.reference, url)
  }
})

edges.run()

interface BuildModule {
  buildConfig(): { brandName: string; apiBaseUrl: string }
  buildOptions(config: { brandName: string; apiBaseUrl: string }, mode: { dev: boolean }): { sourcemap?: unknown }
}

const maps = suite<{ dist: string }>('source maps')
maps.before(async (ctx) => {
  // Two built dist/ directories, a production one and a development one, both holding a map.
  ctx.dist = await mkdtemp(join(tmpdir(), 'portail-maps-'))
  for (const mode of ['production', 'development']) {
    await mkdir(join(ctx.dist, mode, 'assets'), { recursive: true })
    await writeFile(join(ctx.dist, mode, 'index.html'), '<!doctype html><title>x</title>')
    await writeFile(join(ctx.dist, mode, 'build-stamp.json'), JSON.stringify({ mode }))
    await writeFile(join(ctx.dist, mode, 'assets', 'main-ABC123.js'), 'console.log(1)')
    await writeFile(join(ctx.dist, mode, 'assets', 'main-ABC123.js.map'), '{"version":3,"sourcesContent":["secret"]}')
  }
})
maps.after((ctx) => rm(ctx.dist, { recursive: true, force: true }))

maps('a production build emits none; a development build links them', async () => {
  const { buildConfig, buildOptions } = (await import(
    pathToFileURL(join(import.meta.dirname, '../../esbuild.config.mjs')).href
  )) as BuildModule
  assert.not.ok(buildOptions(buildConfig(), { dev: false }).sourcemap)
  assert.is(buildOptions(buildConfig(), { dev: true }).sourcemap, 'linked')
})

maps('a map found in a production dist/ is not served; a development one is', async ({ dist }) => {
  // One app at a time: two test apps migrating side by side trip over each other on PostgreSQL.
  const prod = await buildTestApp({ seed: false, config: { distDir: join(dist, 'production') } })
  try {
    const map = await prod.app.inject({ method: 'GET', url: '/assets/main-ABC123.js.map' })
    assert.is(map.statusCode, 404)
    assert.not.match(map.body, 'secret')
    assert.is((await prod.app.inject({ method: 'GET', url: '/assets/main-ABC123.js' })).statusCode, 200)
  } finally {
    await prod.close()
  }
  const dev = await buildTestApp({ seed: false, config: { distDir: join(dist, 'development') } })
  try {
    assert.is((await dev.app.inject({ method: 'GET', url: '/assets/main-ABC123.js.map' })).statusCode, 200)
  } finally {
    await dev.close()
  }
})

maps.run()

// --- Text PostgreSQL cannot store (NUL, half of a surrogate pair), and any odd text, on every route of the table

const entries = Object.entries(routes) as [RouteName, RouteDef][]

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

type Path = (string | number)[]

/** The paths of every string in a JSON value. */
function stringPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]))
  return []
}

function setAt(value: unknown, path: Path, leaf: unknown): unknown {
  if (path.length === 0) return leaf
  const [head, ...rest] = path
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[head!] = setAt(copy[head!], rest, leaf)
  return copy
}

/** Percent-encodes any JS string, a lone surrogate included (as the three bytes it would take, invalid UTF-8). */
function percentEncode(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2))
      i++
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
    } else {
      out += encodeURIComponent(text[i]!)
    }
  }
  return out
}

function urlWith(name: RouteName, params: Record<string, string>, query: Record<string, string>): string {
  let path: string = routes[name].path
  for (const [key, value] of Object.entries(params)) path = path.replace(`{${key}}`, percentEncode(value))
  const search = Object.entries(query)
    .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
    .join('&')
  return search ? `${path}?${search}` : path
}

const asText = (sample: Sample) => Object.fromEntries(Object.entries({ ...sample.params }).map(([k, v]) => [k, String(v)]))
const queryText = (sample: Sample) => Object.fromEntries(Object.entries({ ...sample.query }).map(([k, v]) => [k, String(v)]))

function assertNever5xx(res: LightMyRequestResponse, reference: Record<string, string>, what: string) {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
  if (res.statusCode >= 400) {
    const body = res.json()
    assert.ok(french.test(body.message), `${what}: not French: ${body.message}`)
    assert.is(body.statusCode, res.statusCode, what)
  }
  assertSecurityHeaders(res.headers, reference, what)
}

interface Ctx {
  t: TestApp
  ids: DemoIds
  camille: string
  pdf: Buffer
  reference: Record<string, string>
  /** operators: the demo administrator's back-office session. */
  admin: string
}

const setup = async (ctx: Ctx) => {
  ctx.t = await buildTestApp()
  ctx.ids = await demoIds(ctx.t.deps.db, { compliance: true, messages: true })
  ctx.camille = await login(ctx.t.app)
  ctx.admin = await operatorLogin(ctx.t)
  ctx.pdf = await tinyPdf()
  ctx.reference = await referenceHeaders(ctx.t)
}

const text = suite<Ctx>('text PostgreSQL cannot store: a French 400 at the schema layer, on every route')
text.before(setup)
text.after((ctx) => ctx.t?.close())

const jsonBodies = entries.filter(([, r]) => r.schema.body && r.kind !== 'multipart')

for (const [label, bad] of [
  ['a NUL character', 'Camille\u0000Martin'],
  ['a lone surrogate', 'Camille\ud800Martin'],
] as const) {
  text(`${label} in any string of any JSON body`, async (ctx) => {
    let checked = 0
    for (const [name, route] of jsonBodies) {
      const sample = sampleFor(name, ctx.ids, ctx.pdf)
      for (const path of stringPaths(sample.body)) {
        const res = await ctx.t.app.inject({
          method: route.method,
          url: urlWith(name, asText(sample), queryText(sample)),
          headers: headersFor(route, ctx.camille, ctx.admin),
          payload: setAt(sample.body, path, bad) as InjectOptions['payload'],
        })
        const what = `${name} ${path.join('.')}`
        assert.is(res.statusCode, 400, `${what}: ${res.body}`)
        assert.is(res.json().code, 'VALIDATION', what)
        assert.match(res.json().message, String(path[0]), `${what}: the message names the field`)
        assert.match(res.json().message, 'caractère', what)
        assertSecurityHeaders(res.headers, ctx.reference, what)
        checked++
      }
    }
    assert.ok(checked >= 30, `${checked} fields`)
  })
}

// --- The text rule of every string field (server/contract/rules/text.ts): a single line refuses line breaks, control
// characters and bidi overrides; free text (a message, a comment) keeps its line breaks but refuses the rest.

/** Not text: passwords (hashed, never shown) and files (data URLs). */
const NOT_TEXT = new Set(['password', 'newPassword', 'currentPassword', 'file', 'kbis', 'photo'])
/** Free text, multi-line. */
const FREE_TEXT = new Set([
  'sendProblem message',
  'sendDocuments message',
  'terminationRequest comment',
  'createLegalSubmission comment',
  // the mail room: why a forwarding could not be sent, which the customer reads
  'mailRoomForwardingImpossible reason',
  // Justificatifs: the words of a refusal « autre », which the customer reads
  'complianceRefuseJustificatif detail',
  // Messages and « Mes échanges »: the messages of a conversation, both sides
  'answerConversation message',
  'operatorReplyConversation message',
  'operatorContactTermination message',
])
/** Fields held to a choice, a format or a pattern of their own, stricter than the text rule: refused with their own words. */
const OWN_FORMAT = new Set([
  'registerPasskey credential.id',
  'registerPasskey credential.rawId',
  'registerPasskey credential.type',
  'registerPasskey credential.authenticatorAttachment',
  'registerPasskey credential.response.clientDataJSON',
  'registerPasskey credential.response.attestationObject',
  'passkeyLogin credential.id',
  'passkeyLogin credential.rawId',
  'passkeyLogin credential.type',
  'passkeyLogin credential.authenticatorAttachment',
  'passkeyLogin credential.response.clientDataJSON',
  'passkeyLogin credential.response.authenticatorData',
  'passkeyLogin credential.response.signature',
  'addMandataire phone',
  'terminationRequest date',
  'operatorAcceptTermination endDate',
  'operatorAddDocument kind',
  'createLegalSubmission kind',
  'operatorUpdateLegalSubmission status',
  'updateNotificationPreferences email',
  'operatorKbisStatus status',
  // operators: a link's token, a 6-digit code, a role
  'operatorCode ticket',
  'operatorCode code',
  // operators: a passkey's ticket and the browser's answers (base64url, as the customers')
  'operatorPasskeyOptions ticket',
  'operatorPasskey ticket',
  'operatorPasskey credential.id',
  'operatorPasskey credential.rawId',
  'operatorPasskey credential.type',
  'operatorPasskey credential.authenticatorAttachment',
  'operatorPasskey credential.response.clientDataJSON',
  'operatorPasskey credential.response.authenticatorData',
  'operatorPasskey credential.response.signature',
  'operatorRegisterPasskey credential.id',
  'operatorRegisterPasskey credential.rawId',
  'operatorRegisterPasskey credential.type',
  'operatorRegisterPasskey credential.authenticatorAttachment',
  'operatorRegisterPasskey credential.response.clientDataJSON',
  'operatorRegisterPasskey credential.response.attestationObject',
  'operatorEnrol code',
  'operatorInvite roles',
  'operatorSetRoles roles',
  // operators: a new client's legal form, plan and options (lists), its start (a date)
  'operatorCreateClient legalForm',
  'operatorCreateClient plan',
  'operatorCreateClient options',
  'operatorCreateClient startDate',
  // the mail room: a letter's kind, who collects a package, a tracking number
  'mailRoomReviewScan kind',
  'mailRoomHandOverPackage collector.kind',
  'mailRoomForwardingShipped trackingNumber',
  // Justificatifs: a refusal's reason (a choice), a formality's step
  'complianceRefuseJustificatif reason',
  'complianceMoveLegalSubmission status',
])
/** Optional text fields the samples leave out. */
const moreText: Partial<Record<RouteName, Record<string, string>>> = {
  sendDocuments: { message: 'Bonjour, voici les courriers.' },
  terminationRequest: { comment: 'Nous quittons Lyon.' },
  complianceRefuseJustificatif: { detail: 'La pièce est expirée.' },
  operatorCreateClient: { domiciliationAddress: '8 avenue de l’Opéra, 75001 Paris' },
  updateContract: {
    adressePostaleExpedition: '3 place du Marché',
    adresseComplementPostaleExpedition: 'Bâtiment B',
    codePostaleExpedition: '69002',
    villePostaleExpedition: 'Lyon',
    paysPostaleExpedition: 'France',
  },
}
/** The sample's value with its second character replaced: the same length, so only the character is wrong. */
const withCharacter = (value: string, character: string) => value.slice(0, 1) + character + value.slice(2)
const SINGLE_LINE_REFUSAL =
  'ne peut contenir ni retour à la ligne ni caractère invisible de contrôle ou d’inversion du sens d’écriture : retirez-les.'
const FREE_TEXT_REFUSAL = 'contient des caractères invisibles de contrôle ou d’inversion du sens d’écriture : retirez-les.'

text(
  'every single-line string of every JSON body refuses a bidi override, a line break and a control character; free text keeps its line breaks only',
  async (ctx) => {
    const seen = { line: 0, free: 0, own: new Set<string>() }
    for (const [name, route] of jsonBodies) {
      const sample = sampleFor(name, ctx.ids, ctx.pdf)
      const body = moreText[name] ? { ...(name === 'updateContract' ? {} : (sample.body as object)), ...moreText[name] } : sample.body
      const answer = (path: Path, value: string) =>
        ctx.t.app.inject({
          method: route.method,
          url: urlWith(name, asText(sample), queryText(sample)),
          headers: { ...headersFor(route, ctx.camille, ctx.admin), ...sampleHeaders(sample) },
          payload: setAt(body, path, value) as InjectOptions['payload'],
        })
      for (const path of stringPaths(body)) {
        if (NOT_TEXT.has(String(path[0]))) continue
        const field = `${name} ${path.filter((p) => typeof p === 'string').join('.')}`
        const original = String(path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], body))
        const refused = FREE_TEXT.has(field)
          ? ['\u202e', '\u2066', '\u0007', '\u0085', '\r', '\u2028', '\u2029']
          : ['\u202e', '\n', '\r', '\t', '\u0007', '\u007f', '\u0085', '\u2069', '\u2028', '\u2029']
        for (const character of refused) {
          const res = await answer(path, withCharacter(original, character))
          const what = `${field} with ${JSON.stringify(character)}`
          assert.is(res.statusCode, 400, `${what}: ${res.body}`)
          assert.is(res.json().code, 'VALIDATION', what)
          const message: string = res.json().message
          assert.match(
            message,
            `« ${path
              .map((p) => (typeof p === 'number' ? `[${p}]` : p))
              .join('.')
              .replace(/\.\[/g, '[')} »`,
            `${what}: the message names the field: ${message}`,
          )
          if (OWN_FORMAT.has(field)) seen.own.add(field)
          else assert.ok(message.endsWith(FREE_TEXT.has(field) ? FREE_TEXT_REFUSAL : SINGLE_LINE_REFUSAL), `${what}: ${message}`)
        }
        if (FREE_TEXT.has(field)) {
          for (const breaks of ['a\nb', 'a\r\nb', 'a\tb\n\nc']) {
            // Taken by the schema (a termination already requested answers its 409, past the schema).
            const res = await answer(path, `${original} ${breaks}`)
            assert.ok(
              res.statusCode < 400 || res.json().code !== 'VALIDATION',
              `${field} with ${JSON.stringify(breaks)}: ${res.statusCode} ${res.body}`,
            )
          }
          seen.free++
        } else if (!OWN_FORMAT.has(field)) seen.line++
      }
    }
    assert.equal([...seen.own].sort(), [...OWN_FORMAT].sort(), 'every field of its own format was met')
    assert.is(seen.free, FREE_TEXT.size, 'every free text was met')
    assert.ok(seen.line >= 35, `${seen.line} single-line fields`)
  },
)

text('a query string value is a single line too', async (ctx) => {
  for (const [name, key] of [
    ['subscriptionInformations', 'key'],
    ['documentSearch', 'q'],
  ] as const) {
    const sample = sampleFor(name, ctx.ids, ctx.pdf)
    const query = queryText(sample)
    for (const character of ['\u202e', '\n', '\u0007', '\u2028', '\u2029']) {
      const res = await ctx.t.app.inject({
        method: 'GET',
        url: urlWith(name, asText(sample), { ...query, [key]: withCharacter(query[key]!, character) }),
        headers: headersFor(routes[name], ctx.camille, ctx.admin),
      })
      assert.is(res.statusCode, 400, `${name} ${JSON.stringify(character)}: ${res.body}`)
      assert.is(res.json().message, `Le champ « ${key} » ${SINGLE_LINE_REFUSAL}`)
    }
  }
})

text('a NUL or a lone surrogate in a query string value', async (ctx) => {
  const sample = sampleFor('subscriptionInformations', ctx.ids, ctx.pdf)
  for (const bad of ['\u0000'.repeat(40), `${ctx.ids.subscriptionKey.slice(0, 39)}\udc00`]) {
    const res = await ctx.t.app.inject({ method: 'GET', url: urlWith('subscriptionInformations', asText(sample), { key: bad }) })
    assert.is(res.statusCode, 400, res.body)
    assert.match(res.json().message, 'key')
  }
})

/** Any UTF-16 unit, with NUL, lone surrogates, a bidi override and URL-significant characters made frequent. */
const oddUnit = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\ufffe',
      '\u202e',
      'é',
      '%',
      '/',
      '?',
      '#',
      '&',
      '=',
      ':',
      '1',
    ),
  },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
)
const oddText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: oddUnit, maxLength: 30 }) },
  // Over-long: past the router's 100 characters for an id, past every maxLength of the schemas but one.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 95, max: 320 }), fc.constantFrom('1', 'a', '\u0000', 'é')).map(([n, c]) => c.repeat(n)),
  },
)

text('property: any odd text in any body field, path parameter or query value of any route: never a 5xx', async (ctx) => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...entries.map(([name]) => name)),
      fc.constantFrom('body', 'params', 'query'),
      fc.nat(),
      oddText,
      async (name, where, index, value) => {
        const route: RouteDef = routes[name]
        const sample = sampleFor(name, ctx.ids, ctx.pdf)
        const params = asText(sample)
        const query = queryText(sample)
        let payload: InjectOptions['payload'] | undefined = sample.body as InjectOptions['payload']
        const headers = { ...headersFor(route, ctx.camille, ctx.admin), ...sampleHeaders(sample) }
        const paths = stringPaths(sample.body)
        const keys = (record: Record<string, string>) => Object.keys(record)
        if (where === 'body' && paths.length) payload = setAt(sample.body, paths[index % paths.length]!, value) as InjectOptions['payload']
        else if (where === 'params' && keys(params).length) params[keys(params)[index % keys(params).length]!] = value
        else query[keys(query)[index % Math.max(1, keys(query).length)] ?? 'orderId'] = value
        if (sample.multipart) {
          const form = multipart({ orderId: where === 'body' ? value : String(ctx.ids.missingDocsOrder) }, [
            { field: 'identity_manager', filename: 'cni.png', contentType: 'image/png', bytes: tinyPng },
          ])
          Object.assign(headers, form.headers)
          payload = form.payload
        }
        const res = await ctx.t.app.inject({
          method: route.method,
          url: urlWith(name, params, query),
          headers,
          ...(payload !== undefined ? { payload } : {}),
        })
        assertNever5xx(res, ctx.reference, `${name} ${where} ${JSON.stringify(value).slice(0, 60)}`)
      },
    ),
    { numRuns: 400 },
  )
})

text.run()

// --- Malformed multipart forms: a French 400, never a 5xx; a file name is cleaned before it is stored

const forms = suite<Ctx>('malformed multipart forms')
forms.before(setup)
forms.after((ctx) => ctx.t?.close())

/** The demo order missing an identity document asks for it again (a complete file takes no more documents). */
const reopenIdentity = (ctx: Ctx) =>
  ctx.t.deps.db.updateTable('orders').set({ missing_documents_validated_at: null }).where('id', '=', ctx.ids.missingDocsOrder).execute()

const uploadRaw = (ctx: Ctx, contentType: string, payload: Buffer | string, url = '/step-upload-identity') =>
  ctx.t.app.inject({ method: 'POST', url, headers: { apitoken: ctx.camille, 'content-type': contentType }, payload })

function formBody(boundary: string, orderId: string, file: { field?: string; filename: string; bytes: Buffer }): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'identity_manager'}"; filename="${file.filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
}

forms('no boundary, a broken body, garbage, a part without headers: a French 400 and nothing stored', async (ctx) => {
  const good = formBody('limite', String(ctx.ids.missingDocsOrder), { filename: 'cni.png', bytes: tinyPng })
  const cases: [string, string, Buffer | string][] = [
    ['no boundary', 'multipart/form-data', good],
    ['an empty boundary', 'multipart/form-data; boundary=', good],
    ['another boundary', 'multipart/form-data; boundary=autre', good],
    ['cut in the middle of the file', 'multipart/form-data; boundary=limite', good.subarray(0, good.length - tinyPng.length)],
    ['cut before the end boundary', 'multipart/form-data; boundary=limite', good.subarray(0, good.length - 12)],
    ['garbage', 'multipart/form-data; boundary=limite', 'n’importe quoi'],
    ['a part with broken headers', 'multipart/form-data; boundary=limite', '--limite\r\nContent-Disposition\r\n\r\nx\r\n--limite--\r\n'],
    ['an empty body', 'multipart/form-data; boundary=limite', ''],
  ]
  const stored = (await ctx.t.deps.db.selectFrom('uploaded_documents').select('id').execute()).length
  for (const [label, type, payload] of cases) {
    const res = await uploadRaw(ctx, type, payload)
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${label}: ${res.statusCode} ${res.body}`)
    assert.ok(french.test(res.json().message), `${label}: ${res.json().message}`)
    assertSecurityHeaders(res.headers, ctx.reference, label)
  }
  assert.is((await ctx.t.deps.db.selectFrom('uploaded_documents').select('id').execute()).length, stored)
})

forms('a file name with NUL, control, bidi or half-surrogate characters is stored cleaned', async (ctx) => {
  const boundary = 'limite'
  const res = await uploadRaw(
    ctx,
    `multipart/form-data; boundary=${boundary}`,
    formBody(boundary, String(ctx.ids.missingDocsOrder), { filename: 'c\u0000n\u0007i\u202egnp.exe\u0085.png', bytes: tinyPng }),
  )
  assert.is(res.statusCode, 200, res.body)
  const row = await ctx.t.deps.db.selectFrom('uploaded_documents').select('file_name').orderBy('id', 'desc').executeTakeFirstOrThrow()
  assert.is(row.file_name, 'cnignp.exe.png')
  await reopenIdentity(ctx)
  const named = await uploadRaw(
    ctx,
    `multipart/form-data; boundary=${boundary}`,
    formBody(boundary, String(ctx.ids.missingDocsOrder), { filename: '\u0000\u0001', bytes: tinyPng }),
  )
  assert.is(named.statusCode, 200, named.body)
  assert.is(named.json().uploaded.at(-1).fileName, 'identity_manager.png', 'nothing left: a name from the document type')
})

const printable = fc.constantFrom(...'abcXYZ019-_=;" \t/'.split(''))

/** A multipart form broken in any of several ways (or not at all), built from odd names and bytes. */
const oddForm = fc.record({
  boundary: fc.option(fc.string({ unit: printable, maxLength: 75 }), { nil: undefined }),
  bodyBoundary: fc.option(fc.string({ unit: printable, minLength: 1, maxLength: 20 }), { nil: undefined }),
  orderId: fc.oneof(fc.constant('ORDER'), fc.string({ unit: oddUnit, maxLength: 12 })),
  field: fc.oneof(fc.constant('identity_manager'), fc.string({ unit: oddUnit, maxLength: 12 })),
  filename: fc.string({ unit: oddUnit, maxLength: 40 }),
  bytes: fc.oneof(
    fc.constant(tinyPng),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  ),
  cut: fc.option(fc.nat(), { nil: undefined }),
  junk: fc.option(
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b)),
    { nil: undefined },
  ),
})

forms('property: any malformed multipart form on any route of the table: never a 5xx', async (ctx) => {
  // notifications: a stream never ends by design (its own tests in notifications.test.ts).
  const names = entries.filter(([, r]) => r.kind !== 'stream').map(([name]) => name)
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...names, 'uploadIdentity', 'uploadIdentity'), oddForm, async (name, form) => {
      const route: RouteDef = routes[name]
      const sample = sampleFor(name, ctx.ids, ctx.pdf)
      const boundary = form.boundary ?? 'limite'
      let body = formBody(form.bodyBoundary ?? boundary, form.orderId.replace('ORDER', String(ctx.ids.missingDocsOrder)), {
        field: form.field,
        filename: form.filename,
        bytes: form.bytes,
      })
      if (form.junk)
        body = Buffer.concat([
          body.subarray(0, (form.cut ?? 0) % (body.length + 1)),
          form.junk,
          body.subarray((form.cut ?? 0) % (body.length + 1)),
        ])
      else if (form.cut !== undefined) body = body.subarray(0, form.cut % (body.length + 1))
      const res = await ctx.t.app.inject({
        method: route.method,
        url: urlWith(name, asText(sample), queryText(sample)),
        headers: {
          ...headersFor(route, ctx.camille, ctx.admin),
          'content-type': form.boundary === undefined ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`,
        },
        ...(route.method === 'GET' ? {} : { payload: body }),
      })
      assertNever5xx(res, ctx.reference, `${name} ${JSON.stringify(form).slice(0, 200)}`)
    }),
    { numRuns: 300 },
  )
})

forms.run()

// --- Uploads: one strict check for every upload (the PDF opened, the image's structure decoded); files served as what they are

/** A real 2×2 JPEG (baseline, JFIF). */
const tinyJpeg = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSgBBwcHCggKEwoKEygaFhooKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKP/AABEIAAIAAgMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/AOQr6c+dP//Z',
  'base64',
)

interface PngChunk {
  type: string
  data: Buffer
}
function pngChunks(png: Buffer): PngChunk[] {
  const chunks: PngChunk[] = []
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at)
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) })
    at += 12 + length
  }
  return chunks
}
function pngOf(chunks: PngChunk[], corruptCrcOf?: string): Buffer {
  return Buffer.concat([
    tinyPng.subarray(0, 8),
    ...chunks.map(({ type, data }) => {
      const head = Buffer.alloc(8)
      head.writeUInt32BE(data.length)
      head.write(type, 4, 'latin1')
      const crc = Buffer.alloc(4)
      crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (type === corruptCrcOf ? 1 : 0)) >>> 0)
      return Buffer.concat([head, data, crc])
    }),
  ])
}

async function pdfWithJavaScript(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  pdf.addPage([200, 200]).drawText('Kbis', { x: 20, y: 100 })
  pdf.catalog.set(PDFName.of('OpenAction'), pdf.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }))
  return Buffer.from(await pdf.save())
}

/** A one-page PDF written by hand (pdf-lib would spell names its own way), whose catalog opens `action` (object 4). */
function pdfOpening(action: string, ...more: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    action,
    ...more,
  ]
  let pdf = '%PDF-1.7\n'
  const offsets = objects.map((object, i) => {
    const offset = pdf.length
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`
    return offset
  })
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  return Buffer.from(`${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1')
}

/** Files every upload must refuse, whichever route. */
async function refusedFiles(pdf: Buffer): Promise<[string, Buffer, 'pdf' | 'image'][]> {
  const [ihdr, ...rest] = pngChunks(tinyPng)
  const zeroWidth = Buffer.from(ihdr!.data)
  zeroWidth.writeUInt32BE(0, 0)
  return [
    ['%PDF- + garbage + %%EOF', Buffer.from(`%PDF-1.7\n${'garbage '.repeat(50)}\n%%EOF\n`), 'pdf'],
    [
      'a PDF/HTML/JS polyglot',
      Buffer.from(
        '%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
      ),
      'pdf',
    ],
    [
      'a real PDF carrying HTML and a script',
      Buffer.concat([pdf, Buffer.from('\n<html><script>alert(document.cookie)</script></html>\n%%EOF\n')]),
      'pdf',
    ],
    ['a real PDF running JavaScript when opened', await pdfWithJavaScript(), 'pdf'],
    // Names with lower-case #xx escapes (pdf-lib decodes upper-case ones only; a reader any), an action's type by reference
    ['JavaScript in names with lower-case escapes', pdfOpening('<< /S /#4aavaScript /#4aS (app.alert\\(1\\)) >>'), 'pdf'],
    ['a Launch action in a name with a lower-case escape', pdfOpening('<< /S /#4caunch /F (cmd.exe) >>'), 'pdf'],
    ['a Launch action whose type is given by reference', pdfOpening('<< /S 5 0 R /F (calc.exe) >>', '/Launch'), 'pdf'],
    ['a PNG with a broken checksum', pngOf([ihdr!, ...rest], 'IDAT'), 'image'],
    ['a PNG of width 0', pngOf([{ type: 'IHDR', data: zeroWidth }, ...rest]), 'image'],
    ['a PNG whose first chunk is not IHDR', pngOf([...rest.slice(0, -1), ihdr!, rest.at(-1)!]), 'image'],
    [
      'a PNG carrying a script',
      pngOf([ihdr!, { type: 'tEXt', data: Buffer.from('Comment\u0000<script>alert(1)</script>', 'latin1') }, ...rest]),
      'image',
    ],
    [
      'a JPEG that is only a start and an end marker',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 0xff, 0xd9]),
      'image',
    ],
    [
      'a JPEG without its frame header',
      Buffer.concat([tinyJpeg.subarray(0, 2), Buffer.from([0xff, 0xda, 0, 2]), Buffer.alloc(20, 0x11), Buffer.from([0xff, 0xd9])]),
      'image',
    ],
    [
      'a JPEG carrying a script in a comment',
      Buffer.concat([
        tinyJpeg.subarray(0, 2),
        Buffer.from([0xff, 0xfe, 0, 31]),
        Buffer.from('<script>alert(1)</script>....'),
        tinyJpeg.subarray(2),
      ]),
      'image',
    ],
  ]
}

const uploads = suite<Ctx & { atelierContract: number }>('uploads: one strict check for every upload')
uploads.before(async (ctx) => {
  await setup(ctx)
  ctx.atelierContract = (
    await ctx.t.deps.db
      .selectFrom('contracts')
      .innerJoin('orders', 'orders.id', 'contracts.order_id')
      .select('contracts.id')
      .where('orders.raison_sociale', '=', 'Atelier Lumière SARL')
      .executeTakeFirstOrThrow()
  ).id
})
uploads.after((ctx) => ctx.t?.close())

const identityForm = (ctx: Ctx, bytes: Buffer, filename = 'piece') =>
  multipart({ orderId: String(ctx.ids.missingDocsOrder) }, [
    { field: 'identity_manager', filename, contentType: 'application/octet-stream', bytes },
  ])

uploads('the Kbis, the identity documents and the operators’ letters refuse the same files', async (ctx) => {
  const rows = async () => (await ctx.t.deps.db.selectFrom('uploaded_documents').select('id').execute()).length
  const before = await rows()
  for (const [label, bytes, kind] of await refusedFiles(ctx.pdf)) {
    const form = identityForm(ctx, bytes)
    const identity = await ctx.t.app.inject({
      method: 'POST',
      url: '/step-upload-identity',
      headers: { ...form.headers, apitoken: ctx.camille },
      payload: form.payload,
    })
    assert.is(identity.statusCode, 415, `identity, ${label}: ${identity.body}`)
    if (kind !== 'pdf') continue
    const dataUrl = `data:application/pdf;base64,${bytes.toString('base64')}`
    const kbis = await callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.atelierContract}`, { kbis: dataUrl })
    assert.is(kbis.statusCode, 415, `Kbis, ${label}: ${kbis.body}`)
    const letter = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/operator/domiciliation-orders/${ctx.ids.order}/documents`,
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      payload: { sender: 'URSSAF', file: dataUrl },
    })
    assert.is(letter.statusCode, 400, `operator, ${label}: ${letter.body}`)
  }
  assert.is(await rows(), before, 'nothing stored')
  const contract = await ctx.t.deps.db
    .selectFrom('contracts')
    .select('kbis_file_key')
    .where('id', '=', ctx.atelierContract)
    .executeTakeFirstOrThrow()
  assert.is(contract.kbis_file_key, null)
})

uploads('real PDF, PNG and JPEG files are accepted and stored with the type read from their bytes', async (ctx) => {
  for (const [bytes, type, name] of [
    [ctx.pdf, 'application/pdf', 'cni.jpg'],
    [tinyPng, 'image/png', 'cni.pdf'],
    [tinyJpeg, 'image/jpeg', 'cni.png'],
  ] as const) {
    await reopenIdentity(ctx)
    const form = identityForm(ctx, bytes, name)
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: '/step-upload-identity',
      headers: { ...form.headers, apitoken: ctx.camille },
      payload: form.payload,
    })
    assert.is(res.statusCode, 200, `${type}: ${res.body}`)
    const row = await ctx.t.deps.db
      .selectFrom('uploaded_documents')
      .select(['content_type', 'file_key'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    assert.is(row.content_type, type, 'the type of the bytes, not of the name')
  }
})

uploads('every stored file is served as a PDF, not sniffed, as a named download-or-inline, sandboxed', async (ctx) => {
  const kbis = await callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.atelierContract}`, {
    kbis: `data:application/pdf;base64,${ctx.pdf.toString('base64')}`,
  })
  assert.is(kbis.statusCode, 200, kbis.body)
  const files: [string, Record<string, string>][] = [
    [`/api-protected/documents/${ctx.ids.document}/file`, { apitoken: ctx.camille }],
    [`/api-protected/invoices/${ctx.ids.invoice}/file`, { apitoken: ctx.camille }],
    [`/api-protected/creditnotes/${ctx.ids.creditNote}/file`, { apitoken: ctx.camille }],
    [`/api-protected/contracts/${ctx.atelierContract}/kbis`, { authorization: `Bearer ${ctx.camille}` }],
    [`/api/operator/contracts/${ctx.atelierContract}/kbis`, { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` }],
    // billing: the domiciliation certificate and the contract, made on request
    [`/api-protected/certificates/${ctx.ids.certificate}/file`, { apitoken: ctx.camille }],
    [`/api-protected/contracts/${ctx.ids.contract}/file`, { authorization: `Bearer ${ctx.camille}` }],
    // the mail room: a scan waiting to be published
    [`/api/backoffice/scans/${ctx.ids.mailRoom.scanToRead}/file`, { authorization: `Bearer ${ctx.admin}` }],
  ]
  // mail pipeline: a letter's page images, the only file route that is not a PDF
  const pages = await ctx.t.app.inject({
    method: 'GET',
    url: `/api-protected/documents/${ctx.ids.document}/pages/1`,
    headers: { apitoken: ctx.camille },
  })
  assert.is(pages.statusCode, 200)
  assert.is(pages.headers['content-type'], 'image/webp')
  assert.is(pages.headers['x-content-type-options'], 'nosniff')
  assert.match(pages.headers['content-disposition'] as string, /^inline; filename="[\w.-]+\.webp"$/)
  assert.match(pages.headers['cache-control'] as string, 'no-store')
  assert.is(pages.headers['content-security-policy'], 'sandbox', 'opened by itself, a file runs nothing')
  assert.is(pages.rawPayload.subarray(8, 12).toString(), 'WEBP')
  assert.equal(
    entries.filter(([, r]) => r.fileType).map(([name]) => name),
    // operators: the journal's CSV export (its headers: operators/journal.test.ts); the mail room: a scan's page images
    // and a package's photo, as sent (their headers: mail/backoffice-*.test.ts); « Mes données »'s ZIP (people/data-export.test.ts);
    // a justificatif's file, as sent (company/backoffice-justificatifs.test.ts); the embedded database's dump (routes.test.ts)
    [
      'dataExportFile',
      'documentPage',
      'operatorJournalCsv',
      'operatorBackupDatabase',
      'mailRoomScanPage',
      'mailRoomPackagePhoto',
      'complianceJustificatifFile',
    ],
  )
  assert.is(files.length, entries.filter(([, r]) => r.kind === 'file' && !r.fileType).length, 'every file route of the table')
  for (const [url, headers] of files) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers })
    assert.is(res.statusCode, 200, url)
    assert.is(res.headers['content-type'], 'application/pdf', url)
    assert.is(res.headers['x-content-type-options'], 'nosniff', url)
    assert.match(res.headers['content-disposition'] as string, /^(inline|attachment); filename="[\w.-]+\.pdf"$/, url)
    assert.match(res.headers['cache-control'] as string, 'no-store', url)
    assert.is(res.headers['content-security-policy'], 'sandbox', url)
    assert.is(res.rawPayload.subarray(0, 5).toString(), '%PDF-', url)
  }
})

uploads.run()

// --- Files left behind (a crash between the file and its row, a half-written temp file): swept after a grace period

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
}

const sweep = suite<{ t: TestApp }>('files without a row and temp files are swept')
sweep.before(async (ctx) => {
  ctx.t = await buildTestApp()
})
sweep.after((ctx) => ctx.t?.close())

sweep('orphans and temp files older than the grace period go; recent ones, files with a row and foreign files stay', async ({ t }) => {
  const dir = t.storageDir
  const withRows = await filesUnder(dir)
  assert.ok(withRows.length > 50, 'the demo files')
  const old = new Date(Date.now() - SWEEP_GRACE_MS - 60_000)
  const plant = async (path: string, age: Date | null) => {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), 'x')
    if (age) await utimes(join(dir, path), age, age)
  }
  for (const path of withRows) await utimes(join(dir, path), old, old) // the demo files are old too: their rows keep them
  await plant('identity/2026-01/orphelin.png', old)
  await plant('kbis/2026-01/orphelin.pdf', old)
  await plant('documents/2026-01/orphelin.pdf', old)
  await plant('identity/2026-01/recent.png', null)
  await plant('.tmp/3f1e0c1a-ancien', old)
  await plant('.tmp/3f1e0c1a-recent', null)
  await plant('LISEZMOI.txt', old)
  const result = await sweepStorage({ db: t.deps.db, storage: t.deps.storage, now: new Date() })
  assert.equal(result.orphans.sort(), ['documents/2026-01/orphelin.pdf', 'identity/2026-01/orphelin.png', 'kbis/2026-01/orphelin.pdf'])
  assert.is(result.temporary, 1)
  assert.equal(await filesUnder(dir), [...withRows, '.tmp/3f1e0c1a-recent', 'LISEZMOI.txt', 'identity/2026-01/recent.png'].sort())
})

sweep('every column holding a file key is known to the sweep', async ({ t }) => {
  const columns = await sql<{ table_name: string; column_name: string }>`select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_name like '%file_key%'`.execute(t.deps.db)
  assert.equal(
    columns.rows.map((c) => `${c.table_name}.${c.column_name}`).sort(),
    STORED_FILE_COLUMNS.map(([table, column]) => `${table}.${column}`).sort(),
  )
})

sweep.run()
