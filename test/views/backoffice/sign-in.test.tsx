// /operateur/connexion in happy-dom: the two steps, the server's French reason for each refusal, the session kept
// under its own key, a 401 anywhere back to the sign-in (and back to the page once signed in again), the sign-out.
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SESSION_EXPIRED, SIGNED_OUT } from '../../../src/backoffice/machines/operators/operatorSession.machine.ts'
import { CODE_FORMAT } from '../../../src/backoffice/views/pages/operators/SignInPage.tsx'
import { OPERATOR_SESSION_KEY } from '../../../src/backoffice/wiring/storage.ts'
import { USER_KEY } from '../../../src/wiring/storage.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'

const ticket = { ticket: 'tk_1', expiresAt: '2026-11-20T10:05:00.000Z' }
const opened = { token: 'op_new', idleMinutes: 30, operator: ines }
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

async function passwordStep() {
  type('Adresse e-mail', 'operateur@example.com')
  type('Mot de passe', 'Demo1234!')
  fireEvent.click(screen.getByRole('button', { name: 'Continuer' }))
}

const SignIn = suite('back office: /operateur/connexion')
SignIn.after.each(() => cleanup())

SignIn('password, then the code: signed in, the session kept under its own key, on to the dashboard', async () => {
  const app = await renderBackOffice('/operateur/connexion', { answers: { submitPassword: [ticket], submitCode: [opened] } })
  await screen.findByRole('heading', { name: 'Connexion au back-office', level: 1 })
  await passwordStep()
  await screen.findByLabelText('Code à 6 chiffres')
  assert.equal(app.called('submitPassword'), [[{ email: 'operateur@example.com', password: 'Demo1234!' }]])
  assert.match(document.body.textContent!, 'Mot de passe accepté pour operateur@example.com')
  // The code field takes the focus; a code that is not 6 digits is not sent.
  assert.is(document.activeElement?.id, 'bo-code')
  type('Code à 6 chiffres', '12345')
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await screen.findByText(CODE_FORMAT)
  assert.equal(app.called('submitCode'), [])
  type('Code à 6 chiffres', '123 456')
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await waitFor(() => assert.is(app.path(), '/operateur'))
  assert.equal(app.called('submitCode'), [[{ ticket: 'tk_1', code: '123456' }]])
  assert.equal(JSON.parse(localStorage.getItem(OPERATOR_SESSION_KEY)!), { token: 'op_new', operator: ines })
  assert.is(localStorage.getItem(USER_KEY), null, 'never the customers’ key')
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
})

SignIn('empty fields are said in French and nothing is sent', async () => {
  const app = await renderBackOffice('/operateur/connexion')
  fireEvent.click(await screen.findByRole('button', { name: 'Continuer' }))
  await screen.findByText('Saisissez votre adresse e-mail.')
  screen.getByText('Saisissez votre mot de passe.')
  assert.equal(app.fake.calls, [])
})

