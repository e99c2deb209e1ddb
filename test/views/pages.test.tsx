import '../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { IDENTITY_DONE, IDENTITY_STILL_INCOMPLETE, IDENTITY_WRONG_TYPE } from '../../src/machines/company/identityUpload.machine.ts'
import { RESET_REQUESTED } from '../../src/views/pages/session/ResetPasswordPage.tsx'
import { MAYBE_SAVED, PASSWORD_CHANGED } from '../../src/machines/session/submission.machine.ts'
import { PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from '../../src/machines/passwordRule.ts'
import * as F from '../util/fixtures.ts'
import { setViewport } from '../util/dom.ts'
import { renderApp } from '../util/services.tsx'

const Login = suite('/login (PRODUCT.md)')
Login.before.each(() => setViewport(1280))
Login.after.each(() => cleanup())

Login('e-mail, password, Se connecter, Mot de passe oublié ?', async () => {
  await renderApp('/login')
  await screen.findByLabelText('Adresse e-mail')
  screen.getByLabelText('Mot de passe')
  screen.getByRole('button', { name: 'Se connecter' })
  assert.is(screen.getByRole('link', { name: 'Mot de passe oublié ?' }).getAttribute('href'), '/reset-password')
})

Login('empty fields are told in French and nothing is sent', async () => {
  const app = await renderApp('/login')
  fireEvent.click(await screen.findByRole('button', { name: 'Se connecter' }))
  await screen.findByText('Saisissez votre adresse e-mail.')
  screen.getByText('Saisissez votre mot de passe.')
  assert.ok(app.session.getSnapshot().matches('signedOut'))
})

Login("wrong credentials: 'Identifiants incorrects', and the e-mail typed stays", async () => {
  await renderApp('/login')
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'mauvais' } })
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await screen.findByText('Identifiants incorrects')
  assert.is((screen.getByLabelText('Adresse e-mail') as HTMLInputElement).value, 'demo@example.com')
})

Login('success stores the user object and opens the portal', async () => {
  const app = await renderApp('/login')
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'demo@example.com' } })
  fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
  assert.is(app.currentPath(), '/tableau-de-bord')
  assert.is(JSON.parse(localStorage.getItem('user')!).apiToken, F.authUser.apiToken)
})

Login.run()

const Passwords = suite('/reset-password and /set-password/:token (PRODUCT.md)')
Passwords.after.each(() => cleanup())

/** /set-password: a good new password typed twice and sent. */
async function sendNewPassword() {
  fireEvent.change(await screen.findByLabelText('Nouveau mot de passe'), { target: { value: 'Un jardin sous la pluie' } })
  fireEvent.change(screen.getByLabelText('Confirmez le mot de passe'), { target: { value: 'Un jardin sous la pluie' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
}

Passwords('the reset request always answers the same, with the page origin as domain', async () => {
  const app = await renderApp('/reset-password')
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'inconnu@example.com' } })
  fireEvent.click(screen.getByRole('button', { name: 'Recevoir le lien' }))
  await screen.findByText(RESET_REQUESTED)
  assert.equal(app.calls.resetRequests, [{ email: 'inconnu@example.com', domain: 'http://localhost:8080' }])
})

Passwords('an invalid e-mail is told in French and nothing is sent', async () => {
  const app = await renderApp('/reset-password')
  fireEvent.change(await screen.findByLabelText('Adresse e-mail'), { target: { value: 'pas-une-adresse' } })
  fireEvent.click(screen.getByRole('button', { name: 'Recevoir le lien' }))
  await screen.findByText(/Saisissez une adresse e-mail valide/)
  assert.equal(app.calls.resetRequests, [])
})

