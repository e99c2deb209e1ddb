// A sending the customer started goes on when they leave its page, and its outcome reaches them: the accounting
// export (kept for the session, wiring/kept.ts), 'Envoyer par e-mail' and the other writes (their call not aborted
// with the page, wiring/outlive.ts; each write's telling: outlive.test.tsx).
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Invoice } from '../../../server/contract/billing.ts'
import type { Package } from '../../../server/contract/mail.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'

const documents = [
  F.letter(21, { sender: 'URSSAF Île-de-France', kind: 'administratif', receivedAt: '2024-03-12T09:00:00.000Z' }),
  F.letter(22, { sender: 'BNP Paribas', read: true, receivedAt: '2024-03-10T09:00:00.000Z' }),
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
const EXPORT = '/mes-courriers/export-comptable'

/** A call held until `release()`: what happens while it runs. */
function holdCall() {
  let release!: () => void
  const promise = new Promise<void>((resolve) => (release = resolve))
  return { promise, release: () => act(async () => release()) }
}

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
]
const open = (path: string, scenario: Scenario = {}) =>
  renderApp(path, {
    signedIn: true,
    defaultOrder: 2,
    data: { documents, invoices, packages },
    dextEmail: 'factures@dext.example.com',
    ...scenario,
  })
type App = Awaited<ReturnType<typeof open>>

const go = (app: App, path: string) => act(async () => app.location.navigate(path))

/** Ticks the invoice and the URSSAF letter, and sends them. */
async function startExport() {
  fireEvent.click(await screen.findByRole('checkbox', { name: /Facture FA-2024-001/ }))
  fireEvent.click(await screen.findByRole('checkbox', { name: /URSSAF Île-de-France/ }))
  fireEvent.click(await screen.findByRole('button', { name: 'Envoyer 2 pièces à ma comptabilité' }))
  await screen.findByText('Envoi en cours : 0 / 2 pièces')
}

const exportNotices = (app: App) => app.calls.notices.filter((n) => /export comptable/i.test(n.message))

const Export = suite('export comptable: left while it runs')
Export.before.each(() => setViewport(1280))
Export.after.each(() => cleanup())

