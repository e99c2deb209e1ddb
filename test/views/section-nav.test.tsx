// A menu group's pages (Mes courriers, Souscription, Suivi comptable) at the top of the content wherever the side menu
// does not list them: spec §2 shows sub-menus on an expanded desktop menu only, so a phone, or a desktop whose menu is
// collapsed, reached only each group's first page through the menu.
import '../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { menu, routeByPath } from '../../src/views/routes.ts'
import { setViewport } from '../util/dom.ts'
import { renderApp } from '../util/services.tsx'

const open = (path: string) => renderApp(path, { signedIn: true, defaultOrder: 2 })
const sectionNav = (group: string) => screen.findByRole('navigation', { name: `${group} : sous-rubriques` })
const links = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')])

const Section = suite('the pages of a menu group, where the side menu does not list them')
Section.after.each(() => cleanup())

Section('on a phone: every group lists its pages in the menu’s order, the one shown marked, and each is reached from there', async () => {
  setViewport(360, 740)
  for (const group of menu.filter((item) => item.children)) {
    const app = await open(group.children![1]!.to)
    const nav = await sectionNav(group.label)
    assert.equal(
      links(nav),
      group.children!.map((page, i) => [page.label, page.to, i === 1 ? 'page' : null]),
      group.label,
    )
    const last = group.children!.at(-1)!
    fireEvent.click(within(nav).getByRole('link', { name: last.label }))
    await waitFor(() => assert.is(app.currentPath(), last.to))
    await screen.findByRole('heading', { level: 1, name: routeByPath(last.to)!.title })
    await waitFor(() => assert.is(within(nav).getByRole('link', { name: last.label }).getAttribute('aria-current'), 'page'))
    cleanup()
  }
})

Section(
  'on a phone, Mes courriers’ pages: Réexpéditions, Colis, Mes dossiers and Export comptable are one tap from Courriers',
  async () => {
    setViewport(360, 740)
    await open('/mes-courriers/courriers')
    const nav = await sectionNav('Mes courriers')
    assert.equal(
      links(nav).map(([label]) => label),
      ['Courriers', 'Réexpéditions', 'Colis', 'Mes dossiers', 'Export comptable'],
    )
  },
)

Section('on a desktop with the menu expanded, none: the side menu lists them', async () => {
  setViewport(1280)
  await open('/mes-courriers/colis')
  const aside = within(screen.getByRole('complementary', { name: 'Menu principal' }))
  await aside.findByRole('list', { name: 'Mes courriers : sous-rubriques' })
  assert.is(screen.queryByRole('navigation', { name: 'Mes courriers : sous-rubriques' }), null)
})

Section('on a desktop whose menu is collapsed, listed; expanded again, they move back to the side menu', async () => {
  setViewport(1280)
  await open('/souscription/attestation-contrats')
  await screen.findByRole('heading', { level: 1, name: 'Attestation et contrats' })
  fireEvent.click(screen.getByRole('button', { name: 'Réduire le menu' }))
  const nav = await sectionNav('Souscription')
  assert.equal(links(nav), [
    ['Mes abonnements', '/souscription/mes-abonnements', null],
    ['Attestation et contrats', '/souscription/attestation-contrats', 'page'],
  ])
  assert.is(screen.queryByRole('list', { name: 'Souscription : sous-rubriques' }), null, 'not in the collapsed side menu')
  fireEvent.click(screen.getByRole('button', { name: 'Déplier le menu' }))
  await waitFor(() => assert.is(screen.queryByRole('navigation', { name: 'Souscription : sous-rubriques' }), null))
  await within(screen.getByRole('complementary', { name: 'Menu principal' })).findByRole('list', { name: 'Souscription : sous-rubriques' })
})

Section('outside a group (Mes factures, the dashboard), none', async () => {
  setViewport(360, 740)
  for (const [path, title] of [
    ['/factures', 'Mes factures'],
    ['/tableau-de-bord', 'Tableau de bord'],
  ] as const) {
    await open(path)
    await screen.findByRole('heading', { level: 1, name: title })
    assert.is(screen.queryByRole('navigation', { name: / : sous-rubriques$/ }), null, path)
    cleanup()
  }
})

Section.run()
