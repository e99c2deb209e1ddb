import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Invoice } from '../../../server/contract/billing.ts'
import type { CourierRequest, Folder, Package } from '../../../server/contract/mail.ts'
import type { PortalNotification } from '../../../server/contract/notifications.ts'
import type { Resource } from '../../../src/machines/session/portalData.machine.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'

const folders: Folder[] = [
  { id: 7, name: 'Banque', domiciliationOrderId: 2, documentCount: 1 },
  { id: 8, name: 'Fournisseurs', domiciliationOrderId: 2, documentCount: 0 },
]
const documents = [
  F.letter(21, { sender: 'URSSAF Île-de-France', kind: 'administratif', receivedAt: '2024-03-12T09:00:00.000Z' }),
  F.letter(22, { sender: 'BNP Paribas', read: true, folderId: 7, receivedAt: '2024-03-10T09:00:00.000Z' }),
  F.letter(23, { sender: 'Lettre supprimée', deleted: true, receivedAt: '2024-03-09T09:00:00.000Z' }),
  F.letter(24, { sender: 'Greffe du tribunal', kind: 'recommandé', receivedAt: '2024-03-08T09:00:00.000Z' }),
]
const packages: Package[] = [
  {
    id: 1,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    receivedAt: '2024-03-11T11:00:00.000Z',
    carrier: 'Colissimo',
    sender: 'Moulins Bourgeois',
    status: 'À retirer',
    collectedAt: null,
    collectedBy: null,
  },
  {
    id: 2,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    receivedAt: '2024-02-11T11:00:00.000Z',
    carrier: 'UPS',
    sender: 'Métro',
    status: 'Retiré',
    collectedAt: null,
    collectedBy: null,
  },
]
const requests: CourierRequest[] = [
  {
    id: 5,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    createdAt: '2024-03-05T14:00:00.000Z',
    kind: 'réexpédition',
    status: 'en attente',
    letterCount: 4,
    outcome: null,
  },
  {
    id: 6,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    createdAt: '2024-01-05T14:00:00.000Z',
    kind: 'scan',
    status: 'traitée',
    letterCount: 1,
    outcome: null,
  },
]
const invoices: Invoice[] = [
  {
    id: 41,
    domId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    number: 'FA-2024-001',
    date: '2024-03-01T10:00:00.000Z',
    amountExclTaxCents: 2900,
    amountInclTaxCents: 3480,
    paid: true,
  },
]
const data = { documents, folders, packages, courierRequests: requests, invoices }

async function open(path: string, scenario: Scenario & { defaultOrder?: number } = {}) {
  const app = await renderApp(path, { signedIn: true, defaultOrder: 2, data, ...scenario })
  return app
}

const options = () => within(screen.getByRole('listbox', { name: 'Courriers' })).getAllByRole('option')

/** The bell's live stream says a letter arrived (the list is read again: notifications). */
let noticeId = 100
async function letterArrives(app: Awaited<ReturnType<typeof open>>, documentId: number) {
  await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
  const notice: PortalNotification = {
    id: ++noticeId,
    kind: 'letter',
    orderId: 2,
    title: 'Nouveau courrier de Impots.gouv',
    body: 'courrier, 1 page',
    createdAt: new Date().toISOString(),
    read: false,
    link: `/mes-courriers/courriers?domiciliation=2&courrier=${documentId}`,
  }
  await act(async () => app.calls.live!.push(notice))
}
const impots = F.letter(25, { sender: 'Impots.gouv', receivedAt: '2024-03-13T09:00:00.000Z' })

const Letters = suite('/mes-courriers/courriers')
Letters.before.each(() => setViewport(1280))
Letters.after.each(() => cleanup())

Letters('the list: sender, kind, French date, folder; deleted ones never show; unread in bold; the first selected and opened', async () => {
  const app = await open('/mes-courriers/courriers')
  await screen.findByRole('listbox', { name: 'Courriers' })
  const rows = options()
  assert.equal(
    rows.map((r) => within(r).getByText(/URSSAF|BNP|Greffe/).textContent),
    ['URSSAF Île-de-France', 'BNP Paribas', 'Greffe du tribunal'],
  )
  assert.not.ok(screen.queryByText('Lettre supprimée'))
  assert.match(rows[0]!.textContent!, 'Administratif · reçu le 12 mars 2024')
  assert.match(rows[1]!.textContent!, 'Banque')
  assert.is(within(rows[2]!).getByText('Greffe du tribunal').tagName, 'STRONG', 'unread in bold')
  assert.is(rows[2]!.getAttribute('data-unread'), 'true')
  assert.is(within(rows[1]!).getByText('BNP Paribas').tagName, 'SPAN', 'read: not bold')
  assert.is(rows[0]!.getAttribute('aria-selected'), 'true', 'the first is selected')
  // Opened in the viewer, so marked read at once: the unread mark is gone and the count follows.
  await waitFor(() => assert.equal(app.calls.documentUpdates, [{ documentId: 21, readFlag: true }]))
  await waitFor(() => assert.is(within(options()[0]!).getByText('URSSAF Île-de-France').tagName, 'SPAN'))
  screen.getByText('1 non lu')
  const viewer = screen.getByRole('region', { name: 'Aperçu du courrier' })
  const frame = await within(viewer).findByTitle('Courrier de URSSAF Île-de-France')
  assert.match(frame.getAttribute('src')!, /^blob:/)
  assert.match(within(viewer).getByRole('link', { name: 'Télécharger' }).getAttribute('download')!, /^courrier-21-/)
  assert.equal(app.calls.files, [21])
})

Letters('arrow keys move through the list; the letter reached opens', async () => {
  const app = await open('/mes-courriers/courriers')
  const list = await screen.findByRole('listbox', { name: 'Courriers' })
  fireEvent.keyDown(list, { key: 'ArrowDown' })
  await waitFor(() => assert.is(options()[1]!.getAttribute('aria-selected'), 'true'))
  assert.is(document.activeElement, options()[1])
  fireEvent.keyDown(list, { key: 'End' })
  await waitFor(() => assert.is(options()[2]!.getAttribute('aria-selected'), 'true'))
  await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.documentId === 24 && u.readFlag)))
  fireEvent.keyDown(list, { key: 'Home' })
  await waitFor(() => assert.is(options()[0]!.getAttribute('aria-selected'), 'true'))
})

