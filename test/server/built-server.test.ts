// apispeed: production runs the server pre-built by esbuild (dist-server/server.mjs) with plain node, no tsx: the
// bundle must start, migrate a fresh embedded database and answer, then stop cleanly on SIGTERM.
// tests: the embedded database only (the built server on a fresh embedded database; left out of the PostgreSQL run)
import { fork, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
// @ts-expect-error: a plain .mjs build script, without types
import { buildServer } from '../../esbuild.server.mjs'
import { DEMO_PASSWORD } from '../util/server.ts'
import { tinyPdf } from '../util/server-samples.ts'
import { imageOnlyPdf } from '../util/letters.ts'
import { drawScanPicture, greyPgm, type RenderedPage } from '../../server/services/letter-render.ts'
import { parseScans, scanPicture } from '../../server/services/scan-picture.ts'

const test = suite('the pre-built server')

test('node dist-server/server.mjs starts on a fresh database (from its migrated template) with the demo data, answers /health and the API, renders letters once up in its render process (a bare scan from its own picture), checks an uploaded PDF on its worker, and stops on SIGTERM', async () => {
  // Inside the project (.tmp/ is ignored by git): the bundle imports its packages from the project's node_modules.
  await mkdir(join(import.meta.dirname, '../../.tmp'), { recursive: true })
  const dir = await mkdtemp(join(import.meta.dirname, '../../.tmp/built-server-'))
  try {
    const outdir = join(dir, 'dist-server')
    await buildServer({ outdir })
    const bundle = await readFile(join(outdir, 'server.mjs'), 'utf8')
    assert.not.match(bundle, /from ["']tsx/, 'the bundle needs no TypeScript loader')
    assert.ok(existsSync(join(outdir, 'letter-render-child.mjs')), 'the render process’s entry beside server.mjs')
    assert.match(bundle, '"./letter-render-child.mjs"')
    // What only some requests need stays out of what every start compiles: pdf-lib (uploads' checks, certificates, the
    // demo's drawing) and @simplewebauthn/server (passkeys) are chunks of their own, imported at their first use.
    assert.not.match(bundle, /function generateRegistrationOptions/, '@simplewebauthn/server in the start bundle')
    assert.not.match(bundle, /PDFDocument = /, 'pdf-lib in the start bundle')
    const chunks = await Promise.all(
      (await readdir(join(outdir, 'chunks')))
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => readFile(join(outdir, 'chunks', name), 'utf8')),
    )
    assert.ok(
      chunks.some((code) => /PDFDocument = /.test(code)) && chunks.some((code) => /function generateRegistrationOptions/.test(code)),
      'each in a chunk',
    )
    const child = spawn(process.execPath, [join(outdir, 'server.mjs')], {
      env: {
        ...process.env,
        PORT: '0',
        DATABASE_URL: '',
        DATA_DIR: join(dir, 'data'),
        STORAGE_DIR: join(dir, 'storage'),
        DIST_DIR: join(dir, 'no-dist'),
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`le serveur construit s’est arrêté (code ${code})`)))
        child.on('message', (message: { ready?: boolean; port?: number }) => {
          if (message.ready && message.port) resolve(message.port)
        })
      })
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      assert.is(health.status, 200)
      assert.equal(await health.json(), { status: 'ok', database: 'pglite', paymentProvider: 'test' })
      const account = await fetch(`http://127.0.0.1:${port}/api-protected/user/me`)
      assert.is(account.status, 401)
      assert.is((await account.json()).message, 'Veuillez vous connecter.')
      // The password rule (its list travels with the bundle) and the migrated tables (from the template) both answer.
      const reset = await fetch(`http://127.0.0.1:${port}/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'x'.repeat(43), password: 'une phrase assez longue' }),
      })
      assert.is(reset.status, 400)
      assert.match((await reset.json()).message, /^Ce lien de réinitialisation est invalide/)
      // The job worker, started once the server said it was ready (server.ts), renders the demo letters' pages in the
      // render process, an entry of the bundle of its own (letter-render-child.mjs), run by plain node.
      const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo@example.com', password: DEMO_PASSWORD }),
      })
      const { apiToken } = (await login.json()) as { apiToken: string }
      let rendered = false
      for (const until = Date.now() + 60_000; !rendered && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 200))) {
        const letters = (await (await fetch(`http://127.0.0.1:${port}/api-protected/documents`, { headers: { apiToken } })).json()) as {
          pageImages: number
        }[]
        rendered = letters.some((letter) => letter.pageImages > 0)
      }
      assert.ok(rendered, 'a demo letter rendered by the worker')
      // The upload check reads a PDF on its worker thread, an entry of the bundle of its own (pdf-check-worker.mjs).
      const contracts = (await (
        await fetch(`http://127.0.0.1:${port}/api-protected/contracts`, { headers: { authorization: `Bearer ${apiToken}` } })
      ).json()) as { id: number; raisonSociale: string }[]
      const atelier = contracts.find((contract) => contract.raisonSociale === 'Atelier Lumière SARL')!
      const kbis = await fetch(`http://127.0.0.1:${port}/api-protected/contracts/${atelier.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kbis: `data:application/pdf;base64,${(await tinyPdf()).toString('base64')}` }),
      })
      assert.is(kbis.status, 200, await kbis.clone().text())
      assert.is((await kbis.json()).kbis, `/api-protected/contracts/${atelier.id}/kbis`)
    } finally {
      child.kill('SIGTERM')
    }
    assert.is(await exited, 0)
    // The template was copied in whole (renamed from its copy, none left behind), and stays as built.
    assert.ok(existsSync(join(dir, 'data', 'pglite', 'PG_VERSION')), 'the copied database')
    assert.equal(
      (await readdir(join(dir, 'data'))).filter((name) => name.includes('copie')),
      [],
    )
    assert.ok(existsSync(join(outdir, 'pglite-template', 'PG_VERSION')), 'the template')
    await bareScanInBuiltRenderer(join(outdir, 'letter-render-child.mjs'))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

/**
 * The built render process draws a bare scan from its own picture (scan-picture.ts, pdf-lib in the bundle), exactly as
 * the sources do: the page OCR reads is byte for byte the bare drawing. Should the bundle break that path, the page
 * would quietly be drawn by pdf.js instead, slower (the bundle once gave a dynamic import of pdf-lib no named exports).
 */
async function bareScanInBuiltRenderer(entry: string) {
  const pdf = await imageOnlyPdf(['URSSAF Ile-de-France', 'BOULANGERIE DES LILAS SAS'])
  const child = fork(entry, [String(450 * 2 ** 20), String(200 * 2 ** 20)], {
    execArgv: [],
    env: { ...process.env, NODE_OPTIONS: '' },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'],
  })
  try {
    const replies: { type: string; page?: RenderedPage; message?: string }[] = []
    let waiting: (() => void) | undefined
    child.on('message', (reply: (typeof replies)[number]) => {
      replies.push(reply)
      waiting?.()
    })
    const next = async () => {
      while (!replies.length) await new Promise<void>((resolve) => (waiting = resolve))
      return replies.shift()!
    }
    const ask = (request: object) => (child.send(request), next())
    assert.is((await next()).type, 'ready')
    assert.is((await ask({ type: 'open', pdf })).type, 'opened')
    const drawn = await ask({ type: 'draw', number: 1, mode: 'full', layer: '' })
    assert.is(drawn.type, 'drawn', drawn.message)
    const bare = scanPicture((await parseScans(pdf))!, 0)!
    const expected = greyPgm((await drawScanPicture(bare, 1240, 1754, 1240 / 595))!)
    assert.ok(drawn.page!.scan && Buffer.from(drawn.page!.scan).equals(Buffer.from(expected)), 'the bare drawing, from the bundle')
  } finally {
    child.kill()
  }
}

test.run()
