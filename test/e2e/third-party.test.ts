// No request leaves the portal's origin before the person asks (docs/LEGAL.md: no tracker, so no cookie banner): every
// request of every page is recorded, signed out (login, the password and document screens, the four legal pages, the
// public verification) and signed in as Camille (the selection, a letter opened, the card dialog of the local test
// payment provider; every page of the menu in the navigation tours, test/e2e/navigation.test.ts, with the same
// recorder), at phone and desktop width, with the CSP enforced. A request to another
// origin is aborted, never sent, and fails the test. With Stripe configured, js.stripe.com loads only once the card
// dialog opens: the person asking (src/wiring/stripe-card.ts).
import * as assert from 'uvu/assert'
import { LEGAL_PAGES } from '../../server/contract/rules/legal.ts'
import {
  chooseOrder,
  recordRequests,
  DESKTOP,
  MOBILE,
  networkIdle,
  pageTitle,
  type Portal,
  portalSuite,
  signIn,
  type Viewport,
} from '../util/e2e.ts'

const T = portalSuite('Aucune requête vers un tiers, sur aucune page')

async function tabFor(portal: Portal, viewport: Viewport, bypassCSP = false) {
  const tab = await portal.open({ viewport, bypassCSP })
  const requests = await recordRequests(tab.context, new URL(portal.url).origin)
  return { ...tab, requests }
}

T('the recorder sees a request to another origin (an image of a third party), and aborts it', async ({ portal }) => {
  // The CSP would block such an image before any request: bypassed here, to check the recorder alone.
  const tab = await tabFor(portal, DESKTOP, true)
  await tab.page.goto('/login')
  await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
  tab.allow(/ERR_BLOCKED_BY_CLIENT|Failed to load resource/)
  await tab.page.evaluate(() => {
    const image = document.createElement('img')
    image.src = 'https://traceur.example/pixel.gif'
    document.body.append(image)
  })
  await networkIdle(tab.page)
  assert.equal(tab.requests.elsewhere, ['https://traceur.example/pixel.gif'])
  await tab.close()
})

for (const viewport of [MOBILE, DESKTOP]) {
  T(`signed out, ${viewport.width} px: login, password screens, missing documents, legal pages, verification`, async ({ portal }) => {
    const tab = await tabFor(portal, viewport)
    const { page } = tab
    for (const [path, heading] of [
      ['/login', 'Connexion'],
      ['/reset-password', /mot de passe/i],
      ['/set-password/jeton-de-test', /mot de passe/i],
      ['/missing-document', 'Documents manquants'],
      ...LEGAL_PAGES.map((legal) => [legal.path, legal.title] as const),
    ] as const) {
      await page.goto(path)
      if (path === '/login') await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
      else await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      await networkIdle(page)
    }
    tab.allow(/status of 404/)
    await page.goto('/verification/ABCD-EFGH-JKMN')
    await page.getByText('Aucune attestation ne correspond à ce code.').waitFor()
    await networkIdle(page)
    assert.ok(tab.requests.seen.length > 10, `requests recorded: ${tab.requests.seen.length}`)
    assert.equal(tab.requests.elsewhere, [])
    await tab.close()
  })

  // Every page of the menu, signed in, is recorded where it is visited already: the navigation tours
  // (test/e2e/navigation.test.ts), which follow every link at these widths with the CSP enforced.
  T(`signed in, ${viewport.width} px: a letter, the card dialog`, async ({ portal }) => {
    const tab = await tabFor(portal, viewport)
    const { page } = tab
    await signIn(page)
    await chooseOrder(page, 'Boulangerie des Lilas SAS')
    await pageTitle(page, 'Tableau de bord').waitFor()
    // A letter opened in the viewer (its PDF or its page images).
    await page.goto('/mes-courriers/courriers')
    await page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').first().click()
    await networkIdle(page)
    // The card dialog of the local test provider: the card goes to this origin's /test-provider, nowhere else.
    await page.goto('/moyen-de-paiement')
    await page.getByRole('button', { name: 'Remplacer ma carte' }).click()
    await page.getByRole('dialog', { name: 'Nouvelle carte' }).getByLabel('Numéro de carte').waitFor()
    await networkIdle(page)
    assert.ok(
      tab.requests.seen.some((url) => url.includes('/api-protected/')),
      'the API was called',
    )
    assert.equal(tab.requests.elsewhere, [])
    await tab.close()
  })
}

T.run()