Passwords('the new password twice, its rule shown as one types; a short, common or mismatched one is not sent', async () => {
  const app = await renderApp('/set-password/jeton-42')
  await screen.findByText('au moins 12 caractères (0 pour l’instant)')
  fireEvent.change(screen.getByLabelText('Nouveau mot de passe'), { target: { value: 'court' } })
  await screen.findByText('au moins 12 caractères (5 pour l’instant)')
  fireEvent.change(screen.getByLabelText('Confirmez le mot de passe'), { target: { value: 'autre' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
  await screen.findByText(PASSWORD_TOO_SHORT)
  screen.getByText('Les deux mots de passe ne sont pas identiques.')
  fireEvent.change(screen.getByLabelText('Nouveau mot de passe'), { target: { value: 'Azertyuiop123' } })
  await waitFor(() =>
    assert.is(
      screen.getByText(/pas un mot de passe courant/).getAttribute('data-ok'),
      'false',
      'a common one is shown refused while typing',
    ),
  )
  fireEvent.change(screen.getByLabelText('Confirmez le mot de passe'), { target: { value: 'Azertyuiop123' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
  await screen.findByText(PASSWORD_TOO_COMMON)
  // Guessed fast by a cracking program: the strength estimator (loaded with the form) shows why as one types, and
  // the page says it beside the field instead of sending it.
  fireEvent.change(screen.getByLabelText('Nouveau mot de passe'), { target: { value: 'Motdepasse123!' } })
  fireEvent.change(screen.getByLabelText('Confirmez le mot de passe'), { target: { value: 'Motdepasse123!' } })
  await waitFor(() => assert.is(screen.getByText(/^difficile à deviner : /).getAttribute('data-ok'), 'false', 'shown weak while typing'), {
    timeout: 10_000,
  })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
  await screen.findByText(/plus long et moins prévisible/)
  assert.equal(app.calls.passwordResets, [])
})

Passwords('success returns to /login with a toast', async () => {
  const app = await renderApp('/set-password/jeton-42')
  await sendNewPassword()
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.equal(app.calls.passwordResets, [{ token: 'jeton-42', password: 'Un jardin sous la pluie' }])
  assert.equal(app.calls.notices, [{ kind: 'success', message: PASSWORD_CHANGED }])
})

Passwords('the toast gives the server’s reply: a reset that removed the account’s passkeys says so', async () => {
  const app = await renderApp('/set-password/avec-cles')
  await sendNewPassword()
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.equal(app.calls.notices, [
    {
      kind: 'success',
      message:
        'Votre mot de passe a été modifié, vous pouvez vous connecter. Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».',
    },
  ])
})

Passwords('an expired link says so and offers a new one; the typed password stays', async () => {
  await renderApp('/set-password/expire')
  await sendNewPassword()
  await screen.findByText(/a déjà servi ou a expiré/)
  screen.getByRole('link', { name: 'Demander un nouveau lien' })
  assert.is(screen.queryByRole('button', { name: 'Réessayer' }), null, 'the same link cannot go through')
  assert.is((screen.getByLabelText('Nouveau mot de passe') as HTMLInputElement).value, 'Un jardin sous la pluie')
})

Passwords('the service unavailable (503) is not a bad link: it says so, and « Réessayer » sends what is typed again', async () => {
  const app = await renderApp('/set-password/indisponible')
  await sendNewPassword()
  const alert = await screen.findByRole('alert')
  assert.match(alert.textContent!, /momentanément indisponible/)
  assert.is(within(alert).queryByRole('link', { name: 'Demander un nouveau lien' }), null, 'the link may well be good')
  assert.equal(
    [
      (screen.getByLabelText('Nouveau mot de passe') as HTMLInputElement).value,
      (screen.getByLabelText('Confirmez le mot de passe') as HTMLInputElement).value,
    ],
    ['Un jardin sous la pluie', 'Un jardin sous la pluie'],
    'what was typed stays',
  )
  fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.equal(
    app.calls.passwordResets,
    [1, 2].map(() => ({ token: 'indisponible', password: 'Un jardin sous la pluie' })),
  )
  assert.equal(app.calls.notices, [{ kind: 'success', message: PASSWORD_CHANGED }])
})

Passwords(
  'a link refused after a send whose answer was lost: the password may be saved already, /login is offered with a new link',
  async () => {
    const app = await renderApp('/set-password/coupure')
    await sendNewPassword()
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Réessayer' }))
    await screen.findByText(/a déjà servi ou a expiré/)
    const alert = screen.getByRole('alert')
    assert.match(alert.textContent!, MAYBE_SAVED)
    assert.is(within(alert).getByRole('link', { name: 'Se connecter' }).getAttribute('href'), '/login')
    within(alert).getByRole('link', { name: 'Demander un nouveau lien' })
    assert.is(app.calls.passwordResets.length, 2)
  },
)

Passwords('a link refused with no lost answer before says nothing of a saved password', async () => {
  await renderApp('/set-password/expire')
  await sendNewPassword()
  await screen.findByText(/a déjà servi ou a expiré/)
  assert.not.match(screen.getByRole('alert').textContent!, MAYBE_SAVED)
  assert.is(within(screen.getByRole('alert')).queryByRole('link', { name: 'Se connecter' }), null)
})

Passwords.run()

const Missing = suite('/missing-document (PRODUCT.md)')
Missing.after.each(() => cleanup())

Missing('the missing documents, one input each; a wrong type is refused; sending completes and opens the dashboard', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.conseil] })
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  const input = (await screen.findByLabelText("Pièce d'identité du gérant")) as HTMLInputElement
  assert.is(input.getAttribute('accept'), '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png')
  fireEvent.change(input, { target: { files: [new File(['x'], 'cni.gif', { type: 'image/gif' })] } })
  await screen.findByText(IDENTITY_WRONG_TYPE)
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer mes documents' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  assert.equal(app.calls.identityUploads, [{ orderId: F.conseil.id, documentType: 'identity_manager', fileName: 'cni.pdf' }])
  assert.equal(app.calls.notices, [{ kind: 'success', message: IDENTITY_DONE }])
  await screen.findByText('Bonjour Camille')
})

Missing('everything sent, the server still waiting for something: "contactez-nous", and no button left to send nothing', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.conseil], identityIncomplete: true })
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  fireEvent.change(await screen.findByLabelText("Pièce d'identité du gérant"), {
    target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] },
  })
  const send = screen.getByRole('button', { name: 'Envoyer mes documents' })
  send.focus()
  fireEvent.click(send)
  const message = await screen.findByText(IDENTITY_STILL_INCOMPLETE)
  assert.is(screen.queryByRole('button', { name: /Envoyer/ }), null, 'nothing left to send')
  await waitFor(() => assert.ok(document.activeElement === message, 'the message takes the focus of the button gone'))
  fireEvent.submit(message.closest('form')!)
  await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(app.calls.identityUploads, [{ orderId: F.conseil.id, documentType: 'identity_manager', fileName: 'cni.pdf' }])
  assert.is(app.currentPath(), '/missing-document')
  screen.getByText(IDENTITY_STILL_INCOMPLETE)
})

