// /operateur/clients in happy-dom: the search with what matched, its pages and its empty, loading and error states; an
// order's page and its timeline; « Nouveau client » for administrators only, checked here first, the server's refusal
// at its field with nothing typed lost, and the new order's page once created.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SIREN_INVALID } from '../../../server/contract/rules/company.ts'
import { FIELD_MESSAGES } from '../../../src/backoffice/machines/operators/newClient.machine.ts'
import { parisToday } from '../../../src/backoffice/views/pages/operators/NewClientPage.tsx'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { boulangerie, created, order, searchPage, timelinePage } from '../../util/backoffice-clients.ts'

const down = apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const type = (label: string, value: string, root: HTMLElement = document.body) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } })
const SEARCH = 'Société, SIREN, e-mail, personne ou n° de commande'

const Search = suite('back office: Clients › the search')
Search.after.each(() => cleanup())

Search('every operator has Clients in the menu; the latest clients first, then a search with what matched', async () => {
  const julien = searchPage([boulangerie])
  const app = await renderBackOffice('/operateur/clients', {
    signedIn: hugo,
    answers: {
      searchClients: [searchPage([{ ...boulangerie, matches: [] }], { total: 1 }), julien],
      getClientOrder: [order],
      getOrderTimeline: [timelinePage(0)],
    },
  })
  await screen.findByRole('heading', { name: 'Clients', level: 1 })
  await screen.findByText('1 client, page 1 sur 1.')
  assert.ok(within(screen.getByRole('navigation', { name: 'Menu du back-office' })).getByRole('link', { name: 'Clients' }))
  // « Nouveau client » is the administrators'.
  assert.is(screen.queryByRole('link', { name: 'Nouveau client' }), null)
  type(SEARCH, '  Julien   Moreau ')
  fireEvent.click(screen.getByRole('button', { name: 'Rechercher' }))
  await screen.findByRole('heading', { name: 'Résultats pour « Julien Moreau »' })
  const row = screen.getAllByRole('row')[1]!
  assert.equal(
    within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent),
    ['Boulangerie des Lilas (SAS)', '12', '823 456 785', 'Camille Martindemo@example.com', 'Finalisé', 'Collaborateur : Julien Moreau'],
  )
  assert.equal(JSON.parse(JSON.stringify(app.called('searchClients'))), [[{ page: 1 }], [{ q: 'Julien Moreau', page: 1 }]])
  // The order's page, then back to the same results without a new search.
  fireEvent.click(within(row).getByRole('link', { name: 'Boulangerie des Lilas' }))
  await screen.findByRole('heading', { name: /^Boulangerie des Lilas/, level: 2 })
  assert.is(app.path(), '/operateur/clients/12')
  fireEvent.click(screen.getByRole('link', { name: '← Retour à la recherche' }))
  await screen.findByRole('heading', { name: 'Résultats pour « Julien Moreau »' })
  assert.is(app.called('searchClients').length, 2)
  assert.is((screen.getByLabelText(SEARCH) as HTMLInputElement).value, 'Julien Moreau')
})

Search('nothing found: said with the words typed; pages: the next one asked', async () => {
  const many = searchPage([boulangerie], { total: 45 })
  const app = await renderBackOffice('/operateur/clients', {
    signedIn: ines,
    answers: { searchClients: [many, { ...many, page: 2 }, searchPage([])] },
  })
  await screen.findByText('45 clients, page 1 sur 3.')
  fireEvent.click(screen.getByRole('button', { name: 'Page suivante' }))
  await screen.findByText('45 clients, page 2 sur 3.')
  type(SEARCH, 'zzz')
  fireEvent.click(screen.getByRole('button', { name: 'Rechercher' }))
  await screen.findByText('Aucun client ne correspond à « zzz ».')
  assert.equal(JSON.parse(JSON.stringify(app.called('searchClients'))), [[{ page: 1 }], [{ page: 2 }], [{ q: 'zzz', page: 1 }]])
})

