// axe-core signed out and signed in, at phone and desktop width, with each modal, the drawer and the order selection
// open: no serious or critical violation. Every page of the portal is checked by the navigation tours
// (test/e2e/navigation.test.ts, at 360 and 1280 px): this file checks the screens a tour does not open. axe is
// evaluated through the debugging protocol (test/util/e2e.ts), so these tabs keep the CSP enforced, as the journeys do.
import * as assert from 'uvu/assert'
import { DEMO_LEGAL } from '../../server/config.ts'
import { LEGAL_PAGES } from '../../server/contract/rules/legal.ts'
import {
  axeChecker,
  chooseOrder,
  DESKTOP,
  isMobile,
  MOBILE,
  openMenu,
  pageTitle,
  phoneLayoutProblems,
  portalSuite,
  seriousViolations,
  settled,
  signIn,
  toast,
} from '../util/e2e.ts'

// Prepared: the pages are checked with everything the demo letters bring (their images, the deadlines found in them).
const A11y = portalSuite('Accessibilité (axe-core) : aucune violation grave ou critique', { prepared: true })

A11y('the checker reports what axe-core finds serious (a button without a name)', async ({ portal }) => {
  const tab = await portal.open({ viewport: DESKTOP })
  await tab.page.goto('/login')
  await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
  await tab.page.evaluate(() => document.querySelector('main')!.append(document.createElement('button')))
  const found = await seriousViolations(tab.page)
  assert.ok(
    found.some((v) => v.startsWith('button-name (critical)')),
    found.join('\n'),
  )
  await tab.close()
})

for (const viewport of [MOBILE, DESKTOP]) {
  A11y(`signed out, ${viewport.width} px: login (with its errors), password screens, missing documents`, async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    const axe = axeChecker(tab, viewport)
    await page.goto('/login')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
    await axe.check('/login')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.getByText('Saisissez votre adresse e-mail.').waitFor()
    await axe.check('/login, champs vides')
    tab.allow(/status of 401/)
    await page.getByLabel('Adresse e-mail', { exact: true }).fill('demo@example.com')
    await page.getByLabel('Mot de passe', { exact: true }).fill('mauvais-mot-de-passe')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.getByRole('alert').filter({ hasText: 'Identifiants incorrects' }).waitFor()
    // The form as the customer reads it: the sign-in over (the button no longer dimmed), the pointer off the button.
    await page.locator('form[aria-busy="false"]').waitFor()
    await page.mouse.move(0, 0)
    await axe.check('/login, identifiants incorrects')
    for (const [path, heading] of [
      ['/reset-password', /mot de passe/i],
      ['/set-password/jeton-de-test', /mot de passe/i],
      ['/missing-document', 'Documents manquants'],
      // legal pages: served with the provider's particulars (the demo's)
      ...LEGAL_PAGES.map((legal) => [legal.path, legal.title] as const),
    ] as const) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      // A legal page shows the particulars the server wrote into it, not its fallback message.
      if (LEGAL_PAGES.some((legal) => legal.path === path)) {
        await page.getByRole('main').getByText(DEMO_LEGAL.PROVIDER_NAME).first().waitFor()
      }
      await axe.check(path)
    }
    await axe.done()
  })

  A11y(
    `signed in, ${viewport.width} px: selection, a Kbis banner's dashboard, Kbis and problem modals, drawer, toast`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      const axe = axeChecker(tab, viewport)
      await signIn(page)
      await page.getByRole('heading', { name: 'Sélectionnez la domiciliation' }).waitFor()
      await axe.check('sélection de la domiciliation')
      // An order whose Kbis is missing: its banner on the dashboard (the tours check every page on the Boulangerie's).
      await chooseOrder(page, 'Atelier Lumière SARL')
      await pageTitle(page, 'Tableau de bord').waitFor()
      await settled(page)
      await axe.check('/tableau-de-bord, bandeau Kbis')
      await page.goto('/adresse-inconnue')
      await pageTitle(page, 'Page introuvable').waitFor()
      await axe.check('page introuvable')

      await page.goto('/tableau-de-bord')
      await settled(page)
      await page.getByRole('button', { name: 'Je dépose mon Kbis' }).click()
      await page.getByRole('dialog', { name: 'Déposer mon justificatif' }).waitFor()
      await axe.check('modale Kbis')
      await page.keyboard.press('Escape')

      // notifications: the bell's panel, with the demo's notifications listed
      await page.getByRole('button', { name: /^(Notifications|\d+ notifications? non lues?)$/ }).click()
      await page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').first().waitFor()
      await axe.check('notifications')
      await page.keyboard.press('Escape')

      if (isMobile(viewport)) {
        await openMenu(page, viewport)
        await axe.check('menu mobile ouvert')
      }
      await page.getByRole('button', { name: 'Signaler un problème' }).click()
      const problem = page.getByRole('dialog', { name: 'Signaler un problème' })
      await problem.getByRole('button', { name: 'Envoyer' }).click()
      await problem.getByText('Veuillez décrire votre problème avant de l’envoyer.').waitFor()
      await axe.check('modale de signalement, message vide')
      await problem.getByLabel('Votre message').fill('Test d’accessibilité')
      await problem.getByRole('button', { name: 'Envoyer' }).click()
      await toast(page, 'Votre demande est envoyé, nous revenons vers vous au plus vite').waitFor()
      await axe.check('notification (toast)')

      if (!isMobile(viewport)) {
        await page.getByRole('button', { name: 'Réduire le menu' }).click()
        await page.getByRole('button', { name: 'Déplier le menu' }).waitFor()
        await axe.check('menu réduit')
        await page.getByRole('button', { name: 'Déplier le menu' }).click()
      }
      await axe.done()
    },
  )

  A11y(`signed in, ${viewport.width} px: /missing-document with its upload form`, async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    const axe = axeChecker(tab, viewport)
    await signIn(page)
    await chooseOrder(page, 'Conseil Horizon EURL')
    await page.getByRole('button', { name: 'Envoyer mes documents' }).waitFor()
    await axe.check('/missing-document')
    await axe.done()
  })
}

