// The billing journeys in Chromium, at 360 × 740 and at 1280 × 800, against the real server and the demo
// data, with the CSP enforced: Camille adds an option and sees it; pays the unpaid Boulangerie invoice and sees
// "Payée" (and the dashboard's banner gone); replaces her card with 5555 5555 5555 4444 and sees "•••• 4444"; downloads
// her certificate (a PDF with her SIREN and its code) and opens its public verification page. Each width has its own
// server: the journeys change the data. The screenshots of the four pages (and the verification page) are taken here.
import { readFile } from 'node:fs/promises'
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { pdfText } from '../../util/pdf-text.ts'
import {
  axeChecker,
  networkIdle,
  chooseOrder,
  DESKTOP,
  isMobile,
  MOBILE,
  openMenu,
  pageTitle,
  type Portal,
  portalSuite,
  screenshot,
  signIn,
  type Viewport,
  waitForPath,
} from '../../util/e2e.ts'

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const menu = (page: Page) => page.getByRole('complementary', { name: 'Menu principal' })

/** Through the side menu, as a customer would (the drawer on a phone). */
async function goTo(page: Page, viewport: Viewport, label: string, path: string, title: string) {
  await openMenu(page, viewport)
  // The subscription pages sit in the 'Souscription' group, whose sub-menu shows only on a desktop (spec §2).
  const link = menu(page).getByRole('link', { name: label, exact: true })
  if (await link.count()) await link.click()
  else await page.goto(path)
  await waitForPath(page, path)
  await pageTitle(page, title).waitFor()
}

/** No spinner left in the page's content. */
async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector('#contenu [role="status"][aria-live]'))
}

