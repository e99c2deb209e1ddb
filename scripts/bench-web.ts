// npm run bench:web — a benchmark, not a test: what the browser downloads first (from scripts/size.mjs,
// which is the CI check), the time from the login click to the dashboard painted (median of several
// runs, with the API round trips on the way), and Lighthouse (mobile) on /login and /tableau-de-bord.
// Writes the "Web" section of docs/BENCHMARKS.md. BENCH_RUNS sets the number of runs (default 7).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync, brotliCompressSync, constants } from 'node:zlib'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import * as chromeLauncher from 'chrome-launcher'
import * as esbuild from 'esbuild'
import Fastify from 'fastify'
import lighthouse from 'lighthouse'
import { type Browser, chromium } from 'playwright-core'
import { backgroundSettled } from '../test/util/background-settled.ts'
import { machineDescription, median, saveSection } from './bench-report.ts'
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DEMO_PASSWORD, builtSpa, MOBILE, type Portal, ROOT, startPortal } from '../test/util/e2e.ts'

const RUNS = Number(process.env.BENCH_RUNS || 7)
// Lighthouse's simulated LCP of /login is bimodal on a loopback (docs/BENCHMARKS.md): 7 runs, and every run written.
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 7)
/** One order: the dashboard comes straight after the login, without the selection screen. */
const ACCOUNT = { email: 'solo@example.com', greeting: 'Bonjour Sophie' }

interface Size { raw: number; gzip: number; brotli: number }
interface Analysis {
  sizes: Map<string, Size>; lazyChunks: string[]; firstLoad: Record<string, Size>; main: string
  /** The modules of the signed-in code (src/views/signedIn.ts), every area's flows among them. */
  signedInSources: string[]
  meta: { outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string }[] }> }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const ms = (value: number) => `${Math.round(value)} ms`

// ——— Sizes ———

async function sizes() {
  const { analyse } = (await import(pathToFileURL(join(ROOT, 'scripts/size.mjs')).href)) as { analyse(): Analysis }
  const analysis = analyse()
  const css = Object.keys(analysis.meta.outputs).filter((file) => file.endsWith('.css'))
  const html = await readFile(join(ROOT, 'dist/index.html'))
  return { ...analysis, css, html: { raw: html.length, gzip: gzipSync(html, { level: 9 }).length, brotli: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length } }
}

// ——— Login click → dashboard painted ———

interface Fetched { path: string; start: number; end: number; api: boolean }
interface LoginRun {
  totalMs: number
  /** Until the answer of POST /api/login (scrypt on the server). */
  loginMs: number
  /** The longest chain of the startup's API calls (spec §4), each sent after the previous one answered. */
  apiRoundTrips: number
  startupCalls: string[]
  /** Calls for the page's data, started with the layout, and how many had answered by the paint. */
  dataCalls: number
  dataCallsBeforePaint: number
  chunks: number
}

/** The longest chain of calls, each started after the previous one answered. */
function roundTrips(fetched: Fetched[]): number {
  const depth = new Map<Fetched, number>()
  for (const call of [...fetched].sort((a, b) => a.start - b.start)) {
    const before = fetched.filter((other) => depth.has(other) && other.end <= call.start).map((other) => depth.get(other)!)
    depth.set(call, 1 + Math.max(0, ...before))
  }
  return Math.max(0, ...depth.values())
}

