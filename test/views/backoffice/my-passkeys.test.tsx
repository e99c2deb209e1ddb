// /operateur/mes-cles-d-acces in happy-dom: the signed-in operator's passkeys (every role), added through the browser's
// prompt (navigator.credentials faked, as the portal's tests do), removed after a confirmation.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { passkeyRemoved } from '../../../src/backoffice/machines/operators/myPasskeys.machine.ts'
import { NO_WEBAUTHN } from '../../../src/backoffice/views/pages/operators/MyPasskeysPage.tsx'
import { apiError, hugo, renderBackOffice } from '../../util/backoffice.tsx'

const usb = { id: 1, name: 'Clé USB', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-21T09:00:00.000Z' }
const PATH = '/operateur/mes-cles-d-acces'

const MyPasskeys = suite('back office: « Mes clés d’accès »')
MyPasskeys.after.each(() => {
  cleanup()
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
})

MyPasskeys('every operator has it in the menu; the keys listed; without WebAuthn, no « Ajouter »', async () => {
  await renderBackOffice(PATH, { signedIn: hugo, answers: { getMyPasskeys: [[usb]] } })
  await screen.findByRole('heading', { name: 'Mes clés d’accès', level: 1 })
  within(screen.getByRole('navigation', { name: /menu/i })).getByRole('link', { name: 'Mes clés d’accès' })
  const table = await screen.findByRole('table', { name: 'Mes clés d’accès' })
  assert.match(table.textContent!, 'Clé USB')
  screen.getByText(NO_WEBAUTHN)
  assert.is(screen.queryByRole('button', { name: 'Ajouter une clé d’accès' }), null)
})

MyPasskeys('a key removed after a confirmation; the prompt cancelled says so and adds nothing', async () => {
  const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        throw cancelled
      },
    },
  })
  const app = await renderBackOffice(PATH, {
    signedIn: hugo,
    answers: {
      getMyPasskeys: [[usb]],
      getPasskeyRegistrationOptions: [
        {
          challenge: 'Y2hhbGxlbmdl',
          rp: { id: 'localhost', name: 'Domicilium' },
          user: { id: 'dQ', name: 'h', displayName: 'H' },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
        },
      ],
      deletePasskey: [{ message: 'La clé d’accès a été supprimée.' }],
    },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Ajouter une clé d’accès' }))
  await screen.findByText('L’ajout de la clé d’accès a été annulé.', {}, { timeout: 4000 })
  assert.equal(app.called('registerPasskey'), [])

  fireEvent.click(screen.getByRole('button', { name: 'Supprimer la clé Clé USB' }))
  const dialog = await screen.findByRole('dialog')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Supprimer' }))
  await screen.findByText('Aucune clé d’accès pour l’instant.')
  assert.equal(app.called('deletePasskey'), [[1]])
  assert.ok(app.notices.some((n) => n.message === passkeyRemoved('Clé USB')))
})

MyPasskeys('a removal refused says the server’s reason and keeps the list', async () => {
  const app = await renderBackOffice(PATH, {
    signedIn: hugo,
    answers: { getMyPasskeys: [[usb]], deletePasskey: [apiError(404, 'Clé d’accès introuvable.', 'NOT_FOUND')] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Supprimer la clé Clé USB' }))
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Supprimer' }))
  await waitFor(() => assert.is(screen.getByRole('alert').textContent, 'Clé d’accès introuvable.'))
  assert.match(screen.getByRole('table', { name: 'Mes clés d’accès' }).textContent!, 'Clé USB')
  assert.equal(app.called('deletePasskey'), [[1]])
})

MyPasskeys.run()
