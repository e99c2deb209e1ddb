// The browser harness of test/e2e: the built SPA served by the real server (a fresh embedded
// database with the demo data, on a free port of 127.0.0.1) and Debian's Chromium driven by
// playwright-core. A journey file, e.g. test/e2e/mail/mail.test.ts:
//
//   import { chooseOrder, MOBILE, portalSuite, signIn } from '../util/e2e.ts'
//   const Mail = portalSuite('Mes courriers')              // one server and one Chromium for the file
//   Mail('…', async ({ portal }) => {
//     const tab = await portal.open({ viewport: MOBILE })  // fresh context: empty storage, CSP enforced
//     await signIn(tab.page)
//     await chooseOrder(tab.page, 'Boulangerie des Lilas SAS')
//     …                                                     // locators, uvu assertions, screenshot()
//     await tab.close()  // fails on any console error, uncaught error or CSP violation seen meanwhile
//   })
//   Mail.run()
//
// The server runs the background jobs of the security notices only: a file whose journeys need the demo letters'
// images, text or deadlines asks for them with portalSuite(title, { prepared: true }) (startPortal the same), and
// then starts once they are made.
// Journeys that do not change data share the file's server; one that does (an upload) belongs
// where nothing after it depends on the data it changed, or gets its own startPortal().
// Run: npm run test:e2e (Chromium at /usr/bin/chromium, or CHROMIUM_PATH).
import { createRequire } from 'node:module'
import { createServer as createNetServer } from 'node:net'
import { readFileSync, rmSync } from 'node:fs'
import { access, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Order } from '../../server/contract/session.ts'
import { loadConfig, type Config } from '../../server/config.ts'
import { DEMO_PASSWORD } from '../../server/demo/seed.ts'
import { createServer } from '../../server/main.ts'
import { backgroundSettled } from './background-settled.ts'
import { SECURITY_NOTICE_JOB } from '../../server/services/security-notice.ts'
import { DATA_EXPORT_JOB } from '../../server/services/data-export.ts'
import { pageRoutes } from '../../src/views/routes.ts'

export { DEMO_PASSWORD }
export const ROOT = join(import.meta.dirname, '..', '..')
export const SCREENSHOTS_DIR = join(ROOT, 'docs', 'screenshots')

/** The brand the SPA was built with (esbuild.config.mjs reads the same variable). */
/**
 * The portal's pages that have an address of their own; a page of one item (`/mes-echanges/:id`) is opened from its list
 * by the journeys that make one (test/e2e/backoffice/compliance.test.ts, with axe-core).
 */
export const pagesWithAnAddress = pageRoutes.filter((route) => !route.path.includes(':'))

export const BRAND_NAME = process.env.BRAND_NAME || 'Domicilium'

export const MOBILE = { width: 360, height: 740 }
export const DESKTOP = { width: 1280, height: 800 }
export type Viewport = typeof MOBILE
/** Below this width the portal shows its phone layout (src/views/theme.ts). */
const DESKTOP_MIN_WIDTH = 900
export const isMobile = (viewport: Viewport) => viewport.width < DESKTOP_MIN_WIDTH

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
/** The flags Debian's Chromium runs with here (no sandbox as root, no GPU, nothing phoning home). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Each launch gets a fresh user-data-dir from playwright (removed when the browser closes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS })
}

interface BuildModule {
  isStale(): Promise<boolean>
  build(): Promise<unknown>
}

/** Every file the build's metafile lists is in this copy of dist/ (no build ran while copying). */
async function complete(copy: string): Promise<boolean> {
  try {
    const meta = JSON.parse(await readFile(join(copy, 'meta.json'), 'utf8')) as { outputs: Record<string, unknown> }
    await Promise.all(
      [join(copy, 'index.html'), ...Object.keys(meta.outputs).map((file) => join(copy, relative('dist', file)))].map((file) =>
        access(file),
      ),
    )
    return true
  } catch {
    return false
  }
}

let built: Promise<string> | undefined
/**
 * Builds dist/ when its sources changed (esbuild.config.mjs), then serves a private copy of it: a
 * build started meanwhile (npm run size, npm start, another engineer's run) empties dist/ first.
 */
export function builtSpa(): Promise<string> {
  return (built ??= (async () => {
    const { isStale, build } = (await import(pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href)) as BuildModule
    const copy = await mkdtemp(join(tmpdir(), 'portail-e2e-dist-'))
    process.once('exit', () => rmSync(copy, { recursive: true, force: true }))
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await isStale()) await build()
      await cp(join(ROOT, 'dist'), copy, { recursive: true }).catch(() => {})
      if (await complete(copy)) return copy
      await rm(copy, { recursive: true, force: true })
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
    throw new Error('dist/ change sans cesse pendant sa copie : une autre construction est en cours ?')
  })())
}