async function loginToDashboard(portal: Portal, code: { extra: string[] }): Promise<LoginRun> {
  // A first visit on a phone: empty cache and storage.
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  try {
    await page.goto('/login')
    await page.waitForLoadState('networkidle') // the session's code, fetched once the page is idle
    await page.getByLabel('Adresse e-mail', { exact: true }).fill(ACCOUNT.email)
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
    // Using the form fetched the signed-in code (LoginPage): a person typing gives it that time.
    await page.waitForFunction((urls) => {
      const fetched = new Set(performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname))
      return urls.every((url) => fetched.has(url))
    }, code.extra)
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)))
    await page.evaluate((greeting) => {
      const marks: { click?: number; paint?: number } = {}
      ;(window as unknown as { benchMarks: typeof marks }).benchMarks = marks
      document.querySelector('form')!.addEventListener('submit', () => { marks.click = performance.now() }, { capture: true })
      new MutationObserver((_, observer) => {
        if (![...document.querySelectorAll('h2')].some((h) => h.textContent === greeting)) return
        observer.disconnect()
        // The frame after the one that rendered the greeting: it has been painted.
        requestAnimationFrame(() => requestAnimationFrame(() => { marks.paint = performance.now() }))
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
    }, ACCOUNT.greeting)
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.waitForFunction(() => (window as unknown as { benchMarks: { paint?: number } }).benchMarks.paint !== undefined)
    const { click, paint, entries } = await page.evaluate(() => {
      const { click, paint } = (window as unknown as { benchMarks: { click: number; paint: number } }).benchMarks
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
      return { click, paint, entries: entries.map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd })) }
    })
    const fetched: Fetched[] = entries
      .filter((e) => e.start >= click)
      .map((e) => {
        const path = new URL(e.name).pathname
        return { path, start: e.start, end: e.end, api: !path.startsWith('/assets/') }
      })
    // The startup (spec §4) ends with the orders; the page's data loads start once they are known.
    const ordersAnswered = fetched.find((f) => f.path === '/api-protected/my-domiciliation-orders')?.end ?? Number.POSITIVE_INFINITY
    const startup = fetched.filter((f) => f.api && f.start < ordersAnswered)
    const data = fetched.filter((f) => f.api && f.start >= ordersAnswered)
    return {
      totalMs: paint - click, loginMs: (startup.find((f) => f.path === '/api/login')?.end ?? Number.NaN) - click, apiRoundTrips: roundTrips(startup), startupCalls: startup.map((f) => f.path),
      dataCalls: data.length, dataCallsBeforePaint: data.filter((f) => f.end <= paint).length,
      chunks: fetched.filter((f) => !f.api && f.end <= paint).length,
    }
  } finally {
    await tab.close()
  }
}

// ——— The ceilings, measured in the same run ———

