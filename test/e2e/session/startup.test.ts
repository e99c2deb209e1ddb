// Issue 13 in Chromium, on the production build: once the login form has been used (the signed-in
// code is fetched then), "Se connecter" leads to the dashboard with no Suspense fallback in between
// (a reveal after one waits for React's 300 ms throttle) and with exactly the startup calls of spec §4;
// a stored user's dashboard finds its first screen's code announced by its HTML (dist/signed-in.html), fetches nothing
// else before its greeting, and sends the startup's calls before any of that code has arrived.
// Counted, never timed: the time is bench:web's.
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, MOBILE, type Portal, portalSuite, signIn, type Tab } from '../../util/e2e.ts'

/** The code-loading spinner's words (src/views/components/ui.tsx, CODE_LOADING_LABEL). */
const CODE_LOADING = 'Chargement de la page…'

const Startup = portalSuite('login → dashboard in Chromium')

/** The files a page of the portal announces (`<link rel="modulepreload">`), its HTML asked as a browser asks it. */
async function announcedBy(portal: Portal, path: string): Promise<string[]> {
  const html = await (await fetch(new URL(path, portal.url), { headers: { accept: 'text/html' } })).text()
  return [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!)
}

/** Sophie, signed in once in another tab; then a new tab, cache empty, with her user stored: a return visit. */
async function returningTab(portal: Portal) {
  const signedIn = await portal.open({ viewport: MOBILE })
  await signIn(signedIn.page, 'solo@example.com')
  await signedIn.page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
  const user = (await signedIn.page.evaluate(() => localStorage.getItem('user')))!
  await signedIn.close()
  const tab = await portal.open({ viewport: MOBILE })
  await tab.context.addInitScript((stored) => localStorage.setItem('user', stored), user)
  return tab
}

Startup(
  'Sophie signs in: the dashboard shows without a code-loading fallback, after login, user/me with contracts, then orders, each once',
  async ({ portal }) => {
    const tab = await portal.open({ viewport: MOBILE })
    const { page } = tab
    await page.goto('/login')
    await page.getByLabel('Adresse e-mail', { exact: true }).fill('solo@example.com')
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
    // Using the form fetched the first signed-in screen's code, the dashboard's layout and page in it (a person typing
    // gives it that time): every file a signed-in page announces.
    const firstScreen = await announcedBy(portal, '/tableau-de-bord')
    assert.ok(
      firstScreen.some((file) => file.includes('/signed-in-first-screen-')),
      `a signed-in page announces the first screen's code: ${firstScreen.join(', ')}`,
    )
    await page.waitForFunction((wanted) => {
      const files = new Set(performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname))
      return wanted.every((file) => files.has(file))
    }, firstScreen)
    await page.evaluate((label) => {
      const seen = { fallbacks: 0 }
      ;(window as unknown as { startupSeen: typeof seen }).startupSeen = seen
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) if (node.textContent?.includes(label)) seen.fallbacks++
      }).observe(document.body, { childList: true, subtree: true })
    }, CODE_LOADING)
    const calls: string[] = []
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (/^\/api(-protected)?\//.test(path)) calls.push(path)
    })
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    assert.is(
      await page.evaluate(() => (window as unknown as { startupSeen: { fallbacks: number } }).startupSeen.fallbacks),
      0,
      'no code-loading fallback on the way',
    )
    const startup = calls.slice(0, calls.indexOf('/api-protected/my-domiciliation-orders') + 1)
    assert.equal(
      [startup[0], [...startup.slice(1, 3)].sort(), startup[3], startup.length],
      ['/api/login', ['/api-protected/contracts', '/api-protected/user/me'], '/api-protected/my-domiciliation-orders', 4],
    )
    // Sent by the session as soon as the login answered (src/api/early.ts), taken by the startup: each once.
    const startupCalls = ['/api-protected/user/me', '/api-protected/contracts', '/api-protected/my-domiciliation-orders']
    assert.equal(
      startupCalls.map((path) => calls.filter((call) => call === path).length),
      [1, 1, 1],
      `each of the startup's calls sent once: ${calls.join(', ')}`,
    )
    await tab.close()
  },
)