Letters(
  'the letter shown filtered out (not in the folder chosen): the first letter shown is in the Tab order, the arrows go on from it',
  async () => {
    const filed = [documents[0]!, { ...documents[1]!, read: false }, { ...documents[3]!, folderId: 7 }]
    const app = await open('/mes-courriers/courriers', { data: { ...data, documents: filed } })
    await screen.findByRole('listbox', { name: 'Courriers' })
    await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.documentId === 21 && u.readFlag)))
    fireEvent.change(screen.getByRole('combobox', { name: 'Dossier' }), { target: { value: '7' } })
    await waitFor(() =>
      assert.equal(
        options().map((o) => o.getAttribute('tabindex')),
        ['0', '-1'],
        'BNP Paribas, then Greffe du tribunal',
      ),
    )
    options()[0]!.focus()
    fireEvent.keyDown(options()[0]!, { key: 'ArrowDown' })
    await waitFor(() =>
      assert.ok(
        app.calls.documentUpdates.some((u) => u.documentId === 24 && u.readFlag),
        'the next one is opened',
      ),
    )
  },
)

Letters('« Non lus uniquement »: the letter open stays listed while open, so the arrows keep the focus on the list', async () => {
  const unread = [documents[0]!, { ...documents[1]!, read: false, folderId: null }, documents[3]!]
  const app = await open('/mes-courriers/courriers', { data: { ...data, documents: unread } })
  await screen.findByRole('listbox', { name: 'Courriers' })
  await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.documentId === 21 && u.readFlag)))
  fireEvent.click(screen.getByRole('checkbox', { name: 'Non lus uniquement' }))
  const senders = () => options().map((o) => o.textContent!.match(/^(URSSAF Île-de-France|BNP Paribas|Greffe du tribunal)/)![1])
  assert.equal(senders(), ['URSSAF Île-de-France', 'BNP Paribas', 'Greffe du tribunal'], 'the letter open, read, is still there')
  options()[0]!.focus()
  fireEvent.keyDown(options()[0]!, { key: 'ArrowDown' })
  await waitFor(() =>
    assert.ok(
      app.calls.documentUpdates.some((u) => u.documentId === 22 && u.readFlag),
      'the next one is opened',
    ),
  )
  await waitFor(() => assert.equal(senders(), ['BNP Paribas', 'Greffe du tribunal'], 'the one left goes, the one open stays'))
  assert.is(document.activeElement, options()[0], 'the focus is on the letter open')
})

Letters('filters: unread only, by folder, and under three characters a search over sender and kind as you type', async () => {
  const app = await open('/mes-courriers/courriers', { mailFails: ['read'] })
  await screen.findByRole('listbox', { name: 'Courriers' })
  fireEvent.change(screen.getByRole('searchbox', { name: /Rechercher/ }), { target: { value: 'gr' } })
  await waitFor(() =>
    assert.equal(
      options().map((o) => o.textContent!.split('Recommandé')[0]),
      ['Greffe du tribunal'],
    ),
  )
  fireEvent.change(screen.getByRole('searchbox', { name: /Rechercher/ }), { target: { value: 'IL' } })
  await waitFor(() =>
    assert.equal(
      options().map((o) => o.textContent!.split('Administratif')[0]),
      ['URSSAF Île-de-France'],
      'accents and case ignored',
    ),
  )
  fireEvent.change(screen.getByRole('searchbox', { name: /Rechercher/ }), { target: { value: 'ad' } })
  await waitFor(() =>
    assert.equal(
      options().map((o) => o.textContent!.split('Administratif')[0]),
      ['URSSAF Île-de-France'],
      'the kind too',
    ),
  )
  assert.equal(app.calls.searches, [], 'nothing asked of the server under three characters')
  fireEvent.change(screen.getByRole('searchbox', { name: /Rechercher/ }), { target: { value: '' } })
  fireEvent.change(screen.getByRole('combobox', { name: 'Dossier' }), { target: { value: '7' } })
  await waitFor(() => assert.is(options().length, 1))
  fireEvent.change(screen.getByRole('combobox', { name: 'Dossier' }), { target: { value: 'all' } })
  fireEvent.click(screen.getByRole('checkbox', { name: 'Non lus uniquement' }))
  await waitFor(() => assert.equal(options().length, 2, 'the two unread letters (the read mark failed and was put back)'))
  fireEvent.change(screen.getByRole('searchbox', { name: /Rechercher/ }), { target: { value: 'zz' } })
  await screen.findByText('Aucun courrier ne correspond à ces filtres.')
})

Letters('empty state in words', async () => {
  await open('/mes-courriers/courriers', { data: { ...data, documents: [] } })
  await screen.findByText('Aucun courrier pour le moment')
})

Letters("loading, then an error with 'Réessayer' that loads again", async () => {
  const loading = await open('/mes-courriers/courriers', { pending: ['documents'] })
  await screen.findByText('Chargement : vos courriers…')
  loading.unmount()
  cleanup()
  const app = await open('/mes-courriers/courriers', { failing: ['documents'] })
  await screen.findByText(/momentanément indisponible/)
  screen.getByRole('button', { name: 'Réessayer' }).focus()
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('listbox', { name: 'Courriers' })
  assert.is(app.calls.loads.filter((l) => l.resource === 'documents').length, 2)
  // The button pressed went with its alert: the focus goes to the page's heading, not to <body>.
  await waitFor(() => assert.is(document.activeElement, document.getElementById('letters-title')))
})