/** The startup's API calls (spec §4) by plain HTTP from Node, to the same server: login, then the user and the contracts together, then the orders. */
async function apiRoundTrips(portal: Portal): Promise<number> {
  const started = performance.now()
  const login = await fetch(`${portal.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ACCOUNT.email, password: DEMO_PASSWORD }) })
  const { apiToken } = (await login.json()) as { apiToken: string }
  const get = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(`${portal.url}${path}`, { headers })
    if (!response.ok) throw new Error(`${path} : ${response.status}`)
    await response.arrayBuffer()
  }
  await Promise.all([get('/api-protected/user/me', { apiToken }), get('/api-protected/contracts', { authorization: `Bearer ${apiToken}` })])
  await get('/api-protected/my-domiciliation-orders', { apiToken })
  return performance.now() - started
}

/** The chunks of a chunk's static closure (itself included). */
function closure(meta: Analysis['meta'], file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const imported of meta.outputs[file]!.imports) if (imported.kind === 'import-statement') closure(meta, imported.path, seen)
  return seen
}

/** The code signing in needs beyond /login's (src/views/signedIn.ts), as URLs, and /login's static chunks. */
function dashboardCode(analysis: Analysis) {
  const { meta, main, signedInSources } = analysis
  const url = (file: string) => '/' + relative('dist', file)
  const byEntry = (source: string) => Object.keys(meta.outputs).find((file) => meta.outputs[file]!.entryPoint === source)!
  const login = closure(meta, main)
  const signedIn = new Set(signedInSources
    .flatMap((source) => [...closure(meta, byEntry(source))]))
  return {
    // main itself would start the app: its static chunks are what /login has evaluated before the click.
    login: [...login].filter((file) => file !== main).map(url),
    extra: [...signedIn].filter((file) => !login.has(file)).map(url),
  }
}

/**
 * Parsing and running the dashboard's code in Chromium, and nothing else: a blank page of the same
 * origin, fresh context (no code cache), every file already in its HTTP cache (fetched first), /login's
 * chunks evaluated first as they are before the click; the measure is around importing the rest.
 */
async function evaluation(portal: Portal, code: ReturnType<typeof dashboardCode>): Promise<number> {
  const context = await portal.browser.newContext({ viewport: MOBILE })
  try {
    const page = await context.newPage()
    await page.route(`${portal.url}/plafond-js`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<!doctype html><html lang="fr"><title>plafond</title><body></body></html>' }))
    await page.goto(`${portal.url}/plafond-js`)
    return await page.evaluate(async ({ login, extra }) => {
      await Promise.all([...login, ...extra].map(async (url) => (await fetch(url)).arrayBuffer()))
      await Promise.all(login.map((url) => import(url)))
      performance.mark('évaluation-début')
      await Promise.all(extra.map((url) => import(url)))
      return performance.measure('évaluation', 'évaluation-début').duration
    }, code)
  } finally {
    await context.close()
  }
}

/** A page made of React alone (react-dom rendering a heading and a paragraph), built and served like the portal's: the Lighthouse ceiling. */
async function reactOnlyPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-react-seul-'))
  const entry = join(dir, 'entry.tsx')
  await writeFile(entry, [
    "import { createRoot } from 'react-dom/client'",
    "createRoot(document.getElementById('root')!).render(<main><h1>Connexion à votre espace client</h1><p>Une page faite de React seul : le plafond de Lighthouse.</p></main>)",
  ].join('\n'))
  await esbuild.build({
    entryPoints: [entry], outdir: join(dir, 'assets'), bundle: true, format: 'esm', minify: true, jsx: 'automatic', entryNames: 'main',
    nodePaths: [join(ROOT, 'node_modules')], define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'warning', legalComments: 'none',
  })
  const html = '<!doctype html><html lang="fr"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />'
    + '<meta name="description" content="React seul." /><title>React seul</title><link rel="icon" href="data:," />'
    + '<script type="module" src="/assets/main.js"></script></head><body><div id="root"></div></body></html>'
  // The same compression and caching as the portal's server (server/app.ts, server/http/spa.ts).
  const app = Fastify()
  await app.register(compress, { global: true, threshold: 1024 })
  await app.register(fastifyStatic, { root: join(dir, 'assets'), prefix: '/assets/', maxAge: '365d', immutable: true, index: false })
  app.get('/', (_, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: `${address}/`, close: async () => { await app.close(); await rm(dir, { recursive: true, force: true }) } }
}

// ——— Lighthouse (mobile) ———

interface LighthouseFigures { performance: number; accessibility: number; bestPractices: number; fcp: number; lcp: number; tbt: number; cls: number; speedIndex: number }
/** The median of each figure, every run in its order, and the runs Lighthouse could not measure (their error). */
interface LighthouseSeries extends LighthouseFigures { runs: LighthouseFigures[]; failed: string[] }

/** A run Lighthouse could not measure (a runtime error, no performance score): not a score of 0, it is run again. */
class FailedRun extends Error {}

async function lighthouseRun(url: string, signIn: boolean, portal: Portal): Promise<LighthouseFigures> {
  // A fresh Chromium (and user-data-dir) per run: every run starts with an empty cache.
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, ignoreDefaultFlags: true })
  let signedIn: Browser | undefined
  try {
    if (signIn) {
      // Lighthouse would clear the storage: sign in first, then keep it (disableStorageReset).
      const response = await fetch(`${portal.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ACCOUNT.email, password: DEMO_PASSWORD }) })
      const user = await response.text()
      signedIn = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
      const page = await signedIn.contexts()[0]!.newPage()
      await page.goto(`${portal.url}/login`)
      await page.evaluate((stored) => localStorage.setItem('user', stored), user)
      await page.close()
    }
    const result = await lighthouse(url, {
      port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'], disableStorageReset: signIn,
    })
    if (!result) throw new Error(`Lighthouse n’a rien rendu pour ${url}`)
    const { categories, audits, runtimeError } = result.lhr
    if (runtimeError || categories.performance?.score == null) throw new FailedRun(runtimeError ? `${runtimeError.code} : ${runtimeError.message}` : 'pas de score de performance')
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100)
    const value = (id: string) => audits[id]?.numericValue ?? Number.NaN
    return {
      performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'),
      fcp: value('first-contentful-paint'), lcp: value('largest-contentful-paint'), tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'), speedIndex: value('speed-index'),
    }
  } finally {
    await signedIn?.close()
    chrome.kill()
  }
}