Missing('what was already sent is listed with the provider’s check; a refused document is asked again, with why', async () => {
  const two = {
    ...F.conseil,
    missingDocuments: [
      { type: 'identity_manager', label: "Pièce d'identité du gérant" },
      { type: 'proof_of_address', label: 'Justificatif de domicile' },
    ],
  }
  const app = await renderApp('/tableau-de-bord', {
    signedIn: true,
    orders: [two],
    identityIncomplete: true,
    uploadedDocuments: {
      [two.id]: [
        {
          id: 7,
          type: 'identity_manager',
          label: "Pièce d'identité du gérant",
          fileName: 'cni.pdf',
          uploadedAt: '2026-11-18T10:00:00.000Z',
          status: 'refusé',
          refusal: { reason: 'illisible', text: 'document illisible' },
        },
        {
          id: 8,
          type: 'proof_of_address',
          label: 'Justificatif de domicile',
          fileName: 'edf.pdf',
          uploadedAt: '2026-11-18T10:00:00.000Z',
          status: 'à vérifier',
          refusal: null,
        },
      ],
    },
  })
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  const sent = within(await screen.findByRole('region', { name: 'Documents déjà envoyés' }))
  sent.getByText(/refusé, document illisible ; envoyez-en un autre/)
  sent.getByText(/reçu, en cours de vérification par notre équipe/)
  // Only the refused one is asked again.
  assert.ok(screen.getByLabelText("Pièce d'identité du gérant"))
  assert.is(screen.queryByLabelText('Justificatif de domicile'), null)
})

Missing('everything sent and waiting for the check: said, nothing to send, no dashboard', async () => {
  const app = await renderApp('/tableau-de-bord', {
    signedIn: true,
    orders: [F.conseil],
    uploadedDocuments: {
      [F.conseil.id]: [
        {
          id: 7,
          type: 'identity_manager',
          label: "Pièce d'identité du gérant",
          fileName: 'cni.pdf',
          uploadedAt: '2026-11-18T10:00:00.000Z',
          status: 'validé',
          refusal: null,
        },
      ],
    },
  })
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  await screen.findByText(/accepté/)
  screen.getByText(IDENTITY_STILL_INCOMPLETE)
  assert.is(screen.queryByRole('button', { name: /Envoyer/ }), null)
})