Startup(
  'Sophie comes back to her dashboard: no code-loading fallback; user/me and contracts leave from the page’s head, then orders and the unpaid status, each once, never from the startup’s code',
  async ({ portal }) => {
    const tab = await portal.open({ viewport: MOBILE })
    const { page } = tab
    await signIn(page, 'solo@example.com')
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    // The startup's code: the first screen's files, those a signed-in page announces beyond the entry's imports (/login's).
    const entryImports = await announcedBy(portal, '/login')
    const startupCode = (await announcedBy(portal, '/tableau-de-bord')).filter((file) => !entryImports.includes(file))
    assert.ok(
      startupCode.some((file) => file.includes('/signed-in-first-screen-')),
      startupCode.join(', '),
    )
    // Who sent each startup call: the scripts on its initiator's stack, async parents included.
    const cdp = await tab.context.newCDPSession(page)
    await cdp.send('Network.enable')
    const senders = new Map<string, string[][]>()
    type Stack = { callFrames: { url: string }[]; parent?: Stack }
    cdp.on('Network.requestWillBeSent', (event: { request: { url: string }; initiator: { stack?: Stack } }) => {
      const scripts: string[] = []
      for (let stack = event.initiator.stack; stack; stack = stack.parent)
        scripts.push(...stack.callFrames.map((frame) => new URL(frame.url || 'about:blank').pathname))
      const path = new URL(event.request.url).pathname
      senders.set(path, [...(senders.get(path) ?? []), scripts])
    })
    // Every code-loading fallback drawn on the way, from the document's start.
    await tab.context.addInitScript((label) => {
      const seen = { fallbacks: 0 }
      ;(window as unknown as { reloadSeen: typeof seen }).reloadSeen = seen
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) if (node.textContent?.includes(label)) seen.fallbacks++
      }).observe(document, { childList: true, subtree: true })
    }, CODE_LOADING)
    await page.reload()
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    assert.is(
      await page.evaluate(() => (window as unknown as { reloadSeen: { fallbacks: number } }).reloadSeen.fallbacks),
      0,
      'the first render waited for the announced code: no code-loading fallback, no Suspense throttle',
    )
    // The greeting does not wait for the unpaid status, and a resource's timing entry exists once its answer is whole:
    // read them once it is (or after 10 s, when the count below says it never came).
    await page
      .waitForFunction(
        (path) => performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === path),
        '/api-protected/user-unpaid-status',
        { timeout: 10_000 },
      )
      .catch(() => {})
    const entries = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => {
        const timing = e as PerformanceResourceTiming
        // (answered: the response's first byte, when fetch() resolves and the status is known.)
        return { path: new URL(timing.name).pathname, start: timing.startTime, answered: timing.responseStart }
      }),
    )
    // (The orders leave from a promise callback of the same script: their stack may hold no frame.)
    const only = (path: string, fromPage = true) => {
      const found = entries.filter((e) => e.path === path)
      assert.is(found.length, 1, `${path} asked once`)
      const stacks = senders.get(path) ?? []
      assert.is(stacks.length, 1, `${path} sent once`)
      if (fromPage)
        assert.ok(
          stacks[0]!.length > 0 && stacks[0]!.every((script) => script === '/tableau-de-bord'),
          `${path} sent by the page's own script, before any file was evaluated`,
        )
      assert.not.ok(
        stacks[0]!.some((script) => startupCode.includes(script)),
        `${path} not sent by the startup’s code`,
      )
      return found[0]!
    }
    const user = only('/api-protected/user/me')
    const contracts = only('/api-protected/contracts')
    const orders = only('/api-protected/my-domiciliation-orders', false)
    assert.ok(orders.start >= Math.max(user.answered, contracts.answered), 'orders after the user and contracts answered (spec §4)')
    // The dashboard's unpaid-invoice status leaves with the orders, and the banner's own call takes its answer.
    const unpaid = only('/api-protected/user-unpaid-status', false)
    assert.ok(unpaid.start >= Math.max(user.answered, contracts.answered), 'the unpaid status after the user and contracts answered')
    await tab.close()
  },
)

/** When the greeting was first in the page (performance.now()), recorded from the document's start. */
async function recordGreeting(tab: Tab, greeting: string) {
  await tab.context.addInitScript((text) => {
    new MutationObserver((_, observer) => {
      if (![...document.querySelectorAll('h2')].some((h) => h.textContent === text)) return
      observer.disconnect()
      ;(window as unknown as { greetedAt: number }).greetedAt = performance.now()
    }).observe(document, { childList: true, subtree: true, characterData: true })
  }, greeting)
}

/** Every script the page fetched, with when it was asked (performance.now()). */
const scriptsFetched = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime }))
      .filter((e) => e.path.endsWith('.js')),
  )