async function lighthouseMedian(url: string, signIn: boolean, portal: Portal): Promise<LighthouseSeries> {
  const runs: LighthouseFigures[] = []
  const failed: string[] = []
  // A failed run is run again, at most LIGHTHOUSE_RUNS times in all: a median with a 0 in it would say nothing true.
  while (runs.length < LIGHTHOUSE_RUNS) {
    try {
      runs.push(await lighthouseRun(url, signIn, portal))
    } catch (error) {
      if (!(error instanceof FailedRun) || failed.length >= LIGHTHOUSE_RUNS) throw error
      failed.push(error.message)
      console.log(`[bench:web] Lighthouse ${url} : exécution ratée (${error.message}), refaite`)
    }
  }
  const figures = Object.fromEntries(Object.keys(runs[0]!).map((key) => [key, median(runs.map((r) => r[key as keyof LighthouseFigures]))]))
  return { ...(figures as unknown as LighthouseFigures), runs, failed }
}

/** "median (lowest–highest)" of one figure over the runs. */
function spread(series: LighthouseSeries, key: 'performance' | 'lcp', format: (value: number) => string) {
  const values = series.runs.map((r) => r[key])
  return `${format(series[key])} (${format(Math.min(...values))}–${format(Math.max(...values))})`
}

// ——— The report ———

const machine = (chromiumVersion: string, lighthouseVersion: string) => machineDescription(
  `Chromium ${chromiumVersion} (Debian)`, `Lighthouse ${lighthouseVersion}`, `charge moyenne sur 1 min à la fin : ${loadavg()[0]!.toFixed(1)}`,
)

type Sizes = Awaited<ReturnType<typeof sizes>>

const FIRST_LOAD_LABELS: Record<string, string> = {
  '/login': 'JavaScript de /login, formulaire compris (le budget : 93 kB gzip)',
  '/tableau-de-bord': 'JavaScript du tableau de bord (/tableau-de-bord) : celui de /login et le code des écrans connectés, que /login charge dès que le formulaire est utilisé',
}
/** Chunks that production never loads, said as such next to their size. */
const CHUNK_NOTES: Record<string, string> = { '@statelyai/inspect': ' (inspecteur de développement : jamais chargé en production)' }

interface Ceilings {
  /** The startup's three sequential round trips by plain HTTP (Node's fetch), one per login run. */
  api: number[]
  /** Parsing and running the dashboard's code in Chromium, one per login run. */
  evaluation: number[]
  /** Lighthouse on a page made of React alone. */
  reactOnly: LighthouseSeries
}

const ratio = (value: number, ceiling: number) => `${(value / ceiling).toFixed(2)}×`

/** Each figure with its ceiling and their ratio, as printed and written. */
function comparisons(runs: LoginRun[], lh: Record<string, LighthouseSeries>, c: Ceilings) {
  const login = median(runs.map((r) => r.totalMs))
  const ceiling = median(c.api) + median(c.evaluation)
  return [
    { what: '« Se connecter » → « Bonjour Sophie » affiché (médiane)', value: ms(login), ceiling: `${ms(ceiling)} (${ms(median(c.api))} d’API + ${ms(median(c.evaluation))} de JavaScript)`, ratio: ratio(login, ceiling) },
    // The code is evaluated before the click now (fetched while the form is used): the round trips alone are the floor.
    { what: '« Se connecter » → « Bonjour Sophie » affiché, face aux seuls allers-retours d’API', value: ms(login), ceiling: ms(median(c.api)), ratio: ratio(login, median(c.api)) },
    ...Object.entries(lh).flatMap(([path, f]) => [
      { what: `Lighthouse mobile ${path} : performance, médiane (plus basse–plus haute)`, value: spread(f, 'performance', String), ceiling: String(c.reactOnly.performance), ratio: `${(f.performance / c.reactOnly.performance * 100).toFixed(0)} %` },
      { what: `Lighthouse mobile ${path} : LCP, médiane (plus bas–plus haut)`, value: spread(f, 'lcp', ms), ceiling: ms(c.reactOnly.lcp), ratio: ratio(f.lcp, c.reactOnly.lcp) },
    ]),
  ]
}

