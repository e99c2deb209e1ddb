import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BRAND_NAME } from '../../../src/wiring/config.ts'
import { KBIS_FAILED, KBIS_NOT_PDF, KBIS_SUCCESS } from '../../../src/machines/company/kbisUpload.machine.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp } from '../../util/services.tsx'

const banner = () => screen.queryByRole('region', { name: 'Justificatif d’immatriculation' })
const kbisInput = () => document.querySelector<HTMLInputElement>('input[type="file"][accept=".pdf"]')!
const pdf = () => new File(['%PDF-1.7\n'], 'kbis.pdf', { type: 'application/pdf' })

async function openModal() {
  fireEvent.click(within(banner()!).getByRole('button', { name: 'Je dépose mon Kbis' }))
  return screen.findByRole('dialog', { name: 'Déposer mon justificatif' })
}

const Kbis = suite('Kbis banner and upload modal (spec §2, §4, §5)')
Kbis.before.each(() => setViewport(1280))
Kbis.after.each(() => cleanup())

Kbis("shown for an order 'En attente de KBIS' without its Kbis, with both buttons", async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id })
  await screen.findByText('Bonjour Camille')
  const region = within(banner()!)
  region.getByText(/notre équipe a besoin de votre extrait Kbis ou de votre avis de situation INSEE/)
  region.getByRole('button', { name: `J'ai mon justificatif d'immatriculation chez ${BRAND_NAME}` })
  region.getByRole('button', { name: 'Je dépose mon Kbis' })
})

Kbis("also for 'En attente de procuration'; hidden for a finalised order, an order with its Kbis, and 'Tous'", async () => {
  await renderApp('/tableau-de-bord', {
    signedIn: true,
    defaultOrder: 9,
    orders: [{ ...F.atelier, id: 9, status: 'En attente de procuration' }, F.boulangerie],
  })
  await screen.findByText('Bonjour Camille')
  assert.ok(banner())
  cleanup()
  for (const defaultOrder of [F.boulangerie.id, 'all' as const]) {
    await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder })
    await screen.findByText('Bonjour Camille')
    assert.is(banner(), null)
    cleanup()
  }
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 1, orders: [{ ...F.atelier, hasKbis: true }, F.boulangerie] })
  await screen.findByText('Bonjour Camille')
  assert.is(banner(), null)
})

Kbis('refused by the provider: the banner comes back with the reason, for a spec status and for any other', async () => {
  const refusal = { at: '2026-11-20T10:00:00.000Z', reason: 'illisible' as const, detail: null }
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id, orders: [{ ...F.atelier, kbisRefusal: refusal }] })
  await screen.findByText('Bonjour Camille')
  within(banner()!).getByText('Votre Kbis a été refusé : document illisible. Déposez-en un autre.')
  within(banner()!).getByRole('button', { name: 'Je dépose mon Kbis' })
  cleanup()
  // A finalised order whose Kbis was refused: the new state shows the banner; the spec's statuses show it as before.
  const finalised = {
    ...F.boulangerie,
    hasKbis: false,
    kbisRefusal: { ...refusal, reason: 'autre' as const, detail: 'Le SIREN ne correspond pas.' },
  }
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: finalised.id, orders: [finalised] })
  await screen.findByText('Bonjour Camille')
  within(banner()!).getByText('Votre Kbis a été refusé : Le SIREN ne correspond pas. Déposez-en un autre.')
  cleanup()
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id, orders: [{ ...F.atelier, hasKbis: false }] })
  await screen.findByText('Bonjour Camille')
  assert.not.ok(within(banner()!).queryByText(/a été refusé/), 'no refusal, no reason')
})

Kbis('either banner button opens the modal; Non closes it and the banner stays', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id })
  await screen.findByText('Bonjour Camille')
  fireEvent.click(within(banner()!).getByRole('button', { name: /J'ai mon justificatif/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Déposer mon justificatif' })
  within(dialog).getByText(new RegExp(`l’adresse de domiciliation chez ${BRAND_NAME}`))
  fireEvent.click(within(dialog).getByRole('button', { name: 'Non' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.ok(banner())
})

Kbis("'Oui' opens a chooser that accepts only .pdf; a PDF is sent and the banner disappears", async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id })
  await screen.findByText('Bonjour Camille')
  const dialog = await openModal()
  let chooserOpened = 0
  kbisInput().addEventListener('click', () => chooserOpened++)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Oui' }))
  assert.is(chooserOpened, 1, 'the file chooser opens within the click')
  assert.is(kbisInput().getAttribute('accept'), '.pdf')
  fireEvent.change(kbisInput(), { target: { files: [pdf()] } })
  // The real wiring reads the file (FileReader) before sending: give a loaded machine more than the default second.
  await waitFor(() => assert.is(banner(), null), { timeout: 5000 })
  // The real wiring sends the chosen PDF as a data URL (spec §3).
  assert.equal(
    app.calls.kbisUploads.map((u) => u.contractId),
    [F.atelier.contractId],
  )
  assert.match(app.calls.kbisUploads[0]!.kbis, /^data:application\/pdf;base64,/)
  assert.equal(app.calls.notices, [{ kind: 'success', message: KBIS_SUCCESS }])
  const startup = app.session.getSnapshot().context.startup!
  assert.ok(startup.getSnapshot().context.orders.find((o) => o.id === F.atelier.id)!.hasKbis)
})

Kbis('a file that is not a PDF is refused in French and nothing is sent', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id })
  await screen.findByText('Bonjour Camille')
  const dialog = await openModal()
  fireEvent.click(within(dialog).getByRole('button', { name: 'Oui' }))
  fireEvent.change(kbisInput(), { target: { files: [new File(['x'], 'kbis.png', { type: 'image/png' })] } })
  await within(dialog).findByText(KBIS_NOT_PDF)
  assert.equal(app.calls.kbisUploads, [])
  assert.ok(banner())
})

Kbis('a null answer is a failure: the banner stays, hasKbis unchanged, the customer is told', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.atelier.id, kbisAnswer: null })
  await screen.findByText('Bonjour Camille')
  const dialog = await openModal()
  fireEvent.click(within(dialog).getByRole('button', { name: 'Oui' }))
  fireEvent.change(kbisInput(), { target: { files: [pdf()] } })
  await within(dialog).findByText(KBIS_FAILED)
  assert.is(app.calls.kbisUploads.length, 1)
  fireEvent.keyDown(dialog, { key: 'Escape' })
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.ok(banner())
  const startup = app.session.getSnapshot().context.startup!
  assert.is(startup.getSnapshot().context.orders.find((o) => o.id === F.atelier.id)!.hasKbis, false)
})

Kbis.run()