Missing(
  'the file completed meanwhile (an answer lost, another tab): the 409 DOCUMENTS_COMPLETE is no failure, the dashboard opens',
  async () => {
    const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.conseil], identityCompletedElsewhere: true })
    await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
    fireEvent.change(await screen.findByLabelText("Pièce d'identité du gérant"), {
      target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Envoyer mes documents' }))
    await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
    assert.equal(app.calls.notices, [{ kind: 'success', message: IDENTITY_DONE }])
    await screen.findByText('Bonjour Camille')
    assert.is(screen.queryByText(/déjà tous été reçus/), null, 'not shown as an error')
  },
)

Missing(
  'reloaded on /missing-document with the order kept as default: sending completes, the order is no longer missing, the dashboard opens',
  async () => {
    const app = await renderApp('/missing-document', { signedIn: true, orders: [F.conseil], defaultOrder: F.conseil.id })
    fireEvent.change(await screen.findByLabelText("Pièce d'identité du gérant"), {
      target: { files: [new File(['%PDF-1.7'], 'cni.pdf', { type: 'application/pdf' })] },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Envoyer mes documents' }))
    await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
    assert.equal(app.calls.notices, [{ kind: 'success', message: IDENTITY_DONE }])
    await screen.findByText('Bonjour Camille')
    const { orders } = app.session.getSnapshot().context.startup!.getSnapshot().context
    assert.ok(orders[0]!.missingDocumentsValidatedAt, 'the order is complete in the portal')
  },
)

Missing('back on the dashboard before sending, the customer is pointed to the documents', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.conseil] })
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  await screen.findByLabelText("Pièce d'identité du gérant")
  await act(async () => app.location.navigate('/tableau-de-bord'))
  await screen.findByText('Des documents sont nécessaires pour finaliser cette domiciliation.')
  screen.getByRole('link', { name: 'Transmettre mes documents' })
})

for (const dismiss of ['Annuler', 'Escape'] as const) {
  Missing(
    `from the notice, "Choisir une autre domiciliation" then ${dismiss}: still the missing documents, not the dashboard`,
    async () => {
      const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.boulangerie, F.conseil] })
      fireEvent.click(await screen.findByRole('button', { name: /Conseil Horizon EURL/ }))
      await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
      await screen.findByLabelText("Pièce d'identité du gérant")
      await act(async () => app.location.navigate('/tableau-de-bord'))
      fireEvent.click(await screen.findByRole('button', { name: 'Choisir une autre domiciliation' }))
      await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
      if (dismiss === 'Annuler') fireEvent.click(screen.getByRole('button', { name: 'Annuler' }))
      else fireEvent.keyDown(window, { key: 'Escape' })
      await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
      await screen.findByLabelText("Pièce d'identité du gérant")
      assert.ok(app.session.getSnapshot().context.startup!.getSnapshot().matches('missingDocuments'))
    },
  )
}

Missing('its ways out: another domiciliation (the selection screen, then the one chosen), and « Se déconnecter »', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.boulangerie, F.conseil] })
  fireEvent.click(await screen.findByRole('button', { name: /Conseil Horizon EURL/ }))
  await waitFor(() => assert.is(app.currentPath(), '/missing-document'))
  fireEvent.click(await screen.findByRole('button', { name: 'Choisir une autre domiciliation' }))
  await screen.findByRole('heading', { name: 'Sélectionnez la domiciliation' })
  fireEvent.click(screen.getByRole('button', { name: /Boulangerie/ }))
  await screen.findByText('Bonjour Camille')
  assert.is(app.currentPath(), '/tableau-de-bord')
  cleanup()
  localStorage.clear()
  const alone = await renderApp('/tableau-de-bord', { signedIn: true, orders: [F.conseil] })
  await waitFor(() => assert.is(alone.currentPath(), '/missing-document'))
  await screen.findByLabelText("Pièce d'identité du gérant")
  assert.is(screen.queryByRole('button', { name: 'Choisir une autre domiciliation' }), null, 'one domiciliation: nothing else to choose')
  fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }))
  await waitFor(() => assert.is(alone.currentPath(), '/login'))
})

Missing('signed out, the page says to sign in', async () => {
  await renderApp('/missing-document')
  await screen.findByText(/Connectez-vous pour transmettre/)
  screen.getByRole('link', { name: 'Se connecter' })
})

Missing.run()