Letters('a letter arrives while another is read: the list gains it, the one being read stays selected and open', async () => {
  const letters = [...documents]
  const app = await open('/mes-courriers/courriers', { data: { ...data, documents: letters } })
  await screen.findByRole('listbox', { name: 'Courriers' })
  fireEvent.click(options()[2]!)
  await waitFor(() => assert.is(options()[2]!.getAttribute('aria-selected'), 'true'))
  const viewer = screen.getByRole('region', { name: 'Aperçu du courrier' })
  await within(viewer).findByTitle('Courrier de Greffe du tribunal')
  letters.unshift(impots)
  await letterArrives(app, 25)
  await waitFor(() => assert.is(options().length, 4))
  assert.match(options()[0]!.textContent!, 'Impots.gouv')
  assert.is(options()[3]!.getAttribute('aria-selected'), 'true', 'the letter being read stays selected')
  within(viewer).getByTitle('Courrier de Greffe du tribunal')
  assert.is(app.calls.loads.filter((l) => l.resource === 'documents').length, 2, 'the letters only, once more')
})

Letters('a letter that arrived while the bell’s stream was down shows once the bell has read its list again', async () => {
  const letters = [...documents]
  const app = await open('/mes-courriers/courriers', { data: { ...data, documents: letters } })
  await screen.findByRole('listbox', { name: 'Courriers' })
  await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
  // The stream ends (a server restart); a letter arrives meanwhile, its notification never sent.
  letters.unshift(impots)
  const stream = app.calls.live!
  await act(async () => {
    stream.missed({
      id: ++noticeId,
      kind: 'letter',
      orderId: 2,
      title: 'Nouveau courrier de Impots.gouv',
      body: 'courrier, 1 page',
      createdAt: new Date().toISOString(),
      read: false,
      link: '/mes-courriers/courriers?domiciliation=2&courrier=25',
    })
    stream.end()
  })
  // After its wait (0.5 to 1 s), the bell reads its list again and tells the portal what it did not have.
  await waitFor(() => assert.is(options().length, 4), { timeout: 3000 })
  assert.match(options()[0]!.textContent!, 'Impots.gouv')
  assert.is(app.calls.loads.filter((l) => l.resource === 'documents').length, 2, 'the letters read once more')
})

Letters("a list that cannot be read again keeps its letters under the reason and 'Réessayer'", async () => {
  const letters = [...documents]
  const failNext: Resource[] = []
  const app = await open('/mes-courriers/courriers', { data: { ...data, documents: letters }, failNext })
  await screen.findByRole('listbox', { name: 'Courriers' })
  letters.unshift(impots)
  failNext.push('documents')
  await letterArrives(app, 25)
  const alert = await screen.findByRole('alert')
  assert.match(alert.textContent!, 'Cette liste n’a pas pu être mise à jour. Le service est momentanément indisponible.')
  assert.is(options().length, 3, 'the letters read before stay')
  within(alert).getByRole('button', { name: 'Réessayer' }).focus()
  fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(options().length, 4))
  assert.not.ok(screen.queryByRole('alert'))
  assert.is(document.activeElement, document.getElementById('letters-title'), 'the focus on the heading, not <body>')
})

Letters('move to a folder, and send by e-mail (a failure keeps what was typed)', async () => {
  const app = await open('/mes-courriers/courriers', { mailFails: ['send'] })
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  fireEvent.change(within(viewer).getByRole('combobox', { name: 'Classer dans un dossier' }), { target: { value: '8' } })
  await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.folderId === 8)))
  await waitFor(() => assert.match(options()[0]!.textContent!, 'Fournisseurs'))
  fireEvent.click(within(viewer).getByRole('button', { name: 'Envoyer par e-mail' }))
  const dialog = await screen.findByRole('dialog', { name: 'Envoyer par e-mail' })
  fireEvent.change(within(dialog).getByLabelText('Destinataire (adresse e-mail)'), { target: { value: 'comptable@example.com' } })
  fireEvent.change(within(dialog).getByLabelText('Message (facultatif)'), { target: { value: 'Pour la clôture' } })
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /BNP Paribas/ }))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer les 2 courriers' }))
  await within(dialog).findByText(/momentanément indisponible/)
  assert.equal(app.calls.sentDocuments, [{ email: 'comptable@example.com', message: 'Pour la clôture', documentIds: [21, 22] }])
  assert.is((within(dialog).getByLabelText('Destinataire (adresse e-mail)') as HTMLInputElement).value, 'comptable@example.com')
  assert.is((within(dialog).getByLabelText('Message (facultatif)') as HTMLTextAreaElement).value, 'Pour la clôture')
})

Letters('filing keeps the focus on « Classer dans un dossier »: unavailable while the move is saved, never disabled', async () => {
  const app = await open('/mes-courriers/courriers')
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  const select = within(viewer).getByRole('combobox', { name: 'Classer dans un dossier' }) as HTMLSelectElement
  select.focus()
  fireEvent.change(select, { target: { value: '8' } })
  // A disabled select drops the focus to <body> in Chrome; this one says it is unavailable and ignores a choice.
  assert.is(select.getAttribute('aria-disabled'), 'true')
  assert.is(select.disabled, false)
  fireEvent.change(select, { target: { value: '7' } })
  await waitFor(() => assert.ok(app.calls.notices.some((n) => n.message === 'Le courrier a été classé dans le dossier.')))
  assert.equal(
    app.calls.documentUpdates.filter((u) => u.folderId !== undefined),
    [{ documentId: 21, folderId: 8 }],
    'one move at a time',
  )
  assert.is(select.getAttribute('aria-disabled'), null)
  assert.is(select.value, '8')
  assert.is(document.activeElement, select)
})

Letters('a folder deleted in another tab: filing there says what failed and why, and the folder is no longer offered', async () => {
  const listed = [...folders]
  const app = await open('/mes-courriers/courriers', { data: { ...data, folders: listed } })
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  const select = within(viewer).getByRole('combobox', { name: 'Classer dans un dossier' }) as HTMLSelectElement
  listed.splice(1, 1)
  fireEvent.change(select, { target: { value: '8' } })
  await waitFor(() =>
    assert.equal(app.calls.notices.at(-1), {
      kind: 'error',
      message: 'Le courrier n’a pas pu être classé dans ce dossier. Dossier introuvable.',
    }),
  )
  await waitFor(() =>
    assert.equal(
      [...select.options].map((o) => o.textContent),
      ['Aucun dossier', 'Banque'],
    ),
  )
  assert.is(app.calls.loads.filter((l) => l.resource === 'folders').length, 2, 'the folders read again')
  assert.is(select.value, '')
})