A11y(
  '360 px, every order (« Tous »): two dialogs no wider than the screen, their controls (a dialog’s checkboxes too) at least 44 px (every page: the navigation tour)',
  async ({ portal }) => {
    const tab = await portal.open({ viewport: MOBILE })
    const { page } = tab
    await signIn(page)
    await chooseOrder(page, 'Tous')
    await pageTitle(page, 'Tableau de bord').waitFor()
    const problems: string[] = []
    const measure = (where: string) => phoneLayoutProblems(page, where)
    await page.goto('/souscription/mes-abonnements')
    await settled(page)
    await page
      .getByRole('button', { name: /^Résilier/ })
      .first()
      .click()
    await page.getByRole('dialog').waitFor()
    problems.push(...(await measure('dialogue « Résilier la domiciliation de … »')))
    await page.keyboard.press('Escape')
    await page.goto('/mes-courriers/courriers')
    await page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').first().tap()
    await page.getByRole('button', { name: 'Envoyer par e-mail' }).tap()
    await page.getByRole('dialog', { name: 'Envoyer par e-mail' }).getByRole('checkbox').first().waitFor()
    problems.push(...(await measure('dialogue « Envoyer par e-mail »')))
    await tab.close()
    assert.equal(problems, [], problems.join('\n'))
  },
)

A11y('360 px (touch): a toast hides no control of the bars, and its « Fermer » (44 px) or Escape dismisses it', async ({ portal }) => {
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  await signIn(page)
  await chooseOrder(page, 'Boulangerie des Lilas SAS')
  await pageTitle(page, 'Tableau de bord').waitFor()
  const report = async () => {
    await openMenu(page, MOBILE)
    await page.getByRole('button', { name: 'Signaler un problème' }).tap()
    const dialog = page.getByRole('dialog', { name: 'Signaler un problème' })
    await dialog.getByLabel('Votre message').fill('Test du toast')
    await dialog.getByRole('button', { name: 'Envoyer' }).tap()
    await toast(page, 'Votre demande est envoyé, nous revenons vers vous au plus vite').waitFor()
    await page.waitForTimeout(400) // its entrance over
  }
  await report()
  // The bars' controls, and the one the focus came back to ('Ouvrir le menu', the report having been opened from the drawer).
  const covered = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('nav button, header button'), document.activeElement as HTMLElement]
      .filter((el) => {
        const box = el.getBoundingClientRect()
        if (box.width === 0 || box.bottom < 0 || box.top > innerHeight) return false
        return !!document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[data-rht-toaster]')
      })
      .map((el) => el.getAttribute('aria-label') || el.innerText),
  )
  assert.equal(covered, [], `under the toast: ${covered.join(', ')}`)
  const close = page.locator('[data-rht-toaster]').getByRole('button', { name: 'Fermer' })
  const box = (await close.boundingBox())!
  assert.ok(box.width >= 44 && box.height >= 44, `« Fermer » ${box.width}×${box.height}`)
  await close.tap()
  await toast(page, 'Votre demande est envoyé').waitFor({ state: 'detached', timeout: 3000 })
  await report()
  await page.keyboard.press('Escape')
  await toast(page, 'Votre demande est envoyé').waitFor({ state: 'detached', timeout: 3000 })
  await tab.close()
})