Search('loading, then the search failing: said, with « Réessayer »; a refusal in the server’s words', async () => {
  let release = () => {}
  const waiting = new Promise<unknown>((resolve) => (release = () => resolve(searchPage([]))))
  await renderBackOffice('/operateur/clients', {
    signedIn: ines,
    answers: {
      searchClients: [() => waiting, down, searchPage([]), apiError(400, 'Saisissez au moins 2 caractères pour chercher un client.')],
    },
  })
  await screen.findByText('Recherche des clients…')
  release()
  await screen.findByText('Aucun client pour l’instant.')
  type(SEARCH, 'Lilas')
  fireEvent.click(screen.getByRole('button', { name: 'Rechercher' }))
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText('Aucun client ne correspond à « Lilas ».')
  type(SEARCH, 'x')
  fireEvent.click(screen.getByRole('button', { name: 'Rechercher' }))
  await screen.findByText('Saisissez au moins 2 caractères pour chercher un client.')
})

const Order = suite('back office: Clients › an order’s page')
Order.after.each(() => cleanup())

Order('the company, the people, the subscription, the invoices, the documents and the timeline, paginated', async () => {
  const app = await renderBackOffice('/operateur/clients/12', {
    signedIn: hugo,
    answers: {
      getClientOrder: [order],
      getOrderTimeline: [timelinePage(50, { total: 60 }), timelinePage(10, { page: 2, total: 60 })],
    },
  })
  await screen.findByRole('heading', { name: 'Boulangerie des Lilas · commande n° 12', level: 2 })
  const company = screen.getByRole('region', { name: 'Société' })
  assert.match(company.textContent!, '823 456 785')
  assert.match(company.textContent!, '3 place du Marché, 69001 Lyon')
  assert.match(company.textContent!, '32 courriers, 2 colis à retirer, 1 demande en attente')
  const people = screen.getByRole('region', { name: 'Personnes' })
  assert.match(people.textContent!, 'Camille Martin')
  assert.match(people.textContent!, 'Julien Moreau · associe@example.com (actif)')
  assert.match(people.textContent!, 'Paul Girard · paul@example.com')
  assert.match(
    screen.getByRole('region', { name: 'Abonnement' }).textContent!,
    /Domiciliation commerciale \(annuel\) : 290,00\s€ HT par an/,
  )
  assert.match(screen.getByRole('region', { name: 'Factures' }).textContent!, 'F-2026-0040')
  assert.match(screen.getByRole('region', { name: 'Documents' }).textContent!, 'à vérifier')
  const history = screen.getByRole('region', { name: 'Historique' })
  await within(history).findByText('60 événements, page 1 sur 2.')
  assert.match(history.textContent!, 'Courrier reçu de URSSAF n°1')
  assert.match(history.textContent!, 'Inès Garnier')
  fireEvent.click(within(history).getByRole('button', { name: 'Événements plus anciens' }))
  await within(history).findByText('60 événements, page 2 sur 2.')
  assert.equal(app.called('getOrderTimeline'), [
    [12, { page: 1 }],
    [12, { page: 2 }],
  ])
  assert.equal(app.called('getClientOrder'), [[12]])
})

Order('an unknown order: the server’s words with « Réessayer »; the timeline failing leaves the order shown', async () => {
  await renderBackOffice('/operateur/clients/99', {
    signedIn: ines,
    answers: { getClientOrder: [apiError(404, 'Domiciliation introuvable.')], getOrderTimeline: [down, timelinePage(0)] },
  })
  await screen.findByText('Domiciliation introuvable.')
  const history = screen.getByRole('region', { name: 'Historique' })
  fireEvent.click(within(history).getByRole('button', { name: 'Réessayer' }))
  await within(history).findByText('Rien n’est encore arrivé à cette domiciliation.')
})

Order('the provider not answering: the rest of the page all the same', async () => {
  await renderBackOffice('/operateur/clients/12', {
    signedIn: ines,
    answers: { getClientOrder: [{ ...order, subscription: null, subscriptionUnavailable: true }], getOrderTimeline: [timelinePage(0)] },
  })
  await screen.findByText('Le prestataire de paiement ne répond pas : l’abonnement n’a pas pu être lu.')
  screen.getByRole('region', { name: 'Factures' })
})

const NewClient = suite('back office: Clients › « Nouveau client »')
NewClient.after.each(() => cleanup())

