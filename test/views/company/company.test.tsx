import '../../util/dom.ts'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { CalendarInvoice } from '../../../server/contract/billing.ts'
import type { LegalSubmission } from '../../../server/contract/company.ts'
import { FORMALITY_ORDERED, ORDER_OWNER_ONLY, refusals } from '../../../src/machines/company/formalityOrder.machine.ts'
import { formatEuros } from '../../../src/views/components/ui.tsx'
import { menu } from '../../../src/views/routes.ts'
import { formatDuration, upcomingFirst } from '../../../src/views/pages/company/MeetingsPage.tsx'
import { DeadlineList, pastToggleLabel } from '../../../src/views/pages/company/DeadlineList.tsx'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'
import { parseIcs, values } from '../../util/ics.ts'
import { localIsoDate } from '../../../src/domain/dates.ts'
import { fiscalCalendar, nextDeadline } from '../../../src/domain/fiscalCalendar.ts'
import { legalDuties } from '../../../src/domain/legalDuties.ts'
import { FISCAL_SETTINGS_KEY } from '../../../src/wiring/fiscal-settings.ts'

const startupOf = (app: Awaited<ReturnType<typeof renderApp>>) => app.session.getSnapshot().context.startup!
const open = (path: string, scenario: Scenario & { defaultOrder?: number | 'all' } = {}) =>
  renderApp(path, { signedIn: true, defaultOrder: 2, ...scenario })

const submissions: LegalSubmission[] = [
  {
    id: 31,
    orderId: 3,
    raisonSociale: 'Studio Nuage SAS',
    kind: 'changement-dirigeant',
    status: 'En cours',
    comment: 'Nomination de Julien Moreau',
    receivedAt: '2026-11-08T10:00:00.000Z',
    startedAt: '2026-11-14T10:00:00.000Z',
    filedAt: null,
    completedAt: null,
  },
  {
    id: 30,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    kind: 'modification-capital',
    status: 'Terminée',
    comment: null,
    receivedAt: '2026-01-26T10:00:00.000Z',
    startedAt: '2026-02-01T10:00:00.000Z',
    filedAt: '2026-02-07T10:00:00.000Z',
    completedAt: '2026-02-13T10:00:00.000Z',
  },
]

const Menu = suite('the side menu: Suivi comptable and Mes réunions')
Menu.before.each(() => setViewport(1280))
Menu.after.each(() => cleanup())