for (const viewport of [MOBILE, DESKTOP]) {
  A11y(
    `${viewport.width} px: the bell's panel opens without scrolling the page, under the bars, and closes on a tap or click outside`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      await signIn(page)
      await chooseOrder(page, 'Boulangerie des Lilas SAS')
      await pageTitle(page, 'Tableau de bord').waitFor()
      await page.goto('/factures')
      await pageTitle(page, 'Mes factures').waitFor()
      await settled(page)
      const bell = page.getByRole('button', { name: /^(Notifications|\d+ notifications? non lues?)$/ })
      if (isMobile(viewport)) await bell.tap()
      else await bell.click()
      const panel = page.getByRole('region', { name: 'Notifications' })
      await panel.getByRole('listitem').first().waitFor()
      const where = await page.evaluate(() => {
        const bell = document.querySelector('button[aria-controls="notifications"]')!.getBoundingClientRect()
        const header = document.querySelector('header')!.getBoundingClientRect()
        const panel = document.getElementById('notifications')!.getBoundingClientRect()
        const atBell = document.elementFromPoint(bell.left + bell.width / 2, bell.top + bell.height / 2)
        return {
          scrollY,
          bellShown: !!atBell?.closest('button[aria-controls="notifications"]'),
          headerBottom: Math.round(header.bottom),
          panelTop: Math.round(panel.top),
        }
      })
      assert.is(where.scrollY, 0, 'the page did not scroll')
      assert.ok(where.bellShown, 'the bell is on screen, not under the panel')
      if (isMobile(viewport))
        assert.ok(
          where.panelTop >= where.headerBottom,
          `the panel (top ${where.panelTop}) is under the header (bottom ${where.headerBottom})`,
        )
      if (isMobile(viewport)) await page.touchscreen.tap(180, 700)
      else await page.mouse.click(640, 760)
      await panel.waitFor({ state: 'detached', timeout: 3000 })
      await tab.close()
    },
  )
}

// Last: it adds a collaborator and a representative to the Boulangerie.
A11y('360 px: a long e-mail address wraps in the lists and their dialogs, the page never wider than the screen', async ({ portal }) => {
  const email = 'comptabilite.boulangerie@example.com'
  const token = await portal.apiToken()
  const boulangerie = (await portal.orders())['Boulangerie des Lilas SAS']!
  const post = (path: string, body: unknown) =>
    fetch(`${portal.url}/api-protected/domiciliation-orders/${boulangerie.id}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apiToken: token },
      body: JSON.stringify(body),
    })
  assert.is((await post('invite', { emails: [email] })).status, 200)
  assert.is(
    (await post('destinataire-mandataires', { firstname: 'Service', lastname: 'Comptabilité', email, phone: '06 12 34 56 78' })).status,
    200,
  )
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  await signIn(page)
  await chooseOrder(page, 'Boulangerie des Lilas SAS')
  await pageTitle(page, 'Tableau de bord').waitFor()
  const problems: string[] = []
  for (const [path, opener] of [
    ['/mes-collaborateurs', 'Inviter'],
    ['/mes-representants', 'Ajouter un représentant'],
  ] as const) {
    await page.goto(path)
    await page.getByText(email).first().waitFor()
    await settled(page)
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth)
    if (pageWidth > MOBILE.width) problems.push(`${path}: page ${pageWidth} px wide`)
    await page.getByRole('button', { name: opener, exact: true }).tap()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    const right = await dialog.evaluate((d) =>
      Math.max(...[d, ...d.querySelectorAll('button, input, textarea')].map((e) => Math.round(e.getBoundingClientRect().right))),
    )
    if (right > MOBILE.width) problems.push(`${path}, dialogue: reaches ${right} px`)
    await page.keyboard.press('Escape')
  }
  await tab.close()
  assert.equal(problems, [], problems.join('\n'))
})

A11y.run()
