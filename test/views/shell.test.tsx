import '../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BRAND_NAME } from '../../src/wiring/config.ts'
import {
  adoptUnkeyedChoice,
  DEFAULT_ORDERS_KEY,
  readStoredChoice,
  UNKEYED_DEFAULT_ORDER_KEY,
  writeStoredUser,
} from '../../src/wiring/storage.ts'
import * as F from '../util/fixtures.ts'
import { setViewport } from '../util/dom.ts'
import { renderApp } from '../util/services.tsx'

const sidebar = () => screen.getByRole('complementary', { name: 'Menu principal' })

const Sidebar = suite('sidebar (spec §2)')
Sidebar.before.each(() => setViewport(1280))
Sidebar.after.each(() => cleanup())

Sidebar('brand name from configuration, the menu, the legal library and the copyright line', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  const aside = within(sidebar())
  aside.getByText(BRAND_NAME)
  aside.getByText(`© 2022 ${BRAND_NAME}`)
  for (const label of [
    'Tableau de bord',
    'Mes courriers',
    'Mes réunions',
    'Souscription',
    'Moyen de paiement',
    'Mes factures',
    'Suivi comptable',
    'Formalités juridiques',
    'Formalités',
    'Informations personnelles',
    'Gestion de mon entreprise',
  ]) {
    aside.getByRole('link', { name: label })
  }
  const library = within(aside.getByRole('region', { name: 'Bibliothèque juridique' }))
  const links = library.getAllByRole('link')
  assert.equal(
    links.map((l) => l.textContent),
    [
      'Contrat de travail (nouvel onglet)',
      'PV de non-rémunération du gérant (nouvel onglet)',
      'Création d’entreprise (nouvel onglet)',
      'Modification d’entreprise (nouvel onglet)',
      'Liquidation d’entreprise (nouvel onglet)',
    ],
  )
  for (const link of links) {
    assert.match(link.getAttribute('href')!, /^https:\/\//)
    assert.is(link.getAttribute('target'), '_blank')
    assert.is(link.getAttribute('rel'), 'noopener noreferrer')
  }
  aside.getByRole('button', { name: 'Signaler un problème' })
})

Sidebar('sub-menus show on a desktop with the menu expanded, and not once it is collapsed', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  const aside = within(sidebar())
  for (const label of [
    'Courriers',
    'Réexpéditions',
    'Colis',
    'Mes dossiers',
    'Export comptable',
    'Mes abonnements',
    'Attestation et contrats',
    'Trésorerie',
    'Calendrier fiscal',
    'Obligations juridiques',
    'Simulateur de TVA',
  ])
    aside.getByRole('link', { name: label })
  fireEvent.click(aside.getByRole('button', { name: 'Réduire le menu' }))
  await waitFor(() => assert.is(aside.queryByRole('link', { name: 'Courriers' }), null))
  // Collapsed, the entries keep their names for screen readers.
  aside.getByRole('link', { name: 'Mes courriers' })
  assert.is(aside.getByRole('button', { name: 'Déplier le menu' }).getAttribute('aria-expanded'), 'false')
  fireEvent.click(aside.getByRole('button', { name: 'Déplier le menu' }))
  await aside.findByRole('link', { name: 'Courriers' })
})

Sidebar('no sub-menus on a phone; the drawer opens from the mobile navigation and closes on Escape', async () => {
  setViewport(360, 740)
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  const open = screen.getByRole('button', { name: 'Ouvrir le menu' })
  assert.is(open.getAttribute('aria-expanded'), 'false')
  fireEvent.click(open)
  await waitFor(() => assert.is(screen.getByRole('button', { name: 'Ouvrir le menu' }).getAttribute('aria-expanded'), 'true'))
  const aside = within(sidebar())
  aside.getByRole('link', { name: 'Mes courriers' })
  assert.is(aside.queryByRole('link', { name: 'Courriers' }), null)
  // The drawer takes the focus, and gives it back to the menu button when closed.
  await waitFor(() => assert.is(document.activeElement, aside.getByRole('button', { name: 'Fermer le menu' })))
  fireEvent.keyDown(window, { key: 'Escape' })
  await waitFor(() => assert.is(screen.getByRole('button', { name: 'Ouvrir le menu' }).getAttribute('aria-expanded'), 'false'))
  await waitFor(() => assert.is(document.activeElement, screen.getByRole('button', { name: 'Ouvrir le menu' })))
})