function markdown(s: Sizes, runs: LoginRun[], lh: Record<string, LighthouseSeries>, c: Ceilings, machineLine: string): string {
  const row = (label: string, size: Size) => `| ${label} | ${kB(size.raw)} | ${kB(size.gzip)} | ${kB(size.brotli)} |`
  const chunkName = (file: string) => {
    const name = (s.meta.outputs[file]?.entryPoint ?? relative('dist/assets', file)).replace(/^src\//, '')
    return name + (Object.entries(CHUNK_NOTES).find(([part]) => name.includes(part))?.[1] ?? '')
  }
  const typical = runs.find((r) => r.totalMs === median(runs.map((x) => x.totalMs))) ?? runs[0]!
  return [
    '## Web',
    '',
    `Mesuré par \`npm run bench:web\` le ${new Date().toISOString().slice(0, 10)} sur la construction de production (\`dist/\`) servie par le serveur réel (PGlite, données de démonstration).`,
    '',
    `Machine : ${machineLine}. Machine partagée (2 cœurs, d’autres travaux tournent en même temps) : les durées varient d’une exécution à l’autre ; les tailles, elles, sont exactes.`,
    '',
    '### Chaque mesure et son plafond',
    '',
    'Les plafonds sont mesurés dans la même exécution, en alternance avec les mesures : ce que la pile permet au mieux sur cette machine. '
      + 'Connexion : les trois allers-retours en série de l’amorçage (spécification §4 : POST /api/login, puis user/me et contracts ensemble, puis my-domiciliation-orders) faits par `fetch` de Node au même serveur, '
      + 'plus l’analyse et l’exécution par Chromium du JavaScript que le tableau de bord ajoute à celui de /login (page vierge de même origine, contexte neuf, fichiers déjà dans le cache HTTP, `performance.measure` autour de leurs `import()`). '
      + 'Lighthouse : une page faite de React seul (react-dom affichant un titre et un paragraphe), construite par esbuild et servie avec la même compression et le même cache que le portail.',
    '',
    '| mesure | valeur | plafond | rapport |',
    '| --- | ---: | ---: | ---: |',
    ...comparisons(runs, lh, c).map((row) => `| ${row.what} | ${row.value} | ${row.ceiling} | ${row.ratio} |`),
    '',
    '### Premier chargement',
    '',
    'JavaScript à télécharger avant que la page réponde (le point d’entrée et ses imports statiques, calculés par `scripts/size.mjs` : c’est lui qui vérifie les budgets dans `npm test`). 1 kB = 1000 octets.',
    '',
    '| quoi | brut | gzip | brotli |',
    '| --- | ---: | ---: | ---: |',
    ...Object.entries(s.firstLoad).map(([label, size]) => row(FIRST_LOAD_LABELS[label] ?? `JavaScript de ${label}`, size)),
    s.css.length === 0 ? '| CSS | 0 | 0 | 0 |' : '',
    row('index.html', s.html),
    '',
    s.css.length === 0
      ? 'Aucune feuille CSS : les styles sont écrits par goober à l’exécution, dans une seule balise `<style>` portant le nonce de la CSP ; leur poids est compté dans le JavaScript.'
      : `Feuilles CSS : ${s.css.join(', ')}.`,
    '',
    '### Morceaux chargés à la demande (budget : 20 kB gzip chacun)',
    '',
    '| morceau | brut | gzip | brotli |',
    '| --- | ---: | ---: | ---: |',
    ...s.lazyChunks.map((file) => [file, s.sizes.get(file)!] as const).sort((a, b) => b[1].gzip - a[1].gzip).map(([file, size]) => row(chunkName(file), size)),
    '',
    '### Du clic sur « Se connecter » au tableau de bord affiché',
    '',
    `${runs.length} connexions de \`${ACCOUNT.email}\` (une seule domiciliation : pas d’écran de sélection), chacune dans un contexte neuf de Chromium à 360 × 740 (cache vide ; le code des écrans connectés déjà chargé, comme /login le charge dès que le formulaire est utilisé), sans limitation de débit ni de processeur, serveur sur la même machine. Fin de la mesure : l’image qui suit le rendu de « ${ACCOUNT.greeting} ».`,
    '',
    '| médiane | minimum | maximum | dont la réponse de POST /api/login (médiane) | allers-retours d’API en série avant l’affichage | fichiers JavaScript chargés en chemin |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${ms(median(runs.map((r) => r.totalMs)))} | ${ms(Math.min(...runs.map((r) => r.totalMs)))} | ${ms(Math.max(...runs.map((r) => r.totalMs)))} | ${ms(median(runs.map((r) => r.loginMs)))} | ${typical.apiRoundTrips} | ${typical.chunks} |`,
    '',
    `Toutes les mesures, triées : ${[...runs].map((r) => r.totalMs).sort((a, b) => a - b).map(ms).join(', ')}.`,
    '',
    `Chemin critique (exécution médiane) : ${typical.startupCalls.map((p) => `\`${p}\``).join(', ')} ; les allers-retours en série sont la plus longue chaîne de ces appels dont chacun part après la réponse du précédent : la connexion, puis l’utilisateur et les contrats (en parallèle), puis les domiciliations (spécification §4). `
      + `Une fois les domiciliations connues partent ${typical.dataCalls} appels de données (courrier, colis, factures, abonnement… en parallèle) ; ${typical.dataCallsBeforePaint} avaient répondu quand le message d’accueil s’est affiché, qui ne les attend pas.`,
    '',
    `### Lighthouse (profil mobile par défaut : Moto G Power émulé, réseau 4G lent et processeur ×4 simulés)`,
    '',
    `Médiane de ${LIGHTHOUSE_RUNS} exécutions, chacune dans un Chromium neuf (cache vide) lancé par chrome-launcher avec les mêmes options que les tests ; /tableau-de-bord est ouvert connecté (\`${ACCOUNT.email}\`).`,
    '',
    '| page | performance | accessibilité | bonnes pratiques | FCP | LCP | TBT | CLS | Speed Index |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...Object.entries({ ...lh, 'page faite de React seul (plafond)': c.reactOnly }).map(([path, f]) => `| ${path} | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${ms(f.fcp)} | ${ms(f.lcp)} | ${ms(f.tbt)} | ${f.cls.toFixed(3)} | ${ms(f.speedIndex)} |`),
    '',
    'Chaque exécution, dans l’ordre (performance, LCP, TBT) :',
    '',
    ...Object.entries({ ...lh, 'page faite de React seul': c.reactOnly }).map(([path, f]) => `- ${path} : ${f.runs.map((r) => `${r.performance} (${ms(r.lcp)}, ${ms(r.tbt)})`).join(' ; ')}`
      + (f.failed.length ? ` ; et ${f.failed.length} exécution(s) ratée(s), refaite(s), hors médiane (${f.failed.join(' ; ')})` : '')),
    '',
  ].filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n')
}