Startup(
  'a stored user opening /tableau-de-bord: before the greeting, only the entry and the scripts its HTML announces, the first screen’s; the bell, the toasts and the other areas’ flows after',
  async ({ portal }) => {
    // A new visit, cache empty, the user stored: every script is a request.
    const tab = await returningTab(portal)
    const { page } = tab
    await recordGreeting(tab, 'Bonjour Sophie')
    const html = await (await page.goto('/tableau-de-bord'))!.text()
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    await page.getByRole('list', { name: 'Derniers courriers' }).waitFor()
    // The bell comes once the first screen has painted, with the notifications area's flows.
    await page.getByRole('button', { name: /notification/i }).waitFor()
    const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)![1]!
    const announced = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!)
    // (One module, src/signed-in-first-screen.ts: the session, the startup, the dashboard's flows, layout and page.)
    assert.ok(
      announced.some((path) => path.includes('/signed-in-first-screen-')),
      'the first screen’s code is announced',
    )
    assert.not.ok(
      announced.some((path) => /\/(people|company|mail|billing|shell|notifications|NotificationBell|Toasts)-\w+\.js$/.test(path)),
      `nothing the first screen does not draw is announced: ${announced.join(', ')}`,
    )
    const greetedAt = await page.evaluate(() => (window as unknown as { greetedAt: number }).greetedAt)
    const scripts = await scriptsFetched(page)
    const before = scripts.filter((s) => s.start < greetedAt).map((s) => s.path)
    assert.equal(
      before.filter((path) => path !== entry && !announced.includes(path)),
      [],
      'before the greeting: nothing found one level later, nothing more',
    )
    for (const part of ['/NotificationBell-', '/notifications-', '/Toasts-']) {
      const fetched = scripts.find((s) => s.path.includes(part))
      assert.ok(fetched && fetched.start > greetedAt, `${part} fetched after the greeting`)
    }
    await tab.close()
  },
)

Startup(
  'a stored user on a phone’s network, every script held back until the orders have left: the startup’s calls leave from the page before any script has arrived, the user and the contracts, then the orders once both answered (spec §4)',
  async ({ portal }) => {
    const tab = await returningTab(portal)
    const { page } = tab
    const cdp = await tab.context.newCDPSession(page)
    await cdp.send('Network.enable')
    // 150 ms of latency, 1.6 Mbit/s down, 750 kbit/s up: a slow phone's.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: 1_600_000 / 8,
      uploadThroughput: 750_000 / 8,
    })
    const sent = new Map<string, number[]>()
    const answered = new Map<string, number>()
    let firstScriptAt = Number.POSITIVE_INFINITY
    const ids = new Map<string, string>()
    cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string }; timestamp: number }) => {
      const path = new URL(event.request.url).pathname
      ids.set(event.requestId, path)
      sent.set(path, [...(sent.get(path) ?? []), event.timestamp])
    })
    cdp.on('Network.responseReceived', (event: { requestId: string; timestamp: number }) => {
      const path = ids.get(event.requestId)!
      if (path.endsWith('.js')) firstScriptAt = Math.min(firstScriptAt, event.timestamp)
      else if (!answered.has(path)) answered.set(path, event.timestamp)
    })
    // No script can arrive, hence none of the page's code run, before the startup's last call has left (10 s at most:
    // without the early start, the page's code would have to send them, and they would come after).
    let ordersLeft = () => {}
    const ordersSent = new Promise<void>((resolve) => {
      ordersLeft = resolve
    })
    page.on('request', (request) => {
      if (request.url().endsWith('/api-protected/my-domiciliation-orders')) ordersLeft()
    })
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await Promise.race([ordersSent, new Promise((resolve) => setTimeout(resolve, 10_000))])
      await route.continue()
    })
    await page.goto('/tableau-de-bord')
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor({ timeout: 60_000 })
    await page.getByRole('list', { name: 'Derniers courriers' }).waitFor({ timeout: 60_000 })
    const [user, contracts, orders] = ['/api-protected/user/me', '/api-protected/contracts', '/api-protected/my-domiciliation-orders'].map(
      (path) => {
        assert.is(sent.get(path)?.length, 1, `${path} sent once: the startup's code took the page's answer`)
        return { path, sent: sent.get(path)![0]!, answered: answered.get(path)! }
      },
    ) as [
      { path: string; sent: number; answered: number },
      { path: string; sent: number; answered: number },
      { path: string; sent: number; answered: number },
    ]
    for (const call of [user, contracts, orders]) assert.ok(call.sent < firstScriptAt, `${call.path} left before any script arrived`)
    assert.ok(orders.sent >= Math.max(user.answered, contracts.answered), 'the orders once the user and the contracts answered')
    // Before any script: the startup's three calls, and the dashboard's unpaid status that leaves with the orders; nothing else.
    const early = [...sent]
      .filter(([path, times]) => !path.endsWith('.js') && path !== '/tableau-de-bord' && times[0]! < firstScriptAt)
      .map(([path]) => path)
    assert.equal(early.sort(), [
      '/api-protected/contracts',
      '/api-protected/my-domiciliation-orders',
      '/api-protected/user-unpaid-status',
      '/api-protected/user/me',
    ])
    await tab.close()
  },
)