const fill = () => {
  type('Raison sociale', 'Verger Nouveau')
  type('SIREN', '732 829 320')
  fireEvent.change(screen.getByLabelText('Forme juridique'), { target: { value: 'SAS' } })
  type('Prénom', 'Alice')
  type('Nom', 'Durand')
  type('Adresse e-mail', 'alice@example.com')
}

NewClient('a Courrier operator: « Accès réservé », no call', async () => {
  const app = await renderBackOffice('/operateur/clients/nouveau', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.equal(app.called('createClient'), [])
})

NewClient('checked here first (a SIREN with a wrong key among them), then sent; created, the new order’s page', async () => {
  const app = await renderBackOffice('/operateur/clients', {
    signedIn: ines,
    answers: {
      searchClients: [searchPage([])],
      createClient: [created],
      getClientOrder: [{ ...order, id: 31 }],
      getOrderTimeline: [timelinePage(1)],
    },
  })
  fireEvent.click(await screen.findByRole('link', { name: 'Nouveau client' }))
  await screen.findByRole('heading', { name: 'Nouveau client', level: 1 })
  assert.is(((await screen.findByLabelText('Date de début')) as HTMLInputElement).value, parisToday())
  type('SIREN', '732 829 321')
  fireEvent.click(screen.getByRole('button', { name: 'Créer le client' }))
  await screen.findByText(SIREN_INVALID)
  for (const message of [FIELD_MESSAGES.raisonSociale, FIELD_MESSAGES.legalForm, FIELD_MESSAGES.firstname, FIELD_MESSAGES.email])
    screen.getByText(message)
  assert.equal(app.called('createClient'), [])
  fill()
  fireEvent.click(screen.getByLabelText('Annuel (facturé chaque année)'))
  fireEvent.click(screen.getByLabelText('Numérisation illimitée du courrier'))
  fireEvent.click(screen.getByRole('button', { name: 'Créer le client' }))
  await screen.findByRole('heading', { name: /· commande n° 31/, level: 2 })
  assert.is(app.path(), '/operateur/clients/31')
  assert.equal(app.called('createClient'), [
    [
      {
        raisonSociale: 'Verger Nouveau',
        siren: '732 829 320',
        legalForm: 'SAS',
        owner: { firstname: 'Alice', lastname: 'Durand', email: 'alice@example.com' },
        plan: 'domiciliation-annuelle',
        options: ['scan'],
        startDate: parisToday(),
      },
    ],
  ])
  assert.equal(app.notices, [{ kind: 'success', message: created.message }])
})

NewClient('the server’s refusal at its field, nothing typed lost; the service down said above the form', async () => {
  const taken =
    'Une domiciliation existe déjà pour ce SIREN : Boulangerie des Lilas (commande n° 12). Ouvrez sa fiche plutôt que d’en créer une autre.'
  await renderBackOffice('/operateur/clients/nouveau', {
    signedIn: ines,
    answers: {
      createClient: [
        apiError(409, taken, 'CONFLICT'),
        apiError(400, 'Le champ « owner.email » doit être une adresse e-mail valide.', 'VALIDATION'),
        down,
      ],
    },
  })
  await screen.findByLabelText('Date de début')
  fill()
  fireEvent.click(screen.getByRole('button', { name: 'Créer le client' }))
  const siren = screen.getByLabelText('SIREN')
  await waitFor(() => assert.is(siren.getAttribute('aria-invalid'), 'true'))
  assert.is(document.getElementById('client-siren-error')!.textContent, taken)
  assert.is((siren as HTMLInputElement).value, '732 829 320')
  fireEvent.click(screen.getByRole('button', { name: 'Créer le client' }))
  await waitFor(() => assert.is(screen.getByLabelText('Adresse e-mail').getAttribute('aria-invalid'), 'true'))
  fireEvent.click(screen.getByRole('button', { name: 'Créer le client' }))
  await screen.findByText(down.message)
  assert.equal(
    ['Raison sociale', 'SIREN', 'Prénom', 'Nom', 'Adresse e-mail'].map((l) => (screen.getByLabelText(l) as HTMLInputElement).value),
    ['Verger Nouveau', '732 829 320', 'Alice', 'Durand', 'alice@example.com'],
  )
})

Search.run()
Order.run()
NewClient.run()