await builtSpa()
const measured = await sizes()
const code = dashboardCode(measured)
console.log('[bench:web] serveur et Chromium…')
const portal = await startPortal()
const reactOnly = await reactOnlyPage()
try {
  await backgroundSettled(portal.server.deps.db, { timeoutMs: 180_000, onWait: (left) => console.log(`[bench:web] tâches de fond en cours (${left}) : la mesure attend`) })
  await loginToDashboard(portal, code) // warm-up: the server's first queries and the JIT
  await apiRoundTrips(portal)
  const runs: LoginRun[] = []
  const ceilings: Omit<Ceilings, 'reactOnly'> = { api: [], evaluation: [] }
  // Interleaved, so that the machine's load weighs on the measure and its ceiling alike.
  for (let i = 0; i < RUNS; i++) {
    runs.push(await loginToDashboard(portal, code))
    ceilings.api.push(await apiRoundTrips(portal))
    ceilings.evaluation.push(await evaluation(portal, code))
    console.log(`[bench:web] connexion ${i + 1}/${RUNS} : ${ms(runs.at(-1)!.totalMs)} (plafond : ${ms(ceilings.api.at(-1)!)} d’API + ${ms(ceilings.evaluation.at(-1)!)} de JavaScript)`)
  }
  const lh: Record<string, LighthouseSeries> = {}
  for (const [path, signIn] of [['/login', false], ['/tableau-de-bord', true]] as const) {
    console.log(`[bench:web] Lighthouse ${path}…`)
    lh[path] = await lighthouseMedian(`${portal.url}${path}`, signIn, portal)
  }
  console.log('[bench:web] Lighthouse, page faite de React seul (plafond)…')
  const all: Ceilings = { ...ceilings, reactOnly: await lighthouseMedian(reactOnly.url, false, portal) }
  for (const row of comparisons(runs, lh, all)) console.log(`[bench:web] ${row.what} : ${row.value} ; plafond ${row.ceiling} ; rapport ${row.ratio}`)
  const { version: lighthouseVersion } = JSON.parse(await readFile(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }
  const section = markdown(measured, runs, lh, all, machine(portal.browser.version(), lighthouseVersion))
  console.log(section)
  await saveSection('Web', section)
  console.log('[bench:web] docs/BENCHMARKS.md mis à jour (section Web)')
} finally {
  await reactOnly.close()
  await portal.close()
}