Menu('in the spec’s order, Mes réunions after Mes courriers, Suivi comptable after Mes factures, with its four pages', async () => {
  assert.equal(
    menu.map((m) => m.label),
    [
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
      'Mes échanges',
    ],
  )
  const accounting = menu.find((m) => m.label === 'Suivi comptable')!
  assert.is(accounting.to, '/suivi-comptable')
  assert.equal(
    accounting.children!.map((c) => c.to),
    [
      '/suivi-comptable/tresorerie',
      '/suivi-comptable/calendrier-fiscal',
      '/suivi-comptable/formalite-juridique',
      '/suivi-comptable/simulateur-tva',
    ],
  )
  const app = await open('/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  const aside = within(screen.getByRole('complementary', { name: 'Menu principal' }))
  fireEvent.click(aside.getByRole('link', { name: 'Suivi comptable' }))
  await waitFor(() => assert.is(app.currentPath(), '/suivi-comptable/tresorerie'))
  fireEvent.click(aside.getByRole('link', { name: 'Mes réunions' }))
  await waitFor(() => assert.is(app.currentPath(), '/mes-reunions'))
})

Menu.run()

const Treasury = suite('/suivi-comptable/tresorerie')
Treasury.before.each(() => setViewport(1280))
Treasury.after.each(() => cleanup())

Treasury('each bank\'s offer; "Ça m\'intéresse" sets the flag, then "Demande envoyée", kept in the portal', async () => {
  const app = await open('/suivi-comptable/tresorerie')
  const qonto = await screen.findByRole('region', { name: 'Qonto' })
  within(qonto).getByRole('list', { name: 'L’offre Qonto' })
  fireEvent.click(within(qonto).getByRole('button', { name: "Ça m'intéresse : Qonto" }))
  await within(qonto).findByText('Demande envoyée')
  assert.equal(app.calls.interests, [{ orderId: 2, partner: 'qonto' }])
  assert.ok(app.calls.notices.some((n) => n.message === 'Votre intérêt pour Qonto est transmis : Qonto vous contactera.'))
  assert.is(
    startupOf(app)
      .getSnapshot()
      .context.orders.find((o) => o.id === 2)!.qonto,
    true,
    'the order in the portal',
  )
  within(screen.getByRole('region', { name: 'Shine' })).getByRole('button', { name: "Ça m'intéresse : Shine" })
  // Back on the page later: still sent.
  fireEvent.click(within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('link', { name: 'Tableau de bord' }))
  await screen.findByText('Bonjour Camille')
  fireEvent.click(within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('link', { name: 'Trésorerie' }))
  await within(await screen.findByRole('region', { name: 'Qonto' })).findByText('Demande envoyée')
})

Treasury('a flag the server already has shows "Demande envoyée" at once (a reload)', async () => {
  const app = await open('/suivi-comptable/tresorerie', { orders: [F.atelier, { ...F.boulangerie, shine: true }, F.studio, F.conseil] })
  await within(await screen.findByRole('region', { name: 'Shine' })).findByText('Demande envoyée')
  assert.equal(app.calls.interests, [])
})

Treasury('a failure says why, and the button stays', async () => {
  await open('/suivi-comptable/tresorerie', { company: { fails: ['shine'] } })
  const shine = await screen.findByRole('region', { name: 'Shine' })
  fireEvent.click(within(shine).getByRole('button', { name: "Ça m'intéresse : Shine" }))
  await within(shine).findByText(/momentanément indisponible/)
  within(shine).getByRole('button', { name: "Ça m'intéresse : Shine" })
})

Treasury("a shared order: read only; 'Tous': choose the company", async () => {
  await open('/suivi-comptable/tresorerie', { defaultOrder: 3 })
  const qonto = await screen.findByRole('region', { name: 'Qonto' })
  assert.is(within(qonto).queryByRole('button'), null)
  within(qonto).getByText('Seul le titulaire de la domiciliation peut faire cette demande.')
  cleanup()
  const app = await open('/suivi-comptable/tresorerie', { defaultOrder: 'all' })
  const choice = await screen.findByRole('list', { name: 'Sociétés' })
  fireEvent.click(within(choice).getByRole('button', { name: 'Choisir Boulangerie des Lilas SAS' }))
  await screen.findByRole('region', { name: 'Qonto' })
  assert.is(startupOf(app).getSnapshot().context.selectedOrderId, 2, 'the same choice as the header')
})

Treasury.run()

const Company = suite('/gestion-de-mon-entreprise')
Company.before.each(() => setViewport(1280))
Company.after.each(() => cleanup())

Company('the company card, the accountant offer, the links and the termination', async () => {
  const app = await open('/gestion-de-mon-entreprise')
  const card = await screen.findByRole('region', { name: 'Boulangerie des Lilas SAS' })
  for (const text of ['812 345 678', 'SAS', '12 rue de la Paix, 75002 Paris', 'Finalisé', '2 mai 2023']) within(card).getByText(text)
  const accountant = screen.getByRole('region', { name: 'Un expert-comptable pour votre société' })
  fireEvent.click(within(accountant).getByRole('button', { name: 'Je veux être contacté par un expert-comptable' }))
  await within(accountant).findByText('Demande envoyée')
  assert.equal(app.calls.interests, [{ orderId: 2, partner: 'expert-comptable' }])
  assert.is(
    startupOf(app)
      .getSnapshot()
      .context.orders.find((o) => o.id === 2)!.wantComptable,
    true,
  )
  const links = within(screen.getByRole('region', { name: 'Gérer ma société' }))
  for (const [name, href] of [
    ['Mes collaborateurs', '/mes-collaborateurs'],
    ['Mes représentants', '/mes-representants'],
    ['Mes réunions', '/mes-reunions'],
    ['Mes formalités', '/formalites'],
    ['Formalités juridiques', '/formalites-juridique'],
  ]) {
    assert.is(links.getByRole('link', { name }).getAttribute('href'), href)
  }
})

Company('"Résilier ma domiciliation": the billing area\'s termination flow, here; then the request on record', async () => {
  const app = await open('/gestion-de-mon-entreprise')
  const termination = within(await screen.findByRole('region', { name: 'Résilier ma domiciliation' }))
  fireEvent.click(await termination.findByRole('button', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' })
  fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Transfert du siège social' } })
  fireEvent.change(within(dialog).getByLabelText('Date de résiliation souhaitée'), { target: { value: '2027-07-01' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  await termination.findByText('Résiliation demandée pour le 1er juillet 2027.')
  assert.equal(app.calls.billing.terminations, [{ orderId: 2, reason: 'Transfert du siège social', date: '2027-07-01' }])
})

Company('an accountant request made earlier, and a shared order (no collaborators, no termination, no request)', async () => {
  await open('/gestion-de-mon-entreprise', { orders: [F.atelier, { ...F.boulangerie, wantComptable: true }, F.studio, F.conseil] })
  await within(await screen.findByRole('region', { name: 'Un expert-comptable pour votre société' })).findByText('Demande envoyée')
  cleanup()
  await open('/gestion-de-mon-entreprise', { defaultOrder: 3 })
  await screen.findByRole('region', { name: 'Studio Nuage SAS' })
  assert.is(within(screen.getByRole('region', { name: 'Gérer ma société' })).queryByRole('link', { name: 'Mes collaborateurs' }), null)
  within(screen.getByRole('region', { name: 'Un expert-comptable pour votre société' })).getByText(
    'Seul le titulaire de la domiciliation peut faire cette demande.',
  )
  within(screen.getByRole('region', { name: 'Résilier ma domiciliation' })).getByText('Géré par le titulaire de la domiciliation.')
})

Company("'Tous': a clear choice of company", async () => {
  await open('/gestion-de-mon-entreprise', { defaultOrder: 'all' })
  const choice = await screen.findByRole('list', { name: 'Sociétés' })
  assert.is(within(choice).getAllByRole('listitem').length, 4)
  within(choice).getByText('SAS · SIREN 812345678 · partagée avec vous')
})

Company.run()

const Catalogue = suite('/formalites-juridique')
Catalogue.before.each(() => setViewport(1280))
Catalogue.after.each(() => cleanup())

Catalogue('the special layout; every formality with its needs, price and time; the checks decide', async () => {
  const app = await open('/formalites-juridique')
  await screen.findByRole('heading', { level: 1, name: 'Formalités juridiques' })
  assert.is(screen.queryByRole('button', { name: 'Retour' }), null, 'no header')
  const transfer = await screen.findByRole('region', { name: 'Transfert de siège social' })
  within(transfer).getByText('Extrait Kbis de moins de trois mois')
  within(transfer).getByText('199,00 € HT')
  within(transfer).getByText('5 à 8 jours ouvrés')
  await within(transfer).findByRole('button', { name: 'Commander : Transfert de siège social' })
  const creation = screen.getByRole('region', { name: 'Création de société' })
  within(creation).getByText(refusals.alreadyRegistered)
  assert.is(within(creation).queryByRole('button'), null)
  assert.equal(app.calls.checks, [2])
  for (const label of [
    'Changement de dirigeant',
    'Changement de dénomination ou d’objet social',
    'Modification du capital',
    'Dissolution et liquidation',
  ]) {
    screen.getByRole('button', { name: `Commander : ${label}` })
  }
})

Catalogue('ordering a transfer: confirmation with a comment, recorded, then /formalites lists it as "Reçue"', async () => {
  const app = await open('/formalites-juridique')
  fireEvent.click(await screen.findByRole('button', { name: 'Commander : Transfert de siège social' }))
  const dialog = await screen.findByRole('dialog', { name: 'Commander : Transfert de siège social' })
  within(dialog).getByText(/Boulangerie des Lilas SAS/)
  fireEvent.change(within(dialog).getByLabelText('Précisions pour nos juristes (facultatif)'), { target: { value: '  Depuis Lyon ' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer la commande' }))
  await waitFor(() => assert.is(app.currentPath(), '/formalites'))
  assert.equal(app.calls.legalSubmissions, [{ orderId: 2, kind: 'transfert-siege', comment: 'Depuis Lyon' }])
  assert.ok(app.calls.notices.some((n) => n.kind === 'success' && n.message === FORMALITY_ORDERED))
  const row = await screen.findByRole('listitem', { name: 'Transfert de siège social : Reçue' })
  within(row).getByText('Vos précisions : Depuis Lyon')
})

Catalogue('a refusal from the server keeps the dialog and the comment, and says why', async () => {
  await open('/formalites-juridique', { company: { fails: ['order'] } })
  fireEvent.click(await screen.findByRole('button', { name: 'Commander : Modification du capital' }))
  const dialog = await screen.findByRole('dialog')
  fireEvent.change(within(dialog).getByLabelText('Précisions pour nos juristes (facultatif)'), {
    target: { value: 'De 10 000 à 25 000 €' },
  })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer la commande' }))
  await within(dialog).findByText(/déjà en cours pour cette société/)
  assert.is(
    (within(dialog).getByLabelText('Précisions pour nos juristes (facultatif)') as HTMLTextAreaElement).value,
    'De 10 000 à 25 000 €',
  )
  fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
})

Catalogue('a company waiting for its Kbis may order its creation only; an unanswered check offers a retry', async () => {
  await open('/formalites-juridique', {
    defaultOrder: 1,
    company: { checks: { 1: { completeKbis: false, waitingContract: false, attenteCourrierOrFinalise: false } } },
  })
  await screen.findByRole('button', { name: 'Commander : Création de société' })
  within(screen.getByRole('region', { name: 'Transfert de siège social' })).getByText(refusals.kbisMissing)
  cleanup()
  const app = await open('/formalites-juridique', {
    company: { checks: { 2: { completeKbis: true, waitingContract: undefined, attenteCourrierOrFinalise: true } } },
  })
  await screen.findByText(/n’avons pas pu vérifier/)
  assert.is(screen.queryByRole('button', { name: /^Commander/ }), null)
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(app.calls.checks.length, 2))
})

Catalogue("a shared order reads the catalogue, orders nothing; 'Tous' asks for the company here (no header)", async () => {
  await open('/formalites-juridique', { defaultOrder: 3 })
  await screen.findByText(new RegExp(ORDER_OWNER_ONLY))
  await waitFor(() => assert.ok(screen.getAllByText('5 à 8 jours ouvrés').length > 0))
  assert.is(screen.queryByRole('button', { name: /^Commander/ }), null)
  cleanup()
  const app = await open('/formalites-juridique', { defaultOrder: 'all' })
  const picker = await screen.findByRole('combobox', { name: 'Société concernée' })
  assert.is(screen.queryByRole('button', { name: /^Commander/ }), null)
  assert.equal(app.calls.checks, [])
  fireEvent.change(picker, { target: { value: '2' } })
  await screen.findByRole('button', { name: 'Commander : Transfert de siège social' })
  assert.is(startupOf(app).getSnapshot().context.selectedOrderId, 2)
})

Catalogue.run()

const Formalities = suite('/formalites')
Formalities.before.each(() => setViewport(1280))
Formalities.after.each(() => cleanup())

Formalities('the requests of the order, their status and the date of each step', async () => {
  const app = await open('/formalites', { company: { submissions } })
  const row = await screen.findByRole('listitem', { name: 'Modification du capital : Terminée' })
  const steps = within(row).getByRole('list', { name: 'Étapes' })
  assert.equal(
    within(steps)
      .getAllByRole('listitem')
      .map((s) => s.textContent),
    ['Reçue : 26 janvier 2026', 'En cours : 1er février 2026', 'Déposée au greffe : 7 février 2026', 'Terminée : 13 février 2026'],
  )
  assert.is(screen.queryByText('Changement de dirigeant'), null, "another order's request")
  assert.equal(app.calls.submissionLoads, [2])
})

Formalities("'Tous': every request with its company; a step not reached shows no date", async () => {
  await open('/formalites', { defaultOrder: 'all', company: { submissions } })
  const row = await screen.findByRole('listitem', { name: 'Changement de dirigeant : En cours' })
  within(row).getByText('Studio Nuage SAS')
  assert.match(row.textContent!, 'Déposée au greffe : —')
  screen.getByRole('listitem', { name: 'Modification du capital : Terminée' })
})

Formalities('empty: says so and points to the catalogue; loading; an error with Réessayer', async () => {
  await open('/formalites')
  await screen.findByText(/Aucune formalité demandée pour le moment/)
  assert.is(screen.getByRole('link', { name: 'découvrez nos formalités juridiques' }).getAttribute('href'), '/formalites-juridique')
  cleanup()
  await open('/formalites', { company: { pending: ['submissions'] } })
  await screen.findByText('Chargement : vos formalités…')
  cleanup()
  const app = await open('/formalites', { company: { submissions, fails: ['submissions'] } })
  await screen.findByText(/momentanément indisponible/)
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('listitem', { name: 'Modification du capital : Terminée' })
  assert.equal(app.calls.submissionLoads, [2, 2])
})

Formalities(
  'an operator moves a request to its next step: the live notification reads the list again, the requests still shown meanwhile',
  async () => {
    const list = [
      ...submissions,
      {
        ...submissions[1]!,
        id: 32,
        kind: 'transfert-siege' as const,
        status: 'Reçue' as const,
        startedAt: null,
        filedAt: null,
        completedAt: null,
      },
    ]
    const pending: ('submissions' | 'checks')[] = []
    const app = await open('/formalites', { company: { submissions: list, pending } })
    await screen.findByRole('listitem', { name: 'Transfert de siège social : Reçue' })
    await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
    let id = 76
    const arrives = () =>
      act(async () =>
        app.calls.live!.push({
          id: ++id,
          kind: 'formality',
          orderId: 2,
          title: 'Transfert de siège social : En cours',
          body: 'Votre demande pour Boulangerie des Lilas SAS est passée à l’étape « En cours ».',
          createdAt: new Date().toISOString(),
          read: false,
          link: '/formalites',
        }),
      )
    // The answer is slow: the requests stay on screen, no spinner.
    pending.push('submissions')
    list[2] = { ...list[2]!, status: 'En cours', startedAt: '2026-11-25T10:00:00.000Z' }
    await arrives()
    await waitFor(() => assert.equal(app.calls.submissionLoads, [2, 2]))
    assert.not.ok(screen.queryByText('Chargement : vos formalités…'))
    screen.getByRole('listitem', { name: 'Transfert de siège social : Reçue' })
    pending.length = 0
    await arrives()
    const row = await screen.findByRole('listitem', { name: 'Transfert de siège social : En cours' })
    assert.match(row.textContent!, 'En cours : 25 novembre 2026')
    assert.equal(app.calls.submissionLoads, [2, 2, 2])
  },
)

Formalities('a new pick in the header lists that order’s requests', async () => {
  const app = await open('/formalites', { company: { submissions } })
  await screen.findByRole('listitem', { name: 'Modification du capital : Terminée' })
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '3' } })
  await screen.findByRole('listitem', { name: 'Changement de dirigeant : En cours' })
  assert.is(screen.queryByRole('listitem', { name: 'Modification du capital : Terminée' }), null)
  assert.equal(app.calls.submissionLoads, [2, 3])
})

Formalities.run()

const booking = (id: number, date: string, overrides: Partial<CalendarInvoice> = {}): CalendarInvoice => ({
  id,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  date,
  room: 'Salle Haussmann',
  hours: 2,
  amountInclTaxCents: 7200,
  paid: true,
  invoiceId: 900 + id,
  invoiceNumber: `FA-2026-823R0${id}`,
  ...overrides,
})
const soon = new Date(Date.now() + 6 * 86_400_000).toISOString()
const bookings = [
  booking(1, '2026-01-10T10:00:00.000Z', { room: 'Salle Opéra', hours: 3.5, amountInclTaxCents: 12600 }),
  booking(2, soon, { hours: 1.5, amountInclTaxCents: 5400, paid: false }),
  booking(3, '2026-02-10T10:00:00.000Z'),
  booking(4, '2026-02-11T10:00:00.000Z', {
    domId: 1,
    raisonSociale: 'Atelier Lumière SARL',
    room: 'Salle Monceau',
    invoiceId: null,
    invoiceNumber: null,
  }),
]

const Meetings = suite('/mes-reunions')
Meetings.before.each(() => setViewport(1280))
Meetings.after.each(() => cleanup())

Meetings('upcoming first, then the latest; room, date, duration, amount incl. VAT, paid; each with its invoice', async () => {
  const app = await open('/mes-reunions', { data: { calendarInvoices: bookings } })
  const list = await screen.findByRole('list', { name: 'Réservations' })
  const rows = within(list).getAllByRole('listitem')
  assert.equal(
    rows.map((r) => r.querySelector('strong')!.textContent),
    ['Salle Haussmann', 'Salle Haussmann', 'Salle Opéra'],
  )
  assert.match(rows[0]!.textContent!, 'À venir')
  assert.match(rows[0]!.textContent!, '1 h 30')
  assert.match(rows[0]!.textContent!, `${formatEuros(5400)} TTC`)
  assert.match(rows[0]!.textContent!, 'À payer')
  assert.match(rows[1]!.textContent!, 'mardi 10 février 2026')
  assert.match(rows[2]!.textContent!, '3 h 30')
  assert.match(rows[2]!.textContent!, `${formatEuros(12600)} TTC`)
  assert.match(rows[2]!.textContent!, 'Payée')
  const downloads = captureDownloads()
  try {
    fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Télécharger la facture FA-2026-823R01' }))
    await waitFor(() =>
      assert.equal(
        downloads.saved.map((d) => d.name),
        ['facture-FA-2026-823R01.pdf'],
      ),
    )
    assert.equal(app.calls.billing.downloads, ['invoice 901'])
    assert.is(await downloads.saved[0]!.blob.text(), '%PDF-1.7')
  } finally {
    downloads.restore()
  }
})

Meetings("'Tous': every company's bookings, named; a booking not invoiced yet says so; empty and failing invoice", async () => {
  await open('/mes-reunions', { defaultOrder: 'all', data: { calendarInvoices: bookings }, company: { fails: ['invoiceFile'] } })
  const list = await screen.findByRole('list', { name: 'Réservations' })
  const monceau = within(list).getByRole('listitem', { name: /Salle Monceau/ })
  within(monceau).getByText('Atelier Lumière SARL')
  within(monceau).getByText('Facture à venir')
  const opera = within(list).getByRole('listitem', { name: /Salle Opéra/ })
  fireEvent.click(within(opera).getByRole('button', { name: /Télécharger la facture/ }))
  await within(opera).findByText('Facture introuvable.')
  cleanup()
  await open('/mes-reunions')
  await screen.findByText('Aucune réservation de salle de réunion pour le moment.')
})

Meetings('a booking’s invoice paid on /factures: /mes-reunions says "Payée" at once', async () => {
  const year = new Date().getFullYear()
  const invoice = {
    id: 902,
    domId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    number: 'FA-2026-823R02',
    date: `${year}-01-05T10:00:00.000Z`,
    amountExclTaxCents: 4500,
    amountInclTaxCents: 5400,
    paid: false,
  }
  await open('/factures', {
    data: {
      invoices: [invoice],
      calendarInvoices: [bookings[1]!],
      card: { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: year + 2 },
    },
    billing: { years: [year], payOutcome: 'paid' },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Payer la facture FA-2026-823R02' }))
  const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirmer le paiement' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  fireEvent.click(screen.getAllByRole('link').find((a) => a.getAttribute('href') === '/mes-reunions')!)
  const list = await screen.findByRole('list', { name: 'Réservations' })
  assert.match(list.textContent!, 'Payée')
  assert.not.match(list.textContent!, 'À payer')
})

Meetings('a booking’s invoice paid by the dashboard’s \'Régler\': /mes-reunions says "Payée" at once', async () => {
  await open('/tableau-de-bord', {
    data: { calendarInvoices: [bookings[1]!] },
    unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 5400 },
  })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await waitFor(() => assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null))
  fireEvent.click(screen.getAllByRole('link').find((a) => a.getAttribute('href') === '/mes-reunions')!)
  const list = await screen.findByRole('list', { name: 'Réservations' })
  assert.match(list.textContent!, 'Payée')
  assert.not.match(list.textContent!, 'À payer')
})

Meetings('durations and order, on their own', () => {
  assert.equal([formatDuration(2), formatDuration(1.5), formatDuration(0.25), formatDuration(3.75)], ['2 h', '1 h 30', '0 h 15', '3 h 45'])
  const now = new Date('2026-02-10T12:00:00.000Z')
  assert.equal(
    upcomingFirst(
      bookings.slice(0, 1).concat(bookings[2]!, booking(5, '2026-03-01T10:00:00.000Z'), booking(6, '2026-02-20T10:00:00.000Z')),
      now,
    ).map((b) => b.id),
    [6, 5, 3, 1],
  )
})

Meetings.run()

/** What "Ajouter à mon agenda" saves: the blob handed to an <a download> that is clicked. */
function captureDownloads() {
  const blobs = new Map<string, Blob>()
  const saved: { name: string; blob: Blob }[] = []
  const create = URL.createObjectURL
  const click = HTMLAnchorElement.prototype.click
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:http://localhost:8080/${blobs.size + 1}`
    blobs.set(url, blob)
    return url
  }
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    if (this.download) saved.push({ name: this.download, blob: blobs.get(this.href)! })
  }
  return {
    saved,
    restore: () => {
      URL.createObjectURL = create
      HTMLAnchorElement.prototype.click = click
    },
  }
}

const today = localIsoDate()
const year = Number(today.slice(0, 4))
const items = (list: HTMLElement) => within(list).getAllByRole('listitem')

const Fiscal = suite('/suivi-comptable/calendrier-fiscal')
Fiscal.before.each(() => setViewport(1280))
Fiscal.after.each(() => cleanup())

/** The past ones are folded (test below): shown, they take their place among the others. */
function unfoldPast() {
  const unfold = screen.queryByRole('button', { name: /^Afficher (les \d+ échéances passées|l’échéance passée)$/ })
  if (unfold) fireEvent.click(unfold)
}
const fiscalItems = () => screen.getAllByRole('list', { name: /^Échéances fiscales \d{4}$/ }).flatMap(items)
const dates = (shown: HTMLElement[]) => shown.map((li) => li.querySelector('time')!.getAttribute('datetime'))

Fiscal(
  "this year's and next year's deadlines as the module computes them; past greyed, the next highlighted; the CFE on 15 December",
  async () => {
    await open('/suivi-comptable/calendrier-fiscal')
    await screen.findByRole('heading', { name: 'Échéances fiscales de Boulangerie des Lilas SAS' })
    const expected = fiscalCalendar({ today, legalForm: 'SAS', vatRegime: 'simplifie' })
    unfoldPast()
    const shown = fiscalItems()
    assert.is(shown.length, expected.length)
    assert.equal(
      dates(shown),
      expected.map((d) => d.date),
    )
    assert.equal(
      shown.map((li) => li.getAttribute('data-past')),
      expected.map((d) => String(d.date < today)),
    )
    const next = nextDeadline(expected, today)!
    const highlighted = shown.filter((li) => li.getAttribute('data-next') === 'true')
    assert.is(highlighted.length, 1)
    assert.is(highlighted[0]!.getAttribute('aria-current'), 'date')
    assert.match(highlighted[0]!.textContent!, next.title)
    assert.match(highlighted[0]!.textContent!, 'Prochaine échéance')
    const summary = screen.getByText(/^Prochaine échéance :/)
    assert.match(summary.textContent!, next.title)
    const cfe = shown.find((li) => li.textContent!.includes(`(CFE) ${year + 1}`))!
    assert.match(cfe.textContent!, new RegExp(`15 décembre ${year + 1}|16 décembre ${year + 1}|17 décembre ${year + 1}`))
    assert.ok(
      shown.some((li) => li.textContent!.includes('Acompte de TVA de juillet')),
      'the simplified regime by default',
    )
    assert.is(
      within(cfe)
        .getByRole('link', { name: /Source : entreprendre.service-public.fr/ })
        .getAttribute('target'),
      '_blank',
    )
  },
)

Fiscal(
  'the past deadlines are folded behind « Afficher les N échéances passées », which shows them greyed in their place and hides them again',
  async () => {
    // A letter's deadline of last year: past whatever the day the test runs (and the fiscal ones before today).
    const lastYear = `${year - 1}-06-01`
    await open('/suivi-comptable/calendrier-fiscal', {
      mailPipeline: {
        deadlines: [
          {
            documentId: 30,
            orderId: 2,
            sender: 'URSSAF Île-de-France',
            kind: 'administratif',
            receivedAt: `${year - 1}-05-12T09:00:00.000Z`,
            date: lastYear,
            amountCents: null,
          },
        ],
      },
    })
    await screen.findByRole('heading', { name: 'Échéances fiscales de Boulangerie des Lilas SAS' })
    const expected = [{ date: lastYear }, ...fiscalCalendar({ today, legalForm: 'SAS', vatRegime: 'simplifie' })]
    const past = expected.filter((d) => d.date < today)
    const upcoming = expected.filter((d) => d.date >= today)
    const toggle = await screen.findByRole('button', { name: `Afficher les ${past.length} échéances passées` })
    assert.equal(
      dates(fiscalItems()),
      upcoming.map((d) => d.date),
      'folded: only the ones to come',
    )
    assert.is(fiscalItems().filter((li) => li.getAttribute('data-past') === 'true').length, 0)
    assert.is(fiscalItems()[0]!.getAttribute('data-next'), 'true', 'the next one first')
    assert.is(screen.queryByRole('heading', { name: String(year - 1) }), null, 'a year of past ones only is folded whole')
    assert.is(toggle.getAttribute('aria-expanded'), 'false')
    fireEvent.click(toggle)
    await waitFor(() =>
      assert.equal(
        dates(fiscalItems()),
        expected.map((d) => d.date),
      ),
    )
    assert.equal(fiscalItems().filter((li) => li.getAttribute('data-past') === 'true').length, past.length)
    screen.getByRole('heading', { name: String(year - 1) })
    assert.is(toggle.getAttribute('aria-expanded'), 'true')
    assert.is(toggle.textContent, 'Masquer les échéances passées')
    fireEvent.click(toggle)
    await waitFor(() =>
      assert.equal(
        dates(fiscalItems()),
        upcoming.map((d) => d.date),
      ),
    )
    assert.is(toggle.textContent, `Afficher les ${past.length} échéances passées`)
  },
)

Fiscal('the toggle says « l’échéance passée » for one; with none to come, the folded list says so', async () => {
  assert.is(pastToggleLabel(1, false), 'Afficher l’échéance passée')
  assert.is(pastToggleLabel(1, true), 'Masquer l’échéance passée')
  assert.is(pastToggleLabel(3, false), 'Afficher les 3 échéances passées')
  render(
    <DeadlineList
      deadlines={[{ id: 'ancienne', date: '2025-03-01', title: 'Une échéance passée' }]}
      today="2026-11-29"
      label="Échéances"
    />,
  )
  screen.getByText('Aucune échéance à venir.')
  assert.is(screen.queryByText('Une échéance passée'), null)
  fireEvent.click(screen.getByRole('button', { name: 'Afficher l’échéance passée' }))
  await screen.findByText('Une échéance passée')
  assert.is(screen.queryByText('Aucune échéance à venir.'), null)
})

Fiscal('the regime, the year end and the tax on profits: chosen, applied, remembered for that company', async () => {
  await open('/suivi-comptable/calendrier-fiscal')
  fireEvent.change(await screen.findByRole('combobox', { name: 'Régime de TVA' }), { target: { value: 'normal' } })
  await screen.findAllByText(/Déclaration de TVA \(CA3\)/)
  assert.is(screen.queryByText(/Acompte de TVA de juillet/), null)
  fireEvent.change(screen.getByRole('combobox', { name: 'Clôture de l’exercice' }), { target: { value: '6' } })
  await screen.findAllByText(/exercice clos le 30 juin/)
  fireEvent.change(screen.getByRole('combobox', { name: 'Imposition des bénéfices' }), { target: { value: 'ir' } })
  await waitFor(() => assert.is(screen.queryByText(/acompte d'impôt sur les sociétés/), null))
  assert.equal(JSON.parse(localStorage.getItem(FISCAL_SETTINGS_KEY)!), {
    2: { vatRegime: 'normal', fiscalYearEndMonth: 6, profitTax: 'ir' },
  })
  // Another company keeps its own; coming back finds these.
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '1' } })
  await screen.findByRole('heading', { name: 'Échéances fiscales de Atelier Lumière SARL' })
  assert.is((screen.getByRole('combobox', { name: 'Régime de TVA' }) as HTMLSelectElement).value, 'simplifie')
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '2' } })
  await screen.findByRole('heading', { name: 'Échéances fiscales de Boulangerie des Lilas SAS' })
  assert.is((screen.getByRole('combobox', { name: 'Régime de TVA' }) as HTMLSelectElement).value, 'normal')
  assert.is((screen.getByRole('combobox', { name: 'Clôture de l’exercice' }) as HTMLSelectElement).value, '6')
})

