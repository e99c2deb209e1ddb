// Serving the built SPA: index.html fallback with a fresh CSP nonce, immutable hashed assets, security headers.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { loadConfig } from '../../server/config.ts'
import { LEGAL_PAGES, LEGAL_PARTICULARS_ELEMENT_ID } from '../../server/contract/rules/legal.ts'
import { legalParticularsBlock } from '../../server/http/spa.ts'
import { buildTestApp, type TestApp } from '../util/server.ts'

interface Ctx {
  t: TestApp
}

const html =
  '<!doctype html><html lang="fr"><head><meta name="csp-nonce" content="__CSP_NONCE__"><script type="module" src="/assets/main-ABC123.js"></script></head><body><div id="root"></div></body></html>'
const script = `console.log(${JSON.stringify('x'.repeat(4000))})`

const spa = suite<Ctx>('the SPA from a built dist/')
let distDir = ''
spa.before(async (ctx) => {
  // The dist directory must exist before the app is built (assets are registered at start).
  distDir = await mkdtemp(join(tmpdir(), 'portail-dist-'))
  await mkdir(join(distDir, 'assets'), { recursive: true })
  await writeFile(join(distDir, 'index.html'), html)
  await writeFile(join(distDir, 'assets', 'main-ABC123.js'), script)
  await writeFile(join(distDir, 'assets', 'tiny-DEF456.js'), 'export const x = 1')
  // What a production build does (esbuild.config.mjs): each asset also as .br and .gz.
  const { precompress } = (await import(pathToFileURL(join(import.meta.dirname, '../../esbuild.config.mjs')).href)) as {
    precompress(dir: string): Promise<void>
  }
  await precompress(join(distDir, 'assets'))
  ctx.t = await buildTestApp({ seed: false, config: { distDir } })
})
spa.after(async (ctx) => {
  await ctx.t.close()
  await rm(distDir, { recursive: true, force: true })
})

const page = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } })
/** A served page with its nonce put back as built: compared with a file of dist/. */
const asBuilt = (body: string) => body.replace(/content="[^"]+"/, 'content="__CSP_NONCE__"')

spa("a legal page carries the provider's particulars as a JSON block; no other page does", async ({ t }) => {
  for (const { path } of LEGAL_PAGES) {
    for (const url of [path, `${path}/`]) {
      const res = await page(t, url)
      assert.is(res.statusCode, 200, url)
      const block = new RegExp(`<script type="application/json" id="${LEGAL_PARTICULARS_ELEMENT_ID}">(.*?)</script></head>`).exec(res.body)
      assert.ok(block, url)
      assert.equal(JSON.parse(block![1]!), loadConfig({}).legal, url)
    }
  }
  for (const url of ['/login', '/tableau-de-bord', '/mentions-legales-x', '/operateur']) {
    assert.not.match((await page(t, url)).body, LEGAL_PARTICULARS_ELEMENT_ID, url)
  }
})

spa('no configured value can close the JSON block (`<` escaped)', () => {
  const block = legalParticularsBlock({ ...loadConfig({}).legal, name: 'A</script><script>alert(1)</script>' })
  assert.is(block.match(/<\/script>/g)?.length, 1)
  assert.is(JSON.parse(block.replace(/^<script[^>]*>|<\/script>$/g, '')).name, 'A</script><script>alert(1)</script>')
})

spa('every client route gets index.html with a fresh nonce in the CSP', async ({ t }) => {
  const nonces = new Set<string>()
  for (const url of ['/', '/tableau-de-bord', '/mes-courriers/courriers', '/set-password/abc', '/reset-password', '/login?x=1']) {
    const res = await page(t, url)
    assert.is(res.statusCode, 200, url)
    assert.match(res.headers['content-type'] as string, 'text/html')
    assert.is(res.headers['cache-control'], 'no-cache')
    const nonce = /content="([^"]+)"/.exec(res.body)![1]!
    assert.is.not(nonce, '__CSP_NONCE__')
    assert.ok(Buffer.from(nonce, 'base64').length >= 16)
    nonces.add(nonce)
    const csp = res.headers['content-security-policy'] as string
    assert.is(
      csp,
      `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data: blob:; frame-src 'self' blob: https://player.vimeo.com; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`,
    )
    assert.not.match(csp, 'unsafe-inline')
  }
  assert.is(nonces.size, 6, 'one nonce per response')
})