Sidebar(
  'on a phone, the page behind the open drawer is inert; closed (Escape, the backdrop), it is back and the focus on the menu button',
  async () => {
    setViewport(360, 740)
    await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
    await screen.findByText('Bonjour Camille')
    const behind = () => [
      document.getElementById('contenu')!,
      document.querySelector('header')!,
      screen.getByRole('navigation', { name: /navigation mobile/ }),
      screen.getByText('Aller au contenu'),
    ]
    assert.ok(
      behind().every((element) => !element.closest('[inert]')),
      'nothing inert with the drawer closed',
    )
    for (const close of ['Escape', 'backdrop'] as const) {
      fireEvent.click(screen.getByRole('button', { name: 'Ouvrir le menu' }))
      await waitFor(() => assert.is(document.activeElement, within(sidebar()).getByRole('button', { name: 'Fermer le menu' })))
      assert.ok(
        behind().every((element) => element.closest('[inert]')),
        'the header, the mobile navigation, the content and the skip link are inert',
      )
      assert.not.ok(sidebar().closest('[inert]'), 'the drawer is not')
      if (close === 'Escape') fireEvent.keyDown(window, { key: 'Escape' })
      else fireEvent.click(document.querySelector('#menu-principal + div')!)
      await waitFor(() => assert.is(document.activeElement, screen.getByRole('button', { name: 'Ouvrir le menu' })))
      assert.ok(
        behind().every((element) => !element.closest('[inert]')),
        `nothing inert once closed (${close})`,
      )
    }
    // On a desktop the side menu is no drawer: nothing is ever inert.
    setViewport(1280)
    await waitFor(() => assert.ok(behind().every((element) => !element.closest('[inert]'))))
  },
)

Sidebar("'Mes collaborateurs' shows for an owned order and hides for a shared one", async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
  await screen.findByText('Bonjour Camille')
  within(sidebar()).getByRole('link', { name: 'Mes collaborateurs' })
  fireEvent.change(screen.getByLabelText('Domiciliation'), { target: { value: String(F.studio.id) } })
  await waitFor(() => assert.is(within(sidebar()).queryByRole('link', { name: 'Mes collaborateurs' }), null))
  assert.is(app.session.getSnapshot().context.startup!.getSnapshot().context.selectedOrderId, F.studio.id)
})

Sidebar('a menu entry navigates', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  fireEvent.click(within(sidebar()).getByRole('link', { name: 'Mes factures' }))
  await screen.findByRole('heading', { level: 1, name: 'Mes factures' })
  assert.is(app.currentPath(), '/factures')
  assert.is(within(sidebar()).getByRole('link', { name: 'Mes factures' }).getAttribute('aria-current'), 'page')
})

Sidebar.run()

const Header = suite('header and mobile navigation (spec §2)')
Header.before.each(() => setViewport(1280))
Header.after.each(() => cleanup())

Header(
  "the picker labelled 'Domiciliation' lists every company and 'Tous'; picking one keeps it and the mobile navigation follows",
  async () => {
    await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
    await screen.findByText('Bonjour Camille')
    const picker = screen.getByLabelText('Domiciliation') as HTMLSelectElement
    assert.equal(
      [...picker.options].map((o) => o.textContent),
      ['Atelier Lumière SARL', 'Boulangerie des Lilas SAS', 'Studio Nuage SAS', 'Conseil Horizon EURL', 'Tous'],
    )
    assert.is(picker.value, String(F.boulangerie.id))
    fireEvent.change(picker, { target: { value: 'all' } })
    await waitFor(() => assert.is(readStoredChoice(F.authUser.id), 'all'))
    assert.is((screen.getByLabelText('Domiciliation') as HTMLSelectElement).value, 'all')
    // On a phone, the picker gives way to the mobile navigation, which shows the same choice.
    setViewport(360, 740)
    await screen.findByRole('button', { name: /Domiciliation: Tous/ })
  },
)