for (const [what, step, error] of [
  ['a wrong password', 'password', apiError(401, 'Adresse e-mail ou mot de passe incorrect.', 'BAD_CREDENTIALS')],
  [
    'too many passwords (429)',
    'password',
    apiError(429, 'Trop d’essais de mot de passe pour ce compte opérateur : réessayez dans 15 minutes.'),
  ],
  ['the server down', 'password', apiError(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.')],
  [
    'a wrong code',
    'code',
    apiError(401, 'Code incorrect : saisissez le code à 6 chiffres affiché par votre application d’authentification.', 'BAD_CODE'),
  ],
  [
    'a code already used',
    'code',
    apiError(401, 'Ce code a déjà servi : attendez le suivant dans votre application d’authentification.', 'CODE_REPLAYED'),
  ],
  ['too many codes (429)', 'code', apiError(429, 'Trop de codes erronés pour ce compte opérateur : réessayez dans 15 minutes.')],
  ['the service unavailable (503)', 'code', apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')],
] as const) {
  SignIn(`${what}: the server's French reason, and the same step to try again`, async () => {
    const app = await renderBackOffice('/operateur/connexion', {
      answers: step === 'password' ? { submitPassword: [error] } : { submitPassword: [ticket], submitCode: [error] },
    })
    await screen.findByRole('heading', { name: 'Connexion au back-office' })
    await passwordStep()
    if (step === 'code') {
      await screen.findByLabelText('Code à 6 chiffres')
      type('Code à 6 chiffres', '123456')
      fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
    }
    const alert = await screen.findByRole('alert')
    assert.is(alert.textContent, error.message)
    screen.getByRole('button', { name: step === 'password' ? 'Continuer' : 'Se connecter' })
    assert.is(localStorage.getItem(OPERATOR_SESSION_KEY), null)
    assert.is(app.path(), '/operateur/connexion')
  })
}

SignIn('a ticket expired goes back to the password with its reason; « Changer d’adresse » too', async () => {
  const expired = apiError(
    401,
    'Votre connexion a expiré : saisissez à nouveau votre adresse e-mail et votre mot de passe.',
    'SIGN_IN_EXPIRED',
  )
  await renderBackOffice('/operateur/connexion', { answers: { submitPassword: [ticket], submitCode: [expired] } })
  await screen.findByRole('heading', { name: 'Connexion au back-office' })
  await passwordStep()
  await screen.findByLabelText('Code à 6 chiffres')
  type('Code à 6 chiffres', '123456')
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await screen.findByText(expired.message)
  assert.is((screen.getByLabelText('Adresse e-mail') as HTMLInputElement).value, 'operateur@example.com')
  await passwordStep()
  fireEvent.click(await screen.findByRole('button', { name: 'Changer d’adresse' }))
  await screen.findByRole('button', { name: 'Continuer' })
})

// --- « Utiliser une clé d’accès »: the browser's WebAuthn faked at navigator.credentials, as the portal's tests do.
const bytes = (text: string) => new TextEncoder().encode(text).buffer
/** What navigator.credentials.get answers: a PublicKeyCredential's shape, read by @simplewebauthn/browser. */
const signedByKey = {
  id: 'Y3JlZA',
  rawId: bytes('cred'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: { clientDataJSON: bytes('{}'), authenticatorData: bytes('auth'), signature: bytes('sig'), userHandle: null },
  getClientExtensionResults: () => ({}),
}
const requestOptions = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }] }
function fakeWebAuthn(get: () => Promise<unknown>) {
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get, create: get } })
}
const Passkey = suite('back office: /operateur/connexion with a passkey')
Passkey.after.each(() => {
  cleanup()
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
})

Passkey('without WebAuthn in the browser, the code step offers no key', async () => {
  await renderBackOffice('/operateur/connexion', { answers: { submitPassword: [ticket] } })
  await screen.findByRole('heading', { name: 'Connexion au back-office' })
  await passwordStep()
  await screen.findByLabelText('Code à 6 chiffres')
  assert.is(screen.queryByRole('button', { name: 'Utiliser une clé d’accès' }), null)
})

Passkey('« Utiliser une clé d’accès »: the ticket’s options, the browser’s answer, signed in', async () => {
  fakeWebAuthn(async () => signedByKey)
  const app = await renderBackOffice('/operateur/connexion', {
    answers: { submitPassword: [ticket], getPasskeySignInOptions: [requestOptions], submitPasskey: [opened] },
  })
  await screen.findByRole('heading', { name: 'Connexion au back-office' })
  await passwordStep()
  fireEvent.click(await screen.findByRole('button', { name: 'Utiliser une clé d’accès' }))
  await waitFor(() => assert.is(app.path(), '/operateur'), { timeout: 4000 })
  assert.equal(app.called('getPasskeySignInOptions'), [[{ ticket: 'tk_1' }]])
  const [[sent]] = app.called('submitPasskey') as [[{ ticket: string; credential: { id: string; response: Record<string, unknown> } }]]
  assert.is(sent.ticket, 'tk_1')
  assert.is(sent.credential.id, 'Y3JlZA')
  // The browser's bytes as base64url, as the contract takes them.
  const { clientDataJSON, authenticatorData, signature } = sent.credential.response
  assert.equal([clientDataJSON, authenticatorData, signature], ['e30', 'YXV0aA', 'c2ln'])
  assert.equal(app.called('submitCode'), [], 'no code typed')
  assert.equal(JSON.parse(localStorage.getItem(OPERATOR_SESSION_KEY)!), { token: 'op_new', operator: ines })
})