spa(
  'dist/pages.json: /login gets the page drawn ahead, the other public routes index.html, every other route the signed-in page',
  async ({ t }) => {
    const drawn = html
      .replace('</head>', '<style id="_goober" nonce="__CSP_NONCE__">h1{color:red}</style></head>')
      .replace('<div id="root"></div>', '<div id="root" data-prerendered=""><main><h1>Connexion</h1></main></div>')
    const signedIn = html.replace(
      '<script type="module"',
      '<link rel="modulepreload" href="/assets/chunks/session-XYZ.js" /><script type="module"',
    )
    await writeFile(join(distDir, 'login.html'), drawn)
    await writeFile(join(distDir, 'signed-in.html'), signedIn)
    const manifest = {
      public: {
        '/login': 'login.html',
        '/reset-password': 'index.html',
        '/set-password/:token': 'index.html',
        '/invitation/:token': 'index.html',
        '/verification/:code': 'index.html',
      },
      signedIn: 'signed-in.html',
    }
    await writeFile(join(distDir, 'pages.json'), JSON.stringify(manifest))
    try {
      for (const url of ['/login', '/login?next=%2Ffactures', '/login/']) {
        const res = await page(t, url)
        assert.is(res.statusCode, 200)
        const nonce = /content="([^"]+)"/.exec(res.body)![1]!
        assert.match(res.body, `<style id="_goober" nonce="${nonce}">h1{color:red}</style>`)
        assert.match(res.headers['content-security-policy'] as string, `style-src 'self' 'nonce-${nonce}'`)
        assert.match(res.body, '<h1>Connexion</h1>')
        assert.not.match(res.body, 'modulepreload', url)
      }
      // A signed-out visitor on a public route downloads no signed-in code.
      for (const url of [
        '/reset-password',
        '/reset-password?email=a%40b.fr',
        '/set-password/abc123',
        '/invitation/tok-1',
        '/verification/ABCD-1234',
      ]) {
        const res = await page(t, url)
        assert.is(res.statusCode, 200, url)
        assert.is(asBuilt(res.body), html, url)
      }
      // /missing-document is where the startup leads a signed-in customer; a pattern's segment is never empty nor two.
      for (const url of [
        '/',
        '/tableau-de-bord',
        '/mes-courriers/courriers',
        '/missing-document',
        '/login/x',
        '/set-password',
        '/set-password/a/b',
        '/Login',
      ]) {
        const res = await page(t, url)
        assert.is(res.statusCode, 200, url)
        assert.match(res.body, '<link rel="modulepreload" href="/assets/chunks/session-XYZ.js" />', url)
        assert.not.match(res.body, '__CSP_NONCE__', url)
      }
      // Read at each request: a rebuild is served without a restart. A name outside dist/ is never read.
      await writeFile(join(distDir, 'pages.json'), JSON.stringify({ public: { '/login': '../secret.html' }, signedIn: '../secret.html' }))
      for (const url of ['/login', '/tableau-de-bord']) assert.is(asBuilt((await page(t, url)).body), html, url)
    } finally {
      await rm(join(distDir, 'pages.json'))
      await rm(join(distDir, 'login.html'))
      await rm(join(distDir, 'signed-in.html'))
    }
    for (const url of ['/login', '/tableau-de-bord'])
      assert.is(asBuilt((await page(t, url)).body), html, `no manifest (a development build): index.html at ${url}`)
  },
)

spa(
  "/operateur and every path below it get the back office's own page, with or without dist/pages.json; no other path does",
  async ({ t }) => {
    const backOffice = html.replace('/assets/main-ABC123.js', '/assets/backoffice/main-BO1234.js')
    await writeFile(join(distDir, 'operateur.html'), backOffice)
    const signedIn = html.replace(
      '<script type="module"',
      '<link rel="modulepreload" href="/assets/chunks/session-XYZ.js" /><script type="module"',
    )
    await writeFile(join(distDir, 'signed-in.html'), signedIn)
    try {
      for (const manifest of [{ public: { '/login': 'index.html' }, signedIn: 'signed-in.html' }, null]) {
        if (manifest) await writeFile(join(distDir, 'pages.json'), JSON.stringify(manifest))
        else await rm(join(distDir, 'pages.json'), { force: true })
        for (const url of [
          '/operateur',
          '/operateur/',
          '/operateur/connexion',
          '/operateur/inscription/abc_DEF-1',
          '/operateur/administration?x=1',
        ]) {
          const res = await page(t, url)
          assert.is(res.statusCode, 200, url)
          assert.is(asBuilt(res.body), backOffice, url)
          const nonce = /content="([^"]+)"/.exec(res.body)![1]!
          assert.match(res.headers['content-security-policy'] as string, `script-src 'self' 'nonce-${nonce}'`)
        }
        // A customer's page never carries the back office's code.
        for (const url of ['/operateurs', '/tableau-de-bord', '/operateur-x', '/login']) {
          const res = await page(t, url)
          assert.is(res.statusCode, 200, url)
          assert.not.match(res.body, 'backoffice', url)
        }
      }
    } finally {
      await rm(join(distDir, 'pages.json'), { force: true })
      await rm(join(distDir, 'signed-in.html'))
      await rm(join(distDir, 'operateur.html'))
    }
  },
)

