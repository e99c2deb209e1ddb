// A sending the customer started goes on when they leave its page, and its outcome reaches them: 'Envoyer par
// e-mail' (its call not aborted with the page, wiring/left-behind.ts).
import '../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Invoice, Package } from '../../server/contract/schemas.ts'
import * as F from '../util/fixtures.ts'
import { setViewport } from '../util/dom.ts'
import { renderApp, type Scenario } from '../util/services.tsx'

const documents = [
  F.letter(21, { sender: 'URSSAF Île-de-France', kind: 'administratif', receivedAt: '2024-03-12T09:00:00.000Z' }),
  F.letter(22, { sender: 'BNP Paribas', read: true, receivedAt: '2024-03-10T09:00:00.000Z' }),
]
const invoices: Invoice[] = [
  { id: 41, domId: 2, raisonSociale: 'Boulangerie des Lilas SAS', number: 'FA-2024-001', date: '2024-03-01T10:00:00.000Z', amountExclTaxCents: 2900, amountInclTaxCents: 3480, paid: true },
]
/** A call held until `release()`: what happens while it runs. */
function holdCall() {
  let release!: () => void
  const promise = new Promise<void>((resolve) => (release = resolve))
  return { promise, release: () => act(async () => release()) }
}

const packages: Package[] = [
  { id: 1, orderId: 2, raisonSociale: 'Boulangerie des Lilas SAS', receivedAt: '2024-03-11T11:00:00.000Z', carrier: 'Colissimo', sender: 'Moulins Bourgeois', status: 'À retirer' },
]
const open = (path: string, scenario: Scenario = {}) =>
  renderApp(path, { signedIn: true, defaultOrder: 2, data: { documents, invoices, packages }, ...scenario })
type App = Awaited<ReturnType<typeof open>>

const go = (app: App, path: string) => act(async () => app.location.navigate(path))

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
  await waitFor(() => assert.equal(sendNotices(app), [{ kind: 'error', message: 'L’envoi par e-mail n’a pas abouti. Le service est momentanément indisponible.' }]))
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