Fiscal('an EURL is at the income tax unless it opted: no corporate-tax deadline by default', async () => {
  await open('/suivi-comptable/calendrier-fiscal', {
    defaultOrder: 4,
    orders: [F.atelier, F.boulangerie, F.studio, { ...F.conseilCompleted, legalForm: 'EURL' }],
  })
  await screen.findByRole('heading', { name: 'Échéances fiscales de Conseil Horizon EURL' })
  assert.ok(screen.getAllByText(/Déclaration de résultat et liasse fiscale/).length > 0)
  assert.is(screen.queryByText(/acompte d'impôt sur les sociétés/), null)
  screen.getByRole('option', { name: 'Selon la forme juridique (EURL) : impôt sur le revenu' })
})

Fiscal('"Ajouter à mon agenda": an .ics of the deadlines to come, one VEVENT each, named after the company', async () => {
  const downloads = captureDownloads()
  try {
    await open('/suivi-comptable/calendrier-fiscal')
    const upcoming = fiscalCalendar({ today, legalForm: 'SAS', vatRegime: 'simplifie' }).filter((d) => d.date >= today)
    fireEvent.click(await screen.findByRole('button', { name: `Ajouter à mon agenda : ${upcoming.length} échéances à venir` }))
    assert.is(downloads.saved.length, 1)
    const { name, blob } = downloads.saved[0]!
    assert.is(name, 'calendrier-fiscal-boulangerie-des-lilas-sas.ics')
    assert.match(blob.type, 'text/calendar')
    const calendar = parseIcs(await blob.text())
    const events = calendar.components.filter((c) => c.name === 'VEVENT')
    assert.is(events.length, upcoming.length)
    assert.equal(
      events.map((e) => values(e, 'DTSTART')[0]),
      upcoming.map((d) => d.date.replaceAll('-', '')),
    )
    assert.ok(events.every((e) => values(e, 'UID')[0]!.endsWith('@domiciliation-2.domicilium')))
    assert.match(values(calendar, 'X-WR-CALNAME')[0]!, 'Boulangerie des Lilas SAS')
  } finally {
    downloads.restore()
  }
})

Fiscal("'Tous': choose the company first", async () => {
  await open('/suivi-comptable/calendrier-fiscal', { defaultOrder: 'all' })
  fireEvent.click(
    within(await screen.findByRole('list', { name: 'Sociétés' })).getByRole('button', { name: 'Choisir Atelier Lumière SARL' }),
  )
  await screen.findByRole('heading', { name: 'Échéances fiscales de Atelier Lumière SARL' })
})

Fiscal.run()

const Duties = suite('/suivi-comptable/formalite-juridique')
Duties.before.each(() => setViewport(1280))
Duties.after.each(() => cleanup())

Duties(
  'approval within six months, filing after it, with their dates; the beneficial owners; the year end shared with the fiscal calendar',
  async () => {
    await open('/suivi-comptable/formalite-juridique')
    await screen.findByRole('heading', { name: 'Obligations juridiques de Boulangerie des Lilas SAS' })
    const expected = legalDuties({ today, legalForm: 'SAS' }).deadlines
    unfoldPast()
    const shown = screen.getAllByRole('list', { name: /^Obligations \d{4}$/ }).flatMap(items)
    assert.equal(
      shown.map((li) => li.querySelector('time')!.getAttribute('datetime')),
      expected.map((d) => d.date),
    )
    assert.ok(
      shown.some(
        (li) =>
          li.textContent!.includes(`Approbation des comptes (exercice clos le 31 décembre ${year})`) &&
          li.textContent!.includes(`30 juin ${year + 1}`),
      ),
    )
    assert.ok(
      shown.some(
        (li) =>
          li.textContent!.includes(`Dépôt des comptes au greffe (exercice clos le 31 décembre ${year})`) &&
          li.textContent!.includes(`30 août ${year + 1}`),
      ),
    )
    screen.getByRole('region', { name: 'Registre des bénéficiaires effectifs : déclarer tout changement dans les 30 jours' })
    fireEvent.change(screen.getByRole('combobox', { name: 'Clôture de l’exercice' }), { target: { value: '6' } })
    await screen.findAllByText(/exercice clos le 30 juin/)
    assert.is(JSON.parse(localStorage.getItem(FISCAL_SETTINGS_KEY)!)[2].fiscalYearEndMonth, 6)
  },
)

Duties('accounts approved: the filing date, online and on paper', async () => {
  await open('/suivi-comptable/formalite-juridique')
  fireEvent.change(await screen.findByLabelText('Date de l’approbation'), { target: { value: '2026-06-15' } })
  const result = await screen.findByText(/Dépôt au greffe au plus tard le/)
  assert.match(result.textContent!, 'samedi 15 août 2026 en ligne (le mercredi 15 juillet 2026 sur papier)')
})

Duties.run()

const Vat = suite('/suivi-comptable/simulateur-tva')
Vat.before.each(() => setViewport(1280))
Vat.after.each(() => cleanup())

const result = () => within(screen.getByRole('region', { name: 'Résultat' }))
const amountOf = (label: string) => result().getByText(label, { exact: false }).closest('dt, dd')!.nextElementSibling!.textContent

Vat('"100" HT at 20 % is 120,00 € TTC; TTC → HT and the other rates; French input both ways', async () => {
  await open('/suivi-comptable/simulateur-tva')
  const input = await screen.findByLabelText('Montant HT (€)')
  fireEvent.change(input, { target: { value: '100' } })
  await waitFor(() =>
    assert.equal(
      [amountOf('Montant HT'), amountOf('TVA à 20 %'), amountOf('Montant TTC')],
      [formatEuros(10000), formatEuros(2000), formatEuros(12000)],
    ),
  )
  fireEvent.click(screen.getByRole('radio', { name: /5,5 %/ }))
  fireEvent.change(input, { target: { value: '1 234,56' } })
  await waitFor(() => assert.equal([amountOf('TVA à 5,5 %'), amountOf('Montant TTC')], [formatEuros(6790), formatEuros(130246)]))
  fireEvent.click(screen.getByRole('radio', { name: 'toutes taxes comprises (TTC)' }))
  fireEvent.change(await screen.findByLabelText('Montant TTC (€)'), { target: { value: '1234.56' } })
  fireEvent.click(screen.getByRole('radio', { name: /10 %/ }))
  await waitFor(() =>
    assert.equal(
      [amountOf('Montant HT'), amountOf('TVA à 10 %'), amountOf('Montant TTC')],
      [formatEuros(112233), formatEuros(11223), formatEuros(123456)],
    ),
  )
  fireEvent.click(screen.getByRole('radio', { name: /2,1 %/ }))
  await waitFor(() => assert.is(amountOf('Montant HT'), formatEuros(120917)))
})

Vat('invalid input is said plainly, and no result shows; fixing it brings the result back', async () => {
  await open('/suivi-comptable/simulateur-tva', { defaultOrder: 'all' })
  const input = await screen.findByLabelText('Montant HT (€)')
  for (const [text, message] of [
    ['abc', 'Saisissez un montant, par exemple 1 234,56.'],
    ['-5', 'Saisissez un montant positif, par exemple 1 234,56.'],
    ['1,234', 'Deux décimales au plus, par exemple 1 234,56.'],
  ]) {
    fireEvent.change(input, { target: { value: text } })
    await waitFor(() => assert.is(screen.getByRole('alert').textContent, message))
    assert.is(input.getAttribute('aria-invalid'), 'true')
    assert.is(result().queryByText('Montant TTC'), null)
  }
  fireEvent.change(input, { target: { value: '0,05' } })
  await waitFor(() => assert.is(screen.queryByRole('alert'), null))
  assert.is(amountOf('Montant TTC'), formatEuros(6))
})

Vat.run()
