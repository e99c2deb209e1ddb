import { setViewport } from '../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SESSION_EXPIRED } from '../../src/machines/session/session.machine.ts'
import { routeByPath } from '../../src/views/routes.ts'
import { returnPath } from '../../src/wiring/session-actor.ts'
import * as F from '../util/fixtures.ts'
import { renderApp, type Scenario } from '../util/services.tsx'

const Guard = suite('routes, redirects and the guard (spec §2)')
Guard.after.each(() => cleanup())

for (const path of [
  '/',
  '/tableau-de-bord',
  '/factures',
  '/mes-courriers',
  '/mes-courriers/colis',
  '/formalites-juridique',
  '/n-importe-quoi',
]) {
  Guard(`a visitor without a stored user going to ${path} lands on /login`, async () => {
    const app = await renderApp(path)
    await waitFor(() => assert.is(app.currentPath(), '/login'))
    await screen.findByRole('heading', { name: 'Connexion à votre espace client' })
  })
}

for (const path of ['/login', '/reset-password', '/set-password/abc123', '/missing-document']) {
  Guard(`${path} needs no stored user`, async () => {
    const app = await renderApp(path)
    await screen.findByRole('heading', { level: 1 })
    assert.is(app.currentPath(), path)
  })
}

const redirects: [string, string][] = [
  ['/', '/tableau-de-bord'],
  ['/mes-courriers', '/mes-courriers/courriers'],
  ['/souscription', '/souscription/mes-abonnements'],
  ['/suivi-comptable', '/suivi-comptable/tresorerie'],
]
for (const [from, to] of redirects) {
  Guard(`signed in, ${from} redirects to ${to}`, async () => {
    const app = await renderApp(from, { signedIn: true, defaultOrder: 2 })
    await waitFor(() => assert.is(app.currentPath(), to))
  })
}

for (const [from, to] of redirects.slice(1)) {
  // Spec §4: the startup lands on the page the portal opened on once it is ready; by then the parent has redirected.
  Guard(`signed in, ${from} redirects to ${to} and stays there once the startup is ready after the redirect`, async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const app = await renderApp(from, { signedIn: true, defaultOrder: 2, ordersHeld: held, startupBeforeRender: true })
    await waitFor(() => assert.is(app.currentPath(), to))
    release()
    await waitFor(() => assert.ok(app.session.getSnapshot().context.startup?.getSnapshot().matches('ready')))
    // Taken back to the parent, a browser showed nothing there (its redirect did not run again): the journeys' flake.
    assert.not.ok(app.calls.navigations.includes(from), `the startup went back to ${from}`)
    assert.is(app.currentPath(), to)
    await screen.findByRole('heading', { level: 1, name: routeByPath(to)!.title })
  })
}

Guard('signed in, /login goes to the dashboard', async () => {
  const app = await renderApp('/login', { signedIn: true, defaultOrder: 2 })
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
})

Guard('every page of spec §2 shows its title from the route metadata', async () => {
  const pages: [string, string][] = [
    ['/mes-reunions', 'Mes réunions'],
    ['/mes-courriers/courriers', 'Mes courriers'],
    ['/mes-courriers/reexpeditions', 'Réexpéditions'],
    ['/mes-courriers/colis', 'Colis'],
    ['/mes-courriers/mes-dossiers', 'Mes dossiers'],
    ['/mes-courriers/export-comptable', 'Export comptable'],
    ['/souscription/mes-abonnements', 'Mes abonnements'],
    ['/souscription/attestation-contrats', 'Attestation et contrats'],
    ['/suivi-comptable/tresorerie', 'Trésorerie'],
    ['/suivi-comptable/calendrier-fiscal', 'Calendrier fiscal'],
    ['/suivi-comptable/formalite-juridique', 'Obligations juridiques annuelles'],
    ['/suivi-comptable/simulateur-tva', 'Simulateur de TVA'],
    ['/factures', 'Mes factures'],
    ['/moyen-de-paiement', 'Moyen de paiement'],
    ['/informations-personnelles', 'Informations personnelles'],
    ['/mes-collaborateurs', 'Mes collaborateurs'],
    ['/mes-representants', 'Mes représentants'],
    ['/formalites', 'Formalités'],
    ['/gestion-de-mon-entreprise', 'Gestion de mon entreprise'],
    ['/mes-echanges', 'Mes échanges'],
  ]
  for (const [path, title] of pages) {
    await renderApp(path, { signedIn: true, defaultOrder: 2 })
    await screen.findByRole('heading', { level: 1, name: title })
    // Every page is built (mail, billing, people, company: their own view tests); none says it is being prepared.
    await waitFor(() => assert.ok(document.querySelector('main')?.textContent?.trim()))
    assert.not.ok(screen.queryByText(/en cours de préparation/))
    cleanup()
  }
})

Guard('an unknown address inside the portal says so', async () => {
  await renderApp('/nulle-part', { signedIn: true, defaultOrder: 2 })
  await screen.findByRole('heading', { name: 'Page introuvable', level: 2 })
})

Guard.run()

const Layouts = suite('bare and dashboard layouts (spec §2)')
// A desktop, whatever size the file run before left: the sidebar is a landmark there.
Layouts.before.each(() => setViewport(1280))
Layouts.after.each(() => cleanup())