/** At 360 px, signed in on Boulangerie: its mobile link pressed from the keyboard (focused, then clicked). */
async function openMobileOrderChoice() {
  setViewport(360, 740)
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
  await screen.findByText('Bonjour Camille')
  const link = screen.getByRole('button', { name: /Domiciliation: Boulangerie des Lilas SAS/ })
  link.focus()
  fireEvent.click(link)
}

Header('the mobile link reopens the order choice, which can be dismissed; the focus follows, never left on <body>', async () => {
  await openMobileOrderChoice()
  const heading = await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
  await waitFor(() => assert.is(document.activeElement, heading, 'the selection screen takes the focus'))
  const cancel = screen.getByRole('button', { name: 'Annuler' })
  cancel.focus()
  fireEvent.click(cancel)
  await screen.findByText('Bonjour Camille')
  await waitFor(() =>
    assert.is(
      document.activeElement,
      screen.getByRole('button', { name: /Domiciliation: Boulangerie des Lilas SAS/ }),
      'back on the choice',
    ),
  )
})

Header('at 360 px, another order chosen from the mobile link: the focus is on the choice, which shows it', async () => {
  await openMobileOrderChoice()
  const choice = await screen.findByRole('button', { name: /Atelier Lumière SARL/ })
  choice.focus()
  fireEvent.click(choice)
  await waitFor(() => assert.is(document.activeElement, screen.getByRole('button', { name: /Domiciliation: Atelier Lumière SARL/ })))
})

Header('logout ends the session on the server, removes the stored user and closes the protected pages', async () => {
  const app = await renderApp('/factures', { signedIn: true, defaultOrder: 2 })
  await screen.findByRole('heading', { level: 1, name: 'Mes factures' })
  const token = JSON.parse(localStorage.getItem('user')!).apiToken
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.equal(
    app.calls.people.filter(([name]) => name === 'signOut'),
    [['signOut', token]],
    'the session ends on the server too, with the token being left',
  )
  assert.is(localStorage.getItem('user'), null)
  assert.is(readStoredChoice(F.authUser.id), 2, 'their default order stays, for their next sign-in')
  act(() => app.location.navigate('/factures'))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
})

Header('the bell says honestly that there is nothing yet (notifications: test/views/notifications/notifications.test.tsx)', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }))
  await screen.findByText('Aucune nouvelle notification')
})

Header.run()

const Selection = suite('order selection screen (spec §2, §4)')
Selection.before.each(() => setViewport(1280))
Selection.after.each(() => cleanup())