Letters('a read mark that fails says the letter stays unread, with the server’s reason', async () => {
  const app = await open('/mes-courriers/courriers', { mailFails: ['read'] })
  await waitFor(() =>
    assert.equal(app.calls.notices, [
      {
        kind: 'error',
        message: 'Le courrier n’a pas pu être marqué comme lu : il reste non lu. Le service est momentanément indisponible.',
      },
    ]),
  )
})

Letters('on a 360 px phone: the list, then the viewer in the page with a way back', async () => {
  setViewport(360, 740)
  const app = await open('/mes-courriers/courriers')
  await screen.findByRole('listbox', { name: 'Courriers' })
  assert.is(screen.queryByRole('region', { name: 'Aperçu du courrier' }), null)
  assert.equal(app.calls.documentUpdates, [], 'nothing is opened, so nothing is marked read')
  fireEvent.click(options()[2]!)
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  await within(viewer).findByTitle('Courrier de Greffe du tribunal')
  await waitFor(() => assert.equal(app.calls.documentUpdates, [{ documentId: 24, readFlag: true }]))
  fireEvent.click(within(viewer).getByRole('button', { name: '← Retour à la liste' }))
  await screen.findByRole('listbox', { name: 'Courriers' })
})

Letters('on a 360 px phone the focus follows: Enter on a letter → its heading in the viewer; back → its entry in the list', async () => {
  setViewport(360, 740)
  await open('/mes-courriers/courriers')
  const list = await screen.findByRole('listbox', { name: 'Courriers' })
  options()[0]!.focus()
  fireEvent.keyDown(list, { key: 'ArrowDown' })
  fireEvent.keyDown(list, { key: 'ArrowDown' })
  await waitFor(() => assert.is(document.activeElement, options()[2]))
  fireEvent.keyDown(list, { key: 'Enter' })
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  // The list (and the option that had the focus) is gone: the letter's heading takes the focus, not <body>.
  await waitFor(() => assert.is(document.activeElement, within(viewer).getByRole('heading', { name: 'Greffe du tribunal' })))
  const back = within(viewer).getByRole('button', { name: '← Retour à la liste' })
  back.focus()
  fireEvent.click(back)
  await screen.findByRole('listbox', { name: 'Courriers' })
  await waitFor(() => assert.is(document.activeElement, options()[2], 'the letter’s entry in the list'))
  assert.match(options()[2]!.textContent!, 'Greffe du tribunal')
})

Letters('the scan that failed: Réessayer shows it and the focus goes to the letter’s heading', async () => {
  const app = await open('/mes-courriers/courriers', { mailFails: ['file'] })
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  await within(viewer).findByText(
    'Le courrier numérisé n’a pas pu être chargé. Le service est momentanément indisponible. Réessayez dans quelques instants.',
  )
  const retry = within(viewer).getByRole('button', { name: 'Réessayer' })
  retry.focus()
  fireEvent.click(retry)
  await within(viewer).findByTitle('Courrier de URSSAF Île-de-France')
  assert.equal(app.calls.files, [21, 21])
  await waitFor(() =>
    assert.is(document.activeElement, within(viewer).getByRole('heading', { name: 'URSSAF Île-de-France' }), 'not <body>'),
  )
})

Letters("the e-mail's deep link opens its letter, switching to its order", async () => {
  const app = await renderApp('/mes-courriers/courriers?domiciliation=2&courrier=24', { signedIn: true, defaultOrder: 1, data })
  await waitFor(() => assert.is(app.session.getSnapshot().context.startup!.getSnapshot().context.selectedOrderId, 2))
  await waitFor(() => assert.is(options()[2]!.getAttribute('aria-selected'), 'true'))
  await screen.findByTitle('Courrier de Greffe du tribunal')
  await waitFor(() => assert.is(app.currentPath(), '/mes-courriers/courriers'))
})

Letters('a folder chosen for one company does not empty the list of the next one, nor come back with the first', async () => {
  const atelierLetter = F.letter(31, {
    orderId: 1,
    raisonSociale: 'Atelier Lumière SARL',
    sender: 'Impots Atelier',
    receivedAt: '2024-03-10T09:00:00.000Z',
  })
  const impotsFolder: Folder = { id: 9, name: 'Impôts', domiciliationOrderId: 1, documentCount: 0 }
  await open('/mes-courriers/courriers', {
    data: { ...data, documents: [...documents, atelierLetter], folders: [...folders, impotsFolder] },
  })
  await screen.findByRole('listbox', { name: 'Courriers' })
  const folderSelect = () => screen.getByRole('combobox', { name: 'Dossier' }) as HTMLSelectElement
  fireEvent.change(folderSelect(), { target: { value: '7' } })
  assert.is(options().length, 1)
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '1' } })
  await waitFor(() => assert.ok(screen.getAllByRole('option', { name: 'Impôts' }).length > 0))
  assert.is(folderSelect().selectedOptions[0]!.textContent, 'Tous les dossiers')
  assert.equal(
    options().map((o) => within(o).getByText('Impots Atelier').textContent),
    ['Impots Atelier'],
  )
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '2' } })
  await waitFor(() => assert.ok(screen.getAllByRole('option', { name: 'Banque' }).length > 0))
  await waitFor(() => assert.is(options().length, 3))
  assert.is(folderSelect().selectedOptions[0]!.textContent, 'Tous les dossiers')
})

Letters('the folders page’s link (?dossier=) shows that folder’s letters', async () => {
  await open('/mes-courriers/courriers?dossier=7')
  await waitFor(() =>
    assert.equal(
      options().map((o) => within(o).getByText(/BNP|URSSAF|Greffe/).textContent),
      ['BNP Paribas'],
    ),
  )
  assert.is((screen.getByRole('combobox', { name: 'Dossier' }) as HTMLSelectElement).selectedOptions[0]!.textContent, 'Banque')
})

Letters.run()

const Others = suite('/mes-courriers: réexpéditions, colis, dossiers, export')
Others.before.each(() => setViewport(1280))
Others.after.each(() => cleanup())

