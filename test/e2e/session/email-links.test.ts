// The « Nouveau courrier » e-mail's link in Chromium, on the real server and the demo data: it lands on its letter
// once Camille is signed in, whatever comes in between. Signed out: the link → /login → the letter, on its order
// (her kept default order another), and the same after a reload of /login. Signed in, no order chosen yet: the link →
// the selection screen → the letter.
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import type { MailDocument } from '../../../server/contract/mail.ts'
import { letterPath } from '../../../server/contract/rules/mail.ts'
import { chooseOrder, DEMO_PASSWORD, DESKTOP, MOBILE, type Portal, pageTitle, portalSuite, signIn, waitForPath } from '../../util/e2e.ts'

const ATELIER = 'Atelier Lumière SARL'
const BOULANGERIE = 'Boulangerie des Lilas SAS'

/** One of the bakery's letters, and the link its « Nouveau courrier » e-mail carries (the path after PUBLIC_URL). */
async function bakeryLetter(portal: Portal) {
  const orderId = (await portal.orders())[BOULANGERIE]!.id
  const apiToken = await portal.apiToken()
  const res = await fetch(`${portal.url}/api-protected/documents?orderId=${orderId}`, { headers: { apiToken } })
  assert.is(res.status, 200)
  // Not the first one: a desktop opens the first letter anyway.
  const letter = ((await res.json()) as MailDocument[]).filter((d) => !d.deleted)[1]!
  return { letter, link: letterPath(orderId, letter.id) }
}

/** The letter shown in the viewer: its scan, in the page. */
const letterShown = (page: Page, letter: MailDocument) =>
  page.getByRole('region', { name: 'Aperçu du courrier' }).getByTitle(`Courrier de ${letter.sender}`).first().waitFor()

/** The order shown, as the header's picker (a desktop) says it. */
const orderShown = (page: Page) =>
  page.getByLabel('Domiciliation', { exact: true }).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]!.text)

/**
 * An earlier visit kept another default order (Atelier) in this browser, then signed out; the link is opened now, and
 * the portal asks for a sign-in.
 */
async function linkOpenedSignedOut(page: Page, link: string) {
  await signIn(page)
  await chooseOrder(page, ATELIER)
  await pageTitle(page, 'Tableau de bord').waitFor()
  await page.getByRole('button', { name: 'Se déconnecter' }).click()
  await waitForPath(page, '/login')
  await page.goto(link)
  await waitForPath(page, '/login')
}

const Links = portalSuite('e-mail links survive a sign-in, in Chromium')

Links('signed out: the letter’s link → /login → signing in lands on that letter, on its order', async ({ portal }) => {
  const { letter, link } = await bakeryLetter(portal)
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  await linkOpenedSignedOut(page, link)
  // Signed in from this page, as the link left it (a fresh /login would be another page load).
  await page.getByLabel('Adresse e-mail', { exact: true }).fill('demo@example.com')
  await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
  // Every address the page goes through from here (the router's history calls), to tell it never showed the dashboard.
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { pathsSeen: string[] }).pathsSeen = seen
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history)
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args)
        seen.push(location.pathname)
      }
    }
  })
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
  await letterShown(page, letter)
  assert.is(await orderShown(page), BOULANGERIE)
  assert.is(new URL(page.url()).pathname, '/mes-courriers/courriers')
  assert.not.ok(await pageTitle(page, 'Tableau de bord').count(), 'not the dashboard')
  const paths = await page.evaluate(() => (window as unknown as { pathsSeen: string[] }).pathsSeen)
  assert.not.ok(paths.includes('/tableau-de-bord'), `never by the dashboard: ${paths.join(' → ')}`)
  await tab.close()
})

Links('signed in, no order chosen yet: the letter’s link → the selection screen → choosing lands on that letter', async ({ portal }) => {
  const { letter, link } = await bakeryLetter(portal)
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  await signIn(page)
  await page.getByRole('heading', { name: 'Sélectionnez la domiciliation' }).waitFor()

  await page.goto(link)
  await chooseOrder(page, ATELIER)
  await letterShown(page, letter)
  assert.is(new URL(page.url()).pathname, '/mes-courriers/courriers')
  // The mobile navigation names the order shown: the letter's.
  await page.getByRole('button', { name: `Domiciliation: ${BOULANGERIE}. Changer de domiciliation` }).waitFor()
  await tab.close()
})

Links('signed out: the letter’s link → /login, reloaded → signing in still lands on that letter (the tab kept it)', async ({ portal }) => {
  const { letter, link } = await bakeryLetter(portal)
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  await linkOpenedSignedOut(page, link)
  // The portal has started (the address may change to /login before its script runs) and this tab keeps the link.
  await page.waitForFunction((path) => sessionStorage.getItem('portail.destination') === path, link)
  await page.reload()
  await page.getByLabel('Adresse e-mail', { exact: true }).fill('demo@example.com')
  await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
  await letterShown(page, letter)
  assert.is(await orderShown(page), BOULANGERIE)
  assert.is(new URL(page.url()).pathname, '/mes-courriers/courriers')
  await tab.close()
})

Links.run()
