// The mail room end to end in Chromium at 1280 px, as a new operator would take it: Inès (Administrateur) signs in with her
// password and a code, creates a customer, drops three scans at once (one image-only, read by OCR), accepts each
// suggested order and publishes them; registers a package for the bakery and hands it to its representative; marks the
// bakery's forwarding request « Expédié » with a tracking number; and finds each of these actions in the journal under
// her name. Camille, the bakery's owner, then finds the scanned letter by a word only OCR could read, reads who
// collected her package, and follows her forwarding's tracking link.
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { luhnValid } from '../../../server/contract/rules/company.ts'
import { DESKTOP, openLetters, pageTitle, portalSuite } from '../../util/e2e.ts'
import { axeChecker, menu, signInOperator } from '../../util/e2e-backoffice.ts'
import { scannedPage, textLayerPdf } from '../../util/letters.ts'
import { PDFDocument } from 'pdf-lib'

const BAKERY = 'Boulangerie des Lilas SAS'
const NEW_COMPANY = 'Atelier Rivoli SARL'
/** A word only the image-only scan holds, read by OCR. */
const OCR_WORD = 'ARBORESCENCE'
const TRACKING = '6A12345678901'

/** A SIREN nobody has: eight digits of the clock and the Luhn key that makes them valid. */
function freshSiren(): string {
  const body = String(Date.now()).slice(-8)
  const key = [...'0123456789'].find((digit) => luhnValid(body + digit))!
  const digits = body + key
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
}

async function imageOnly(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create()
  doc.addPage([595, 842]).drawImage(await doc.embedPng(await scannedPage(lines)), { x: 0, y: 0, width: 595, height: 842 })
  return Buffer.from(await doc.save())
}

const scanCard = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true })
const journalRows = (page: Page, action: string) => page.getByRole('row').filter({ hasText: action })

const MailRoom = portalSuite('Back-office : un client créé, trois scans publiés, un colis remis, une réexpédition expédiée', {
  prepared: true,
})