Others('colis: arrival date, carrier, sender, status; empty state', async () => {
  await open('/mes-courriers/colis')
  const list = await screen.findByRole('list', { name: 'Colis' })
  const rows = within(list).getAllByRole('listitem')
  assert.match(rows[0]!.textContent!, 'Colissimo')
  assert.match(rows[0]!.textContent!, 'de Moulins Bourgeois')
  assert.match(rows[0]!.textContent!, 'Arrivé le 11 mars 2024')
  assert.match(rows[0]!.textContent!, 'À retirer')
  cleanup()
  await open('/mes-courriers/colis', { data: { ...data, packages: [] } })
  await screen.findByText('Aucun colis pour le moment')
})

Others('colis: Réessayer after a failure; failed again, the focus on the new Réessayer; loaded, on the heading', async () => {
  const failNext: Resource[] = ['packages']
  const app = await open('/mes-courriers/colis', { failing: ['packages'], failNext })
  await screen.findByText(/momentanément indisponible/)
  let retry = screen.getByRole('button', { name: 'Réessayer' })
  retry.focus()
  fireEvent.click(retry)
  await waitFor(() => assert.is.not(screen.queryByRole('button', { name: 'Réessayer' }), retry))
  await waitFor(() => assert.is(document.activeElement, screen.getByRole('button', { name: 'Réessayer' }), 'the new Réessayer, not <body>'))
  retry = screen.getByRole('button', { name: 'Réessayer' })
  fireEvent.click(retry)
  await screen.findByRole('list', { name: 'Colis' })
  assert.is(app.calls.loads.filter((l) => l.resource === 'packages').length, 3)
  await waitFor(() => assert.is(document.activeElement, document.getElementById('packages-title'), 'the heading, not <body>'))
})

Others('colis: one collected at the desk says when and by whom', async () => {
  const collected = packages.map((p) =>
    p.status === 'Retiré' ? { ...p, collectedAt: '2026-12-03T10:30:00.000Z', collectedBy: 'Léa Fontaine' } : p,
  )
  await open('/mes-courriers/colis', { data: { ...data, packages: collected } })
  const rows = within(await screen.findByRole('list', { name: 'Colis' })).getAllByRole('listitem')
  assert.match(rows[1]!.textContent!, 'Retiré le 3 décembre 2026 par Léa Fontaine')
  assert.not.match(rows[0]!.textContent!, 'Retiré le', 'a package waiting says nothing of it')
})

Others('réexpéditions: one sent says by which carrier with its tracking link; one impossible says why', async () => {
  const processed: CourierRequest[] = [
    {
      ...requests[0]!,
      id: 7,
      status: 'traitée',
      outcome: {
        kind: 'expédiée',
        at: '2024-03-06T09:00:00.000Z',
        carrier: 'Colissimo',
        trackingNumber: '6A123456789',
        trackingUrl: 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A123456789',
      },
    },
    {
      ...requests[0]!,
      id: 8,
      status: 'traitée',
      outcome: { kind: 'impossible', at: '2024-03-07T09:00:00.000Z', reason: 'Le code postal de votre adresse de réexpédition manque.' },
    },
    {
      ...requests[0]!,
      id: 9,
      status: 'traitée',
      outcome: { kind: 'expédiée', at: '2024-03-08T09:00:00.000Z', carrier: 'Coursier Martin', trackingNumber: 'CM42', trackingUrl: null },
    },
  ]
  await open('/mes-courriers/reexpeditions', { data: { ...data, courierRequests: processed } })
  const rows = within(await screen.findByRole('list', { name: 'Demandes' })).getAllByRole('listitem')
  assert.match(rows[0]!.textContent!, 'Expédiée le 6 mars 2024 par Colissimo, suivi 6A123456789')
  const link = within(rows[0]!).getByRole('link', { name: '6A123456789' })
  assert.is(link.getAttribute('href'), 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A123456789')
  assert.is(link.getAttribute('rel'), 'noopener noreferrer')
  assert.match(rows[0]!.textContent!, 'Traitée')
  assert.match(rows[1]!.textContent!, 'Réexpédition impossible : Le code postal de votre adresse de réexpédition manque.')
  assert.match(rows[1]!.textContent!, 'Impossible')
  assert.match(rows[2]!.textContent!, 'par Coursier Martin, suivi CM42')
  assert.is(within(rows[2]!).queryByRole('link'), null, 'no link for a carrier without a tracking page we know')
})

Others('réexpéditions: cancelling a pending one asks first, then drops it', async () => {
  const app = await open('/mes-courriers/reexpeditions')
  const list = await screen.findByRole('list', { name: 'Demandes' })
  assert.is(within(list).getAllByRole('listitem').length, 2)
  assert.match(within(list).getAllByRole('listitem')[0]!.textContent!, '4 courriers')
  assert.is(within(list).getAllByRole('button', { name: /Annuler la demande/ }).length, 1, 'only the pending one')
  fireEvent.click(within(list).getByRole('button', { name: /Annuler la demande/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Annuler cette demande ?' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Garder la demande' }))
  assert.equal(app.calls.cancelled, [])
  fireEvent.click(within(list).getByRole('button', { name: /Annuler la demande/ }))
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Annuler la demande' }))
  await waitFor(() => assert.is(within(screen.getByRole('list', { name: 'Demandes' })).getAllByRole('listitem').length, 1))
  assert.equal(app.calls.cancelled, [{ orderId: 2, id: 5 }])
})

Others('réexpéditions: a cancel refused because the request was processed meanwhile says why, and the list is read again', async () => {
  const listed = structuredClone(requests)
  const app = await open('/mes-courriers/reexpeditions', { data: { ...data, courierRequests: listed }, mailFails: ['cancel'] })
  const list = await screen.findByRole('list', { name: 'Demandes' })
  fireEvent.click(within(list).getByRole('button', { name: /Annuler la demande/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Annuler cette demande ?' })
  listed[0] = { ...listed[0]!, status: 'traitée' } // the operator processes it meanwhile
  fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler la demande' }))
  await within(dialog).findByText('Seule une demande en attente peut être annulée.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Garder la demande' }))
  await waitFor(() =>
    assert.equal(within(screen.getByRole('list', { name: 'Demandes' })).queryAllByRole('button', { name: /Annuler la demande/ }), []),
  )
  assert.match(within(screen.getByRole('list', { name: 'Demandes' })).getAllByRole('listitem')[0]!.textContent!, 'Traitée')
  assert.is(app.calls.loads.filter((l) => l.resource === 'courierRequests').length, 2)
})

Others('dossiers: a folder deleted meanwhile elsewhere: the reason, and the folders are read again', async () => {
  const listed = [...folders]
  const app = await open('/mes-courriers/mes-dossiers', { data: { ...data, folders: listed }, mailFails: ['folder'] })
  fireEvent.click(await screen.findByRole('button', { name: 'Supprimer le dossier Banque' }))
  const dialog = await screen.findByRole('dialog')
  listed.splice(0, 1) // deleted in another tab
  fireEvent.click(within(dialog).getByRole('button', { name: 'Supprimer le dossier' }))
  await within(dialog).findByText('Dossier introuvable.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Garder le dossier' }))
  await waitFor(() => assert.not.ok(screen.queryByRole('button', { name: 'Supprimer le dossier Banque' })))
  assert.is(app.calls.loads.filter((l) => l.resource === 'folders').length, 2)
})

