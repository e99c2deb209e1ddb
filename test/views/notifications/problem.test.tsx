import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp } from '../../util/services.tsx'

async function openProblem() {
  fireEvent.click(
    within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('button', { name: 'Signaler un problème' }),
  )
  return screen.findByRole('dialog', { name: 'Signaler un problème' })
}

const Problem = suite('problem modal (spec §2, §5, §8)')
Problem.before.each(() => setViewport(1280))
Problem.after.each(() => cleanup())

Problem("'Signaler un problème', 'Votre message', 'Envoyer'; with 'Tous' it is refused and nothing is sent", async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 'all' })
  await screen.findByText('Bonjour Camille')
  const dialog = within(await openProblem())
  fireEvent.change(dialog.getByLabelText('Votre message'), { target: { value: 'Une lettre manque.' } })
  fireEvent.click(dialog.getByRole('button', { name: 'Envoyer' }))
  await waitFor(() => assert.equal(app.calls.notices, [{ kind: 'error', message: 'Veuillez sélectionner une commande spécifique' }]))
  assert.equal(app.calls.problems, [])
  assert.is((dialog.getByLabelText('Votre message') as HTMLTextAreaElement).value, 'Une lettre manque.')
})

Problem('with an order it is sent, the success toast shows, the box is cleared', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
  await screen.findByText('Bonjour Camille')
  const dialog = within(await openProblem())
  dialog.getByText('Votre message concerne Boulangerie des Lilas SAS.')
  fireEvent.change(dialog.getByLabelText('Votre message'), { target: { value: 'Une lettre manque.' } })
  fireEvent.click(dialog.getByRole('button', { name: 'Envoyer' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.equal(app.calls.problems, [{ orderId: F.boulangerie.id, message: 'Une lettre manque.' }])
  assert.equal(app.calls.notices, [{ kind: 'success', message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' }])
  const reopened = within(await openProblem())
  assert.is((reopened.getByLabelText('Votre message') as HTMLTextAreaElement).value, '')
})

Problem('a failed send keeps the message and says why', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id, problemFails: true })
  await screen.findByText('Bonjour Camille')
  const dialog = within(await openProblem())
  fireEvent.change(dialog.getByLabelText('Votre message'), { target: { value: 'Une lettre manque.' } })
  fireEvent.click(dialog.getByRole('button', { name: 'Envoyer' }))
  await waitFor(() => assert.equal(app.calls.notices, [{ kind: 'error', message: 'Le service est momentanément indisponible.' }]))
  assert.is((dialog.getByLabelText('Votre message') as HTMLTextAreaElement).value, 'Une lettre manque.')
})

Problem(
  'on a phone, opened from the drawer (closed and inert meanwhile): once sent, the focus is on "Ouvrir le menu"; on a desktop, back on "Signaler un problème"',
  async () => {
    setViewport(360, 740)
    await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
    await screen.findByText('Bonjour Camille')
    fireEvent.click(screen.getByRole('button', { name: 'Ouvrir le menu' }))
    const report = within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('button', {
      name: 'Signaler un problème',
    })
    report.focus()
    fireEvent.click(report)
    const dialog = within(await screen.findByRole('dialog', { name: 'Signaler un problème' }))
    assert.ok(report.closest('[inert]'), 'the drawer closed: its button takes no focus')
    fireEvent.change(dialog.getByLabelText('Votre message'), { target: { value: 'Une lettre manque.' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Envoyer' }))
    await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
    // An inert element takes no focus (happy-dom too): without the fallback it fell to <body>.
    await waitFor(() =>
      assert.ok(
        document.activeElement === screen.getByRole('button', { name: 'Ouvrir le menu' }),
        `the focus is on ${document.activeElement?.tagName} « ${document.activeElement?.textContent} »`,
      ),
    )
    cleanup()
    setViewport(1280)
    await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: F.boulangerie.id })
    await screen.findByText('Bonjour Camille')
    const desk = within(screen.getByRole('complementary', { name: 'Menu principal' })).getByRole('button', { name: 'Signaler un problème' })
    desk.focus()
    fireEvent.click(desk)
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Signaler un problème' })).getByRole('button', { name: 'Fermer' }))
    await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
    await waitFor(() => assert.ok(document.activeElement === desk, 'the opener, still usable'))
  },
)

Problem.run()
