// The customer journeys in Chromium, at 360 × 740 and at 1280 × 800, against the real
// server with the CSP enforced: any console error, uncaught error or CSP violation fails a journey.
// Each width has its own server, since the Kbis journey changes the data the others start from.
import * as assert from 'uvu/assert'
import { frenchDateFormat } from '../../server/contract/rules/french-date.ts'
import type { Page } from 'playwright-core'
import {
  BRAND_NAME,
  chooseOrder,
  DESKTOP,
  isMobile,
  MOBILE,
  openMenu,
  orderButton,
  pageTitle,
  type Portal,
  portalSuite,
  samplePdf,
  screenshot,
  signIn,
  toast,
  type Viewport,
  waitForPath,
} from '../util/e2e.ts'

const ATELIER = 'Atelier Lumière SARL'
const BOULANGERIE = 'Boulangerie des Lilas SAS'
const STUDIO = 'Studio Nuage SAS'
const HORIZON = 'Conseil Horizon EURL'
const CAMILLE_ORDERS = [ATELIER, BOULANGERIE, STUDIO, HORIZON]

// As the portal writes it: « 1er » for the first of a month.
const frenchDate = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric' })
const kbisBanner = (page: Page) => page.getByRole('region', { name: 'Justificatif d’immatriculation' })
const collaborators = (page: Page) =>
  page.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: 'Mes collaborateurs' })
const problemDialog = (page: Page) => page.getByRole('dialog', { name: 'Signaler un problème' })

async function dashboard(page: Page) {
  await pageTitle(page, 'Tableau de bord').waitFor()
  await page.getByRole('heading', { name: 'Bonjour Camille' }).waitFor()
}

/** The order shown, read where this width shows it: the mobile navigation or the header's picker. */
async function shownOrder(page: Page, viewport: Viewport): Promise<string> {
  if (isMobile(viewport)) {
    const name = await page.getByRole('button', { name: /^Domiciliation: .*\. Changer de domiciliation$/ }).getAttribute('aria-label')
    return name!.replace(/^Domiciliation: /, '').replace(/\. Changer de domiciliation$/, '')
  }
  const picker = page.getByLabel('Domiciliation', { exact: true })
  return picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]!.text)
}

/** Switches order the way this width offers: the header's picker, or 'Domiciliation:' on a phone. */
async function switchOrder(page: Page, viewport: Viewport, company: string) {
  if (isMobile(viewport)) {
    await page.getByRole('button', { name: /Changer de domiciliation$/ }).click()
    await chooseOrder(page, company)
  } else {
    await page.getByLabel('Domiciliation', { exact: true }).selectOption({ label: company })
  }
}

async function openProblem(page: Page, viewport: Viewport) {
  await openMenu(page, viewport)
  await page.getByRole('button', { name: 'Signaler un problème' }).click()
  await problemDialog(page).waitFor()
}

