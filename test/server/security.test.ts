// The security promises of docs/SERVER.md ("Security"), in process (app.inject, or a real socket where the
// HTTP parser itself answers). Crash and shutdown of a real server: test/server/lifecycle.test.ts.
import { connect as connectSocket } from 'node:net'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LightMyRequestResponse } from 'fastify'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildTestApp, login, type TestApp } from '../util/server.ts'

const french = /[éèàêâçùô’]|\b(le|la|les|du|de|des|doit|est|être|identifiants|introuvable|veuillez|trop|aucune?)\b/i

/** The security headers of an ordinary answer: every other answer must carry the same. */
async function referenceHeaders(t: TestApp): Promise<Record<string, string>> {
  const res = await t.app.inject({ method: 'GET', url: '/health' })
  const notSecurity = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'cache-control', 'vary', 'content-encoding'])
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !notSecurity.has(name)).map(([name, value]) => [name, String(value)]))
  assert.is(headers['x-content-type-options'], 'nosniff', 'the reference answer has the security headers')
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

interface EdgeCtx { t: TestApp; camille: string; reference: Record<string, string>; port: number }

const edges = suite<EdgeCtx>('edges of the HTTP layer: French answers with the security headers')
edges.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.reference = await referenceHeaders(ctx.t)
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' })
  ctx.port = (ctx.t.app.server.address() as { port: number }).port
})
edges.after((ctx) => ctx.t.close())

edges('a malformed URL (bad percent-encoding) is a French 400', async (ctx) => {
  for (const url of ['/api-protected/documents/%C0%AE', '/api-protected/documents/%E0%A4%A', '/api-protected/documents/%ED%A0%80/file', '/api/%FF']) {
    const res = await ctx.t.app.inject({ method: 'GET', url, headers: { apitoken: ctx.camille } })
    assertFrench4xx(res, 400, url)
    assert.match(res.json().message, 'adresse')
    assertSecurityHeaders(res.headers, ctx.reference, url)
  }
})

edges('an id over 100 characters is a French 414', async (ctx) => {
  const res = await ctx.t.app.inject({ method: 'GET', url: `/api-protected/documents/${'1'.repeat(101)}/file`, headers: { apitoken: ctx.camille } })
  assertFrench4xx(res, 414, 'long id')
  assertSecurityHeaders(res.headers, ctx.reference, 'long id')
})

edges('a request line over 16 KB is a French 431, straight from the HTTP parser', async (ctx) => {
  const res = await rawRequest(ctx.port, `GET /api-protected/documents?orderId=${'1'.repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`)
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
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"]) assert.match(csp, directive, url)
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
  const { buildConfig, buildOptions } = (await import(pathToFileURL(join(import.meta.dirname, '../../esbuild.config.mjs')).href)) as BuildModule
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
