// The mail room in happy-dom: Numérisation (PDFs dropped at once, each uploaded with its progress, a non-PDF refused at
// once, the suggestion with its reason, « À vérifier », confirmed then published, one or all), Colis (an arrival, the
// packages waiting per order, « Remis » to a representative with the identity checked), Réexpéditions (« Expédié » with
// a tracking number, « Impossible » with a reason); a Courrier-only page for others; each list's states.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { HANDOVER_MESSAGES } from '../../../src/backoffice/machines/mail/handover.machine.ts'
import { NOT_A_PDF, published } from '../../../src/backoffice/machines/mail/scanQueue.machine.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { forwardingRequest, parcel, publishedOf, scan } from '../../util/backoffice-mail.ts'

const down = apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const conformite = { id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite' as const] }
const lilas = {
  id: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  siren: '823 456 785',
  ownerName: 'Camille Martin',
  terminationDate: null,
  terminated: false,
}
const nuage = {
  id: 14,
  raisonSociale: 'Studio Nuage SAS',
  siren: '912 345 675',
  ownerName: 'Julien Moreau',
  terminationDate: null,
  terminated: false,
}
const pdf = (name: string) => new File(['%PDF-1.7'], name, { type: 'application/pdf' })

const Scans = suite('back office: Numérisation')
Scans.after.each(() => cleanup())

Scans('a Conformité operator: no entry, « Accès réservé », no call', async () => {
  const app = await renderBackOffice('/operateur/numerisation', { signedIn: conformite })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.equal(app.called('getScans'), [])
})

Scans('dropped at once: each PDF its own upload with its progress, a non-PDF refused at once, the scans joining the queue', async () => {
  let release: (value: unknown) => void = () => {}
  const app = await renderBackOffice('/operateur/numerisation', {
    signedIn: hugo,
    answers: {
      uploadScan: [
        () =>
          new Promise((resolve) => {
            release = resolve
          }),
        scan(2, { fileName: 'b.pdf', reading: 'en cours', suggestion: null, suggestedSender: null, sender: null, pageImages: 0 }),
      ],
    },
  })
  await screen.findByText('Aucun scan en attente : déposez-en ci-dessus.')
  fireEvent.drop(screen.getByTestId('scan-drop'), {
    dataTransfer: { files: [pdf('a.pdf'), pdf('b.pdf'), new File(['x'], 'photo.png', { type: 'image/png' })] },
  })
  const uploads = await screen.findByRole('list', { name: 'Envois en cours' })
  await within(uploads).findByText(NOT_A_PDF)
  await waitFor(() => assert.is(app.called('uploadScan').length, 1))
  within(uploads).getByRole('progressbar', { name: 'Envoi de a.pdf' })
  within(uploads).getByText('En attente')
  release(scan(1, { fileName: 'a.pdf' }))
  await screen.findByRole('heading', { name: 'b.pdf', level: 3 })
  screen.getByRole('heading', { name: 'a.pdf', level: 3 })
  // One request per file, in turn, each its file as a data URL.
  assert.equal(
    app.called('uploadScan').map(([body]) => (body as { fileName: string }).fileName),
    ['a.pdf', 'b.pdf'],
  )
  assert.match((app.called('uploadScan')[0]![0] as { file: string }).file, /^data:application\/pdf;base64,/)
  screen.getByText('Lecture en cours…')
  fireEvent.click(within(uploads).getByRole('button', { name: 'Retirer' }))
  await waitFor(() => assert.is(screen.queryByRole('list', { name: 'Envois en cours' }), null))
})

Scans('the suggestion with its reason; confirmed as suggested, then published; « À vérifier » stands out and waits', async () => {
  const suggested = scan(1)
  const unknown = scan(3, {
    suggestion: { orderId: null, raisonSociale: null, confidence: null, reason: 'Aucun SIREN ni nom connu.' },
    orderId: null,
    raisonSociale: null,
    toCheck: 'Aucune domiciliation reconnue : choisissez-la.',
  })
  const confirmedScan = { ...suggested, confirmed: true }
  const app = await renderBackOffice('/operateur/numerisation', {
    signedIn: hugo,
    answers: {
      getScans: [[suggested, unknown]],
      getMailRoomOrders: [[lilas, nuage]],
      reviewScan: [confirmedScan],
      publishScans: [{ published: [publishedOf(confirmedScan)], skipped: [] }],
    },
  })
  const card = (await screen.findByRole('heading', { name: 'scan-0001.pdf', level: 3 })).closest('li')!
  assert.match(card.textContent!, 'Suggestion : Boulangerie des Lilas SAS (sûr) — SIREN 823 456 785 trouvé page 1')
  assert.match(card.textContent!, 'Expéditeur suggéré : URSSAF Île-de-France')
  const other = screen.getByRole('heading', { name: 'scan-0003.pdf', level: 3 }).closest('li')!
  within(other).getByText('À vérifier')
  screen.getByText('2 scans en attente, 0 confirmé, 1 à vérifier.')
  assert.ok((screen.getByRole('button', { name: 'Publier les confirmés (0)' }) as HTMLButtonElement).disabled)
  // « À vérifier » without an order: told at the field, nothing sent.
  fireEvent.click(within(other).getByRole('button', { name: 'Confirmer' }))
  await within(other).findByText('Choisissez la domiciliation de ce courrier.')
  fireEvent.click(within(card).getByRole('button', { name: 'Confirmer' }))
  await within(card).findByText('Confirmé')
  assert.equal(app.called('reviewScan'), [[1, { orderId: 12, sender: 'URSSAF Île-de-France', kind: 'courrier', confirmed: true }]])
  fireEvent.click(screen.getByRole('button', { name: 'Publier les confirmés (1)' }))
  await waitFor(() => assert.is(screen.queryByRole('heading', { name: 'scan-0001.pdf', level: 3 }), null))
  assert.equal(app.called('publishScans'), [[{ scanIds: [1] }]])
  assert.equal(app.notices, [{ kind: 'success', message: published(1) }])
})

Scans('the order changed in the searchable list, the sender and kind too; one scan published; a 409 said', async () => {
  const changedScan = scan(1, {
    orderId: 14,
    raisonSociale: 'Studio Nuage SAS',
    sender: 'Impots.gouv',
    kind: 'administratif',
    confirmed: true,
  })
  const app = await renderBackOffice('/operateur/numerisation', {
    signedIn: ines,
    answers: {
      getScans: [[scan(1)]],
      getMailRoomOrders: [[lilas, nuage], [nuage]],
      reviewScan: [changedScan],
      publishScan: [apiError(409, 'Ce scan vient d’être publié par Hugo Lemaire.')],
    },
  })
  const card = (await screen.findByRole('heading', { name: 'scan-0001.pdf', level: 3 })).closest('li')!
  fireEvent.change(within(card).getByLabelText('Domiciliation : chercher'), { target: { value: 'nuage' } })
  await waitFor(() => assert.equal(JSON.parse(JSON.stringify(app.called('getMailRoomOrders').at(-1))), [{ q: 'nuage' }]))
  await within(card).findByRole('option', { name: /^Studio Nuage SAS/ })
  fireEvent.change(within(card).getByLabelText('Domiciliation'), { target: { value: '14' } })
  fireEvent.change(within(card).getByLabelText('Expéditeur'), { target: { value: 'Impots.gouv' } })
  fireEvent.change(within(card).getByLabelText('Nature'), { target: { value: 'administratif' } })
  fireEvent.click(within(card).getByRole('button', { name: 'Confirmer' }))
  await within(card).findByText('Confirmé')
  assert.equal(app.called('reviewScan'), [[1, { orderId: 14, sender: 'Impots.gouv', kind: 'administratif', confirmed: true }]])
  fireEvent.click(within(card).getByRole('button', { name: 'Publier scan-0001.pdf' }))
  await waitFor(() => assert.is(screen.queryByRole('heading', { name: 'scan-0001.pdf', level: 3 }), null))
  assert.equal(app.notices, [{ kind: 'info', message: 'Ce scan vient d’être publié par Hugo Lemaire.' }])
})

Scans('the queue failing: said, with « Réessayer »; a failed upload kept with « Réessayer »', async () => {
  const app = await renderBackOffice('/operateur/numerisation', {
    signedIn: hugo,
    answers: { getScans: [down, []], uploadScan: [down, scan(1)] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText('Aucun scan en attente : déposez-en ci-dessus.')
  fireEvent.change(screen.getByLabelText('Scans à déposer (PDF)'), { target: { files: [pdf('a.pdf')] } })
  const uploads = await screen.findByRole('list', { name: 'Envois en cours' })
  fireEvent.click(await within(uploads).findByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('heading', { name: 'scan-0001.pdf', level: 3 })
  assert.is(app.called('uploadScan').length, 2)
})

const Packages = suite('back office: Colis')
Packages.after.each(() => cleanup())

Packages('an arrival registered; the packages waiting per order; « Remis » to a representative, identity checked', async () => {
  const waiting = [{ orderId: 12, raisonSociale: 'Boulangerie des Lilas SAS', packages: [parcel(8), parcel(9, { sender: 'Amazon' })] }]
  const app = await renderBackOffice('/operateur/colis', {
    signedIn: hugo,
    answers: {
      getMailRoomOrders: [[lilas, nuage]],
      getWaitingPackages: [waiting, waiting],
      registerPackage: [parcel(10)],
      getPackageCollectors: [
        [
          { kind: 'titulaire', mandataireId: null, name: 'Camille Martin' },
          { kind: 'mandataire', mandataireId: 7, name: 'Paul Girard' },
        ],
      ],
      handOverPackage: [parcel(8, { status: 'Retiré' })],
    },
  })
  const form = await screen.findByRole('region', { name: 'Arrivée d’un colis' })
  fireEvent.click(within(form).getByRole('button', { name: 'Enregistrer l’arrivée' }))
  await within(form).findByText('Choisissez la domiciliation du colis.')
  await within(form).findByRole('option', { name: /^Boulangerie des Lilas SAS/ })
  fireEvent.change(within(form).getByLabelText('Domiciliation'), { target: { value: '12' } })
  fireEvent.change(within(form).getByLabelText('Transporteur'), { target: { value: 'Colissimo' } })
  fireEvent.change(within(form).getByLabelText('Expéditeur'), { target: { value: 'Moulins Bourgeois' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Enregistrer l’arrivée' }))
  await waitFor(() => assert.is(app.called('getWaitingPackages').length, 2))
  assert.equal(app.called('registerPackage'), [[{ orderId: 12, carrier: 'Colissimo', sender: 'Moulins Bourgeois' }]])
  await waitFor(() => assert.is((within(form).getByLabelText('Expéditeur') as HTMLInputElement).value, ''))

  const list = screen.getByRole('region', { name: 'Colis à retirer' })
  within(list).getByRole('heading', { name: 'Boulangerie des Lilas SAS (n° 12) : 2 colis' })
  fireEvent.click(within(list).getByRole('button', { name: 'Remis : colis de Moulins Bourgeois pour Boulangerie des Lilas SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Remise du colis de Moulins Bourgeois' })
  await within(dialog).findByLabelText('Paul Girard (représentant)')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer la remise' }))
  await within(dialog).findByText(HANDOVER_MESSAGES.identityChecked)
  within(dialog).getByText(HANDOVER_MESSAGES.collector)
  assert.equal(app.called('handOverPackage'), [])
  fireEvent.click(within(dialog).getByLabelText('Paul Girard (représentant)'))
  fireEvent.click(within(dialog).getByLabelText('Pièce d’identité vérifiée'))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmer la remise' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  const [[id, body]] = app.called('handOverPackage') as [[number, { collector: unknown; identityChecked: boolean; collectedAt: string }]]
  assert.equal([id, body.collector, body.identityChecked], [8, { kind: 'mandataire', mandataireId: 7 }, true])
  assert.ok(Math.abs(Date.parse(body.collectedAt) - Date.now()) < 120_000)
  within(list).getByRole('heading', { name: 'Boulangerie des Lilas SAS (n° 12) : 1 colis' })
  assert.equal(app.notices.at(-1), { kind: 'success', message: 'Colis de Moulins Bourgeois remis à Paul Girard.' })
})

Packages('nothing waiting: said; the list failing: said, with « Réessayer »', async () => {
  await renderBackOffice('/operateur/colis', { signedIn: hugo, answers: { getWaitingPackages: [down, []] } })
  const list = await screen.findByRole('region', { name: 'Colis à retirer' })
  fireEvent.click(await within(list).findByRole('button', { name: 'Réessayer' }))
  await within(list).findByText('Aucun colis n’attend d’être retiré.')
})

const Forwarding = suite('back office: Réexpéditions')
Forwarding.after.each(() => cleanup())

Forwarding('oldest first with letters and address; « Expédié » with a tracking number; « Impossible » with a reason', async () => {
  const second = forwardingRequest(5, {
    raisonSociale: 'Studio Nuage SAS',
    orderId: 14,
    forwardingAddress: null,
    letters: [],
    letterCount: 1,
  })
  const app = await renderBackOffice('/operateur/reexpeditions', {
    signedIn: hugo,
    answers: {
      getForwardingRequests: [[forwardingRequest(3), second]],
      markForwardingShipped: [
        apiError(400, 'Le champ « trackingNumber » n’a pas le format attendu.'),
        {
          id: 3,
          orderId: 12,
          status: 'traitée',
          outcome: {
            kind: 'expédiée',
            at: '2026-11-20T10:00:00.000Z',
            carrier: 'Colissimo',
            trackingNumber: '6A12345678',
            trackingUrl: null,
          },
        },
      ],
      markForwardingImpossible: [
        { id: 5, orderId: 14, status: 'traitée', outcome: { kind: 'impossible', at: '2026-11-20T10:00:00.000Z', reason: 'x' } },
      ],
    },
  })
  await screen.findByText('2 demandes en attente, la plus ancienne en premier.')
  const first = screen.getByRole('heading', { name: /^Boulangerie des Lilas SAS/, level: 3 }).closest('li')!
  assert.match(first.textContent!, 'URSSAF Île-de-France')
  assert.match(first.textContent!, '27 rue des Lilas')
  screen.getByText('Aucune adresse de réexpédition')
  fireEvent.click(within(first).getByRole('button', { name: 'Expédié : réexpédition de Boulangerie des Lilas SAS' }))
  fireEvent.change(await within(first).findByLabelText('Numéro de suivi'), { target: { value: '6A 1234 5678' } })
  fireEvent.click(within(first).getByRole('button', { name: 'Enregistrer l’expédition' }))
  await within(first).findByText('Le champ « trackingNumber » n’a pas le format attendu.')
  assert.is((within(first).getByLabelText('Numéro de suivi') as HTMLInputElement).value, '6A 1234 5678')
  fireEvent.click(within(first).getByRole('button', { name: 'Enregistrer l’expédition' }))
  await screen.findByText('1 demande en attente, la plus ancienne en premier.')
  assert.equal(app.called('markForwardingShipped').at(-1), [3, { carrier: 'La Poste', trackingNumber: '6A 1234 5678' }])
  const other = screen.getByRole('heading', { name: /^Studio Nuage SAS/, level: 3 }).closest('li')!
  fireEvent.click(within(other).getByRole('button', { name: 'Impossible : réexpédition de Studio Nuage SAS' }))
  fireEvent.change(await within(other).findByLabelText('Raison (le client la lira)'), {
    target: { value: 'Aucune adresse de réexpédition donnée.' },
  })
  fireEvent.click(within(other).getByRole('button', { name: 'Enregistrer l’impossibilité' }))
  await screen.findByText('Aucune demande de réexpédition en attente.')
  assert.equal(app.called('markForwardingImpossible'), [[5, { reason: 'Aucune adresse de réexpédition donnée.' }]])
})

Scans.run()
Packages.run()
Forwarding.run()
