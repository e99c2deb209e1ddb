// Every page is reached by following what the customer sees, from the dashboard: a phone (its drawer),
// a desktop with the menu expanded, and one with it collapsed. A page linked nowhere visible can only
// be reached by typing its address: eight were so on phones before the group pages' row
// (layout/SectionNav.tsx), and no test that opened pages with page.goto could notice it. Every request of these tours
// is recorded too: none leaves the portal's origin (test/e2e/third-party.test.ts checks the rest: signed out, a letter,
// the card dialog, and that the recorder sees such a request). The tours at 360 px and with the menu expanded check
// every page they land on with axe-core too (no serious or critical violation, the CSP enforced): test/e2e/a11y.test.ts
// checks the screens a tour does not open (signed out, the modals, the drawer, the selection).
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import { menu, routeByPath } from '../../src/views/routes.ts'
import {
  axeChecker,
  chooseOrder,
  DESKTOP,
  isMobile,
  MOBILE,
  openMenu,
  pagesWithAnAddress,
  pageTitle,
  phoneLayoutProblems,
  portalSuite,
  recordRequests,
  settled,
  signIn,
  type Viewport,
} from '../util/e2e.ts'

const Navigation = portalSuite('Navigation in Chromium: every page reached by clicks')

/** Where the portal's visible links lead: page routes and menu groups only (not files, not the API). */
function visibleLinks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
      .filter((a) => a.checkVisibility({ visibilityProperty: true }) && !a.closest('[inert]') && new URL(a.href).origin === location.origin)
      .map((a) => new URL(a.href).pathname),
  )
}

const followed = (path: string) => routeByPath(path) !== undefined || menu.some((item) => item.to === path)

/**
 * The pages reached from the dashboard by following visible links (the drawer's too, on a phone), breadth first; each
 * one, once settled, given to `check` (axe-core) if any.
 */
async function reachedByClicks(page: Page, viewport: Viewport, check?: (path: string) => Promise<void>): Promise<Set<string>> {
  const reached = new Set<string>()
  const tried = new Set<string>(['/tableau-de-bord'])
  const queue = ['/tableau-de-bord']
  while (queue.length) {
    const href = queue.shift()!
    await page.goto(href)
    // A group's address opens its first page: what counts is where one lands.
    const landed = new URL(page.url()).pathname
    const route = routeByPath(landed)
    assert.ok(route, `${href} lands on ${landed}, not a page`)
    await pageTitle(page, route.title).waitFor()
    await settled(page)
    await check?.(landed)
    reached.add(landed)
    const links = await visibleLinks(page)
    if (isMobile(viewport)) {
      await openMenu(page, viewport)
      links.push(...(await visibleLinks(page)))
    }
    for (const link of links) {
      if (followed(link) && !tried.has(link)) {
        tried.add(link)
        queue.push(link)
      }
    }
  }
  return reached
}

// The phone's tour on every order at once (« Tous »: the lists' longest rows), which it also measures on every page
// (phoneLayoutProblems: nothing wider than the screen, no title clipped, every control at least 44 px); the desktop's on
// the Boulangerie's.
for (const [label, viewport, collapsed, order] of [
  ['360 px', MOBILE, false, 'Tous'],
  ['1280 px, menu expanded', DESKTOP, false, 'Boulangerie des Lilas SAS'],
  ['1280 px, menu collapsed', DESKTOP, true, 'Boulangerie des Lilas SAS'],
] as const) {
  const phone = isMobile(viewport)
  Navigation(
    `${label}: every page of the portal is linked from what the customer sees, and asks nothing of another site${collapsed ? '' : '; axe-core finds nothing serious on any'}${phone ? '; none wider than the screen, every target at least 44 px' : ''}`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      const axe = collapsed ? undefined : axeChecker(tab, viewport)
      const layout: string[] = []
      const requests = await recordRequests(tab.context, new URL(portal.url).origin, { intercept: false })
      await signIn(page)
      await chooseOrder(page, order)
      await pageTitle(page, 'Tableau de bord').waitFor()
      if (collapsed) {
        await page.getByRole('button', { name: 'Réduire le menu' }).click()
        await page.getByRole('button', { name: 'Déplier le menu' }).waitFor()
      }
      const reached = await reachedByClicks(
        page,
        viewport,
        axe &&
          (async (path) => {
            await axe.check(path)
            if (phone) layout.push(...(await phoneLayoutProblems(page, path)))
          }),
      )
      const unreached = pagesWithAnAddress.map((r) => r.path).filter((path) => !reached.has(path))
      assert.equal(unreached, [], `reached only by typing the address: ${unreached.join(', ')}`)
      assert.ok(
        requests.seen.some((url) => url.includes('/api-protected/')),
        'the API was called',
      )
      assert.equal(requests.elsewhere, [], 'requests to another origin')
      if (axe) await axe.done()
      else await tab.close()
      assert.equal(layout, [], layout.join('\n'))
    },
  )
}

Navigation.run()
