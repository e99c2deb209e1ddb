import { recordDownloads, type SavedFile } from '../../util/downloads.ts'
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { CreditNote, Invoice, PaymentMethod, Subscription, SubscriptionOption } from '../../../server/contract/billing.ts'
import type { PortalNotification } from '../../../server/contract/notifications.ts'
import type { Order } from '../../../server/contract/session.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, TOO_LARGE_FOR_ONE_PAYMENT, type Scenario } from '../../util/services.tsx'
import type { Resource } from '../../../src/machines/session/portalData.machine.ts'
import { cardExpiry } from '../../../src/views/pages/billing/labels.ts'
import { frenchDay } from '../../../server/contract/rules/french-date.ts'
import { latestTerminationDate, parisToday } from '../../../server/contract/rules/termination.ts'

const YEAR = new Date().getFullYear()
const plan = (id: string, nickname: string, amount: number, interval: 'month' | 'year' = 'year') => ({
  id,
  nickname,
  amount,
  currency: 'eur',
  interval,
  product: 'p',
})
const subscription = (items: ReturnType<typeof plan>[], periodEnd = Date.UTC(YEAR + 1, 5, 11) / 1000): Subscription => ({
  id: 'sub',
  object: 'subscription',
  status: 'active',
  current_period_end: periodEnd,
  cancel_at_period_end: false,
  items: { object: 'list', data: items.map((p) => ({ id: `si_${p.id}`, plan: p, quantity: 1 })) },
})
const yearly = subscription([
  plan('domiciliation-annuelle', 'Domiciliation commerciale (annuel)', 29000),
  plan('option-scan-annuelle', 'Numérisation illimitée du courrier', 9000),
])
const monthly = subscription([plan('domiciliation-mensuelle', 'Domiciliation commerciale (mensuel)', 2900, 'month')])
const reexpedition: SubscriptionOption = {
  option: 'reexpedition',
  planId: 'option-reexpedition-annuelle',
  nickname: 'Réexpédition hebdomadaire du courrier',
  interval: 'year',
  amountExclTaxCents: 15000,
  amountInclTaxCents: 18000,
}
const studio: Order = { ...F.studio, subscriptionId: 'sub_3' }
const subscriptions = [
  { orderId: 1, subscription: monthly },
  { orderId: 2, subscription: yearly },
  { orderId: 3, subscription: monthly },
  { orderId: 4, subscription: monthly },
]

const invoice = (id: number, overrides: Partial<Invoice> = {}): Invoice => ({
  id,
  domId: 2,
  raisonSociale: 'Boulangerie des Lilas SAS',
  number: `FA-${YEAR}-${id}`,
  date: `${YEAR}-03-01T10:00:00.000Z`,
  amountExclTaxCents: 29000,
  amountInclTaxCents: 34800,
  paid: true,
  ...overrides,
})
const invoices = [
  invoice(41, { paid: false, date: `${YEAR}-10-01T10:00:00.000Z` }),
  invoice(40),
  invoice(39, { number: `FA-${YEAR - 1}-39`, date: `${YEAR - 1}-06-01T10:00:00.000Z`, amountExclTaxCents: 1850, amountInclTaxCents: 2220 }),
  invoice(50, {
    domId: 3,
    raisonSociale: 'Studio Nuage SAS',
    paid: false,
    date: `${YEAR}-05-01T10:00:00.000Z`,
    amountExclTaxCents: 2900,
    amountInclTaxCents: 3480,
  }),
]
const creditNotes: CreditNote[] = [
  {
    id: 9,
    domId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    number: `AV-${YEAR}-9`,
    date: `${YEAR}-03-06T10:00:00.000Z`,
    amountExclTaxCents: 1000,
    amountInclTaxCents: 1200,
    invoiceId: 40,
  },
]
const visa: PaymentMethod = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: YEAR + 2 }

function open(path: string, scenario: Scenario & { defaultOrder?: number | 'all' } = {}) {
  return renderApp(path, {
    signedIn: true,
    defaultOrder: 2,
    orders: [F.atelier, F.boulangerie, studio, F.conseil],
    data: { subscriptions, invoices, card: visa },
    ...scenario,
  })
}

/** Files handed to the browser, recorded while the suites that save them run (test/util/downloads.ts). */
const saved: SavedFile[] = []

/** The text of an element, its narrow and non-breaking spaces (fr-FR money and dates) read as spaces. */
const text = (element: Element) => element.textContent!.replace(/[\u00a0\u202f]/g, ' ')

const afterEach = () => {
  saved.length = 0
  cleanup()
  setViewport(1280)
}

// ——— Mes abonnements
const Subscriptions = suite('/souscription/mes-abonnements')
Subscriptions.after.each(afterEach)

Subscriptions('the plan, its price with VAT per year, "Annuel", the next due date and the options held', async () => {
  await open('/souscription/mes-abonnements')
  const card = await screen.findByRole('region', { name: 'Abonnement de Boulangerie des Lilas SAS' })
  assert.match(text(card), 'Domiciliation commerciale (annuel) : 348,00 € TTC par an')
  assert.match(text(card), 'PériodicitéAnnuel')
  assert.match(text(card), 'Numérisation illimitée du courrier : 108,00 € TTC')
  assert.match(text(card), 'Total456,00 € TTC par an')
  assert.match(text(card), `Prochaine échéance11 juin ${YEAR + 1}`)
})

