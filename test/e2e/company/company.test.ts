// The company area in Chromium, at 360 × 740 and 1280 × 800, on the real server with the
// CSP enforced: the VAT simulator, the fiscal calendar and its .ics, the company card, the
// meeting-room bookings, then the journeys that change data — a bank partner's interest that
// survives a reload, and a transfer of registered office ordered from the catalogue that /formalites
// shows as "Reçue". Each width has its own server: Camille acts on a desktop, Sophie on a phone.
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import { localIsoDate } from '../../../src/domain/dates.ts'
import { fiscalCalendar } from '../../../src/domain/fiscalCalendar.ts'
import { parseIcs, values } from '../../util/ics.ts'
import {
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
  toast,
  type Viewport,
  waitForPath,
} from '../../util/e2e.ts'

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const EPICERIE = 'Épicerie Solène SARL'
const thisYear = new Date().getFullYear()

/** A tab signed in with the company shown: Camille picks the Boulangerie; Sophie has one company. */
async function signedIn(portal: Portal, viewport: Viewport) {
  const tab = await portal.open({ viewport })
  if (isMobile(viewport)) {
    await signIn(tab.page, 'solo@example.com')
  } else {
    await signIn(tab.page)
    await chooseOrder(tab.page, BOULANGERIE)
  }
  await pageTitle(tab.page, 'Tableau de bord').waitFor()
  return tab
}

/** Through the side menu, as a customer would (a drawer on a phone). */
async function viaMenu(page: Page, viewport: Viewport, label: string, path: string) {
  await openMenu(page, viewport)
  const menu = page.getByRole('complementary', { name: 'Menu principal' })
  await menu.getByRole('link', { name: label, exact: true }).click()
  await waitForPath(page, path)
}

const shot = (viewport: Viewport, name: string) => `${name}-${isMobile(viewport) ? 'mobile' : 'desktop'}`