MailRoom('1280 px: from the mail room to the customer, every action journaled under its operator', async ({ portal }) => {
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  const axe = axeChecker(tab, DESKTOP)
  await signInOperator(page, 'operateur@example.com')

  // « Nouveau client »: the order's page follows.
  const siren = freshSiren()
  await menu(page).getByRole('link', { name: 'Clients' }).click()
  await page.getByRole('link', { name: 'Nouveau client', exact: true }).click()
  await page.getByLabel('Raison sociale', { exact: true }).fill(NEW_COMPANY)
  await page.getByLabel('SIREN', { exact: true }).fill(siren)
  await page.getByLabel('Forme juridique', { exact: true }).selectOption('SARL')
  await page.getByLabel('Prénom', { exact: true }).fill('Martin')
  await page.getByLabel('Nom', { exact: true }).fill('Rivoli')
  await page.getByLabel('Adresse e-mail', { exact: true }).fill('martin.rivoli@example.com')
  await page.getByRole('button', { name: 'Créer le client', exact: true }).click()
  await page.getByRole('heading', { name: 'Société', level: 2 }).waitFor()
  await page.getByText(NEW_COMPANY).first().waitFor()
  await page.getByText('En attente de KBIS').first().waitFor()

  // Numérisation: three scans dropped at once; one has no text layer.
  await menu(page).getByRole('link', { name: 'Numérisation' }).click()
  await page.getByRole('heading', { name: 'Scans à publier', level: 2 }).waitFor()
  await page.getByLabel('Scans à déposer (PDF)').setInputFiles([
    {
      name: 'urssaf-boulangerie.pdf',
      mimeType: 'application/pdf',
      buffer: await textLayerPdf([
        ['URSSAF Ile-de-France', BAKERY.toUpperCase(), 'SIREN 823 456 785', 'Appel de cotisations du quatrieme trimestre'],
      ]),
    },
    {
      name: 'banque-boulangerie-scan.pdf',
      mimeType: 'application/pdf',
      buffer: await imageOnly(['Banque Populaire Rives de Paris', BAKERY.toUpperCase(), 'SIREN 823 456 785', `Dossier ${OCR_WORD}`]),
    },
    {
      name: 'greffe-atelier.pdf',
      mimeType: 'application/pdf',
      buffer: await textLayerPdf([['Greffe du tribunal de commerce de Paris', NEW_COMPANY.toUpperCase(), `SIREN ${siren}`]]),
    },
  ])
  const expected = {
    'urssaf-boulangerie.pdf': BAKERY,
    'banque-boulangerie-scan.pdf': BAKERY,
    'greffe-atelier.pdf': NEW_COMPANY,
  }
  for (const [name, company] of Object.entries(expected)) {
    const card = scanCard(page, name)
    // Read (text layer or OCR), then suggested with its reason: the first one starts the render process and the OCR
    // worker, which a busy 2-core machine takes long to start.
    await card.getByText(/Suggestion :/).waitFor({ timeout: 180_000 })
    const suggestion = (await card.locator('p', { hasText: 'Suggestion :' }).textContent())!
    assert.match(suggestion, company)
    assert.match(suggestion, /SIREN .* trouvé page 1/)
    await card.getByRole('button', { name: 'Confirmer', exact: true }).click()
    await card.getByText('Confirmé', { exact: true }).waitFor()
  }
  await axe.check('/operateur/numerisation, trois scans confirmés')
  await page.getByRole('button', { name: 'Publier les confirmés (3)' }).click()
  await page.getByText('Aucun scan en attente : déposez-en ci-dessus.').waitFor()

  // Colis: an arrival for the bakery, handed to its representative.
  await menu(page).getByRole('link', { name: 'Colis' }).click()
  await page.getByLabel('Domiciliation : chercher', { exact: true }).fill('823 456 785')
  const orders = page.getByLabel('Domiciliation', { exact: true })
  await orders.locator('option', { hasText: BAKERY }).waitFor({ state: 'attached' })
  await orders.selectOption({ label: (await orders.locator('option', { hasText: BAKERY }).first().textContent())! })
  await page.getByLabel('Transporteur', { exact: true }).fill('Colissimo')
  await page.getByLabel('Expéditeur', { exact: true }).fill('Moulins Rivoli')
  await page.getByRole('button', { name: 'Enregistrer l’arrivée', exact: true }).click()
  await page.getByRole('button', { name: `Remis : colis de Moulins Rivoli pour ${BAKERY}` }).click()
  const handover = page.getByRole('dialog', { name: 'Remise du colis de Moulins Rivoli' })
  await handover.getByRole('radio', { name: 'Léa Fontaine (représentant)' }).check()
  await handover.getByRole('checkbox', { name: 'Pièce d’identité vérifiée' }).check()
  await axe.check('/operateur/colis, la remise')
  await handover.getByRole('button', { name: 'Confirmer la remise' }).click()
  await handover.waitFor({ state: 'detached' })
  assert.is(await page.getByRole('button', { name: `Remis : colis de Moulins Rivoli pour ${BAKERY}` }).count(), 0)

  // Réexpéditions: the bakery's request shipped.
  await menu(page).getByRole('link', { name: 'Réexpéditions' }).click()
  await page.getByRole('button', { name: `Expédié : réexpédition de ${BAKERY}` }).click()
  const shipping = page.getByRole('form', { name: 'Expédition' })
  await shipping.getByLabel('Transporteur', { exact: true }).fill('La Poste')
  await shipping.getByLabel('Numéro de suivi', { exact: true }).fill(TRACKING)
  await shipping.getByRole('button', { name: 'Enregistrer l’expédition' }).click()
  await page.getByText('Aucune demande de réexpédition en attente.').waitFor()

  // The journal: each action, under Inès's name.
  await menu(page).getByRole('link', { name: 'Administration' }).click()
  await page.getByRole('navigation', { name: 'Sections de l’administration' }).getByRole('link', { name: 'Journal' }).click()
  await journalRows(page, 'Nouveau client').first().waitFor()
  for (const [action, count] of [
    ['Nouveau client', 1],
    ['Scan déposé', 3],
    ['Scan confirmé', 3],
    ['Scan publié', 3],
    ['Colis reçu', 1],
    ['Colis remis', 1],
    ['Réexpédition expédiée', 1],
  ] as const) {
    const rows = journalRows(page, action)
    assert.is(await rows.count(), count, action)
    for (const row of await rows.all()) assert.match((await row.textContent())!, 'Inès Garnier', action)
  }
  await axe.check('/operateur/administration/journal, les actions du parcours')
  await axe.done()

  // Camille: the scanned letter found by a word OCR read; her package's collector; her forwarding's tracking link.
  const customer = await portal.open({ viewport: DESKTOP })
  const camille = customer.page
  await openLetters(camille)
  await camille.getByRole('searchbox', { name: /Rechercher/ }).fill(OCR_WORD.toLowerCase())
  const found = camille.getByRole('list', { name: `Courriers contenant « ${OCR_WORD.toLowerCase()} »` })
  await found.getByRole('listitem').filter({ hasText: 'Banque Populaire' }).first().waitFor()
  await camille.goto('/mes-courriers/colis')
  await pageTitle(camille, 'Colis').waitFor()
  await camille
    .getByText(/Retiré le .* par Léa Fontaine/)
    .first()
    .waitFor()
  await camille.goto('/mes-courriers/reexpeditions')
  const link = camille.getByRole('link', { name: TRACKING })
  await link.waitFor()
  assert.is(await link.getAttribute('href'), `https://www.laposte.fr/outils/suivre-vos-envois?code=${TRACKING}`)
  await customer.close()
})

MailRoom.run()