Others('dossiers: renaming a folder deleted meanwhile elsewhere: the reason; closed, the focus goes to the page’s heading', async () => {
  const listed = [...folders]
  const app = await open('/mes-courriers/mes-dossiers', { data: { ...data, folders: listed } })
  const rename = await screen.findByRole('button', { name: 'Renommer le dossier Banque' })
  rename.focus()
  fireEvent.click(rename)
  const dialog = await screen.findByRole('dialog', { name: 'Renommer « Banque »' })
  listed.splice(0, 1) // deleted in another tab
  fireEvent.change(within(dialog).getByLabelText('Nom du dossier'), { target: { value: 'Banque pro' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Renommer' }))
  await within(dialog).findByText('Dossier introuvable.')
  // The folders read again, the row (and 'Renommer', the dialog's opener) is gone.
  await waitFor(() => assert.not.ok(screen.queryByRole('button', { name: 'Renommer le dossier Banque' })))
  assert.is(app.calls.loads.filter((l) => l.resource === 'folders').length, 2)
  fireEvent.keyDown(dialog, { key: 'Escape' })
  await waitFor(() => assert.not.ok(screen.queryByRole('dialog')))
  assert.is(document.activeElement, document.getElementById('folders-title'), 'not <body>')
})

Others('dossiers: count, create, rename, delete (letters stay, unfiled)', async () => {
  const app = await open('/mes-courriers/mes-dossiers')
  const list = await screen.findByRole('list', { name: 'Dossiers' })
  assert.match(within(list).getAllByRole('listitem')[0]!.textContent!, '1 courrier')
  fireEvent.click(screen.getByRole('button', { name: 'Nouveau dossier' }))
  let dialog = await screen.findByRole('dialog', { name: 'Nouveau dossier' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Créer le dossier' }))
  await within(dialog).findByText('Donnez un nom au dossier.')
  fireEvent.change(within(dialog).getByLabelText('Nom du dossier'), { target: { value: 'Assurances' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Créer le dossier' }))
  await waitFor(() => assert.ok(screen.getByRole('list', { name: 'Dossiers' }).textContent!.includes('Assurances')))
  assert.equal(app.calls.folderSaves, [{ name: 'Assurances', domiciliationOrderId: 2 }])
  fireEvent.click(screen.getByRole('button', { name: 'Renommer le dossier Banque' }))
  dialog = await screen.findByRole('dialog', { name: 'Renommer « Banque »' })
  fireEvent.change(within(dialog).getByLabelText('Nom du dossier'), { target: { value: 'Banque et assurances' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Renommer' }))
  await screen.findByText('Banque et assurances')
  fireEvent.click(screen.getByRole('button', { name: 'Supprimer le dossier Banque et assurances' }))
  dialog = await screen.findByRole('dialog')
  within(dialog).getByText('Le courrier qu’il contient reste dans votre liste, sans dossier.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Supprimer le dossier' }))
  await waitFor(() => assert.not.ok(screen.queryByText('Banque et assurances')))
  assert.equal(app.calls.folderDeletes, [7])
  const data = app.session.getSnapshot().context.startup!.getSnapshot().children.data as {
    getSnapshot: () => { context: { documents: { id: number; folderId: number | null }[] } }
  }
  const letter = data.getSnapshot().context.documents.find((d) => d.id === 22)!
  assert.is(letter.folderId, null, 'its letter stays, unfiled')
})

Others('export comptable: the remembered address, progress, a clear result when it partly fails', async () => {
  const app = await open('/mes-courriers/export-comptable', { dextEmail: 'factures@dext.example.com', mailFails: ['dext'] })
  const email = await screen.findByLabelText('Adresse de votre boîte comptable (Dext)')
  assert.is((email as HTMLInputElement).value, 'factures@dext.example.com')
  localStorage.setItem('dextEmail', JSON.stringify({ [F.authUser.id + 1]: 'autre@dext.example.com' })) // another person's, kept
  fireEvent.click(await screen.findByRole('checkbox', { name: /Facture FA-2024-001/ }))
  fireEvent.click(await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ }))
  fireEvent.click(await screen.findByRole('button', { name: 'Envoyer 2 pièces à ma comptabilité' }))
  await screen.findByText('1 pièce envoyée à factures@dext.example.com.')
  screen.getByText('Facture FA-2024-001 : Facture introuvable.')
  assert.equal(app.calls.dextSends, [{ email: 'factures@dext.example.com', invoiceIds: [41], documentIds: [21] }])
  assert.equal(JSON.parse(localStorage.getItem('dextEmail')!), {
    [F.authUser.id + 1]: 'autre@dext.example.com',
    [F.authUser.id]: 'factures@dext.example.com',
  })
})

Others(
  'export comptable: « Tout sélectionner » picks a whole list, « Tout désélectionner » empties it, the other list untouched',
  async () => {
    const app = await open('/mes-courriers/export-comptable', { dextEmail: 'factures@dext.example.com' })
    const letters = await screen.findByRole('group', { name: 'Courriers' })
    const invoices = screen.getByRole('group', { name: 'Factures' })
    const checked = (list: HTMLElement) =>
      within(list)
        .getAllByRole('checkbox')
        .filter((c) => (c as HTMLInputElement).checked).length
    const letterCount = within(letters).getAllByRole('checkbox').length
    assert.ok(letterCount > 1, 'a list of several letters')
    fireEvent.click(within(invoices).getAllByRole('checkbox')[0]!)
    fireEvent.click(within(letters).getByRole('button', { name: 'Tout sélectionner (courriers)' }))
    assert.is(checked(letters), letterCount)
    assert.is(checked(invoices), 1, 'the invoice picked stays')
    await screen.findByRole('button', { name: `Envoyer ${letterCount + 1} pièces à ma comptabilité` })
    // All picked: the same button now empties this list only.
    fireEvent.click(within(letters).getByRole('button', { name: 'Tout désélectionner (courriers)' }))
    assert.is(checked(letters), 0)
    assert.is(checked(invoices), 1)
    // One box unticked by hand: « Tout sélectionner » again.
    fireEvent.click(within(letters).getByRole('button', { name: 'Tout sélectionner (courriers)' }))
    fireEvent.click(within(letters).getAllByRole('checkbox')[0]!)
    within(letters).getByRole('button', { name: 'Tout sélectionner (courriers)' })
    fireEvent.click(screen.getByRole('button', { name: `Envoyer ${letterCount} pièces à ma comptabilité` }))
    await screen.findByText(`${letterCount} pièces envoyées à factures@dext.example.com.`)
    assert.is(app.calls.dextSends.flatMap((s) => s.documentIds).length, letterCount - 1)
  },
)

Others('export comptable with « Tous »: each invoice and letter says whose company it is; with one company, none does', async () => {
  await open('/mes-courriers/export-comptable', { dextEmail: 'factures@dext.example.com' })
  const letter = await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ })
  assert.not.match(letter.closest('label')!.textContent!, 'Boulangerie des Lilas SAS')
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: 'all' } })
  await waitFor(() =>
    assert.match(
      screen.getByRole('checkbox', { name: /URSSAF Île-de-France/ }).closest('label')!.textContent!,
      /reçu le .* · Boulangerie des Lilas SAS$/,
    ),
  )
  assert.match(
    screen.getByRole('checkbox', { name: /Facture FA-2024-001/ }).closest('label')!.textContent!,
    /TTC · Boulangerie des Lilas SAS$/,
  )
})

Others('export comptable: the address another person kept on this browser is not offered', async () => {
  await open('/mes-courriers/export-comptable', { dextEmail: 'leur-comptable@dext.example.com', dextEmailOf: F.authUser.id + 1 })
  const email = await screen.findByLabelText('Adresse de votre boîte comptable (Dext)')
  assert.is((email as HTMLInputElement).value, '')
})

Others('export comptable: what was picked for one company is not sent once another is picked in the header', async () => {
  const atelierLetter = F.letter(31, {
    orderId: 1,
    raisonSociale: 'Atelier Lumière SARL',
    sender: 'Impots Atelier',
    receivedAt: '2024-03-10T09:00:00.000Z',
  })
  const app = await open('/mes-courriers/export-comptable', {
    dextEmail: 'factures@dext.example.com',
    data: { ...data, documents: [...documents, atelierLetter] },
  })
  fireEvent.click(await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ }))
  fireEvent.click(await screen.findByRole('checkbox', { name: /Facture FA-2024-001/ }))
  await screen.findByRole('button', { name: 'Envoyer 2 pièces à ma comptabilité' })
  fireEvent.change(screen.getByRole('combobox', { name: /Domiciliation/ }), { target: { value: '1' } })
  await screen.findByRole('checkbox', { name: /Impots Atelier/ })
  assert.equal(
    screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked),
    [],
  )
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer à ma comptabilité' }))
  await screen.findByText('Choisissez au moins une facture ou un courrier à envoyer.')
  assert.equal(app.calls.dextSends, [])
})

