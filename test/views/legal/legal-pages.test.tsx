// The legal pages (public, bare layout): each shows its title and the provider's particulars the server wrote into the
// page (server/http/spa.ts), links the other three, and needs no sign-in; /login and the signed-in sidebar link all four.
import '../../util/dom.ts'
import { cleanup, screen, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { LEGAL_PAGES, LEGAL_PARTICULARS_ELEMENT_ID, type LegalParticulars } from '../../../server/contract/rules/legal.ts'
import { legalParticularsBlock } from '../../../server/http/spa.ts'
import { STATEMENT_DATE } from '../../../src/views/pages/legal/AccessibilityPage.tsx'
import { publicPaths } from '../../../src/wiring/bare-pages.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp } from '../../util/services.tsx'

const particulars: LegalParticulars = {
  name: 'Domiciliation Exemple',
  legalForm: 'SAS',
  shareCapital: '10 000 €',
  siren: '987654324',
  rcsCity: 'Lyon',
  address: '12 rue des Exemples, 69002 Lyon',
  phone: '04 72 00 00 00',
  contactEmail: 'contact@exemple.fr',
  publicationDirector: 'Claire Exemple',
  prefectureApproval: '2024-69-0123',
  privacyEmail: 'dpo@exemple.fr',
  hostName: 'Hébergeur Exemple SAS',
  hostAddress: '2 rue du Serveur, 59100 Roubaix',
  hostPhone: '03 20 00 00 00',
  publicUrl: 'https://espace.exemple.fr',
  brandName: 'Domicilium',
}

/** The page as the server sends it: the particulars' JSON block in its head. */
function served(legal: LegalParticulars | null = particulars) {
  document.getElementById(LEGAL_PARTICULARS_ELEMENT_ID)?.remove()
  if (legal) document.head.insertAdjacentHTML('beforeend', legalParticularsBlock(legal))
}

const main = () => within(screen.getByRole('main'))

/** What each page must show of the particulars (the law's list for the legal notice; the rest as each page needs). */
const shown: Record<string, string[]> = {
  '/mentions-legales': [
    'Domiciliation Exemple',
    'SAS, au capital de 10 000 €',
    '987 654 324 (RCS Lyon)',
    '12 rue des Exemples, 69002 Lyon',
    '04 72 00 00 00',
    'contact@exemple.fr',
    'Claire Exemple',
    '2024-69-0123',
    'Hébergeur Exemple SAS',
    '2 rue du Serveur, 59100 Roubaix',
    '03 20 00 00 00',
  ],
  '/politique-de-confidentialite': [
    'dpo@exemple.fr',
    'Stripe Payments Europe, Limited',
    'Hébergeur Exemple SAS',
    'Cinq ans après la fin de la relation',
    'article L123-22 du Code de commerce',
    'Commission nationale de',
    'article 15 du RGPD',
    'article 20',
    'Exécution du contrat (art. 6.1.b du RGPD)',
    'aucun cookie de mesure d’audience',
  ],
  '/conditions-generales': ['Domiciliation Exemple', '987 654 324', '2024-69-0123', 'R123-168', 'contact@exemple.fr'],
  '/declaration-accessibilite': [
    'non conforme',
    'axe-core',
    '360 pixels',
    'uniquement au clavier',
    'Ce qui n’a pas été vérifié',
    'lecteur d’écran',
    STATEMENT_DATE,
    'Défenseur des droits',
    'https://espace.exemple.fr',
  ],
}

const Pages = suite('the legal pages')
Pages.before.each(() => setViewport(360))
Pages.after.each(() => {
  cleanup()
  served(null)
})

Pages('their paths are the SPA’s public routes (bare-pages.ts imports nothing, so both lists are held equal here)', () => {
  const paths = Object.values(publicPaths)
  for (const page of LEGAL_PAGES) assert.ok(paths.includes(page.path as (typeof paths)[number]), page.path)
})

for (const page of LEGAL_PAGES) {
  Pages(`${page.path}: signed out, its title, the provider's particulars, the other pages' links`, async () => {
    served()
    const app = await renderApp(page.path)
    await screen.findByRole('heading', { level: 1, name: page.title })
    assert.is(app.currentPath(), page.path, 'no sign-in asked')
    const text = screen.getByRole('main').textContent ?? ''
    for (const expected of shown[page.path]!) assert.ok(text.includes(expected), `${page.path} shows « ${expected} »`)
    const others = within(screen.getByRole('navigation', { name: 'Autres informations légales' }))
    for (const other of LEGAL_PAGES.filter((p) => p.path !== page.path)) {
      assert.is(others.getByRole('link', { name: other.title }).getAttribute('href'), other.path)
    }
    // The footer of the bare layout links all four.
    const footer = within(screen.getByRole('navigation', { name: 'Informations légales' }))
    assert.equal(
      footer.getAllByRole('link').map((link) => link.getAttribute('href')),
      LEGAL_PAGES.map((p) => p.path),
    )
  })
}

Pages('a signed-in person opens them too, in the bare layout (no sidebar)', async () => {
  served()
  const app = await renderApp('/mentions-legales', { signedIn: true, defaultOrder: 2 })
  await screen.findByRole('heading', { level: 1, name: 'Mentions légales' })
  assert.is(app.currentPath(), '/mentions-legales')
  assert.is(screen.queryByRole('complementary', { name: 'Menu principal' }), null)
})

Pages('the mailto links and the particulars come from the page, not from the build', async () => {
  served({ ...particulars, name: 'Autre Prestataire SARL', contactEmail: 'aide@autre.fr' })
  await renderApp('/mentions-legales')
  await screen.findByRole('heading', { level: 1, name: 'Mentions légales' })
  main().getByText('Autre Prestataire SARL')
  assert.is(main().getByRole('link', { name: 'aide@autre.fr' }).getAttribute('href'), 'mailto:aide@autre.fr')
})

Pages('without the particulars (a page not served by the server) it says so in French and offers a reload', async () => {
  served(null)
  await renderApp('/politique-de-confidentialite')
  await screen.findByRole('heading', { level: 1, name: 'Politique de confidentialité' })
  const alert = screen.getByRole('alert')
  assert.match(alert.textContent ?? '', 'Les informations du prestataire n’ont pas pu être chargées.')
  assert.is(within(alert).getByRole('link', { name: 'Recharger la page' }).getAttribute('href'), '/politique-de-confidentialite')
})

const Links = suite('links to the legal pages')
Links.after.each(() => cleanup())

Links('/login links all four in its footer, plain links (a page load brings the particulars)', async () => {
  setViewport(360)
  await renderApp('/login')
  await screen.findByRole('heading', { name: 'Connexion à votre espace client' })
  const footer = within(screen.getByRole('navigation', { name: 'Informations légales' }))
  assert.equal(
    footer.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]),
    LEGAL_PAGES.map((p) => [p.title, p.path]),
  )
})

Links('the signed-in sidebar’s footer links all four', async () => {
  setViewport(1280)
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  const aside = within(screen.getByRole('complementary', { name: 'Menu principal' }))
  const legal = within(aside.getByRole('navigation', { name: 'Informations légales' }))
  assert.equal(
    legal.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]),
    LEGAL_PAGES.map((p) => [p.title, p.path]),
  )
})

Pages.run()
Links.run()
