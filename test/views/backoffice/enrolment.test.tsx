// /operateur/inscription/:token in happy-dom: who the link is for, the secret (QR code, key, URI), the customers'
// password rule and a first code, then the way to the sign-in; a link refused, the service down.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PASSWORD_TOO_SHORT, PASSWORDS_DIFFER } from '../../../src/machines/passwordRule.ts'
import { CODE_FORMAT } from '../../../src/backoffice/views/pages/operators/SignInPage.tsx'
import { apiError, renderBackOffice } from '../../util/backoffice.tsx'

const enrolment = {
  email: 'lea@example.com',
  name: 'Léa Fontaine',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Domicilium:lea%40example.com?issuer=Domicilium&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  expiresAt: '2026-11-27T10:00:00.000Z',
}
const refused = apiError(404, 'Ce lien d’inscription est invalide, a déjà servi ou a expiré : demandez-en un nouveau à un administrateur.')
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

const Enrolment = suite('back office: /operateur/inscription/:token')
Enrolment.after.each(() => cleanup())

Enrolment('the operator, the secret as a QR code and as text; the password and code checked here, then sent once', async () => {
  const app = await renderBackOffice('/operateur/inscription/tok_lea', {
    answers: {
      getEnrolment: [enrolment],
      enrol: [
        apiError(
          400,
          'Code incorrect : vérifiez que l’application d’authentification a bien enregistré la clé, puis saisissez le code affiché.',
          'BAD_CODE',
        ),
        { message: 'Votre compte opérateur est prêt.' },
      ],
    },
  })
  await screen.findByText(/Bienvenue Léa Fontaine/)
  assert.equal(app.called('getEnrolment'), [['tok_lea']])
  screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')
  screen.getByText(enrolment.otpauthUri)
  const qr = await screen.findByRole('img', { name: 'Code QR de la clé du back-office' })
  assert.ok(qr.querySelector('path')!.getAttribute('d')!.length > 500, 'a QR code drawn')
  type('Mot de passe', 'court')
  type('Confirmez le mot de passe', 'autre')
  type('Code à 6 chiffres de l’application', '12')
  fireEvent.click(screen.getByRole('button', { name: 'Terminer l’inscription' }))
  await screen.findByText(PASSWORD_TOO_SHORT)
  screen.getByText(PASSWORDS_DIFFER)
  screen.getByText(CODE_FORMAT)
  assert.equal(app.called('enrol'), [])
  type('Mot de passe', 'trois mots au hasard')
  type('Confirmez le mot de passe', 'trois mots au hasard')
  type('Code à 6 chiffres de l’application', '654 321')
  fireEvent.click(screen.getByRole('button', { name: 'Terminer l’inscription' }))
  // A wrong code keeps what was typed.
  await screen.findByText(/^Code incorrect : vérifiez/)
  assert.is((screen.getByLabelText('Mot de passe') as HTMLInputElement).value, 'trois mots au hasard')
  fireEvent.click(screen.getByRole('button', { name: 'Terminer l’inscription' }))
  await screen.findByRole('heading', { name: 'Inscription terminée', level: 1 })
  screen.getByText('Votre compte opérateur est prêt.')
  assert.equal(app.called('enrol'), [
    ['tok_lea', { password: 'trois mots au hasard', code: '654321' }],
    ['tok_lea', { password: 'trois mots au hasard', code: '654321' }],
  ])
  assert.is(screen.getByRole('link', { name: 'Se connecter au back-office' }).getAttribute('href'), '/operateur/connexion')
})

Enrolment('a link invalid, used or expired: said for good, no secret shown', async () => {
  await renderBackOffice('/operateur/inscription/vieux', { answers: { getEnrolment: [refused] } })
  await screen.findByRole('heading', { name: 'Lien d’inscription inutilisable', level: 1 })
  assert.is(within(screen.getByRole('alert')).getByText(refused.message).textContent, refused.message)
  assert.is(screen.queryByText(/JBSW/), null)
})

Enrolment('the service down while reading the link: said, with « Réessayer »', async () => {
  const app = await renderBackOffice('/operateur/inscription/tok_lea', {
    answers: {
      getEnrolment: [apiError(0, 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.'), enrolment],
    },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText(/Bienvenue Léa Fontaine/)
  assert.is(app.called('getEnrolment').length, 2)
})

Enrolment.run()