Export('it goes on: a toast says how it ended, coming back shows the result once, then a new export', async () => {
  const call = holdCall()
  const app = await open(EXPORT, { held: { sendDextInvoices: call.promise } })
  await startExport()
  await go(app, '/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  await call.release()
  await waitFor(() =>
    assert.equal(exportNotices(app), [
      { kind: 'success', message: 'Export comptable terminé : 2 pièces envoyées à factures@dext.example.com.' },
    ]),
  )
  assert.equal(app.calls.dextSends, [{ email: 'factures@dext.example.com', invoiceIds: [41], documentIds: [21] }])
  await go(app, EXPORT)
  await screen.findByText('2 pièces envoyées à factures@dext.example.com.')
  // Seen: the next visit starts afresh, as before.
  await go(app, '/tableau-de-bord')
  await go(app, EXPORT)
  await screen.findByRole('button', { name: 'Envoyer à ma comptabilité' })
  assert.is(screen.queryByText('2 pièces envoyées à factures@dext.example.com.'), null)
  assert.is(exportNotices(app).length, 1)
})

Export('partly failed: the toast says how many were not sent and links to the page, which lists them', async () => {
  const call = holdCall()
  const app = await open(EXPORT, { held: { sendDextInvoices: call.promise }, mailFails: ['dext'] })
  await startExport()
  await go(app, '/mes-courriers/courriers')
  await screen.findByRole('listbox', { name: 'Courriers' })
  await call.release()
  await waitFor(() =>
    assert.equal(exportNotices(app), [
      {
        kind: 'error',
        message: 'Export comptable terminé : 1 pièce envoyée à factures@dext.example.com, 1 n’a pas pu l’être.',
        link: { to: EXPORT, label: 'Voir le détail' },
      },
    ]),
  )
  await go(app, EXPORT)
  await screen.findByText('Facture FA-2024-001 : Facture introuvable.')
  // What failed is still picked, ready to go again.
  fireEvent.click(screen.getByRole('button', { name: 'Revenir à la sélection' }))
  await screen.findByRole('button', { name: 'Envoyer 1 pièce à ma comptabilité' })
})

Export('coming back while it runs: its progress, then its result on the page, and no toast', async () => {
  const call = holdCall()
  const app = await open(EXPORT, { held: { sendDextInvoices: call.promise } })
  await startExport()
  await go(app, '/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  await go(app, EXPORT)
  await screen.findByText('Envoi en cours : 0 / 2 pièces')
  assert.ok((screen.getByRole('checkbox', { name: /Facture FA-2024-001/ }) as HTMLInputElement).checked, 'what is being sent shows')
  await call.release()
  await screen.findByText('2 pièces envoyées à factures@dext.example.com.')
  assert.equal(exportNotices(app), [], 'shown on the page: no toast')
  assert.equal(app.calls.dextSends.length, 1, 'sent once')
})

Export('a sign-out stops it: nothing more is sent, no toast, and whoever signs in next gets a new export', async () => {
  const call = holdCall()
  const app = await open(EXPORT, { held: { sendDextInvoices: call.promise } })
  await startExport()
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await call.release()
  assert.equal(app.calls.dextSends, [], 'the batch under way was aborted')
  assert.equal(exportNotices(app), [])
  await act(async () =>
    app.session.send({ type: 'session.signedIn', user: { ...F.authUser, id: F.authUser.id + 1, apiToken: 'tok_other' }, orderId: 2 }),
  )
  await go(app, EXPORT)
  await screen.findByRole('button', { name: 'Envoyer à ma comptabilité' })
  assert.is(screen.queryByText(/Envoi en cours/), null)
})

Export.run()

const Send = suite('envoyer par e-mail: the letters page left while it sends')
Send.before.each(() => setViewport(1280))
Send.after.each(() => cleanup())

/** Opens 'Envoyer par e-mail' on the first letter, for comptable@example.com, and sends. */
async function startSending() {
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' })
  fireEvent.click(within(viewer).getByRole('button', { name: 'Envoyer par e-mail' }))
  const dialog = await screen.findByRole('dialog', { name: 'Envoyer par e-mail' })
  fireEvent.change(within(dialog).getByLabelText('Destinataire (adresse e-mail)'), { target: { value: 'comptable@example.com' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer le courrier' }))
  await within(dialog).findByText('Envoi…')
}

const sendNotices = (app: App) => app.calls.notices.filter((n) => /Envoyé à|e-mail/.test(n.message))

Send('the call is not aborted: it reaches the server, and a toast gives its answer', async () => {
  const call = holdCall()
  const app = await open('/mes-courriers/courriers', { held: { sendDocuments: call.promise } })
  await startSending()
  await go(app, '/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  await call.release()
  await waitFor(() => assert.equal(sendNotices(app), [{ kind: 'success', message: 'Envoyé à comptable@example.com.' }]))
  assert.equal(app.calls.sentDocuments, [{ email: 'comptable@example.com', documentIds: [21] }])
})

Send('refused once the page is gone: the toast says what failed and why', async () => {
  const call = holdCall()
  const app = await open('/mes-courriers/courriers', { held: { sendDocuments: call.promise }, mailFails: ['send'] })
  await startSending()
  await go(app, '/mes-courriers/colis')
  await screen.findByText('Colissimo')
  await call.release()
  await waitFor(() =>
    assert.equal(sendNotices(app), [
      { kind: 'error', message: 'L’envoi par e-mail n’a pas abouti. Le service est momentanément indisponible.' },
    ]),
  )
})

Send('the page still there: one toast on success, and a failure stays in the form (no toast)', async () => {
  let call = holdCall()
  const app = await open('/mes-courriers/courriers', { held: { sendDocuments: call.promise } })
  await startSending()
  await call.release()
  await waitFor(() => assert.is(screen.queryByRole('dialog', { name: 'Envoyer par e-mail' }), null))
  await waitFor(() => assert.equal(sendNotices(app), [{ kind: 'success', message: 'Envoyé à comptable@example.com.' }]))
  cleanup()
  call = holdCall()
  const failing = await open('/mes-courriers/courriers', { held: { sendDocuments: call.promise }, mailFails: ['send'] })
  await startSending()
  await call.release()
  await within(screen.getByRole('dialog', { name: 'Envoyer par e-mail' })).findByText('Le service est momentanément indisponible.')
  assert.equal(sendNotices(failing), [])
})

Send('signed out meanwhile: the e-mail still goes, but no toast (the next person must not see it)', async () => {
  const call = holdCall()
  const app = await open('/mes-courriers/courriers', { held: { sendDocuments: call.promise } })
  await startSending()
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  await call.release()
  await waitFor(() => assert.is(app.calls.sentDocuments.length, 1))
  await act(async () => new Promise((resolve) => setTimeout(resolve, 10)))
  assert.equal(sendNotices(app), [])
})

Send.run()

const Folder = suite('a folder created, the folders page left before the answer')
Folder.before.each(() => setViewport(1280))
Folder.after.each(() => cleanup())

/** Opens 'Nouveau dossier' on /mes-courriers/mes-dossiers, names it Assurances, and creates it. */
async function startCreating() {
  fireEvent.click(await screen.findByRole('button', { name: 'Nouveau dossier' }))
  const dialog = await screen.findByRole('dialog', { name: 'Nouveau dossier' })
  fireEvent.change(within(dialog).getByLabelText('Nom du dossier'), { target: { value: 'Assurances' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Créer le dossier' }))
}

Folder('it is created, a toast says so, and the folders shown elsewhere include it', async () => {
  const call = holdCall()
  const app = await open('/mes-courriers/mes-dossiers', {
    held: { createFolder: call.promise },
    data: { documents, invoices, packages, folders: [] },
  })
  await startCreating()
  await go(app, '/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  await call.release()
  await waitFor(() =>
    assert.equal(
      app.calls.notices.filter((n) => /dossier/.test(n.message)),
      [{ kind: 'success', message: 'Le dossier a été créé.' }],
    ),
  )
  assert.equal(app.calls.folderSaves, [{ name: 'Assurances', domiciliationOrderId: 2 }], 'sent, not aborted')
  await go(app, '/mes-courriers/mes-dossiers')
  await waitFor(() => assert.ok(screen.getByRole('list', { name: 'Dossiers' }).textContent!.includes('Assurances')))
})

Folder('refused once the page is gone: the toast says what failed and why', async () => {
  const call = holdCall()
  const app = await open('/mes-courriers/mes-dossiers', {
    held: { createFolder: call.promise },
    mailFails: ['folder'],
    data: { documents, invoices, packages, folders: [] },
  })
  await startCreating()
  await go(app, '/tableau-de-bord')
  await screen.findByText('Bonjour Camille')
  await call.release()
  await waitFor(() =>
    assert.equal(
      app.calls.notices.filter((n) => /dossier/.test(n.message)),
      [{ kind: 'error', message: 'Le dossier n’a pas été créé. Un dossier porte déjà ce nom pour cette domiciliation.' }],
    ),
  )
})

Folder.run()