spa('security headers on every answer', async ({ t }) => {
  const answers = [
    await page(t, '/'),
    await page(t, '/mentions-legales'),
    await t.app.inject({ method: 'GET', url: '/assets/main-ABC123.js' }),
    await t.app.inject({ method: 'GET', url: '/health' }),
    await t.app.inject({ method: 'GET', url: '/api-protected/users/me' }),
  ]
  for (const res of answers) {
    assert.is(res.headers['x-content-type-options'], 'nosniff')
    assert.is(res.headers['referrer-policy'], 'strict-origin-when-cross-origin')
    assert.is(res.headers['x-frame-options'], 'DENY', "as the CSP's frame-ancestors 'none'")
    // No page nor frame may use the camera, the microphone or the position; payment only the page and Stripe's frames.
    const policy = String(res.headers['permissions-policy'])
    for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()', 'browsing-topics=()']) assert.match(policy, denied)
    assert.match(policy, 'payment=(self "https://js.stripe.com")')
    assert.not.match(policy, 'publickey-credentials', 'passkeys keep their default (the page’s origin)')
  }
})

spa('hashed assets: long immutable cache and compression', async ({ t }) => {
  const res = await t.app.inject({ method: 'GET', url: '/assets/main-ABC123.js', headers: { 'accept-encoding': 'gzip' } })
  assert.is(res.statusCode, 200)
  assert.match(res.headers['cache-control'] as string, 'immutable')
  assert.match(res.headers['cache-control'] as string, 'max-age=31536000')
  assert.is(res.headers['content-encoding'], 'gzip')
  assert.ok(res.rawPayload.length < script.length)
  assert.is((await t.app.inject({ method: 'GET', url: '/assets/absent-000.js', headers: { accept: 'text/html' } })).statusCode, 404)
})

spa('assets are sent as the build compressed them: brotli, else gzip, else as they are; never compressed again', async ({ t }) => {
  const asset = (encoding?: string) =>
    t.app.inject({ method: 'GET', url: '/assets/main-ABC123.js', headers: encoding ? { 'accept-encoding': encoding } : {} })
  const br = await asset('gzip, deflate, br')
  assert.is(br.headers['content-encoding'], 'br')
  assert.match(br.headers['content-type'] as string, 'javascript')
  assert.match(br.headers.vary as string, /accept-encoding/i)
  assert.ok(br.rawPayload.equals(await readFile(join(distDir, 'assets', 'main-ABC123.js.br'))), 'the built .br, byte for byte')
  assert.is(brotliDecompressSync(br.rawPayload).toString(), script)
  const gz = await asset('gzip')
  assert.is(gz.headers['content-encoding'], 'gzip')
  assert.ok(gz.rawPayload.equals(await readFile(join(distDir, 'assets', 'main-ABC123.js.gz'))), 'the built .gz, byte for byte')
  assert.is(gunzipSync(gz.rawPayload).toString(), script)
  const plain = await asset()
  assert.is(plain.headers['content-encoding'], undefined)
  assert.is(plain.body, script)
  // Under 1 kB, nothing is written beside it: still served.
  assert.not.ok(existsSync(join(distDir, 'assets', 'tiny-DEF456.js.br')))
  const tiny = await t.app.inject({ method: 'GET', url: '/assets/tiny-DEF456.js' })
  assert.is(tiny.statusCode, 200)
  assert.is(tiny.body, 'export const x = 1')
})

spa('API paths never fall back to the SPA, and non-GET client paths are 404', async ({ t }) => {
  for (const url of ['/api/inconnu', '/api-protected/inconnu', '/stripe/inconnu', '/step-upload-identity/x']) {
    const res = await page(t, url)
    assert.is(res.statusCode, 404, url)
    assert.equal(res.json().statusCode, 404)
  }
  const post = await t.app.inject({ method: 'POST', url: '/tableau-de-bord', headers: { accept: 'text/html' } })
  assert.is(post.statusCode, 404)
  const json = await t.app.inject({ method: 'GET', url: '/tableau-de-bord', headers: { accept: 'application/json' } })
  assert.is(json.statusCode, 404)
})

spa('the OpenAPI document lists every route of the table and the UI is served', async ({ t }) => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
  assert.ok(doc.paths['/api-protected/domiciliation-orders/{id}:send-problem'].post)
  assert.is(doc.paths['/api/login'].post.operationId, 'login')
  const operations = Object.values(doc.paths as Record<string, object>).flatMap((p) => Object.keys(p))
  const { routes } = await import('../../server/contract/routes.ts')
  assert.is(operations.length, Object.keys(routes).length)
  const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' })
  assert.is(ui.statusCode, 200)
  assert.match(ui.body, 'swagger')
})

spa.run()

const missing = suite<Ctx>('without a built dist/')
missing.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
})
missing.after((ctx) => ctx.t?.close())

missing('client routes explain in French how to build it', async ({ t }) => {
  const res = await page(t, '/tableau-de-bord')
  assert.is(res.statusCode, 503)
  assert.match(res.body, 'npm start')
})

missing.run()
