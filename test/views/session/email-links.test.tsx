// An e-mail's link lands on what it names once the person is signed in, whatever comes in between: /login, the
// order selection, /missing-document (the startup's `destination`); a link to an order that is not the person's gives
// the dashboard without a word; a sign-out forgets it.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { LINKED_LETTER_GONE } from '../../../src/machines/mail/mailbox.machine.ts'
import { DESTINATION_KEY, returnPath } from '../../../src/wiring/session-actor.ts'
import { readStoredChoice } from '../../../src/wiring/storage.ts'
import * as F from '../../util/fixtures.ts'
import { renderApp } from '../../util/services.tsx'

const documents = [
  F.letter(21, { sender: 'URSSAF Île-de-France', kind: 'administratif', receivedAt: '2024-03-12T09:00:00.000Z' }),
  F.letter(24, { sender: 'Greffe du tribunal', kind: 'recommandé', receivedAt: '2024-03-08T09:00:00.000Z' }),
]
const data = { documents }
/** The « Nouveau courrier » e-mail's link to Boulangerie's letter 24 (server/contract/rules/mail.ts's letterPath). */
const LINK = `/mes-courriers/courriers?domiciliation=${F.boulangerie.id}&courrier=24`
/** The page lazily loaded first in a process can take a few seconds under load. */
const SLOW = { timeout: 8000 }

type App = Awaited<ReturnType<typeof renderApp>>
const startupOf = (app: App) => app.session.getSnapshot().context.startup!.getSnapshot()

async function signIn() {
  fireEvent.input(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  fireEvent.input(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter', exact: true } as never))
}

/** The letter open in the viewer, Boulangerie selected for it. */
async function onTheLetter(app: App) {
  await screen.findByTitle('Courrier de Greffe du tribunal', undefined, SLOW)
  assert.is(startupOf(app).context.selectedOrderId, F.boulangerie.id)
}

const Links = suite('e-mail links survive a sign-in')
Links.after.each(() => cleanup())

Links('signed out: the link → /login → signing in lands on the letter, on its order', async () => {
  const app = await renderApp(LINK, { data, defaultOrder: F.atelier.id })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn()
  await onTheLetter(app)
  assert.not.ok(app.location.history.includes('/tableau-de-bord'), 'never by the dashboard')
  assert.is(readStoredChoice(F.authUser.id), F.boulangerie.id, "the letter's order is the default one now, as the header's pick")
})

Links('signed out: the link → /login, reloaded → signing in still lands on the letter (this tab kept it)', async () => {
  const first = await renderApp(LINK, { data, defaultOrder: F.atelier.id })
  await waitFor(() => assert.is(first.currentPath(), '/login'))
  cleanup()
  const app = await renderApp('/login', { data, defaultOrder: F.atelier.id, reload: true })
  await signIn()
  await onTheLetter(app)
  assert.not.ok(app.location.history.includes('/tableau-de-bord'), 'never by the dashboard')
  cleanup()
  // Used: a later sign-in in this tab (a reload of /login) leads to the dashboard.
  const later = await renderApp('/login', { data, defaultOrder: F.atelier.id, reload: true })
  await signIn()
  await screen.findByRole('heading', { name: 'Bonjour Camille' }, SLOW)
  assert.is(later.currentPath(), '/tableau-de-bord')
})

Links('a new tab on /login keeps nothing of another tab’s link', async () => {
  const first = await renderApp(LINK, { data, defaultOrder: F.atelier.id })
  await waitFor(() => assert.is(first.currentPath(), '/login'))
  cleanup()
  const app = await renderApp('/login', { data, defaultOrder: F.atelier.id })
  await signIn()
  await screen.findByRole('heading', { name: 'Bonjour Camille' }, SLOW)
  assert.is(app.currentPath(), '/tableau-de-bord')
})

Links('signed in, no order chosen yet: the link → the selection screen → choosing an order lands on the letter', async () => {
  const app = await renderApp(LINK, { signedIn: true, data })
  fireEvent.click(await screen.findByRole('button', { name: /Atelier Lumière SARL/ }, SLOW))
  await onTheLetter(app)
})

Links("'Tous' chosen on the selection screen shows the letter among all the orders'", async () => {
  const app = await renderApp(LINK, { signedIn: true, data })
  fireEvent.click(await screen.findByRole('button', { name: /^Tous/ }, SLOW))
  await screen.findByTitle('Courrier de Greffe du tribunal', undefined, SLOW)
  assert.is(startupOf(app).context.selectedOrderId, null)
})

Links('signed in, an order still missing documents chosen: /missing-document, then the documents sent lead to the letter', async () => {
  const app = await renderApp(LINK, { signedIn: true, data })
  fireEvent.click(await screen.findByRole('button', { name: /Conseil Horizon EURL/ }, SLOW))
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'), SLOW)
  const input = await screen.findByLabelText("Pièce d'identité du gérant")
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer mes documents' }))
  await onTheLetter(app)
  assert.is(app.currentPath(), '/mes-courriers/courriers', 'the link followed, the address loses it')
  assert.not.ok(app.location.history.includes('/tableau-de-bord'), 'never by the dashboard')
})

Links('a link to an order that is not the person’s: the dashboard after signing in, and nothing said of that order', async () => {
  const app = await renderApp('/mes-courriers/courriers?domiciliation=999&courrier=24', { data, defaultOrder: F.atelier.id })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn()
  await screen.findByRole('heading', { name: 'Bonjour Camille' }, SLOW)
  assert.is(app.currentPath(), '/tableau-de-bord')
  assert.is(screen.queryByText(LINKED_LETTER_GONE), null)
  assert.is(startupOf(app).context.selectedOrderId, F.atelier.id, 'the default order stays')
})

Links('a sign-out forgets the link: the next sign-in in that tab leads to the dashboard', async () => {
  const app = await renderApp(LINK, { data, defaultOrder: F.atelier.id })
  await signIn()
  await onTheLetter(app)
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn()
  await screen.findByRole('heading', { name: 'Bonjour Camille' }, SLOW)
  assert.is(app.currentPath(), '/tableau-de-bord')
  assert.is(sessionStorage.getItem(DESTINATION_KEY), null, 'nothing kept for this tab')
})

Links('only a page of this portal is kept: never another site, the API, the back office nor a bare page', () => {
  assert.is(returnPath(LINK), LINK)
  assert.is(returnPath('/mes-echanges/12'), '/mes-echanges/12')
  for (const path of [
    '//evil.example/mes-courriers',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/api/login',
    '/api-protected/user/me',
    '/operateur/clients',
    '/login',
    '/tableau-de-bord',
    '/',
    '/mes-courriers\n//evil',
  ])
    assert.is(returnPath(path), undefined, path)
})

Links('an address outside the portal opened signed out: signing in leads to the dashboard', async () => {
  const app = await renderApp('/api/documents', { data, defaultOrder: F.atelier.id })
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await signIn()
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
})

Links.run()