Others.run()

const Dashboard = suite('/tableau-de-bord')
Dashboard.before.each(() => setViewport(1280))
Dashboard.after.each(() => cleanup())

Dashboard("greeting, unread count and the latest letters, packages waiting, pending requests, and 'Régler'", async () => {
  const app = await open('/tableau-de-bord', { unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 } })
  await screen.findByText('Bonjour Camille')
  const unread = screen.getByRole('region', { name: 'Courriers non lus' })
  await within(unread).findByText('2')
  assert.equal(
    within(within(unread).getByRole('list'))
      .getAllByRole('link')
      .map((l) => l.getAttribute('href')),
    [
      '/mes-courriers/courriers?domiciliation=2&courrier=21',
      '/mes-courriers/courriers?domiciliation=2&courrier=22',
      '/mes-courriers/courriers?domiciliation=2&courrier=24',
    ],
  )
  within(screen.getByRole('region', { name: 'Colis à retirer' })).getByText('1')
  within(screen.getByRole('region', { name: 'Réexpéditions en attente' })).getByText('1')
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  within(banner).getByText(/Une facture est impayée/)
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await waitFor(() => assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null))
  // What the banner shows: every order the user owns (the status counts them all), at the total shown.
  assert.equal(app.calls.payments, [{ orderId: null, expectedAmountInclTaxCents: 3480 }])
  assert.ok(app.calls.notices.some((n) => n.kind === 'success' && n.message === '1 facture réglée.'))
})

Dashboard("'Régler' with an order shown that owes nothing pays what the banner shows (another order’s invoice)", async () => {
  const app = await open('/tableau-de-bord', {
    defaultOrder: F.atelier.id,
    unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 34800 },
  })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await waitFor(() => assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null))
  assert.equal(app.calls.payments, [{ orderId: null, expectedAmountInclTaxCents: 34800 }])
})