function journeys(label: string, viewport: Viewport) {
  const width = isMobile(viewport) ? 'mobile' : 'desktop'
  const J = portalSuite(`Facturation en ${label} (${viewport.width} × ${viewport.height})`)

  async function camille(portal: Portal) {
    const tab = await portal.open({ viewport })
    await signIn(tab.page)
    await chooseOrder(tab.page, BOULANGERIE)
    await pageTitle(tab.page, 'Tableau de bord').waitFor()
    return tab
  }

  // First: it changes no data, and needs the unpaid invoice the payment journey settles.
  J('axe-core finds nothing serious on the billing pages, their dialogs and the verification page', async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    const axe = axeChecker(tab, viewport)
    const check = (screen: string) => axe.check(screen)
    await signIn(page)
    await chooseOrder(page, BOULANGERIE)
    await pageTitle(page, 'Tableau de bord').waitFor()
    for (const [path, title] of [
      ['/souscription/mes-abonnements', 'Mes abonnements'],
      ['/souscription/attestation-contrats', 'Attestation et contrats'],
      ['/factures', 'Mes factures'],
      ['/moyen-de-paiement', 'Moyen de paiement'],
    ]) {
      await page.goto(path!)
      await pageTitle(page, title!).waitFor()
      await networkIdle(page)
      await settled(page)
      await check(path!)
    }
    await page.goto('/souscription/mes-abonnements')
    await page.getByRole('button', { name: /Ajouter une option/ }).click()
    await page
      .getByRole('dialog', { name: 'Ajouter une option' })
      .getByRole('button', { name: /^Choisir / })
      .first()
      .waitFor()
    await check('fenêtre « Ajouter une option »')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: /Résilier la domiciliation/ }).click()
    const termination = page.getByRole('dialog', { name: /Résilier la domiciliation/ })
    await termination.getByRole('button', { name: 'Envoyer la demande' }).click()
    await termination.getByText('Choisissez le motif de votre résiliation.').waitFor()
    await check('fenêtre de résiliation, avec ses erreurs')
    await page.keyboard.press('Escape')
    await page.goto('/moyen-de-paiement')
    await page.getByRole('button', { name: 'Remplacer ma carte' }).click()
    const cardForm = page.getByRole('dialog', { name: 'Nouvelle carte' })
    await cardForm.getByRole('button', { name: 'Enregistrer la carte' }).click()
    await cardForm.getByText('Le numéro de carte est incomplet ou erroné : vérifiez-le.').waitFor()
    await check('formulaire de carte, avec ses erreurs')
    await page.keyboard.press('Escape')
    await page.goto('/souscription/attestation-contrats')
    await page.getByRole('button', { name: /Modifier l’adresse de réexpédition/ }).click()
    await page.getByLabel('Code postal').fill('750')
    await page.getByRole('button', { name: 'Enregistrer l’adresse' }).click()
    await page.getByText(/Le code postal doit comporter 5 chiffres/).waitFor()
    await check('adresse de réexpédition, avec ses erreurs')
    await page.goto('/factures')
    await page.getByRole('button', { name: /^Payer la facture / }).click()
    await page.getByRole('dialog', { name: 'Régler la facture' }).waitFor()
    await check('fenêtre « Régler la facture »')
    await page.keyboard.press('Escape')
    tab.allow(/status of 404/) // the unknown code's answer
    await page.goto('/verification/ABCD-EFGH-JKMN')
    await page.getByText(/Aucune attestation ne correspond à ce code/).waitFor()
    await check('/verification (code inconnu)')
    await axe.done()
  })

  J('Camille adds an option to her subscription and sees it', async ({ portal }) => {
    const tab = await camille(portal)
    const { page } = tab
    await goTo(page, viewport, 'Mes abonnements', '/souscription/mes-abonnements', 'Mes abonnements')
    const card = page.getByRole('region', { name: `Abonnement de ${BOULANGERIE}` })
    await card.getByText('Annuel', { exact: true }).waitFor()
    await screenshot(page, `subscriptions-${width}`)
    await card.getByRole('button', { name: /Ajouter une option/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Ajouter une option' })
    await dialog.getByRole('button', { name: 'Choisir Réexpédition hebdomadaire du courrier' }).click()
    await dialog.getByText(/pour 180,00\s€ TTC par an/).waitFor()
    await dialog.getByRole('button', { name: 'Confirmer l’ajout' }).click()
    await dialog.waitFor({ state: 'detached' })
    const options = card.getByRole('list', { name: `Options de ${BOULANGERIE}` })
    await options.getByText(/Réexpédition hebdomadaire du courrier/).waitFor()
    // Held on the server too: still there after a reload.
    await page.reload()
    await page
      .getByRole('list', { name: `Options de ${BOULANGERIE}` })
      .getByText(/Réexpédition hebdomadaire du courrier/)
      .waitFor()
    await tab.close()
  })

  J('Camille pays the unpaid Boulangerie invoice: "Payée", and the dashboard’s banner is gone', async ({ portal }) => {
    const tab = await camille(portal)
    const { page } = tab
    const banner = page.getByRole('region', { name: 'Factures impayées' })
    await banner.waitFor()
    await banner.getByRole('link', { name: 'Voir mes factures' }).click()
    await waitForPath(page, '/factures')
    const pay = page.getByRole('button', { name: /^Payer la facture / })
    await pay.waitFor()
    const number = (await pay.getAttribute('aria-label'))!.replace('Payer la facture ', '')
    const row = page.getByRole('list', { name: 'Factures' }).getByRole('listitem').filter({ hasText: number })
    assert.match((await row.textContent())!, 'À payer')
    await screenshot(page, `invoices-${width}`)
    await pay.click()
    const dialog = page.getByRole('dialog', { name: 'Régler la facture' })
    await dialog.getByText(/348,00\s€ TTC/).waitFor()
    await dialog.getByRole('button', { name: 'Confirmer le paiement' }).click()
    await row.getByText('Payée', { exact: true }).waitFor()
    assert.is(await page.getByRole('button', { name: /^Payer la facture / }).count(), 0)
    const charges = await portal.server.deps.db.selectFrom('test_charges').select('amount').execute()
    assert.equal(
      charges.map((c) => c.amount),
      [34800],
      'charged once, 348 €',
    )
    await goTo(page, viewport, 'Tableau de bord', '/tableau-de-bord', 'Tableau de bord')
    await page.getByRole('heading', { name: 'Bonjour Camille' }).waitFor()
    await networkIdle(page)
    assert.is(await page.getByRole('region', { name: 'Factures impayées' }).count(), 0)
    await tab.close()
  })

  J('Camille replaces her card with 5555 5555 5555 4444 and sees "•••• 4444"', async ({ portal }) => {
    const tab = await camille(portal)
    const { page } = tab
    await goTo(page, viewport, 'Moyen de paiement', '/moyen-de-paiement', 'Moyen de paiement')
    const card = page.getByLabel('Carte enregistrée')
    await card.getByText('•••• 4242').waitFor()
    await page.getByRole('button', { name: 'Remplacer ma carte' }).click()
    const dialog = page.getByRole('dialog', { name: 'Nouvelle carte' })
    await dialog.getByLabel('Numéro de carte').fill('5555 5555 5555 4444')
    await dialog.getByLabel('Date d’expiration (MM/AA)').fill('08/31')
    await dialog.getByLabel('Cryptogramme (CVC)').fill('123')
    await dialog.getByRole('button', { name: 'Enregistrer la carte' }).click()
    await dialog.waitFor({ state: 'detached' })
    await card.getByText('•••• 4444').waitFor()
    assert.match((await card.textContent())!, 'Mastercard')
    await page.reload()
    await page.getByLabel('Carte enregistrée').getByText('•••• 4444').waitFor()
    await screenshot(page, `payment-method-${width}`)
    // Only the last four digits were kept anywhere.
    const stored = JSON.stringify(await portal.server.deps.db.selectFrom('test_payment_methods').selectAll().execute())
    assert.not.ok(stored.includes('5555555555554444'))
    await tab.close()
  })

  J('Camille downloads her certificate (a PDF with her SIREN and its code) and opens its verification page', async ({ portal }) => {
    const tab = await camille(portal)
    const { page } = tab
    await goTo(page, viewport, 'Attestation et contrats', '/souscription/attestation-contrats', 'Attestation et contrats')
    await page
      .getByRole('region', { name: `Documents de ${BOULANGERIE}` })
      .getByText('27 rue des Lilas')
      .waitFor()
    await screenshot(page, `certificate-${width}`)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger mon attestation de domiciliation' }).click(),
    ])
    const issued = page.getByText(/Attestation délivrée, code de vérification/)
    await issued.waitFor()
    const code = (await issued.locator('strong').textContent())!
    assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    assert.is(download.suggestedFilename(), `attestation-domiciliation-${code}.pdf`)
    const pdf = await readFile((await download.path())!)
    assert.is(pdf.subarray(0, 5).toString(), '%PDF-')
    const text = pdfText(pdf)
    for (const expected of [BOULANGERIE, '823 456 785', code]) assert.ok(text.includes(expected), `the certificate says ${expected}`)
    await issued.getByRole('link', { name: 'sa page de vérification' }).click()
    await waitForPath(page, `/verification/${code}`)
    await page.getByText('Attestation valide').waitFor()
    assert.match((await page.getByRole('status').filter({ hasText: 'Attestation valide' }).textContent())!, BOULANGERIE)
    await screenshot(page, `verification-${width}`)
    await tab.close()

    // Anyone holding the code, signed out, sees the same and nothing more.
    const stranger = await portal.open({ viewport })
    await stranger.page.goto(`/verification/${code}`)
    const answer = stranger.page.getByRole('status').filter({ hasText: 'Attestation valide' })
    await answer.waitFor()
    assert.not.match((await stranger.page.locator('main').textContent())!, /823|SIREN|rue des Lilas/)
    await stranger.close()
  })

  return J
}

journeys('ordinateur', DESKTOP).run()
journeys('téléphone', MOBILE).run()