Subscriptions('add an option: the list with prices, a confirmation with the price, then the card shows it', async () => {
  const app = await open('/souscription/mes-abonnements', { billing: { options: [reexpedition] } })
  fireEvent.click(await screen.findByRole('button', { name: 'Ajouter une option à l’abonnement de Boulangerie des Lilas SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Ajouter une option' })
  await within(dialog).findByText('180,00 € TTC par an', { exact: false })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Choisir Réexpédition hebdomadaire du courrier' }))
  await waitFor(() => assert.match(text(dialog), 'pour 180,00 € TTC par an (150,00 € HT)'))
  assert.equal(app.calls.billing.optionRequests, [], 'nothing asked before the confirmation')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer l’ajout' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  const options = within(screen.getByRole('region', { name: 'Abonnement de Boulangerie des Lilas SAS' })).getByRole('list', {
    name: 'Options de Boulangerie des Lilas SAS',
  })
  assert.match(text(options), 'Réexpédition hebdomadaire du courrier : 180,00 € TTC')
  assert.equal(
    app.calls.billing.optionRequests.map((r) => [r.orderId, r.option, /^[0-9a-f]{40}$/.test(r.key)]),
    [[2, 'reexpedition', true]],
  )
  assert.equal(app.calls.billing.optionConfirmations, [{ contractId: 102, planId: 'option-reexpedition-annuelle' }])
  assert.ok(
    app.calls.notices.some((n) => n.message === 'L’option « Réexpédition hebdomadaire du courrier » a été ajoutée à votre abonnement.'),
  )
})