for (const path of ['/login', '/reset-password', '/set-password/abc123', '/missing-document']) {
  Layouts(`${path} is bare: no sidebar, header or mobile navigation`, async () => {
    await renderApp(path)
    await screen.findByRole('heading', { level: 1 })
    assert.is(screen.queryByRole('complementary', { name: 'Menu principal' }), null)
    assert.is(screen.queryByRole('button', { name: 'Retour' }), null)
    assert.is(screen.queryByText('Domiciliation:'), null)
  })
}

Layouts('the dashboard layout has the sidebar, the mobile navigation and the header', async () => {
  await renderApp('/factures', { signedIn: true, defaultOrder: 2 })
  await screen.findByRole('complementary', { name: 'Menu principal' })
  screen.getByRole('button', { name: 'Retour' })
  screen.getByRole('heading', { level: 1, name: 'Mes factures' })
  screen.getByText('Domiciliation:')
  screen.getByRole('button', { name: 'Se déconnecter' })
})

Layouts('/formalites-juridique hides the header and uses its own layout', async () => {
  await renderApp('/formalites-juridique', { signedIn: true, defaultOrder: 2 })
  await screen.findByRole('heading', { level: 1, name: 'Formalités juridiques' })
  assert.is(screen.queryByRole('button', { name: 'Retour' }), null)
  assert.is(screen.queryByLabelText('Domiciliation'), null)
  screen.getByRole('complementary', { name: 'Menu principal' })
})

Layouts('the global spinner shows while the portal loads, and nothing else', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, ordersPending: true })
  await screen.findByRole('status')
  screen.getByText('Chargement…')
  assert.is(screen.queryByRole('complementary', { name: 'Menu principal' }), null)
  assert.is(screen.queryByText('Bonjour Camille'), null)
})

Layouts("the portal's code cannot load: a French message and 'Réessayer'", async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, portalFails: true })
  await screen.findByText(/Votre espace n’a pas pu être chargé/)
  screen.getByRole('button', { name: 'Réessayer' })
})

Layouts("the orders cannot be read: what failed, the server's reason, 'Réessayer' and 'Se déconnecter'", async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, ordersFailOnce: true })
  await screen.findByRole('heading', { level: 1, name: 'Votre espace n’a pas pu être chargé' })
  screen.getByText(/Une erreur interne est survenue/)
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByText('Bonjour Camille')
  cleanup()
  localStorage.clear()
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, ordersFailOnce: true })
  fireEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
})

Layouts("the portal's code cannot load: 'Se déconnecter' is offered too", async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, portalFails: true })
  fireEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
})

Layouts('zero orders: a clear French empty state', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, orders: [] })
  await screen.findByText(/Vous n'avez pas encore de domiciliation active/)
  screen.getByRole('button', { name: 'Se déconnecter' })
})

Layouts('a failed current-user fetch (401) removes the stored user and returns to /login silently', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, userFails: true })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.is(localStorage.getItem('user'), null)
  await screen.findByRole('button', { name: 'Se connecter' })
  assert.is(screen.queryByRole('alert'), null, 'spec §8: silently')
})

Layouts('a 401 during work: /login says the session expired, and signing in again comes back to the page', async () => {
  const scenario: Scenario & { signedIn: boolean; defaultOrder: number } = {
    signedIn: true,
    defaultOrder: F.boulangerie.id,
    expireNext: [],
  }
  const app = await renderApp('/factures', scenario)
  await screen.findByRole('heading', { level: 1, name: 'Mes factures' })
  scenario.expireNext!.push('documents')
  fireEvent.change(screen.getByLabelText('Domiciliation'), { target: { value: 'all' } })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.is((await screen.findByRole('alert')).textContent, SESSION_EXPIRED)
  assert.is(localStorage.getItem('user'), null)
  fireEvent.change(screen.getByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/factures'))
  assert.equal(app.calls.early, [[F.authUser.apiToken, 'other']], 'sent early for the page it leads back to: no unpaid status')
  // The default order outlived the session (kept for this person): the page left, on the company shown then.
  await screen.findByRole('heading', { level: 1, name: 'Mes factures' })
  assert.is((screen.getByLabelText('Domiciliation') as HTMLSelectElement).value, 'all')
  assert.is(app.currentPath(), '/factures')
})

Layouts('the page to come back to is a path of this app, never another origin nor a bare page', () => {
  assert.is(returnPath('/factures?annee=2025'), '/factures?annee=2025')
  // A parent: the child it redirects to (the dashboard, where the portal lands anyway, is not kept).
  assert.is(returnPath('/suivi-comptable'), '/suivi-comptable/tresorerie')
  assert.is(returnPath('/mes-courriers?x=1'), '/mes-courriers/courriers')
  assert.is(returnPath('/souscription'), '/souscription/mes-abonnements')
  assert.is(returnPath('/'), undefined)
  assert.is(returnPath('/constructor'), '/constructor')
  for (const path of [
    '//evil.example/factures',
    '/\\evil.example',
    'https://evil.example/',
    '/login',
    '/login?x=1',
    '/missing-document',
    '/set-password/abc',
  ]) {
    assert.is(returnPath(path), undefined, path)
  }
})

Layouts.run()
