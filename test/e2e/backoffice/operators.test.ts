// The back office in Chromium, on the real server and the demo operators: Inès (Administrateur) signs in with her
// password and a code of her authenticator (computed here from the demo secret, as her phone would), opens
// Administration, creates an API key (shown once) and finds it in the journal; Hugo (Courrier) has no Administration
// entry and reads « Accès réservé » at its address. At 1280 px and at 768 px, axe-core finds no serious or critical
// violation on any of these screens.
import * as assert from 'uvu/assert'
import { DESKTOP, portalSuite, screenshot } from '../../util/e2e.ts'
import { ADMIN_MENU } from '../../util/backoffice-menus.ts'
import { axeChecker, menu, signInOperator, TABLET } from '../../util/e2e-backoffice.ts'

const Backoffice = portalSuite('Back-office : connexion, administration et rôles')

for (const viewport of [DESKTOP, TABLET]) {
  Backoffice(
    `${viewport.width} px: the administrator signs in with a TOTP code, creates an API key, finds it in the journal`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      const axe = axeChecker(tab, viewport)
      const shot = (name: string) => (viewport === DESKTOP ? screenshot(page, `backoffice-${name}`) : Promise.resolve())
      // A wrong code first: the server's French reason, on the same step.
      tab.allow(/status of 401/)
      await page.goto('/operateur/connexion')
      await page.getByLabel('Adresse e-mail', { exact: true }).fill('operateur@example.com')
      await page.getByLabel('Mot de passe', { exact: true }).fill('mauvais mot de passe')
      await page.getByRole('button', { name: 'Continuer', exact: true }).click()
      await page.getByRole('alert').filter({ hasText: 'Adresse e-mail ou mot de passe incorrect.' }).waitFor()
      await axe.check('/operateur/connexion, mot de passe refusé')

      const signInShots: Record<string, string> = { '/operateur/connexion': 'sign-in', '/operateur/connexion, le code': 'sign-in-code' }
      await signInOperator(page, 'operateur@example.com', async (screen) => {
        await axe.check(screen)
        await shot(signInShots[screen]!)
      })
      assert.equal(await menu(page).getByRole('link').allTextContents(), ADMIN_MENU)
      await axe.check('/operateur')

      await menu(page).getByRole('link', { name: 'Administration' }).click()
      await page.getByRole('cell', { name: /^Hugo Lemaire/ }).waitFor()
      await axe.check('/operateur/administration')
      await shot('operators')

      const name = `Scanner ${viewport.width}`
      await page.getByRole('navigation', { name: 'Sections de l’administration' }).getByRole('link', { name: 'Clés d’API' }).click()
      await page.waitForURL((url) => url.pathname === '/operateur/administration/cles-api')
      await page.getByLabel('Nom de la clé', { exact: true }).fill(name)
      await page.getByRole('button', { name: 'Créer la clé' }).click()
      const dialog = page.getByRole('dialog', { name: `Clé « ${name} » créée` })
      const key = (await dialog.getByTestId('new-api-key').textContent())!.trim()
      assert.match(key, /^dk_/)
      await axe.check('/operateur/administration/cles-api, la clé affichée')
      await shot('api-key-created')
      await dialog.getByRole('button', { name: 'J’ai copié la clé' }).click()
      await dialog.waitFor({ state: 'detached' })
      // The key works for the machines' API, and is never shown again.
      const orders = await fetch(`${portal.url}/api/operator/domiciliation-orders`, { headers: { authorization: `Bearer ${key}` } })
      assert.is(orders.status, 200)
      assert.is(await page.getByText(key).count(), 0)
      await page.getByRole('cell', { name, exact: true }).waitFor()
      await axe.check('/operateur/administration/cles-api')

      await page.getByRole('navigation', { name: 'Sections de l’administration' }).getByRole('link', { name: 'Journal' }).click()
      const row = page.getByRole('row').filter({ hasText: `Création de la clé d’API « ${name} »` })
      await row.waitFor()
      assert.match((await row.textContent())!, 'Inès Garnier')
      await page.getByLabel('Action', { exact: true }).selectOption('apiKey.created')
      await page.getByRole('button', { name: 'Filtrer', exact: true }).click()
      await page
        .getByRole('status')
        .filter({ hasText: /entrées?, page 1 sur/ })
        .waitFor()
      await row.waitFor()
      await axe.check('/operateur/administration/journal')
      await shot('journal')

      const download = page.waitForEvent('download')
      await page.getByRole('button', { name: 'Exporter en CSV' }).click()
      const csv = await download
      assert.match(csv.suggestedFilename(), /^journal-\d{4}-\d{2}-\d{2}\.csv$/)

      await menu(page).getByRole('link', { name: 'Mes clés d’accès' }).click()
      await page.getByRole('heading', { name: 'Clés d’accès', level: 2 }).waitFor()
      await axe.check('/operateur/mes-cles-d-acces')
      await shot('my-passkeys')

      await page.getByRole('button', { name: 'Se déconnecter' }).click()
      await page.getByText('Vous êtes déconnecté du back-office.').waitFor()
      assert.is(await page.evaluate(() => localStorage.getItem('operatorSession')), null)
      await axe.done()
    },
  )

  Backoffice(
    `${viewport.width} px: every screen of the administrator: the dashboard's queues, Clients and an order, « Nouveau client », the mail room`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      const axe = axeChecker(tab, viewport)
      const shot = (name: string) => (viewport === DESKTOP ? screenshot(page, `backoffice-${name}`) : Promise.resolve())
      await signInOperator(page, 'operateur@example.com')
      // The demo's Kbis waits in Justificatifs, its forwarding request in Réexpéditions.
      await page.getByText('Justificatifs').first().waitFor()
      await page.getByText('Réexpéditions').first().waitFor()
      await axe.check('/operateur, les files')
      await shot('dashboard')

      await menu(page).getByRole('link', { name: 'Clients' }).click()
      await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor()
      await page.getByLabel('Société, SIREN, e-mail, personne ou n° de commande', { exact: true }).fill('823 456 785')
      await page.getByRole('button', { name: 'Rechercher', exact: true }).click()
      await page.getByRole('heading', { name: 'Résultats pour « 823 456 785 »', level: 2 }).waitFor()
      const result = page.getByRole('link', { name: /Boulangerie des Lilas SAS/ }).first()
      await result.waitFor()
      await axe.check('/operateur/clients, une recherche')
      await shot('clients')
      await result.click()
      await page.getByRole('heading', { name: 'Société', level: 2 }).waitFor()
      await page.getByRole('heading', { name: 'Personnes', level: 2 }).waitFor()
      await axe.check('/operateur/clients/:id')
      await shot('client-order')

      await menu(page).getByRole('link', { name: 'Clients' }).click()
      await page.getByRole('link', { name: 'Nouveau client', exact: true }).click()
      await page.getByRole('heading', { name: 'La société', level: 2 }).waitFor()
      await axe.check('/operateur/clients/nouveau')
      await shot('new-client')

      await menu(page).getByRole('link', { name: 'Numérisation' }).click()
      await page.getByRole('heading', { name: 'Déposer des scans', level: 2 }).waitFor()
      await page.getByRole('heading', { name: 'Scans à publier', level: 2 }).waitFor()
      await axe.check('/operateur/numerisation')
      await shot('scans')

      await menu(page).getByRole('link', { name: 'Colis' }).click()
      await page.getByRole('heading', { name: 'Arrivée d’un colis', level: 2 }).waitFor()
      await page.getByRole('heading', { name: 'Colis à retirer', level: 2 }).waitFor()
      await axe.check('/operateur/colis')
      await shot('packages')

      await menu(page).getByRole('link', { name: 'Réexpéditions' }).click()
      await page.getByRole('heading', { name: 'Demandes de réexpédition en attente', level: 2 }).waitFor()
      await page.getByText('Boulangerie des Lilas SAS').first().waitFor()
      await axe.check('/operateur/reexpeditions')
      await shot('forwarding')
      await axe.done()
    },
  )

  Backoffice(
    `${viewport.width} px: a Courrier operator has no Administration entry, and its address says « Accès réservé »`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      const axe = axeChecker(tab, viewport)
      await signInOperator(page, 'courrier@example.com')
      // No Conformité page (Justificatifs, Formalités juridiques), no Administration.
      assert.equal(await menu(page).getByRole('link').allTextContents(), [
        'Tableau de bord',
        'Clients',
        'Numérisation',
        'Colis',
        'Réexpéditions',
        'Mes clés d’accès',
      ])
      await axe.check('/operateur (Courrier)')
      await page.goto('/operateur/administration')
      await page.getByRole('heading', { name: 'Accès réservé', level: 1 }).waitFor()
      assert.match((await page.getByRole('main').textContent())!, 'réservée aux opérateurs ayant le rôle « Administrateur »')
      await axe.check('/operateur/administration (Courrier)')
      // The server refuses its calls too, in French.
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('operatorSession')!).token as string)
      const refused = await fetch(`${portal.url}/api/backoffice/journal`, { headers: { authorization: `Bearer ${token}` } })
      assert.is(refused.status, 403)
      assert.match(((await refused.json()) as { message: string }).message, 'Administrateur')
      await axe.done()
    },
  )
}

Backoffice.run()