export interface Tab {
  page: Page
  context: BrowserContext
  /** Console errors, uncaught errors and CSP violations seen so far. */
  problems: string[]
  /** Console errors this journey expects (e.g. a 401 it provokes) are not problems. */
  allow(pattern: RegExp): void
  /** Closes the context, then fails if anything went wrong in it. */
  close(): Promise<void>
}

export interface OpenOptions {
  viewport?: Viewport
  /** Only for injecting tools such as axe-core (an inline script the CSP would block). */
  bypassCSP?: boolean
}

export interface Portal {
  url: string
  /** The running server: its database (deps.db) for checking what a journey stored. */
  server: Awaited<ReturnType<typeof createServer>>
  browser: Browser
  open(options?: OpenOptions): Promise<Tab>
  /** The orders a demo account sees, by company name, straight from the API. */
  orders(email?: string): Promise<Record<string, Order>>
  /** A demo account's API token, signed in straight through the API. */
  apiToken(email?: string): Promise<string>
  /** After a failed test: tells where each tab still open was (with a screenshot), then closes it. */
  closeLeftovers(test: string): Promise<void>
  close(): Promise<void>
}

declare global {
  interface Window {
    __e2eViolation?: (text: string) => void
  }
}

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/**
 * The demo data a portal starts from, made once per test run and shared by every file's servers: a server started on
 * an empty data folder (initdb, migrations, the demo seed) and, for `prepared`, left until the demo letters' images,
 * text and deadlines are made (≈ 15 s of a core for 45 letters), then closed. Each portal then starts on a copy of its
 * own, as a server restarted on its data would, instead of paying for all that again. The folder is the run's
 * (TEST_RUN_DIR, set by scripts/run-tests.mjs for every file of the run), or this process's; the first process to
 * take its lock makes it, the others wait for its « ready » mark.
 */
const demoData = new Map<boolean, Promise<string>>()
function sharedDemoData(prepared: boolean): Promise<string> {
  let made = demoData.get(prepared)
  if (!made) demoData.set(prepared, (made = makeDemoData(prepared)))
  return made
}

async function makeDemoData(prepared: boolean): Promise<string> {
  let base = process.env.TEST_RUN_DIR
  if (!base) {
    base = await mkdtemp(join(tmpdir(), 'portail-e2e-demo-'))
    process.once('exit', () => rmSync(base!, { recursive: true, force: true }))
  }
  const dir = join(base, prepared ? 'e2e-demo-prepared' : 'e2e-demo')
  const ready = join(dir, 'ready')
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    )
  for (const until = Date.now() + 180_000; !(await exists(ready)); await new Promise((resolve) => setTimeout(resolve, 250))) {
    if (Date.now() > until) throw new Error(`les données de démonstration de ${dir} ne sont toujours pas prêtes après 180 s`)
    // The first to take the lock makes the data; a maker that failed gives the lock back to the next one.
    const mine = await mkdir(`${dir}.lock`).then(
      () => true,
      () => false,
    )
    if (!mine) continue
    try {
      await rm(dir, { recursive: true, force: true })
      const server = await createServer({
        ...loadConfig({}),
        dataDir: join(dir, 'data'),
        storageDir: join(dir, 'storage'),
        distDir: join(dir, 'no-dist'),
        logLevel: 'silent',
        ...(prepared ? {} : { jobKinds: [SECURITY_NOTICE_JOB] }),
      })
      try {
        if (prepared) {
          server.startBackground()
          await backgroundSettled(server.deps.db, { timeoutMs: 120_000 })
        }
      } finally {
        await server.close()
      }
      await writeFile(ready, new Date().toISOString())
    } catch (error) {
      await rm(`${dir}.lock`, { recursive: true, force: true })
      throw error
    }
  }
  return dir
}