function journeys(label: string, viewport: Viewport) {
  const width = isMobile(viewport) ? 'mobile' : 'desktop'
  const J = portalSuite(`Parcours en ${label} (${viewport.width} × ${viewport.height})`)

  /** A fresh tab where Camille has signed in and chosen this order (or 'Tous'). */
  async function camilleChose(portal: Portal, company: string) {
    const tab = await portal.open({ viewport })
    await signIn(tab.page)
    await chooseOrder(tab.page, company)
    return { tab, page: tab.page }
  }

  J('the guard of this harness sees a CSP violation and a console error', async ({ portal }) => {
    const tab = await portal.open({ viewport })
    await tab.page.goto('/login')
    await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
    await tab.page.evaluate(() => {
      const style = document.createElement('style')
      style.textContent = 'body { outline: 1px solid red; }'
      document.head.append(style)
      console.error('erreur volontaire')
    })
    const violation = () => tab.problems.some((p) => p.startsWith('CSP : style-src'))
    const consoleError = () => tab.problems.some((p) => p.includes('erreur volontaire'))
    // Both reports travel back from the browser asynchronously.
    for (let i = 0; i < 100 && !(violation() && consoleError()); i++) await new Promise((resolve) => setTimeout(resolve, 50))
    assert.ok(violation(), `no securitypolicyviolation seen: ${tab.problems.join(' / ')}`)
    assert.ok(consoleError(), 'no console error seen')
    tab.problems.length = 0
    await tab.close()
  })

  J('a visitor going to /, /factures or /mes-courriers lands on /login, styled through the nonce', async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    for (const path of ['/', '/factures', '/mes-courriers']) {
      await page.goto(path)
      await waitForPath(page, '/login')
      await page.getByRole('heading', { name: 'Connexion à votre espace client' }).waitFor()
    }
    // goober's sheet carries the response's nonce: without it the page would be unstyled.
    assert.is(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(245, 247, 251)')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
    // The passkey button comes with its code, after the form: the picture shows it ready.
    await page.locator('button:not([disabled])', { hasText: 'Se connecter avec une clé d’accès' }).waitFor()
    await screenshot(page, `login-${width}`)
    await tab.close()
  })

  J('Camille signs in and sees her four companies, their creation dates and Tous', async ({ portal }) => {
    const orders = await portal.orders()
    const tab = await portal.open({ viewport })
    const { page } = tab
    await signIn(page)
    await page.getByRole('heading', { name: 'Sélectionnez la domiciliation' }).waitFor()
    for (const company of CAMILLE_ORDERS) {
      const name = await orderButton(page, company).textContent()
      assert.ok(name?.includes(`Créée le ${frenchDate.format(new Date(orders[company]!.orderDate))}`), `${company}: ${name}`)
    }
    const entries = await page.getByRole('list').getByRole('button').allTextContents()
    assert.is(entries.length, 5, entries.join(' / '))
    assert.ok(entries[4]!.startsWith('Tous'))
    await screenshot(page, `selection-${width}`)
    await tab.close()
  })

  J('choosing Conseil Horizon EURL leads to /missing-document', async ({ portal }) => {
    const { tab, page } = await camilleChose(portal, HORIZON)
    await waitForPath(page, '/missing-document')
    await page.getByRole('heading', { name: 'Documents manquants' }).waitFor()
    await page.getByText(HORIZON).waitFor()
    await screenshot(page, `missing-document-${width}`)
    await tab.close()
  })

  J('signed in, / goes to /tableau-de-bord and the parents to their first child', async ({ portal }) => {
    const { tab, page } = await camilleChose(portal, BOULANGERIE)
    await dashboard(page)
    assert.is(await kbisBanner(page).count(), 0, 'a finalised order has no Kbis banner')
    await screenshot(page, `dashboard-${width}`)
    if (isMobile(viewport)) {
      await openMenu(page, viewport)
      await screenshot(page, 'menu-mobile')
    }
    const redirects = {
      '/': '/tableau-de-bord',
      '/mes-courriers': '/mes-courriers/courriers',
      '/souscription': '/souscription/mes-abonnements',
      '/suivi-comptable': '/suivi-comptable/tresorerie',
    }
    for (const [from, to] of Object.entries(redirects)) {
      await page.goto(from)
      await waitForPath(page, to)
    }
    await pageTitle(page, 'Trésorerie').waitFor()
    await tab.close()
  })

  J("'Signaler un problème': refused with 'Tous' and nothing sent; sent for an order, then the box is emptied", async ({ portal }) => {
    const orders = await portal.orders()
    const reports = () => portal.server.deps.db.selectFrom('problem_reports').select(['order_id', 'message']).orderBy('id').execute()
    const before = await reports()
    const { tab, page } = await camilleChose(portal, 'Tous')
    const sends: string[] = []
    page.on('request', (request) => request.url().includes(':send-problem') && sends.push(request.url()))
    await dashboard(page)

    await openProblem(page, viewport)
    const box = problemDialog(page).getByLabel('Votre message')
    await box.fill('Le scan de mon dernier courrier est illisible.')
    await problemDialog(page).getByRole('button', { name: 'Envoyer' }).click()
    await toast(page, 'Veuillez sélectionner une commande spécifique').waitFor()
    assert.is(await box.inputValue(), 'Le scan de mon dernier courrier est illisible.', 'what the customer typed is kept')
    assert.equal(sends, [])
    assert.equal(await reports(), before)
    await page.keyboard.press('Escape')
    await problemDialog(page).waitFor({ state: 'hidden' })

    await switchOrder(page, viewport, BOULANGERIE)
    await dashboard(page)
    await openProblem(page, viewport)
    await page.getByText(`Votre message concerne ${BOULANGERIE}.`).waitFor()
    await box.fill('Le scan de mon dernier courrier est illisible.')
    await screenshot(page, `problem-modal-${width}`)
    await problemDialog(page).getByRole('button', { name: 'Envoyer' }).click()
    await toast(page, 'Votre demande est envoyé, nous revenons vers vous au plus vite').waitFor()
    await problemDialog(page).waitFor({ state: 'hidden' })
    assert.is(sends.length, 1)
    assert.equal(await reports(), [
      ...before,
      { order_id: orders[BOULANGERIE]!.id, message: 'Le scan de mon dernier courrier est illisible.' },
    ])
    await openProblem(page, viewport)
    assert.is(await box.inputValue(), '', 'the box is emptied once sent')
    await tab.close()
  })

  J("switching order: the pages follow; Studio Nuage SAS (shared) hides 'Mes collaborateurs'", async ({ portal }) => {
    const orders = await portal.orders()
    const { tab, page } = await camilleChose(portal, ATELIER)
    await dashboard(page)
    await kbisBanner(page).waitFor()
    assert.is(await shownOrder(page, viewport), ATELIER)
    await openMenu(page, viewport)
    await collaborators(page).waitFor()
    await page.keyboard.press('Escape')

    const studioLoads = page.waitForRequest((r) => r.url().endsWith(`/api-protected/user-packages/share?orderId=${orders[STUDIO]!.id}`))
    await switchOrder(page, viewport, STUDIO)
    await studioLoads
    await dashboard(page)
    assert.is(await shownOrder(page, viewport), STUDIO)
    await kbisBanner(page).waitFor({ state: 'detached' })
    await openMenu(page, viewport)
    await page.getByRole('complementary', { name: 'Menu principal' }).getByRole('button', { name: 'Signaler un problème' }).waitFor()
    assert.is(await collaborators(page).count(), 0, "no 'Mes collaborateurs' for a shared order")
    await page.keyboard.press('Escape')

    const boulangerieLoads = page.waitForRequest((r) => r.url().endsWith(`/api-protected/documents?orderId=${orders[BOULANGERIE]!.id}`))
    await switchOrder(page, viewport, BOULANGERIE)
    await boulangerieLoads
    assert.is(await shownOrder(page, viewport), BOULANGERIE)
    await openMenu(page, viewport)
    await collaborators(page).waitFor()

    await page.reload()
    await dashboard(page)
    assert.is(await shownOrder(page, viewport), BOULANGERIE, 'the choice is kept after a reload')
    await tab.close()
  })

  J('logout returns to /login and the protected pages are closed again', async ({ portal }) => {
    const { tab, page } = await camilleChose(portal, BOULANGERIE)
    await dashboard(page)
    await page.getByRole('button', { name: 'Se déconnecter' }).click()
    await waitForPath(page, '/login')
    assert.is(await page.evaluate(() => localStorage.getItem('user')), null)
    for (const path of ['/tableau-de-bord', '/factures', '/mes-courriers/courriers']) {
      await page.goto(path)
      await waitForPath(page, '/login')
    }
    await tab.close()
  })

  // Last: the upload changes the order that the journeys above start from.
  J('Kbis: a non-PDF is refused; a PDF is filed, the banner disappears and stays gone after a reload', async ({ portal }) => {
    const { tab, page } = await camilleChose(portal, ATELIER)
    const uploads: string[] = []
    page.on('request', (r) => r.method() === 'PUT' && r.url().includes('/api-protected/contracts/') && uploads.push(r.url()))
    await dashboard(page)
    const dialog = page.getByRole('dialog', { name: 'Déposer mon justificatif' })

    await kbisBanner(page)
      .getByRole('button', { name: `J'ai mon justificatif d'immatriculation chez ${BRAND_NAME}` })
      .click()
    await dialog.getByRole('button', { name: 'Non' }).click()
    await dialog.waitFor({ state: 'hidden' })

    await kbisBanner(page).getByRole('button', { name: 'Je dépose mon Kbis' }).click()
    await dialog.getByRole('button', { name: 'Oui' }).waitFor()
    await screenshot(page, `kbis-modal-${width}`)
    let chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Oui' }).click()
    const first = await chooser
    assert.is(await first.element().getAttribute('accept'), '.pdf')
    await first.setFiles({ name: 'kbis.txt', mimeType: 'text/plain', buffer: Buffer.from('pas un PDF') })
    await dialog.getByRole('alert').filter({ hasText: 'Seuls les fichiers PDF (.pdf) sont acceptés.' }).waitFor()
    assert.equal(uploads, [], 'a refused file is not sent')

    chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Oui' }).click()
    await (await chooser).setFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: await samplePdf() })
    await toast(page, 'Merci ! Votre justificatif a bien été déposé.').waitFor()
    await kbisBanner(page).waitFor({ state: 'detached' })
    assert.is(uploads.length, 1)

    await page.reload()
    await dashboard(page)
    assert.is(await kbisBanner(page).count(), 0, 'the banner stays gone after a reload')
    assert.is((await portal.orders())[ATELIER]!.hasKbis, true)
    await tab.close()
  })

  J.run()
}

journeys('mobile', MOBILE)
journeys('bureau', DESKTOP)