for (const viewport of [DESKTOP, MOBILE]) {
  const C = portalSuite(`Entreprise et suivi comptable (${viewport.width} × ${viewport.height})`)
  const company = isMobile(viewport) ? EPICERIE : BOULANGERIE

  C(
    'the VAT simulator turns "100" HT at 20 % into "120,00 €"; the menu reaches Suivi comptable, then the simulator (side menu on a desktop, the group’s links atop the page on a phone)',
    async ({ portal }) => {
      const tab = await signedIn(portal, viewport)
      const { page } = tab
      await viaMenu(page, viewport, 'Suivi comptable', '/suivi-comptable/tresorerie')
      // The group's other pages: in the side menu on a desktop, at the top of the page on a phone (the drawer lists groups only).
      const subPages = isMobile(viewport)
        ? page.getByRole('navigation', { name: 'Suivi comptable : sous-rubriques' })
        : page.getByRole('complementary', { name: 'Menu principal' }).getByRole('list', { name: 'Suivi comptable : sous-rubriques' })
      await subPages.getByRole('link', { name: 'Simulateur de TVA', exact: true }).click()
      await waitForPath(page, '/suivi-comptable/simulateur-tva')
      if (isMobile(viewport)) {
        // One row on a phone; opened at this address, it is scrolled sideways to the page shown (the group's last here).
        const row = (await subPages.getByRole('list').boundingBox())!
        assert.ok(row.height < 60, `one row: ${row.height} px high`)
        await page.reload()
        await pageTitle(page, 'Simulateur de TVA').waitFor()
        await page.waitForFunction(() => {
          const shown = document
            .querySelector('nav[aria-label="Suivi comptable : sous-rubriques"] [aria-current="page"]')!
            .getBoundingClientRect()
          return shown.left >= 0 && shown.right <= window.innerWidth
        })
      }
      await page.getByLabel('Montant HT (€)').fill('100')
      const result = page.getByRole('region', { name: 'Résultat' })
      await result.getByText('120,00 €').waitFor()
      assert.match((await result.textContent())!, /TVA à 20 % \(taux normal\)\s*20,00\s€/)
      await screenshot(page, shot(viewport, 'vat-simulator'))
      await page.getByLabel('Montant HT (€)').fill('12 34')
      await page.getByRole('alert').filter({ hasText: 'Saisissez un montant, par exemple 1 234,56.' }).waitFor()
      await tab.close()
    },
  )

  C('the fiscal calendar shows the CFE on 15 December and "Ajouter à mon agenda" downloads an .ics that parses', async ({ portal }) => {
    const tab = await signedIn(portal, viewport)
    const { page } = tab
    await page.goto('/suivi-comptable/calendrier-fiscal')
    await page.getByRole('heading', { name: `Échéances fiscales de ${company}` }).waitFor()
    // 15 December, or the next business day with "Reportée du 15 décembre" when it falls on a weekend.
    const today = localIsoDate()
    const deadlines = fiscalCalendar({ today, legalForm: 'SAS', vatRegime: 'simplifie' })
    const cfeDate = deadlines.find((d) => d.id === `cfe-${thisYear}`)!.date
    // The file holds the deadlines to come: this year's CFE, or next year's once it is past.
    const nextCfe = deadlines.find((d) => d.kind === 'cfe' && d.date >= today)!
    // The past ones are folded: this year's CFE shows once they are, after 15 December.
    if (cfeDate < today) await page.getByRole('button', { name: /^Afficher les \d+ échéances passées$/ }).click()
    const cfe = page.getByRole('listitem').filter({ hasText: `Cotisation foncière des entreprises (CFE) ${thisYear}` })
    assert.is(await cfe.locator('time').getAttribute('datetime'), cfeDate)
    assert.match((await cfe.textContent())!, cfeDate.endsWith('-12-15') ? `15 décembre ${thisYear}` : `Reportée du 15 décembre ${thisYear}`)
    await page.locator('[data-next="true"]').waitFor()
    await screenshot(page, shot(viewport, 'fiscal-calendar'))
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Ajouter à mon agenda/ }).click(),
    ])
    assert.match(download.suggestedFilename(), /^calendrier-fiscal-.*\.ics$/)
    const calendar = parseIcs(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')))
    const events = calendar.components.filter((c) => c.name === 'VEVENT')
    assert.ok(events.length > 0)
    assert.ok(events.some((e) => values(e, 'SUMMARY')[0] === nextCfe.title && values(e, 'DTSTART')[0] === nextCfe.date.replaceAll('-', '')))
    assert.is(events.length, deadlines.filter((d) => d.date >= today).length, 'one VEVENT a deadline to come')
    await page.goto('/suivi-comptable/formalite-juridique')
    await page.getByRole('heading', { name: `Obligations juridiques de ${company}` }).waitFor()
    await page.getByRole('region', { name: /Registre des bénéficiaires effectifs/ }).waitFor()
    await screenshot(page, shot(viewport, 'legal-duties'))
    await tab.close()
  })

  C('the company card shows the SIREN; Mes réunions shows "Salle Haussmann"; the formalities and the catalogue', async ({ portal }) => {
    const tab = await signedIn(portal, viewport)
    const { page } = tab
    await viaMenu(page, viewport, 'Gestion de mon entreprise', '/gestion-de-mon-entreprise')
    const card = page.getByRole('region', { name: company })
    await card.getByText(isMobile(viewport) ? '856 789 011' : '823 456 785', { exact: true }).waitFor()
    await screenshot(page, shot(viewport, 'company'))
    if (!isMobile(viewport)) {
      await viaMenu(page, viewport, 'Mes réunions', '/mes-reunions')
      const bookings = page.getByRole('list', { name: 'Réservations' }).getByRole('listitem')
      await bookings.first().waitFor()
      assert.match((await bookings.first().textContent())!, /Salle Haussmann.*À venir/)
      await screenshot(page, shot(viewport, 'meetings'))
      const [invoice] = await Promise.all([
        page.waitForEvent('download'),
        bookings
          .first()
          .getByRole('button', { name: /^Télécharger la facture/ })
          .click(),
      ])
      assert.match(invoice.suggestedFilename(), /^facture-FA-\d{4}-823R\d\d\.pdf$/)
      await viaMenu(page, viewport, 'Formalités', '/formalites')
      await page.getByRole('listitem', { name: 'Modification du capital : Terminée' }).waitFor()
    } else {
      await viaMenu(page, viewport, 'Mes réunions', '/mes-reunions')
      await page.getByText('Aucune réservation de salle de réunion pour le moment.').waitFor()
      await screenshot(page, shot(viewport, 'meetings'))
      await viaMenu(page, viewport, 'Formalités', '/formalites')
      await page.getByText(/Aucune formalité demandée pour le moment/).waitFor()
    }
    await screenshot(page, shot(viewport, 'formalities'))
    await page.goto('/suivi-comptable/tresorerie')
    await page.getByRole('button', { name: "Ça m'intéresse : Qonto" }).waitFor()
    await screenshot(page, shot(viewport, 'treasury'))
    await tab.close()
  })

  C('Qonto interest is sent and survives a reload', async ({ portal }) => {
    const tab = await signedIn(portal, viewport)
    const { page } = tab
    await page.goto('/suivi-comptable/tresorerie')
    const qonto = page.getByRole('region', { name: 'Qonto' })
    await qonto.getByRole('button', { name: "Ça m'intéresse : Qonto" }).click()
    await qonto.getByText('Demande envoyée').waitFor()
    await toast(page, 'Votre intérêt pour Qonto est transmis').waitFor()
    if (isMobile(viewport)) {
      // On a phone a tap on the toast's text dismisses it (it covers the bottom of the page).
      await toast(page, 'Votre intérêt pour Qonto est transmis')
        .getByText(/^Votre intérêt/)
        .click()
      await toast(page, 'Votre intérêt pour Qonto est transmis').waitFor({ state: 'detached', timeout: 3000 })
    } else {
      // On a desktop it shows below the header: the page's title, the Domiciliation choice and the bell stay in view.
      const header = (await page.getByRole('banner').boundingBox())!
      const shown = (await toast(page, 'Votre intérêt pour Qonto est transmis').boundingBox())!
      assert.ok(shown.y >= header.y + header.height, `le message (haut ${shown.y}) sous l’en-tête (bas ${header.y + header.height})`)
    }
    await page.reload()
    await qonto.getByText('Demande envoyée').waitFor()
    assert.is(await page.getByRole('region', { name: 'Shine' }).getByRole('button', { name: "Ça m'intéresse : Shine" }).count(), 1)
    const orders = await portal.orders(isMobile(viewport) ? 'solo@example.com' : 'demo@example.com')
    assert.equal([orders[company]!.qonto, orders[company]!.shine], [true, false])
    await tab.close()
  })

  C('a transfer of registered office ordered from the catalogue appears in /formalites as "Reçue"', async ({ portal }) => {
    const tab = await signedIn(portal, viewport)
    const { page } = tab
    await viaMenu(page, viewport, 'Formalités juridiques', '/formalites-juridique')
    await page.getByRole('heading', { name: 'Formalités juridiques', level: 1 }).waitFor()
    await page
      .getByRole('region', { name: 'Création de société' })
      .getByText('Votre société est déjà immatriculée', { exact: false })
      .waitFor()
    await screenshot(page, shot(viewport, 'legal-catalogue'))
    await page.getByRole('button', { name: 'Commander : Transfert de siège social' }).click()
    const dialog = page.getByRole('dialog', { name: 'Commander : Transfert de siège social' })
    await dialog.getByLabel('Précisions pour nos juristes (facultatif)').fill('Transfert depuis Lyon au 1er du mois prochain.')
    await screenshot(page, shot(viewport, 'legal-order'))
    await dialog.getByRole('button', { name: 'Confirmer la commande' }).click()
    await waitForPath(page, '/formalites')
    const row = page.getByRole('listitem', { name: 'Transfert de siège social : Reçue' })
    await row.getByText('Vos précisions : Transfert depuis Lyon au 1er du mois prochain.').waitFor()
    await page.reload()
    await row.waitFor()
    const stored = await portal.server.deps.db
      .selectFrom('legal_submissions')
      .innerJoin('orders', 'orders.id', 'legal_submissions.order_id')
      .select(['legal_submissions.kind', 'legal_submissions.status'])
      .where('orders.raison_sociale', '=', company)
      .where('legal_submissions.kind', '=', 'transfert-siege')
      .execute()
    assert.equal(stored, [{ kind: 'transfert-siege', status: 'Reçue' }])
    await tab.close()
  })

  C.run()
}
