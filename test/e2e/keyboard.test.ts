// Keyboard only: login → selection → Kbis upload with Tab, Enter, Space and Escape (and typing),
// with the CSP enforced. The file chooser is the browser's own dialog: the test answers it.
import * as assert from 'uvu/assert'
import type { Locator, Page } from 'playwright-core'
import { DEMO_PASSWORD, DESKTOP, isFocused, orderButton, type Portal, portalSuite, samplePdf, toast, type Viewport } from '../util/e2e.ts'

const Keyboard = portalSuite('Au clavier seulement : connexion, sélection, dépôt du Kbis')

/** Presses Tab until the element has the focus (fails when it is not reachable). */
async function tabTo(page: Page, target: Locator, what: string) {
  await target.waitFor()
  for (let presses = 0; presses < 60; presses++) {
    if (await isFocused(target)) return
    await page.keyboard.press('Tab')
  }
  assert.unreachable(`${what} cannot be reached with Tab`)
}

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '')

async function journey(portal: Portal, viewport: Viewport, company: string) {
  const tab = await portal.open({ viewport })
  const { page } = tab
  await page.goto('/login')
  await tabTo(page, page.getByLabel('Adresse e-mail', { exact: true }), "'Adresse e-mail'")
  await page.keyboard.type('demo@example.com')
  await tabTo(page, page.getByLabel('Mot de passe', { exact: true }), "'Mot de passe'")
  await page.keyboard.type(DEMO_PASSWORD)
  await page.keyboard.press('Enter')

  const choice = orderButton(page, company)
  await tabTo(page, choice, company)
  await page.keyboard.press('Space')

  const banner = page.getByRole('region', { name: 'Justificatif d’immatriculation' })
  const upload = banner.getByRole('button', { name: 'Je dépose mon Kbis' })
  await tabTo(page, upload, "'Je dépose mon Kbis'")
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Déposer mon justificatif' })
  const yes = dialog.getByRole('button', { name: 'Oui' })
  await yes.waitFor()
  assert.ok(await isFocused(yes), "the modal opens with the focus on 'Oui'")
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), `Tab left the modal (on « ${await focusedLabel(page)} »)`)
  }
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  assert.ok(await isFocused(upload), "Escape gives the focus back to 'Je dépose mon Kbis'")

  await page.keyboard.press('Space')
  await tabTo(page, yes, "'Oui'")
  const chooser = page.waitForEvent('filechooser')
  await page.keyboard.press('Enter')
  await (await chooser).setFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: await samplePdf() })
  await toast(page, 'Merci ! Votre justificatif a bien été déposé.').waitFor()
  await banner.waitFor({ state: 'detached' })
  assert.is((await portal.orders())[company]!.hasKbis, true)
  await tab.close()
}

Keyboard('at 1280 × 800, on Atelier Lumière SARL', async ({ portal }) => {
  await journey(portal, DESKTOP, 'Atelier Lumière SARL')
})

Keyboard.run()