Selection(
  "several orders and no default: 'Sélectionnez la domiciliation', companies, French dates, logos by index modulo 3, 'Tous'",
  async () => {
    const app = await renderApp('/tableau-de-bord', { signedIn: true })
    await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
    const choices = screen.getAllByRole('button').filter((b) => b.textContent?.startsWith('Société'))
    assert.equal(
      choices.map((c) => c.textContent),
      [
        'SociétéAtelier Lumière SARLCréée le 12 mars 2024',
        'SociétéBoulangerie des Lilas SASCréée le 2 mai 2023',
        'SociétéStudio Nuage SASCréée le 12 mars 2024',
        'SociétéConseil Horizon EURLCréée le 12 mars 2024',
      ],
    )
    assert.equal(
      choices.map((c) => c.querySelector('[data-logo]')!.getAttribute('data-logo')),
      ['0', '1', '2', '0'],
    )
    screen.getByRole('button', { name: /^Tous/ })
    // The third-party video is not requested until asked for.
    assert.is(app.container.querySelector('iframe'), null)
    fireEvent.click(screen.getByRole('button', { name: /Lire la vidéo/ }))
    await waitFor(() => assert.match(app.container.querySelector('iframe')!.getAttribute('src')!, /^https:\/\/player\.vimeo\.com\//))
    // The first choice cannot be dismissed.
    assert.is(screen.queryByRole('button', { name: 'Annuler' }), null)
  },
)

Selection("choosing an order sets it as default and shows the dashboard, the focus on the header's picker that shows it", async () => {
  await renderApp('/tableau-de-bord', { signedIn: true })
  const choice = await screen.findByRole('button', { name: /Boulangerie des Lilas SAS/ })
  await waitFor(() => assert.is(document.activeElement, screen.getByRole('heading', { name: 'Sélectionnez la domiciliation' })))
  choice.focus()
  fireEvent.click(choice)
  await screen.findByText('Bonjour Camille')
  assert.is(readStoredChoice(F.authUser.id), F.boulangerie.id)
  await waitFor(() => assert.is(document.activeElement, screen.getByLabelText('Domiciliation')))
})

Selection('on /formalites-juridique, without a header, the focus goes to the content once an order is chosen', async () => {
  await renderApp('/formalites-juridique', { signedIn: true })
  const choice = await screen.findByRole('button', { name: /Boulangerie des Lilas SAS/ })
  choice.focus()
  // In act: the shell's code, not loaded yet in this file, suspends the deferred render once.
  await act(async () => fireEvent.click(choice))
  await waitFor(() => assert.is(document.activeElement, document.getElementById('contenu')))
})

Selection('choosing an order with missing documents leads to /missing-document', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true })
  fireEvent.click(await screen.findByRole('button', { name: /Conseil Horizon EURL/ }))
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  await screen.findByRole('heading', { name: 'Documents manquants' })
  screen.getByLabelText("Pièce d'identité du gérant")
})

/** The login form, filled and sent (the fake API knows demo@… and associe@…). */
async function signIn(email: string) {
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: email } })
  fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
}

Selection('the order chosen is kept for that person past a sign-out: the dashboard at once next time; another person chooses', async () => {
  const app = await renderApp('/login')
  await signIn(F.user.email)
  fireEvent.click(await screen.findByRole('button', { name: /Boulangerie des Lilas SAS/ }))
  await screen.findByText('Bonjour Camille')
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn(F.user.email)
  await screen.findByText('Bonjour Camille')
  assert.is(screen.queryByRole('heading', { name: 'Sélectionnez la domiciliation' }), null, 'no selection screen')
  assert.is((screen.getByLabelText('Domiciliation') as HTMLSelectElement).value, String(F.boulangerie.id))
  // Someone else on this browser: Camille's choice is not theirs.
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn(F.associate.email)
  fireEvent.click(await screen.findByRole('button', { name: /Studio Nuage SAS/ }))
  await screen.findByText('Bonjour Julien')
  assert.equal([readStoredChoice(F.user.id), readStoredChoice(F.associate.id)], [F.boulangerie.id, F.studio.id])
})

Selection(
  'the single default order of earlier versions: adopted by the user signed in when this one starts, dropped otherwise',
  async () => {
    localStorage.clear()
    localStorage.setItem(UNKEYED_DEFAULT_ORDER_KEY, String(F.studio.id))
    writeStoredUser(F.authUser)
    adoptUnkeyedChoice()
    assert.equal([readStoredChoice(F.authUser.id), localStorage.getItem(UNKEYED_DEFAULT_ORDER_KEY)], [F.studio.id, null])
    localStorage.clear()
    localStorage.setItem(UNKEYED_DEFAULT_ORDER_KEY, 'all')
    adoptUnkeyedChoice()
    assert.equal(
      [localStorage.getItem(UNKEYED_DEFAULT_ORDER_KEY), localStorage.getItem(DEFAULT_ORDERS_KEY)],
      [null, null],
      'whose it was is unknown',
    )
  },
)

Selection('exactly one order: no selection screen, it becomes the default', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.boulangerie] })
  await screen.findByText('Bonjour Camille')
  assert.is(readStoredChoice(F.authUser.id), F.boulangerie.id)
})

Selection.run()