export async function startPortal(options: { config?: Partial<Config>; localhost?: boolean; prepared?: boolean } = {}): Promise<Portal> {
  const distDir = await builtSpa()
  const prepared = options.prepared || process.env.SCREENSHOTS === '1'
  const dir = await mkdtemp(join(tmpdir(), 'portail-e2e-'))
  // A journey that names its own data folder (a restart on the same data) starts from it; the others from a copy of
  // the run's demo data.
  if (!options.config?.dataDir) await cp(await sharedDemoData(prepared), dir, { recursive: true })
  // WebAuthn (passkeys) needs a host name, not an IP: such a portal is reached at http://localhost:<port>,
  // known before starting so that PUBLIC_URL (the relying party and e-mail links) names it.
  const port = options.localhost ? await freePort() : 0
  const server = await createServer({
    ...loadConfig(options.localhost ? { PORT: String(port) } : {}),
    dataDir: join(dir, 'data'),
    storageDir: join(dir, 'storage'),
    distDir,
    logLevel: 'silent',
    // Every journey signs in from 127.0.0.1: the per-IP limit of login attempts would stop them.
    authRateLimit: 10_000,
    // The demo letters' pipeline runs only where the file asked for its results (`prepared`, already made in the
    // shared data) and for the screenshots; the others run the security notices and « Mes données »'s exports alone
    // (JOB_KINDS: both run only when a journey asks), so the pipeline does not take a core from their journeys on a 2-core machine.
    ...(prepared ? {} : { jobKinds: [SECURITY_NOTICE_JOB, DATA_EXPORT_JOB] }),
    ...options.config,
  })
  let browser: Browser | undefined
  try {
    await server.app.listen({ port, host: '127.0.0.1' })
    server.startBackground()
    browser = await launchChromium()
    // A journey on its own data folder with `prepared` still waits for the letters there.
    if (prepared) await backgroundSettled(server.deps.db, { timeoutMs: 120_000 })
  } catch (error) {
    await server.close()
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  const url = `http://${options.localhost ? 'localhost' : '127.0.0.1'}:${(server.app.server.address() as { port: number }).port}`
  const tabs = new Set<Tab>()

  async function open({ viewport = DESKTOP, bypassCSP = false }: OpenOptions = {}): Promise<Tab> {
    const mobile = isMobile(viewport)
    const context = await browser!.newContext({
      baseURL: url,
      viewport,
      bypassCSP,
      locale: 'fr-FR',
      timezoneId: 'Europe/Paris',
      reducedMotion: 'reduce',
      isMobile: mobile,
      hasTouch: mobile,
    })
    context.setDefaultTimeout(20_000)
    const problems: string[] = []
    const allowed: RegExp[] = []
    await context.exposeFunction('__e2eViolation', (text: string) => problems.push(`CSP : ${text}`))
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__e2eViolation?.(`${e.violatedDirective} bloque ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
      )
    })
    const page = await context.newPage()
    trackRequests(page)
    page.on('console', (message) => {
      const text = message.text()
      if (message.type() === 'error' && !allowed.some((p) => p.test(text))) problems.push(`console : ${text} (${page.url()})`)
    })
    page.on('pageerror', (error) => problems.push(`erreur : ${error.message} (${page.url()})`))
    // Intercept file choosers from the start: enabled lazily by waitForEvent('filechooser'), the
    // interception can come after a key press that opens one, and headless Chromium cancels it.
    page.on('filechooser', () => {})
    const tab: Tab = {
      page,
      context,
      problems,
      allow: (pattern) => void allowed.push(pattern),
      async close() {
        tabs.delete(tab)
        await context.close()
        if (problems.length) throw new Error(`Problèmes dans le navigateur :\n- ${problems.join('\n- ')}`)
      },
    }
    tabs.add(tab)
    return tab
  }

  async function closeLeftovers(test: string) {
    for (const tab of tabs) {
      const picture = join(tmpdir(), `portail-e2e-echec-${Date.now()}.png`)
      const text = await tab.page.evaluate(() => document.body?.innerText.slice(0, 400) ?? '').catch(() => '')
      await tab.page.screenshot({ path: picture }).catch(() => {})
      console.error(
        `\n[e2e] « ${test} » : onglet resté ouvert sur ${tab.page.url()}\n  capture : ${picture}\n  texte : ${JSON.stringify(text)}\n  problèmes : ${tab.problems.join(' | ') || 'aucun'}`,
      )
      tabs.delete(tab)
      await tab.context.close().catch(() => {})
    }
  }

  async function apiToken(email = 'demo@example.com'): Promise<string> {
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
    })
    return ((await login.json()) as { apiToken: string }).apiToken
  }

  async function orders(email = 'demo@example.com'): Promise<Record<string, Order>> {
    const token = await apiToken(email)
    const list = (await (await fetch(`${url}/api-protected/my-domiciliation-orders`, { headers: { apiToken: token } })).json()) as Order[]
    return Object.fromEntries(list.map((o) => [o.raisonSociale, o]))
  }

  return {
    url,
    server,
    browser,
    open,
    orders,
    apiToken,
    closeLeftovers,
    async close() {
      for (const tab of tabs) await tab.context.close().catch(() => {})
      await browser!.close()
      await server.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A uvu suite whose tests get `{ portal }`: started before the first test, closed after the last. */
export function portalSuite(title: string, options?: Parameters<typeof startPortal>[0]) {
  const test = suite<{ portal: Portal; __test__: string }>(title, {} as { portal: Portal; __test__: string })
  test.before(async (context) => {
    context.portal = await startPortal(options)
  })
  test.after.each(async (context) => {
    await context.portal?.closeLeftovers(context.__test__)
  })
  test.after(async (context) => {
    await context.portal?.close()
  })
  return test
}

// notifications: the bell keeps one request open (its live stream), so Playwright's
// 'networkidle' never comes; networkIdle() waits for every other request to be over for 500 ms.
const inFlight = new WeakMap<Page, Set<unknown>>()
const LONG_LIVED = /\/api-protected\/notifications\/stream$/

function trackRequests(page: Page) {
  const requests = new Set<unknown>()
  inFlight.set(page, requests)
  page.on('request', (request) => {
    if (!LONG_LIVED.test(request.url())) requests.add(request)
  })
  const done = (request: unknown) => void requests.delete(request)
  page.on('requestfinished', done)
  page.on('requestfailed', done)
}

/** Like waitForLoadState('networkidle'), the notifications stream left aside. */
export async function networkIdle(page: Page, quietMs = 500, timeoutMs = 20_000) {
  await page.waitForLoadState('load')
  const requests = inFlight.get(page)
  const until = Date.now() + timeoutMs
  let quietSince = Date.now()
  for (;;) {
    if (requests && requests.size > 0) quietSince = Date.now()
    else if (Date.now() - quietSince >= quietMs) return
    if (Date.now() > until) throw new Error(`networkIdle : encore ${requests?.size} requête(s) après ${timeoutMs} ms`)
    await page.waitForTimeout(50)
  }
}

/**
 * Every request the tab's pages make, and those that went (or tried to go) elsewhere than `origin`. Intercepted (the
 * default), a request to another origin is aborted, never sent; Playwright's routing also turns the browser's cache
 * off, so every page fetches its scripts again. `{ intercept: false }` only watches, the cache kept: for tours whose
 * CSP is enforced (the CSP stops such a request before it leaves, and the tab reports the violation), where a tour of
 * every page took 1.7 times as long with its requests routed.
 */
export async function recordRequests(context: BrowserContext, origin: string, { intercept = true } = {}) {
  const seen: string[] = []
  const elsewhere: string[] = []
  // Only the network counts: data:, blob: and the browser's own chrome:// pages (its PDF viewer) never leave it.
  const local = (url: string) => !/^(https?|wss?):/.test(url) || new URL(url).origin === origin
  const record = (url: string) => {
    seen.push(url)
    if (local(url)) return true
    elsewhere.push(url)
    return false
  }
  if (!intercept) context.on('request', (request) => void record(request.url()))
  // Routed before any page opens: a request to another origin is recorded and aborted, so nothing leaves the machine.
  else await context.route('**/*', (route) => (record(route.request().url()) ? route.continue() : route.abort('blockedbyclient')))
  return { seen, elsewhere }
}

// ——— Steps every journey takes ———

export async function signIn(page: Page, email = 'demo@example.com', password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Adresse e-mail', { exact: true }).fill(email)
  await page.getByLabel('Mot de passe', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
}

/** On 'Sélectionnez la domiciliation': a company, or 'Tous'. */
export async function chooseOrder(page: Page, company: string) {
  await page.getByRole('heading', { name: 'Sélectionnez la domiciliation' }).waitFor()
  await orderButton(page, company).click()
}

/** An entry of the selection screen: its name holds the company (or starts with 'Tous'). */
export const orderButton = (page: Page, company: string) => page.getByRole('button', { name: company === 'Tous' ? /^Tous\b/ : company })

/** Camille signed in, the bakery chosen, on Mes courriers with its letters listed (the mail journeys' start). */
export async function openLetters(page: Page) {
  await signIn(page)
  await chooseOrder(page, 'Boulangerie des Lilas SAS')
  await pageTitle(page, 'Tableau de bord').waitFor()
  await page.goto('/mes-courriers/courriers')
  await page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').first().waitFor()
}

export async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path)
}

/** The page's title in the header (spec §2: taken from the route's metadata). */
export const pageTitle = (page: Page, title: string) => page.getByRole('heading', { name: title, level: 1, exact: true })

/** A toast of react-hot-toast (role=status) with this text. */
export const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })

/** On a phone the sidebar is a drawer: open it before using its links and buttons. */
export async function openMenu(page: Page, viewport: Viewport) {
  if (!isMobile(viewport)) return
  await page.getByRole('button', { name: 'Ouvrir le menu' }).click()
  await page.getByRole('complementary', { name: 'Menu principal' }).getByRole('button', { name: 'Fermer le menu' }).waitFor()
}

/** Whether the element is the one that has the keyboard focus. */
export const isFocused = (locator: ReturnType<Page['locator']>) => locator.evaluate((element) => element === document.activeElement)

/** docs/screenshots/<name>.png, for the README, with `SCREENSHOTS=1` (`npm run screenshots`). Otherwise taken but not
 *  written, so that a test run does not rewrite the documentation's pictures (their dates and anti-aliasing change at
 *  every run); the journeys go through the same steps either way. */
export async function screenshot(page: Page, name: string) {
  const path = process.env.SCREENSHOTS === '1' ? join(SCREENSHOTS_DIR, `${name}.png`) : undefined
  if (path) await mkdir(SCREENSHOTS_DIR, { recursive: true })
  await page.mouse.move(0, 0) // no hover effect left where the last click was
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' })
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
let axeCoreSource: string | undefined

interface AxeViolation {
  id: string
  impact?: string | null
  help: string
  nodes: { target: unknown[]; html: string; failureSummary?: string }[]
}

/**
 * Checks the tab's page as it is now with axe-core; every finding of every screen is reported at the end, when the tab
 * closes (test/e2e/a11y.test.ts, and the navigation tours, test/e2e/navigation.test.ts, which check every page).
 */
export function axeChecker(tab: Tab, viewport: Viewport) {
  const findings: string[] = []
  return {
    async check(screen: string) {
      // The page as it is read, not hovered: the pointer off every control (a hovered button's colours are its own).
      await tab.page.mouse.move(0, 0)
      for (const violation of await seriousViolations(tab.page)) findings.push(`${screen} (${viewport.width} px) : ${violation}`)
    },
    async done() {
      await tab.close()
      assert.equal(findings, [], findings.join('\n'))
    },
  }
}

/**
 * What a 360 px phone would suffer on the page as it is: the page wider than the screen (the browser then widens its
 * layout and everything scrolls sideways), the header's title clipped, a control of the bars or of a dialog, a dialog's
 * checkbox row or a link standing alone (a list's entry, a paragraph's only link) less than 44 px (a link inside a
 * sentence is not a target of its own). `where` names the screen in each finding.
 */
export function phoneLayoutProblems(page: Page, where: string): Promise<string[]> {
  return page.evaluate((where) => {
    const found: string[] = []
    // A phone's browser widens its layout to the widest content: the page then scrolls sideways and dialogs overflow.
    if (document.documentElement.scrollWidth > 360) found.push(`${where}: page ${document.documentElement.scrollWidth} px wide`)
    const h1 = document.querySelector<HTMLElement>('header h1')
    if (h1 && h1.scrollWidth > h1.clientWidth + 1) found.push(`${where}: title clipped (${h1.scrollWidth} > ${h1.clientWidth})`)
    const controls = [
      ...document.querySelectorAll<HTMLElement>('header button, #contenu ~ * button, nav button, [role="dialog"] header button'),
    ]
    const targets = document.querySelectorAll<HTMLElement>(
      '#contenu li > a, #contenu p > a:only-child, [role="dialog"] button, [role="dialog"] label:has(> input[type="checkbox"])',
    )
    for (const el of [...controls, ...targets]) {
      const box = el.getBoundingClientRect()
      if (box.width === 0) continue
      if (box.height < 44 || (el.tagName === 'BUTTON' && box.width < 44))
        found.push(`${where}: « ${el.innerText || el.getAttribute('aria-label')} » ${Math.round(box.width)}×${Math.round(box.height)}`)
    }
    return found
  }, where)
}

/** A page of the dashboard layout, loaded and settled: the network quiet, no spinner left in the content. */
export async function settled(page: Page) {
  await networkIdle(page)
  await page.waitForFunction(() => !document.querySelector('#contenu [role="status"]'))
}

/** axe-core's serious and critical violations on the page as it is (the page's CSP enforced or not). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol, not a <script>: the page's CSP (no inline script) stays enforced.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate((axeCoreSource ??= readFileSync(AXE_PATH, 'utf8')))
  // Colours mid-transition (a button coming back from its disabled look) are not the page's: let the finite
  // transitions and animations end first (a spinner's endless one is left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  )
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}) : ${v.help} — ${v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`)
          .join(' | ')}`,
    )
}

/** A small, complete PDF (the server checks the bytes, not the name). */
export async function samplePdf(title = 'Extrait Kbis'): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  pdf.addPage([595, 842]).drawText(title, { x: 72, y: 760, size: 18, font })
  return Buffer.from(await pdf.save())
}