Passkey('the prompt cancelled, or the key refused: said in French, and the code can still be typed', async () => {
  const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
  let answer: () => Promise<unknown> = async () => {
    throw cancelled
  }
  fakeWebAuthn(() => answer())
  const refused = apiError(
    401,
    'Cette clé d’accès n’est pas enregistrée pour ce compte opérateur : saisissez le code de votre application d’authentification.',
    'UNKNOWN_PASSKEY',
  )
  const app = await renderBackOffice('/operateur/connexion', {
    answers: { submitPassword: [ticket], getPasskeySignInOptions: [requestOptions], submitPasskey: [refused], submitCode: [opened] },
  })
  await screen.findByRole('heading', { name: 'Connexion au back-office' })
  await passwordStep()
  fireEvent.click(await screen.findByRole('button', { name: 'Utiliser une clé d’accès' }))
  const alert = await screen.findByRole('alert', {}, { timeout: 4000 })
  assert.match(alert.textContent!, 'La connexion avec une clé d’accès a été annulée.', alert.textContent!)
  assert.equal(app.called('submitPasskey'), [], 'nothing signed, nothing sent')
  answer = async () => signedByKey
  fireEvent.click(screen.getByRole('button', { name: 'Utiliser une clé d’accès' }))
  await waitFor(() => assert.is(screen.getByRole('alert').textContent, refused.message), { timeout: 4000 })
  type('Code à 6 chiffres', '123456')
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await waitFor(() => assert.is(app.path(), '/operateur'))
})

const Session = suite('back office: the session')
Session.after.each(() => cleanup())

Session('a kept session is checked with the server as the page opens; its roles come from the answer', async () => {
  const app = await renderBackOffice('/operateur', { signedIn: ines, answers: { getMe: [{ ...ines, roles: ['admin', 'courrier'] }] } })
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  assert.equal(app.called('getMe'), [[]])
  assert.match(screen.getByRole('banner').textContent!, 'Administrateur, Courrier')
})

Session('without a session, any page leads to the sign-in', async () => {
  const app = await renderBackOffice('/operateur/administration')
  await screen.findByRole('heading', { name: 'Connexion au back-office' })
  assert.is(app.path(), '/operateur/connexion')
})

Session('a 401 anywhere ends the session: the sign-in says why, and leads back to the page once signed in again', async () => {
  const app = await renderBackOffice('/operateur/administration/journal', {
    signedIn: ines,
    answers: { submitPassword: [ticket], submitCode: [opened] },
  })
  await screen.findByRole('heading', { name: 'Administration', level: 1 })
  await app.unauthorized()
  await screen.findByText(SESSION_EXPIRED)
  assert.is(app.path(), '/operateur/connexion')
  assert.is(localStorage.getItem(OPERATOR_SESSION_KEY), null)
  await passwordStep()
  await screen.findByLabelText('Code à 6 chiffres')
  type('Code à 6 chiffres', '123456')
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
  await waitFor(() => assert.is(app.path(), '/operateur/administration/journal'))
})

Session('a kept session refused by the server (expired meanwhile) leads to the sign-in, which says why', async () => {
  await renderBackOffice('/operateur', {
    signedIn: ines,
    answers: { getMe: [apiError(401, 'Session expirée ou invalide, veuillez vous reconnecter.')] },
  })
  await screen.findByText(SESSION_EXPIRED)
})

Session('the server down while checking the kept session: said, with « Réessayer », the session kept', async () => {
  const app = await renderBackOffice('/operateur', {
    signedIn: ines,
    answers: { getMe: [apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.'), ines] },
  })
  await screen.findByText('Le service est momentanément indisponible. Réessayez dans quelques instants.')
  assert.ok(localStorage.getItem(OPERATOR_SESSION_KEY))
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  assert.is(app.called('getMe').length, 2)
})

Session('« Se déconnecter » ends the session on the server, forgets it here, and says so', async () => {
  const app = await renderBackOffice('/operateur', { signedIn: hugo })
  fireEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }))
  await screen.findByText(SIGNED_OUT)
  assert.equal(app.called('signOut'), [[]])
  assert.is(localStorage.getItem(OPERATOR_SESSION_KEY), null)
  assert.is(app.path(), '/operateur/connexion')
})

Session('signed out in another tab: this one too', async () => {
  const app = await renderBackOffice('/operateur', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  localStorage.removeItem(OPERATOR_SESSION_KEY)
  await act(async () => void window.dispatchEvent(new StorageEvent('storage', { key: OPERATOR_SESSION_KEY, newValue: null })))
  await screen.findByText(SESSION_EXPIRED)
  assert.is(app.path(), '/operateur/connexion')
})

SignIn.run()
Passkey.run()
Session.run()