Dashboard("'Régler' after a new invoice the banner does not show yet: nothing paid, the banner shows the new total and why", async () => {
  const unpaid = { hasUnpaid: true, count: 1, amountInclTaxCents: 34800 }
  const app = await open('/tableau-de-bord', { unpaid })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  Object.assign(unpaid, { count: 2, amountInclTaxCents: 38280 })
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await within(banner).findByText(/2 factures sont impayées \(382,80\s€ TTC\)\. Le montant à régler a changé/)
  assert.equal(
    app.calls.notices.filter((n) => n.kind === 'success'),
    [],
  )
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await waitFor(() => assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null))
  assert.equal(
    app.calls.payments.map((p) => p.expectedAmountInclTaxCents),
    [34800, 38280],
  )
})

Dashboard('the unpaid status cannot be read: said, with Réessayer, which shows the banner', async () => {
  await open('/tableau-de-bord', { unpaidStatusFails: 1, unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 34800 } })
  const failure = await screen.findByText('L’état de vos factures n’a pas pu être vérifié. Le service est momentanément indisponible.')
  fireEvent.click(within(failure.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Réessayer' }))
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  within(banner).getByText(/Une facture est impayée/)
  assert.is(screen.queryByText(/n’a pas pu être vérifié/), null)
})

Dashboard("'Régler' without a card: the reason and the way to /moyen-de-paiement in the banner", async () => {
  await open('/tableau-de-bord', { unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 34800 }, mailFails: ['pay'] })
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Régler' })))
  await within(banner).findByText(/Aucune carte enregistrée/)
  assert.is(within(banner).getByRole('link', { name: 'Enregistrer une carte' }).getAttribute('href'), '/moyen-de-paiement')
})

Dashboard('no unpaid invoice: no banner; an error in a list offers Réessayer', async () => {
  await open('/tableau-de-bord', { failing: ['packages'] })
  await screen.findByText('Bonjour Camille')
  const packagesCard = screen.getByRole('region', { name: 'Colis à retirer' })
  fireEvent.click(await within(packagesCard).findByRole('button', { name: 'Réessayer' }))
  await within(packagesCard).findByText('1')
  assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null)
})

Dashboard('news from the server: a card keeps its letters while its list is read again, then shows the new one', async () => {
  const letters = [...documents]
  const pending: Resource[] = []
  const app = await open('/tableau-de-bord', { data: { ...data, documents: letters }, pending })
  const unread = screen.getByRole('region', { name: 'Courriers non lus' })
  await within(unread).findByText('2')
  const links = () =>
    within(within(unread).getByRole('list'))
      .getAllByRole('link')
      .map((l) => l.textContent)
  // Read again, and the answer is slow: the card does not fall back to a spinner (nothing jumps).
  pending.push('documents')
  letters.unshift(impots)
  await letterArrives(app, 25)
  await waitFor(() => assert.is(app.calls.loads.filter((l) => l.resource === 'documents').length, 2))
  assert.not.ok(within(unread).queryByText('Chargement : vos courriers…'))
  assert.equal(links(), ['URSSAF Île-de-France', 'BNP Paribas', 'Greffe du tribunal'])
  screen.getByText('Chargement des données de la domiciliation…')
  // Another letter meanwhile: the list is read again from the start, and this time it answers.
  pending.length = 0
  await letterArrives(app, 25)
  await within(unread).findByText('3')
  assert.equal(links(), ['Impots.gouv', 'URSSAF Île-de-France', 'BNP Paribas', 'Greffe du tribunal'])
  within(screen.getByRole('region', { name: 'Colis à retirer' })).getByText('1')
})

Dashboard('a new invoice (the bell’s news): the unpaid banner appears, then says what is due now, shown while asked again', async () => {
  // The status the fake API answers, at once or held back: it returns whatever the scenario holds, and a thenable is
  // awaited like a promise (services.tsx has no 'pending' for this call).
  const unpaid = {
    status: { hasUnpaid: false, count: 0, amountInclTaxCents: 0 },
    held: [] as (() => void)[],
    hold: false,
    // biome-ignore lint/suspicious/noThenProperty: a thenable the test releases when it chooses
    then(resolve: (status: NonNullable<Scenario['unpaid']>) => void) {
      if (this.hold) this.held.push(() => resolve(this.status))
      else resolve(this.status)
    },
  }
  const app = await open('/tableau-de-bord', { unpaid: unpaid as unknown as Scenario['unpaid'] })
  const unread = await screen.findByRole('region', { name: 'Courriers non lus' })
  await within(unread).findByText('2')
  assert.is(screen.queryByRole('region', { name: 'Factures impayées' }), null)
  const invoiceIssued = () =>
    act(async () =>
      app.calls.live!.push({
        id: ++noticeId,
        kind: 'invoice',
        orderId: 2,
        title: 'Nouvelle facture',
        body: 'Facture FA-2024-002 : 34,80 € TTC',
        createdAt: new Date().toISOString(),
        read: false,
        link: '/factures',
      }),
    )
  await waitFor(() => assert.ok(app.calls.live, 'the bell follows the live stream'))
  unpaid.status = { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 }
  await invoiceIssued()
  const banner = await screen.findByRole('region', { name: 'Factures impayées' })
  assert.match(banner.textContent!.replace(/[\u00a0\u202f]/g, ' '), 'Une facture est impayée (34,80 € TTC).')
  // Another one, the answer slow: the banner stays as it was meanwhile, and nothing below it moves.
  unpaid.hold = true
  unpaid.status = { hasUnpaid: true, count: 2, amountInclTaxCents: 6960 }
  await invoiceIssued()
  await waitFor(() => assert.is(unpaid.held.length, 1, 'asked again'))
  assert.ok(banner.isConnected)
  assert.match(banner.textContent!, 'Une facture est impayée')
  assert.is(screen.queryByText(/^Chargement : vos courriers, colis/), null)
  within(unread).getByText('2')
  await act(async () => unpaid.held.shift()!())
  await waitFor(() => assert.match(banner.textContent!.replace(/[\u00a0\u202f]/g, ' '), '2 factures sont impayées (69,60 € TTC).'))
  assert.ok(banner.isConnected, 'the same banner, updated in place')
})

Dashboard.run()