Startup(
  'a stored user opening the portal while the service is away for a moment (user/me answers 503 twice): asked again, the dashboard shows, still signed in',
  async ({ portal }) => {
    const tab = await returningTab(portal)
    const { page } = tab
    tab.allow(/status of 503 \(Service Unavailable\)/)
    // What the API answers while its database restarts (server/http/errors.ts): before, spec §8's sign-out followed at once.
    let refused = 0
    await page.route('**/api-protected/user/me', async (route) => {
      if (refused >= 2) return route.continue()
      refused++
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'DATABASE_UNAVAILABLE', message: 'Le service est momentanément indisponible.' }),
      })
    })
    await page.goto('/tableau-de-bord')
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    assert.is(refused, 2)
    assert.is(new URL(page.url()).pathname, '/tableau-de-bord')
    assert.ok(await page.evaluate(() => localStorage.getItem('user')), 'still signed in')
    await tab.close()
  },
)

Startup('a stored user’s dashboard settles without moving: once shown, its cards never go back to their spinners', async ({ portal }) => {
  const tab = await returningTab(portal)
  const { page } = tab
  await tab.context.addInitScript(() => {
    const shifts: { value: number; at: number }[] = []
    ;(window as unknown as { __shifts: typeof shifts }).__shifts = shifts
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; startTime: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, at: Math.round(entry.startTime) })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto('/tableau-de-bord')
  await page.getByRole('list', { name: 'Derniers courriers' }).waitFor()
  // The bell's stream opens after the lists: what it brings must not send them back to loading.
  await page.waitForTimeout(1500)
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; at: number }[] }).__shifts)
  // Lighthouse's "good" is under 0.1; the dashboard has no reason to move at all.
  assert.ok(shifts.reduce((sum, s) => sum + s.value, 0) < 0.02, `layout shifts: ${JSON.stringify(shifts)}`)
  await tab.close()
})

Startup('/login keeps the passkey button’s place while its code loads: nothing below it moves', async ({ portal }) => {
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  await page.goto('/login', { waitUntil: 'commit' })
  const forgotten = page.getByRole('link', { name: 'Mot de passe oublié ?' })
  // Once the app has taken over the page drawn ahead (the next test: that takeover moves nothing either).
  await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' })
  await forgotten.waitFor()
  const before = (await forgotten.boundingBox())!.y
  await page.locator('button:not([disabled])', { hasText: 'Se connecter avec une clé d’accès' }).waitFor()
  assert.is((await forgotten.boundingBox())!.y, before)
  await tab.close()
})

Startup(
  '/login paints from its HTML before any script runs; what is typed before the app takes over is kept, with the focus, and nothing moves',
  async ({ portal }) => {
    const tab = await portal.open({ viewport: MOBILE })
    const { page } = tab
    // The entry script is held back: until it is let through, the page is the HTML drawn at build time.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
      await released
      await route.continue()
    })
    await page.goto('/login', { waitUntil: 'commit' })
    const heading = page.getByRole('heading', { name: 'Connexion à votre espace client' })
    await heading.waitFor()
    assert.ok(await page.locator('#root[data-prerendered]').count(), 'drawn ahead, the app not yet there')
    const submit = page.getByRole('button', { name: 'Se connecter', exact: true })
    assert.ok(await submit.isDisabled(), 'nothing is sent before the app takes over')
    const forgotten = page.getByRole('link', { name: 'Mot de passe oublié ?' })
    const boxes = async () => [(await heading.boundingBox())!.y, (await forgotten.boundingBox())!.y, (await submit.boundingBox())!.height]
    const drawn = await boxes()
    // Pressing Enter now sends nothing (the browser's own submission): the page stays as it is.
    await page.locator('#login-email').click()
    await page.keyboard.type('solo@example.com')
    await page.keyboard.press('Enter')
    assert.is(new URL(page.url()).search, '')
    release()
    await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' })
    await submit.waitFor()
    assert.ok(await submit.isEnabled())
    assert.is(await page.locator('#login-email').inputValue(), 'solo@example.com', 'typed before the takeover: kept')
    assert.is(await page.evaluate(() => document.activeElement?.id), 'login-email', 'the focus stays in the field')
    assert.equal(await boxes(), drawn, 'the app draws the same page: nothing moves')
    assert.is(await page.locator('style#_goober').count(), 1, 'goober writes into the style element drawn ahead')
    // The form taken over works: on to the password, and in.
    await page.keyboard.press('Tab')
    await page.keyboard.type(DEMO_PASSWORD)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Bonjour Sophie' }).waitFor()
    await tab.close()
  },
)

Startup.run()