Subscriptions('an option refused: the confirmation says why; the card does not change', async () => {
  const app = await open('/souscription/mes-abonnements', {
    billing: { options: [reexpedition], optionRefused: 'Votre abonnement comprend déjà cette option.' },
  })
  fireEvent.click(await screen.findByRole('button', { name: /Ajouter une option/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Ajouter une option' })
  fireEvent.click(await within(dialog).findByRole('button', { name: /Choisir/ }))
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirmer l’ajout' }))
  await within(dialog).findByText('Votre abonnement comprend déjà cette option.')
  assert.equal(app.calls.billing.optionConfirmations, [])
  assert.not.match(screen.getByRole('region', { name: 'Abonnement de Boulangerie des Lilas SAS' }).textContent!, 'Réexpédition')
})

Subscriptions('terminate: reason and date (not before the end of the period), then "Résiliation demandée pour le …"', async () => {
  const app = await open('/souscription/mes-abonnements')
  fireEvent.click(await screen.findByRole('button', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' })
  const date = within(dialog).getByLabelText('Date de résiliation souhaitée') as HTMLInputElement
  assert.is(date.value, '2027-06-11')
  assert.is(date.min, '2027-06-11')
  fireEvent.change(date, { target: { value: '2027-05-01' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  await within(dialog).findByText('Choisissez le motif de votre résiliation.')
  within(dialog).getByText(
    'La résiliation ne peut prendre effet avant la fin de la période en cours : choisissez le 11 juin 2027 ou une date ultérieure.',
  )
  fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Transfert du siège social' } })
  fireEvent.change(date, { target: { value: '2027-07-01' } })
  fireEvent.change(within(dialog).getByLabelText('Précisions (facultatif)'), { target: { value: 'Nous déménageons à Lyon.' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  await screen.findByText('Résiliation demandée pour le 1er juillet 2027.')
  assert.is(screen.queryByRole('button', { name: /Résilier/ }), null, 'the button is gone')
  assert.equal(app.calls.billing.terminations, [
    { orderId: 2, reason: 'Transfert du siège social', date: '2027-07-01', comment: 'Nous déménageons à Lyon.' },
  ])
})

Subscriptions('a termination the provider accepted: « Domiciliation résiliée au … », no « Résilier »', async () => {
  await open('/souscription/mes-abonnements', {
    billing: {
      termination: {
        request: { date: '2027-07-01', reason: 'Transfert du siège social', createdAt: '2026-11-22T10:00:00.000Z', endDate: '2027-06-30' },
        earliestDate: '2027-06-11',
      },
    },
  })
  await screen.findByText('Domiciliation résiliée au 30 juin 2027.')
  assert.is(screen.queryByText(/Résiliation demandée/), null)
  assert.is(screen.queryByRole('button', { name: /Résilier/ }), null)
})

Subscriptions(
  'terminate: the date stops two years ahead (max); a later one is refused in French before anything is sent, what was typed kept',
  async () => {
    const app = await open('/souscription/mes-abonnements')
    fireEvent.click(await screen.findByRole('button', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' }))
    const dialog = await screen.findByRole('dialog', { name: 'Résilier la domiciliation de Boulangerie des Lilas SAS' })
    const date = within(dialog).getByLabelText('Date de résiliation souhaitée') as HTMLInputElement
    const latest = latestTerminationDate(parisToday(), '2027-06-11')
    assert.is(date.max, latest)
    assert.match(text(within(dialog).getByText(/Au plus tôt le/)), `au plus tard le ${frenchDay(latest)}`)
    fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Transfert du siège social' } })
    fireEvent.change(date, { target: { value: '9999-12-31' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
    const message = `La résiliation ne peut être demandée plus de deux ans à l’avance : choisissez le ${frenchDay(latest)} ou une date antérieure.`
    await within(dialog).findByText(message)
    assert.is(date.getAttribute('aria-invalid'), 'true')
    assert.is(date.value, '9999-12-31')
    assert.is((within(dialog).getByLabelText('Motif') as HTMLSelectElement).value, 'Transfert du siège social')
    assert.equal(app.calls.billing.terminations, [])
    fireEvent.change(date, { target: { value: latest } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
    await screen.findByText(`Résiliation demandée pour le ${frenchDay(latest)}.`)
    assert.equal(app.calls.billing.terminations, [{ orderId: 2, reason: 'Transfert du siège social', date: latest }])
  },
)

Subscriptions('a second request (409, made from another tab): the French message, then the request on record', async () => {
  const conflict = 'Une demande de résiliation est déjà enregistrée pour cette domiciliation.'
  const app = await open('/souscription/mes-abonnements', { billing: { terminationRefused: { status: 409, message: conflict } } })
  fireEvent.click(await screen.findByRole('button', { name: /Résilier la domiciliation/ }))
  const dialog = await screen.findByRole('dialog')
  fireEvent.change(within(dialog).getByLabelText('Motif'), { target: { value: 'Tarifs trop élevés' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer la demande' }))
  await screen.findByText('Résiliation demandée pour le 31 août 2027.')
  assert.ok(app.calls.notices.some((n) => n.kind === 'error' && n.message === conflict))
  assert.is(screen.queryByRole('dialog'), null)
})

Subscriptions("'Tous': a card per order the user owns, none for the shared one", async () => {
  await open('/souscription/mes-abonnements', { defaultOrder: 'all' })
  await screen.findByRole('heading', { level: 2, name: 'Mes abonnements' })
  assert.equal(
    screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent),
    ['Atelier Lumière SARL', 'Boulangerie des Lilas SAS', 'Conseil Horizon EURL'],
  )
  assert.match(text(screen.getByRole('region', { name: 'Atelier Lumière SARL' })), 'PériodicitéMensuel')
})

Subscriptions('a shared order: read only, managed by its owner', async () => {
  await open('/souscription/mes-abonnements', { defaultOrder: 3 })
  const card = await screen.findByRole('region', { name: 'Abonnement de Studio Nuage SAS' })
  await within(card).findByText('Géré par le titulaire de la domiciliation.')
  assert.match(text(card), 'Domiciliation commerciale (mensuel)')
  assert.is(within(card).queryByRole('button'), null, 'no option, no termination')
})

Subscriptions("loading, then an error with 'Réessayer'", async () => {
  await open('/souscription/mes-abonnements', { pending: ['subscriptions'] })
  await screen.findByText('Chargement : vos abonnements…')
  cleanup()
  const app = await open('/souscription/mes-abonnements', { failing: ['subscriptions'] })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('region', { name: 'Abonnement de Boulangerie des Lilas SAS' })
  assert.is(app.calls.loads.filter((l) => l.resource === 'subscriptions').length, 2)
})

Subscriptions.run()

// ——— Attestation et contrats
const Documents = suite('/souscription/attestation-contrats')
recordDownloads(Documents, saved)
Documents.after.each(afterEach)

Documents('the certificate: issued, downloaded, its code and verification page; the contract', async () => {
  const app = await open('/souscription/attestation-contrats')
  fireEvent.click(await screen.findByRole('button', { name: 'Télécharger mon attestation de domiciliation' }))
  const issued = await screen.findByText(/Attestation délivrée, code de vérification/)
  assert.match(text(issued), 'K7QM-2XPA-9D4F')
  assert.is(within(issued).getByRole('link', { name: 'sa page de vérification' }).getAttribute('href'), '/verification/K7QM-2XPA-9D4F')
  fireEvent.click(screen.getByRole('button', { name: 'Télécharger mon contrat' }))
  await waitFor(() => assert.equal(app.calls.billing.downloads, ['certificate 2', 'certificate file K7QM-2XPA-9D4F', 'contract 102']))
  await waitFor(() =>
    assert.equal(saved, [
      { fileName: 'attestation-domiciliation-K7QM-2XPA-9D4F.pdf', type: 'blob:' },
      { fileName: 'contrat-domiciliation-102.pdf', type: 'blob:' },
    ]),
  )
})

Documents(
  "under 'Tous', each company's forwarding address is a region named after it (a screen reader's list of regions tells them apart)",
  async () => {
    await open('/souscription/attestation-contrats', { defaultOrder: 'all' })
    const regions = await waitFor(() => {
      const found = screen.getAllByRole('region', { name: /^Adresse de réexpédition/ })
      assert.ok(found.length > 1, `${found.length} region(s)`)
      return found
    })
    const names = regions.map((r) => document.getElementById(r.getAttribute('aria-labelledby')!)!.textContent)
    assert.equal(new Set(names).size, names.length, names.join(' | '))
    assert.ok(names.includes('Adresse de réexpédition, Boulangerie des Lilas SAS'), names.join(' | '))
  },
)

Documents('a certificate refused says why', async () => {
  await open('/souscription/attestation-contrats', {
    billing: { certificateRefused: 'Votre attestation sera disponible dès la signature de votre contrat de domiciliation.' },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Télécharger mon attestation de domiciliation' }))
  await screen.findByText('Votre attestation sera disponible dès la signature de votre contrat de domiciliation.')
})

Documents('the forwarding address: a French postcode has five digits; saved, it shows at once', async () => {
  const app = await open('/souscription/attestation-contrats')
  await screen.findByText('Aucune adresse de réexpédition enregistrée.')
  fireEvent.click(screen.getByRole('button', { name: 'Indiquer une adresse de réexpédition de Boulangerie des Lilas SAS' }))
  fireEvent.change(await screen.findByLabelText('Numéro et rue'), { target: { value: '3 place du Marché' } })
  fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '6900' } })
  fireEvent.change(screen.getByLabelText('Ville'), { target: { value: 'Lyon' } })
  assert.is((screen.getByLabelText('Pays') as HTMLInputElement).value, 'France')
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
  await screen.findByText('Le code postal doit comporter 5 chiffres pour une adresse en France (par exemple 75019).')
  assert.equal(app.calls.billing.addresses, [])
  fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '69002' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
  const address = await screen.findByText('69002 Lyon')
  assert.match(text(address.closest('address')!), '3 place du Marché')
  screen.getByRole('button', { name: 'Modifier l’adresse de réexpédition de Boulangerie des Lilas SAS' })
  assert.equal(app.calls.billing.addresses, [
    {
      contractId: 102,
      address: {
        adressePostaleExpedition: '3 place du Marché',
        adresseComplementPostaleExpedition: null,
        codePostaleExpedition: '69002',
        villePostaleExpedition: 'Lyon',
        paysPostaleExpedition: 'France',
      },
    },
  ])
})

Documents('a failed save keeps the form as typed and says so', async () => {
  await open('/souscription/attestation-contrats', { billing: { addressFails: true } })
  fireEvent.click(await screen.findByRole('button', { name: /Indiquer une adresse de réexpédition/ }))
  fireEvent.change(await screen.findByLabelText('Numéro et rue'), { target: { value: '3 place du Marché' } })
  fireEvent.change(screen.getByLabelText('Code postal'), { target: { value: '69002' } })
  fireEvent.change(screen.getByLabelText('Ville'), { target: { value: 'Lyon' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
  await screen.findByText('Votre adresse de réexpédition n’a pas été enregistrée : vérifiez-la puis réessayez.')
  assert.is((screen.getByLabelText('Ville') as HTMLInputElement).value, 'Lyon')
})

const kbisPath = (id: number) => `/api-protected/contracts/${id}/kbis`
/** Atelier: no Kbis yet; Boulangerie: filed, validated by the team (or not yet, with `validated: false`). */
const contractsWith = (validated = true) =>
  F.contracts.map((c) =>
    c.id === F.boulangerie.contractId
      ? { ...c, kbis: kbisPath(c.id), kbisValidatedAt: validated ? `${YEAR}-11-25T09:00:00.000Z` : null }
      : c,
  )
const kbisStatusOf = (company: string) => text(within(screen.getByRole('region', { name: company })).getByTestId('kbis-status'))

Documents('the Kbis: validated (and when), awaiting the team’s check, or none; downloaded as a PDF', async () => {
  const app = await open('/souscription/attestation-contrats', { defaultOrder: 'all', billing: { contracts: contractsWith() } })
  await screen.findByRole('region', { name: 'Boulangerie des Lilas SAS' })
  assert.is(kbisStatusOf('Boulangerie des Lilas SAS'), `Kbis validé par nos équipes le 25 novembre ${YEAR}.`)
  assert.is(kbisStatusOf('Atelier Lumière SARL'), 'Aucun Kbis déposé pour le moment.')
  assert.is(
    within(screen.getByRole('region', { name: 'Atelier Lumière SARL' })).queryByRole('button', { name: /Kbis/ }),
    null,
    'nothing to download',
  )
  fireEvent.click(screen.getByRole('button', { name: 'Télécharger mon Kbis de Boulangerie des Lilas SAS' }))
  await waitFor(() => assert.equal(saved, [{ fileName: `kbis-${F.boulangerie.contractId}.pdf`, type: 'blob:' }]))
  assert.equal(app.calls.billing.downloads, [`kbis ${F.boulangerie.contractId}`])
  cleanup()
  await open('/souscription/attestation-contrats', { billing: { contracts: contractsWith(false) } })
  await screen.findByRole('button', { name: 'Télécharger mon Kbis' })
  assert.is(text(screen.getByTestId('kbis-status')), 'Kbis reçu : nos équipes le vérifient, nous vous préviendrons dès sa validation.')
})

Documents('a Kbis that cannot be downloaded says why, and the button tries again', async () => {
  const app = await open('/souscription/attestation-contrats', {
    billing: { contracts: contractsWith(), kbisFileFails: 'Aucun Kbis n’a été déposé pour ce contrat.' },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Télécharger mon Kbis' }))
  await screen.findByText('Aucun Kbis n’a été déposé pour ce contrat.')
  fireEvent.click(screen.getByRole('button', { name: 'Télécharger mon Kbis' }))
  await waitFor(() => assert.is(app.calls.billing.downloads.length, 2))
  assert.equal(saved, [])
})

Documents('the bell tells of a Kbis validated while the page is open: the contracts are read again and the date shows', async () => {
  const contracts = contractsWith(false)
  const app = await open('/souscription/attestation-contrats', { billing: { contracts } })
  await screen.findByText(/Kbis reçu : nos équipes le vérifient/)
  await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
  contracts.splice(0, contracts.length, ...contractsWith(true))
  await act(async () =>
    app.calls.live!.push({
      id: 900,
      kind: 'kbis',
      orderId: 2,
      title: 'Kbis validé',
      body: 'Le justificatif d’immatriculation de Boulangerie des Lilas SAS a été validé.',
      createdAt: new Date().toISOString(),
      read: false,
      link: '/souscription/attestation-contrats',
    }),
  )
  await waitFor(() => assert.is(text(screen.getByTestId('kbis-status')), `Kbis validé par nos équipes le 25 novembre ${YEAR}.`))
})

Documents('a Kbis sent from the banner shows at once, awaiting the team’s check', async () => {
  await open('/souscription/attestation-contrats', { defaultOrder: F.atelier.id })
  await screen.findByText('Aucun Kbis déposé pour le moment.')
  fireEvent.click(
    within(screen.getByRole('region', { name: 'Justificatif d’immatriculation' })).getByRole('button', { name: 'Je dépose mon Kbis' }),
  )
  fireEvent.click(within(await screen.findByRole('dialog', { name: 'Déposer mon justificatif' })).getByRole('button', { name: 'Oui' }))
  fireEvent.change(document.querySelector<HTMLInputElement>('input[type="file"][accept=".pdf"]')!, {
    target: { files: [new File(['%PDF-1.7\n'], 'kbis.pdf', { type: 'application/pdf' })] },
  })
  await screen.findByText('Kbis reçu : nos équipes le vérifient, nous vous préviendrons dès sa validation.', undefined, { timeout: 5000 })
  screen.getByRole('button', { name: 'Télécharger mon Kbis' })
})

Documents('a shared order: delivered to its owner, no button', async () => {
  await open('/souscription/attestation-contrats', { defaultOrder: 3 })
  await screen.findByText(/sont délivrés à son titulaire/)
  assert.is(screen.queryByRole('button', { name: /Télécharger/ }), null)
})

Documents.run()

// ——— Mes factures
const Invoices = suite('/factures')
recordDownloads(Invoices, saved)
Invoices.after.each(afterEach)

const invoicesOf = () => within(screen.getByRole('list', { name: 'Factures' })).getAllByRole('listitem')
const numbersShown = () => invoicesOf().map((r) => text(r).match(/N° de facture (FA-\d+-\d+)/)![1])
/** Issued by an operator: the bell's live stream says so ('invoice'). */
const issued = invoice(42, { paid: false, date: `${YEAR}-11-20T10:00:00.000Z` })
let noticeId = 300
async function invoiceIssued(app: Awaited<ReturnType<typeof open>>) {
  await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
  const notice: PortalNotification = {
    id: ++noticeId,
    kind: 'invoice',
    orderId: 2,
    title: 'Nouvelle facture',
    body: `Facture FA-${YEAR}-42 : 348,00 € TTC`,
    createdAt: new Date().toISOString(),
    read: false,
    link: '/factures',
  }
  await act(async () => app.calls.live!.push(notice))
}

Invoices('this year first: its invoices (number, date, HT, TTC, paid or not), credit notes with their invoice, the total', async () => {
  await open('/factures', { defaultOrder: 'all', billing: { years: [YEAR, YEAR - 1], shareYears: [YEAR], creditNotes } })
  await screen.findByRole('list', { name: 'Factures' })
  assert.is((screen.getByLabelText('Année') as HTMLSelectElement).value, String(YEAR))
  assert.equal(
    [...(screen.getByLabelText('Année') as HTMLSelectElement).options].map((o) => o.value),
    [String(YEAR), String(YEAR - 1)],
  )
  const rows = invoicesOf()
  assert.equal(
    rows.map((r) => text(r).match(/N° de facture (FA-\d+-\d+)/)![1]),
    [`FA-${YEAR}-41`, `FA-${YEAR}-50`, `FA-${YEAR}-40`],
  )
  assert.match(text(rows[0]!), `du 1er octobre ${YEAR}`)
  assert.match(text(rows[0]!), 'Montant HT 290,00 € · Montant TTC 348,00 €')
  assert.match(text(rows[0]!), 'À payer')
  assert.match(text(rows[2]!), 'Payée')
  assert.match(text(rows[1]!), 'Studio Nuage SAS', "'Tous' names the company")
  assert.is(within(rows[1]!).queryByRole('button', { name: /Payer/ }), null, 'a shared order’s invoice is its owner’s to pay')
  const notes = screen.getByRole('list', { name: 'Avoirs' })
  assert.match(text(notes), `Avoir AV-${YEAR}-9`)
  assert.match(text(notes), `sur la facture FA-${YEAR}-40`)
  assert.match(text(screen.getByText(/^Total/)), `Total ${YEAR} : 730,80 € TTC (609,00 € HT), avoirs déduits : 718,80 € TTC`)
  fireEvent.change(screen.getByLabelText('Année'), { target: { value: String(YEAR - 1) } })
  await waitFor(() =>
    assert.equal(
      invoicesOf().map((r) => text(r).match(/N° de facture (FA-\d+-\d+)/)![1]),
      [`FA-${YEAR - 1}-39`],
    ),
  )
  await screen.findByText(`Aucun avoir en ${YEAR - 1}.`)
})

Invoices('filtered by the order selected in the header', async () => {
  await open('/factures', { billing: { years: [YEAR], shareYears: [YEAR] } })
  await screen.findByRole('list', { name: 'Factures' })
  assert.equal(invoicesOf().length, 2)
  assert.not.match(screen.getByRole('list', { name: 'Factures' }).textContent!, 'Studio')
})

Invoices('pay: a confirmation with the amount; the row turns "Payée"', async () => {
  const app = await open('/factures', { billing: { years: [YEAR], payOutcome: 'paid' } })
  fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
  const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirmer le paiement' }))
  assert.match(text(dialog), `une facture de ${YEAR}, 348,00 € TTC`)
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.match(text(invoicesOf()[0]!), 'Payée')
  assert.is(screen.queryByRole('button', { name: /^Payer la facture/ }), null)
  assert.equal(app.calls.billing.payments, [2])
  assert.ok(app.calls.notices.some((n) => n.message === 'Votre facture a été réglée.'))
})

Invoices('"Payer" settles every unpaid invoice of the order, not only the year shown: the dialog counts them all first', async () => {
  const older = invoices.map((i) => (i.id === 39 ? { ...i, paid: false } : i))
  const pending: Resource[] = []
  const app = await open('/factures', {
    data: { subscriptions, invoices: older, card: visa },
    billing: { years: [YEAR, YEAR - 1], payOutcome: 'paid' },
    pending,
  })
  const pay = await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` })
  // While they are counted: nothing to confirm yet; "Annuler" closes.
  pending.push('invoices')
  fireEvent.click(pay)
  let dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  await within(dialog).findByText('Calcul du montant des factures impayées de Boulangerie des Lilas SAS…')
  assert.ok(
    within(dialog).getByRole('button', { name: 'Calcul du montant…' }).hasAttribute('disabled'),
    'nothing to confirm before the amount is known',
  )
  assert.is(document.activeElement, within(dialog).getByRole('button', { name: 'Annuler' }), 'the focus opens on "Annuler"')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  pending.length = 0
  fireEvent.click(pay)
  dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  const confirm = await within(dialog).findByRole('button', { name: 'Confirmer le paiement' })
  await waitFor(() => assert.is(document.activeElement, confirm, 'then moves on to the confirmation'))
  assert.match(text(dialog), `2 factures (${YEAR} et ${YEAR - 1}), 370,20 € TTC`)
  assert.ok(
    app.calls.loads.some((l) => l.resource === 'invoices'),
    'read again, every year',
  )
})

Invoices('an amount that cannot be counted is said, with "Réessayer"; nothing is paid', async () => {
  const failNext: Resource[] = []
  const app = await open('/factures', { billing: { years: [YEAR], payOutcome: 'paid' }, failNext })
  const pay = await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` })
  failNext.push('invoices')
  fireEvent.click(pay)
  const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  await within(dialog).findByText('Le montant à régler pour Boulangerie des Lilas SAS n’a pas pu être calculé.')
  within(dialog).getByRole('alert')
  assert.not.ok(within(dialog).queryByRole('button', { name: 'Confirmer le paiement' }))
  await waitFor(() => assert.is(document.activeElement, within(dialog).getByRole('button', { name: 'Réessayer' })))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Réessayer' }))
  await within(dialog).findByRole('button', { name: 'Confirmer le paiement' })
  assert.match(text(dialog), '348,00 € TTC')
  assert.equal(app.calls.billing.payments, [])
})

Invoices('a declined card says why in French, and the invoice stays to pay', async () => {
  await open('/factures', { billing: { years: [YEAR], payOutcome: 'declined' } })
  fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
  const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirmer le paiement' }))
  await within(dialog).findByText('Votre carte a été refusée par votre banque : aucun montant n’a été prélevé. Essayez une autre carte.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
  assert.match(text(invoicesOf()[0]!), 'À payer')
})

Invoices(
  'a total over what one card payment carries: the server’s reason in the dialog, nothing paid, the invoice stays to pay',
  async () => {
    const huge = invoices.map((i) => (i.id === 41 ? { ...i, amountExclTaxCents: 83_333_334, amountInclTaxCents: 100_000_000 } : i))
    const app = await open('/factures', {
      data: { subscriptions, invoices: huge, card: visa },
      billing: { years: [YEAR], payOutcome: 'tooLarge' },
    })
    fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
    const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirmer le paiement' }))
    await waitFor(() => assert.is(within(dialog).getByRole('alert').textContent, TOO_LARGE_FOR_ONE_PAYMENT))
    assert.match(text(dialog), '1 000 000,00 € TTC')
    assert.equal(app.calls.billing.payments, [2])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    assert.match(text(invoicesOf()[0]!), 'À payer')
  },
)

Invoices('without a card: the way to /moyen-de-paiement', async () => {
  const app = await open('/factures', { billing: { years: [YEAR], payOutcome: 'noCard' } })
  fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
  fireEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Confirmer le paiement' }))
  const dialog = await screen.findByRole('dialog', { name: 'Aucune carte enregistrée' })
  fireEvent.click(within(dialog).getByRole('link', { name: 'Enregistrer une carte' }))
  await waitFor(() => assert.is(app.currentPath(), '/moyen-de-paiement'))
})

Invoices('a PDF per invoice and credit note', async () => {
  const app = await open('/factures', { billing: { years: [YEAR], creditNotes } })
  fireEvent.click(await screen.findByRole('button', { name: `PDF de la facture FA-${YEAR}-40` }))
  await waitFor(() => assert.equal(app.calls.billing.downloads, ['invoice 40']))
  fireEvent.click(screen.getByRole('button', { name: `PDF de l’avoir AV-${YEAR}-9` }))
  await waitFor(() => assert.equal(app.calls.billing.downloads, ['invoice 40', 'creditNote 9']))
  await waitFor(() =>
    assert.equal(
      saved.map((f) => f.fileName),
      [`facture-FA-${YEAR}-40.pdf`, `avoir-AV-${YEAR}-9.pdf`],
    ),
  )
})

Invoices('no invoice at all, in words', async () => {
  await open('/factures', { billing: { years: [] } })
  await screen.findByText('Aucune facture pour le moment.')
})

Invoices('a new invoice (the bell’s news): the year is read again with its rows still shown, no spinner; then it is listed', async () => {
  const list = [...invoices]
  const pending: Resource[] = []
  const app = await open('/factures', { data: { subscriptions, invoices: list, card: visa }, billing: { years: [YEAR] }, pending })
  await screen.findByRole('list', { name: 'Factures' })
  assert.equal(numbersShown(), [`FA-${YEAR}-41`, `FA-${YEAR}-40`])
  // The answer is slow: the rows stay, no spinner.
  const loads = app.calls.loads.filter((l) => l.resource === 'invoices').length
  pending.push('invoices')
  list.unshift(issued)
  await invoiceIssued(app)
  // The portal's list and this page's year, two calls each (own and shared).
  await waitFor(() => assert.is(app.calls.loads.filter((l) => l.resource === 'invoices').length, loads + 4))
  assert.not.ok(screen.queryByText('Chargement : vos factures…'))
  assert.equal(numbersShown(), [`FA-${YEAR}-41`, `FA-${YEAR}-40`])
  assert.is((screen.getByLabelText('Année') as HTMLSelectElement).value, String(YEAR))
  // News again, and this time it answers.
  pending.length = 0
  await invoiceIssued(app)
  await waitFor(() => assert.equal(numbersShown(), [`FA-${YEAR}-42`, `FA-${YEAR}-41`, `FA-${YEAR}-40`]))
  assert.match(text(invoicesOf()[0]!), 'À payer')
})

Invoices('the year chosen stays when the news comes', async () => {
  const list = [...invoices]
  const app = await open('/factures', { data: { subscriptions, invoices: list, card: visa }, billing: { years: [YEAR, YEAR - 1] } })
  await screen.findByRole('list', { name: 'Factures' })
  fireEvent.change(screen.getByLabelText('Année'), { target: { value: String(YEAR - 1) } })
  await waitFor(() => assert.equal(numbersShown(), [`FA-${YEAR - 1}-39`]))
  list.push(invoice(43, { number: `FA-${YEAR - 1}-43`, date: `${YEAR - 1}-12-30T10:00:00.000Z`, paid: false }))
  await invoiceIssued(app)
  await waitFor(() => assert.equal(numbersShown(), [`FA-${YEAR - 1}-43`, `FA-${YEAR - 1}-39`]))
  assert.is((screen.getByLabelText('Année') as HTMLSelectElement).value, String(YEAR - 1))
})

Invoices(
  'news while "Payer" is open counts the amount again: the confirmation gives the new invoice too; the list is read once the dialog closes',
  async () => {
    const list = [...invoices]
    const app = await open('/factures', {
      data: { subscriptions, invoices: list, card: visa },
      billing: { years: [YEAR], payOutcome: 'paid' },
    })
    fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
    const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
    await within(dialog).findByRole('button', { name: 'Confirmer le paiement' })
    assert.match(text(dialog), '348,00 € TTC')
    list.unshift(issued)
    await invoiceIssued(app)
    await waitFor(() => assert.match(text(dialog), '696,00 € TTC'))
    assert.match(text(dialog), '2 factures')
    within(dialog).getByRole('button', { name: 'Confirmer le paiement' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    await waitFor(() => assert.equal(numbersShown(), [`FA-${YEAR}-42`, `FA-${YEAR}-41`, `FA-${YEAR}-40`]))
    assert.equal(app.calls.billing.payments, [])
  },
)

Invoices(
  'an invoice issued between the confirmation and the click, before any news: nothing paid, the reason above the new amount; confirmed again, paid',
  async () => {
    const list = [...invoices]
    const app = await open('/factures', {
      data: { subscriptions, invoices: list, card: visa },
      billing: { years: [YEAR], payOutcome: 'paid' },
    })
    fireEvent.click(await screen.findByRole('button', { name: `Payer la facture FA-${YEAR}-41` }))
    const dialog = await screen.findByRole('dialog', { name: 'Régler la facture' })
    const confirm = await within(dialog).findByRole('button', { name: 'Confirmer le paiement' })
    assert.match(text(dialog), '348,00 € TTC')
    list.unshift(issued)
    fireEvent.click(confirm)
    const reason = await within(dialog).findByRole('alert')
    assert.match(text(reason), 'Le montant à régler a changé depuis votre confirmation')
    await waitFor(() => assert.match(text(dialog), '696,00 € TTC'))
    assert.equal(
      app.calls.notices.filter((n) => n.kind === 'success'),
      [],
      'nothing paid',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer le paiement' }))
    await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
    assert.equal(app.calls.billing.payments, [2, 2])
    assert.equal(app.calls.notices.at(-1), { kind: 'success', message: 'Votre facture a été réglée.' })
  },
)

Invoices('a re-read that fails keeps the rows and says so, with "Réessayer"', async () => {
  const list = [...invoices]
  const failNext: Resource[] = []
  const app = await open('/factures', { data: { subscriptions, invoices: list, card: visa }, billing: { years: [YEAR] }, failNext })
  await screen.findByRole('list', { name: 'Factures' })
  list.unshift(issued)
  // The portal's list (own and shared) and this page's year: the first calls fail.
  failNext.push('invoices', 'invoices', 'invoices')
  await invoiceIssued(app)
  const failure = await screen.findByText(/^Vos factures n’ont pas pu être mises à jour\./)
  assert.match(failure.textContent!, 'momentanément indisponible')
  assert.equal(numbersShown(), [`FA-${YEAR}-41`, `FA-${YEAR}-40`])
  assert.equal(failNext, [])
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.equal(numbersShown(), [`FA-${YEAR}-42`, `FA-${YEAR}-41`, `FA-${YEAR}-40`]))
  assert.is(screen.queryByText(/n’ont pas pu être mises à jour/), null)
})

Invoices('the dashboard’s unpaid banner links here', async () => {
  await open('/tableau-de-bord', { unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 34800 } })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  assert.is(within(banner).getByRole('link', { name: 'Voir mes factures' }).getAttribute('href'), '/factures')
})

Invoices.run()

// ——— Moyen de paiement
const Card = suite('/moyen-de-paiement')
Card.after.each(afterEach)

Card('the card on file: brand, •••• 4242, expiry; "Expire bientôt" within 60 days, "Expirée" once its month is past', async () => {
  await open('/moyen-de-paiement')
  const facts = await screen.findByLabelText('Carte enregistrée')
  assert.match(text(facts), 'Visa •••• 4242')
  assert.match(text(facts), `12/${YEAR + 2}`)
  assert.not.match(text(facts), 'Expire bientôt')
  assert.not.match(text(facts), 'Expirée')
  cleanup()
  const now = new Date()
  await open('/moyen-de-paiement', {
    data: { subscriptions, invoices, card: { ...visa, expMonth: now.getMonth() + 1, expYear: now.getFullYear() } },
  })
  assert.match(text(await screen.findByLabelText('Carte enregistrée')), 'Expire bientôt')
  cleanup()
  await open('/moyen-de-paiement', { data: { subscriptions, invoices, card: { ...visa, expMonth: 3, expYear: 2024 } } })
  const expired = await screen.findByLabelText('Carte enregistrée')
  assert.match(text(expired), '03/2024')
  within(expired).getByText('Expirée')
  assert.not.match(text(expired), 'Expire bientôt')
})

Card('a card’s expiry, on its own: valid, within 60 days of the end of its month, past it', () => {
  const card = { ...visa, expMonth: 3, expYear: 2027 }
  assert.is(cardExpiry(card, new Date(2027, 0, 15)), 'valid')
  assert.is(cardExpiry(card, new Date(2027, 1, 15)), 'soon')
  assert.is(cardExpiry(card, new Date(2027, 2, 31, 23, 59)), 'soon', 'its last day still counts')
  assert.is(cardExpiry(card, new Date(2027, 3, 1)), 'expired')
  assert.is(cardExpiry(card, new Date(2031, 0, 1)), 'expired')
})

Card('no card: "Aucune carte enregistrée"', async () => {
  await open('/moyen-de-paiement', { data: { subscriptions, invoices, card: null } })
  await screen.findByText('Aucune carte enregistrée.')
  screen.getByRole('button', { name: 'Enregistrer une carte' })
})

Card('replace: the number checked (Luhn), declined in French with what was typed kept, then accepted: •••• 4444', async () => {
  const app = await open('/moyen-de-paiement', { billing: { cardDeclined: true } })
  fireEvent.click(await screen.findByRole('button', { name: 'Remplacer ma carte' }))
  const dialog = await screen.findByRole('dialog', { name: 'Nouvelle carte' })
  // The server says which provider takes the card (the test one here: its own form).
  await within(dialog).findByLabelText('Numéro de carte')
  const type = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } })
  type('Numéro de carte', '5555 5555 5555 4445')
  type('Date d’expiration (MM/AA)', '08/29')
  type('Cryptogramme (CVC)', '123')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer la carte' }))
  await within(dialog).findByText('Le numéro de carte est incomplet ou erroné : vérifiez-le.')
  assert.equal(app.calls.billing.providerCards, [])
  type('Numéro de carte', '4000 0000 0000 0002')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer la carte' }))
  await within(dialog).findByText('Votre carte a été refusée.')
  assert.is((within(dialog).getByLabelText('Numéro de carte') as HTMLInputElement).value, '4000 0000 0000 0002')
  assert.equal(app.calls.billing.attached, [])
  cleanup()
  const replaced = await open('/moyen-de-paiement')
  fireEvent.click(await screen.findByRole('button', { name: 'Remplacer ma carte' }))
  const form = await screen.findByRole('dialog', { name: 'Nouvelle carte' })
  fireEvent.change(await within(form).findByLabelText('Numéro de carte'), { target: { value: '5555 5555 5555 4444' } })
  fireEvent.change(within(form).getByLabelText('Date d’expiration (MM/AA)'), { target: { value: '08/29' } })
  fireEvent.change(within(form).getByLabelText('Cryptogramme (CVC)'), { target: { value: '123' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Enregistrer la carte' }))
  await waitFor(() => assert.match(text(screen.getByLabelText('Carte enregistrée')), 'Mastercard •••• 4444'))
  assert.equal(replaced.calls.billing.providerCards, [{ number: '5555555555554444', expMonth: 8, expYear: 2029, cvc: '123' }])
  // Our API only ever sees the provider's id.
  assert.equal(replaced.calls.billing.attached, [{ orderId: 2, pm: 'pm_new' }])
})

Card("'Tous': the account's default card is replaced", async () => {
  const app = await open('/moyen-de-paiement', { defaultOrder: 'all' })
  await screen.findByText('La carte par défaut de votre compte, pour toutes vos domiciliations.')
  fireEvent.click(screen.getByRole('button', { name: 'Remplacer ma carte' }))
  const form = await screen.findByRole('dialog', { name: 'Nouvelle carte' })
  fireEvent.change(await within(form).findByLabelText('Numéro de carte'), { target: { value: '4242 4242 4242 4242' } })
  fireEvent.change(within(form).getByLabelText('Date d’expiration (MM/AA)'), { target: { value: '12/30' } })
  fireEvent.change(within(form).getByLabelText('Cryptogramme (CVC)'), { target: { value: '123' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Enregistrer la carte' }))
  await waitFor(() => assert.equal(app.calls.billing.attached, [{ orderId: null, pm: 'pm_new' }]))
})

Card(
  'the real provider: Stripe.js’s field drawn in the dialog, a refusal said in its words, then the SetupIntent’s pm attached',
  async () => {
    const app = await open('/moyen-de-paiement', { billing: { hosted: { declines: ['Votre carte a été refusée.'] } } })
    fireEvent.click(await screen.findByRole('button', { name: 'Remplacer ma carte' }))
    const dialog = await screen.findByRole('dialog', { name: 'Nouvelle carte' })
    const field = await within(dialog).findByTestId('hosted-card')
    await waitFor(() => assert.equal(app.calls.billing.hostedCard.mounted, [field]))
    assert.equal(app.calls.billing.hostedCard.setups, [{ orderId: 2 }])
    // No field of ours for the number: Stripe's frame takes it.
    assert.is(within(dialog).queryByLabelText('Numéro de carte'), null)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer la carte' }))
    await within(dialog).findByText('Votre carte a été refusée.')
    assert.equal(app.calls.billing.attached, [])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer la carte' }))
    await waitFor(() => assert.equal(app.calls.billing.attached, [{ orderId: 2, pm: 'pm_hosted' }]))
    assert.equal(app.calls.billing.hostedCard.confirmed, ['seti_1_secret', 'seti_1_secret'])
    await waitFor(() => assert.is(screen.queryByRole('dialog', { name: 'Nouvelle carte' }), null))
    assert.is(app.calls.billing.hostedCard.destroyed, 1, 'the field let go with the dialog')
    assert.equal(app.calls.billing.providerCards, [], 'the test provider never asked')
  },
)

Card('the real provider: Stripe.js cannot be loaded, said in French with Réessayer', async () => {
  const app = await open('/moyen-de-paiement', { billing: { hosted: { loadFails: true } } })
  fireEvent.click(await screen.findByRole('button', { name: 'Remplacer ma carte' }))
  const dialog = await screen.findByRole('dialog', { name: 'Nouvelle carte' })
  await within(dialog).findByText('Le formulaire de carte sécurisé n’a pas pu être chargé. Vérifiez votre connexion puis réessayez.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(app.calls.billing.hostedCard.setups.length, 2))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog', { name: 'Nouvelle carte' }), null))
})

Card('a shared order: the owner’s business, no form', async () => {
  await open('/moyen-de-paiement', { defaultOrder: 3 })
  await screen.findByText(/est celle de son titulaire/)
  assert.is(screen.queryByRole('button', { name: /carte/ }), null)
})

Card.run()

// ——— /verification/{code}
const Verification = suite('/verification/{code}: public, the answer and nothing more')
Verification.after.each(afterEach)

Verification('valid: the company and the issue date, without signing in', async () => {
  const app = await renderApp('/verification/K7QM-2XPA-9D4F', {
    billing: { verification: { status: 'valid', raisonSociale: 'Boulangerie des Lilas SAS', issuedAt: `${YEAR}-11-23T10:00:00.000Z` } },
  })
  const answer = await screen.findByText('Attestation valide')
  assert.match(
    text(answer.closest('[role="status"]')!),
    `Attestation de domiciliation de Boulangerie des Lilas SAS, délivrée le 23 novembre ${YEAR}.`,
  )
  assert.equal(app.calls.billing.verifications, ['K7QM-2XPA-9D4F'])
  assert.is(app.currentPath(), '/verification/K7QM-2XPA-9D4F', 'no sign-in asked')
})

Verification('no longer valid; unknown; a refusal with "Réessayer"', async () => {
  await renderApp('/verification/K7QM-2XPA-9D4F', { billing: { verification: { status: 'revoked' } } })
  await screen.findByText('Cette attestation n’est plus valide')
  assert.not.match(text(document.body), 'Boulangerie')
  cleanup()
  await renderApp('/verification/ABCD-EFGH-JKMN')
  await screen.findByText(/Aucune attestation ne correspond à ce code\./)
  cleanup()
  const app = await renderApp('/verification/K7QM-2XPA-9D4F', {
    billing: { verification: { status: 429, message: 'Trop de tentatives : veuillez patienter une minute avant de réessayer.' } },
  })
  await screen.findByText('Trop de tentatives : veuillez patienter une minute avant de réessayer.')
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(app.calls.billing.verifications.length, 2))
})

Verification.run()
