import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import toast from 'react-hot-toast'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Mandataire, Passkey, Session, Share } from '../../../server/contract/people.ts'
import { PASSWORD_UPDATED } from '../../../src/machines/people/passwordChange.machine.ts'
import { PASSWORD_TOO_SHORT } from '../../../src/machines/passwordRule.ts'
import { showToast } from '../../../src/views/Toasts.tsx'
import { INVITATION_ACCEPTED, PASSWORD_NOT_CHANGED, EMAIL_NOT_CHANGED } from '../../../src/wiring/people.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type PeopleScenario } from '../../util/services.tsx'

const julien: Share = {
  id: 1,
  email: 'associe@example.com',
  firstname: 'Julien',
  lastname: 'Moreau',
  status: 'active',
  createdAt: '2025-01-01T10:00:00.000Z',
  acceptedAt: '2025-01-03T10:00:00.000Z',
  invitationSentAt: null,
  invitationExpiresAt: null,
}
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
const longDate = (iso: string) => new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso))
// Invited two days ago: the 7-day link still holds.
const cabinet: Share = {
  id: 2,
  email: 'cabinet.durand@example.com',
  firstname: null,
  lastname: null,
  status: 'invitée',
  createdAt: '2026-11-02T10:00:00.000Z',
  acceptedAt: null,
  invitationSentAt: daysFromNow(-2),
  invitationExpiresAt: daysFromNow(5),
}
const lea: Mandataire = {
  id: 3,
  firstname: 'Léa',
  lastname: 'Fontaine',
  email: 'lea.fontaine@example.com',
  phone: '06 45 23 17 89',
  createdAt: '2025-01-01T10:00:00.000Z',
}
const laptop: Passkey = { id: 4, name: 'Chrome sur Linux', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: '2026-11-20T10:00:00.000Z' }
const sessions: Session[] = [
  { id: 1, device: 'Chrome sur Linux', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-22T10:00:00.000Z', current: true },
  { id: 2, device: 'Safari sur iOS', createdAt: '2026-11-02T10:00:00.000Z', lastUsedAt: '2026-11-21T10:00:00.000Z', current: false },
]

const open = (path: string, people: PeopleScenario = {}, extra: Parameters<typeof renderApp>[1] = {}) =>
  renderApp(path, {
    signedIn: true,
    defaultOrder: 2,
    people: { shares: [julien, cabinet], representatives: [lea], passkeys: [laptop], sessions, ...people },
    ...extra,
  })
const type = (label: string | RegExp, value: string, root: HTMLElement = document.body) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } })

// ——— /informations-personnelles
const Account = suite('/informations-personnelles')
Account.before.each(() => setViewport(1280))
Account.after.each(() => {
  cleanup()
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
})

Account('name and e-mail; a taken address keeps what was typed and says so; a new one shows at once', async () => {
  const app = await open('/informations-personnelles')
  const identity = await screen.findByRole('region', { name: 'Mes informations' })
  assert.match(identity.textContent!, 'Camille')
  assert.match(identity.textContent!, 'Martin')
  fireEvent.click(screen.getByRole('button', { name: 'Modifier mon e-mail' }))
  fireEvent.change(await screen.findByLabelText('Nouvelle adresse e-mail'), { target: { value: 'associe@example.com' } })
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
  await screen.findByText(EMAIL_NOT_CHANGED)
  assert.ok(
    app.calls.notices.some((n) => n.message === 'Cette adresse e-mail est déjà utilisée par un autre compte.'),
    'the reason in a toast',
  )
  assert.is((screen.getByLabelText('Nouvelle adresse e-mail') as HTMLInputElement).value, 'associe@example.com')
  type('Nouvelle adresse e-mail', 'camille.martin@example.com')
  fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’adresse' }))
  await waitFor(() => assert.ok(screen.getAllByText('camille.martin@example.com').length >= 1))
  assert.equal(
    app.calls.people.filter(([n]) => n === 'updateEmail').map(([, b]) => b),
    [{ newEmail: 'associe@example.com' }, { newEmail: 'camille.martin@example.com' }],
  )
  await waitFor(() => assert.match(screen.getByRole('region', { name: 'Mes informations' }).textContent!, 'camille.martin@example.com'))
})

Account('the password: the rule as one types, a wrong current password keeps the form, success empties it', async () => {
  const app = await open('/informations-personnelles')
  const form = await screen.findByRole('form', { name: 'Modifier mon mot de passe' })
  type('Nouveau mot de passe', 'court', form)
  await within(form).findByText('au moins 12 caractères (5 pour l’instant)')
  fireEvent.click(within(form).getByRole('button', { name: 'Modifier mon mot de passe' }))
  await within(form).findByText(PASSWORD_TOO_SHORT)
  within(form).getByText('Saisissez votre mot de passe actuel.')
  type('Mot de passe actuel', 'faux', form)
  type('Nouveau mot de passe', 'une phrase de passe', form)
  type('Confirmez le mot de passe', 'une phrase de passe', form)
  fireEvent.click(within(form).getByRole('button', { name: 'Modifier mon mot de passe' }))
  await within(form).findByText(PASSWORD_NOT_CHANGED)
  assert.is((within(form).getByLabelText('Nouveau mot de passe') as HTMLInputElement).value, 'une phrase de passe')
  type('Mot de passe actuel', 'Demo1234!', form)
  fireEvent.click(within(form).getByRole('button', { name: 'Modifier mon mot de passe' }))
  await waitFor(() => assert.is((within(form).getByLabelText('Nouveau mot de passe') as HTMLInputElement).value, ''))
  assert.equal(app.calls.people.filter(([n]) => n === 'updatePassword').at(-1), [
    'updatePassword',
    { currentPassword: 'Demo1234!', newPassword: 'une phrase de passe' },
  ])
  // Said once, by the toast (what the composition root does with each notice): not a second time in the form.
  assert.equal(
    app.calls.notices.filter((n) => n.message === PASSWORD_UPDATED),
    [{ kind: 'success', message: PASSWORD_UPDATED }],
  )
  act(() => app.calls.notices.forEach(showToast))
  await screen.findByText(PASSWORD_UPDATED)
  const announced = [...document.querySelectorAll('[role="status"], [aria-live]')].filter((region) =>
    region.textContent?.includes('Vos autres appareils ont été déconnectés'),
  )
  assert.is(announced.length, 1, 'announced once')
  assert.is(within(form).queryByText(/Vos autres appareils ont été déconnectés/), null)
  act(() => toast.remove())
})

Account('devices: this one marked; the others signed out on request', async () => {
  const app = await open('/informations-personnelles')
  const list = await screen.findByRole('list', { name: 'Appareils connectés' })
  assert.equal(
    within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('strong')!.textContent),
    ['Chrome sur Linux', 'Safari sur iOS'],
  )
  within(list).getByText('Cet appareil')
  fireEvent.click(screen.getByRole('button', { name: 'Déconnecter les autres appareils' }))
  await waitFor(() => assert.is(within(screen.getByRole('list', { name: 'Appareils connectés' })).getAllByRole('listitem').length, 1))
  screen.getByText('Aucun autre appareil n’est connecté.')
  assert.ok(app.calls.people.some(([n]) => n === 'signOutOtherSessions'))
})

Account("devices: the list's error state with 'Réessayer'", async () => {
  await open('/informations-personnelles', { fails: ['loadSessions'] })
  const region = await screen.findByRole('region', { name: 'Appareils connectés' })
  await within(region).findByText(/momentanément indisponible/)
  within(region).getByRole('button', { name: 'Réessayer' })
})

Account('passkeys: the list (added, last used), rename, remove after confirmation', async () => {
  const app = await open('/informations-personnelles')
  const list = await screen.findByRole('list', { name: 'Clés d’accès' })
  assert.match(list.textContent!, 'Ajoutée le 1er novembre 2026 · utilisée le 20 novembre 2026')
  fireEvent.click(screen.getByRole('button', { name: 'Renommer la clé Chrome sur Linux' }))
  const dialog = await screen.findByRole('dialog', { name: 'Renommer la clé d’accès' })
  type('Nom de la clé', 'Ordinateur du bureau', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Renommer' }))
  await screen.findByText('Ordinateur du bureau')
  fireEvent.click(screen.getByRole('button', { name: 'Supprimer la clé Ordinateur du bureau' }))
  const confirm = await screen.findByRole('dialog', { name: 'Supprimer « Ordinateur du bureau » ?' })
  assert.not.ok(
    app.calls.people.some(([n]) => n === 'deletePasskey'),
    'nothing before the confirmation',
  )
  fireEvent.click(within(confirm).getByRole('button', { name: 'Supprimer la clé' }))
  await screen.findByText('Aucune clé d’accès pour le moment.')
  assert.equal(
    app.calls.people.filter(([n]) => n === 'renamePasskey' || n === 'deletePasskey'),
    [
      ['renamePasskey', 4, { name: 'Ordinateur du bureau' }],
      ['deletePasskey', 4],
    ],
  )
})

Account('passkeys: a browser without WebAuthn says so; a cancelled ceremony says so and adds nothing', async () => {
  await open('/informations-personnelles')
  await screen.findByText('Ce navigateur ne permet pas d’utiliser des clés d’accès.')
  cleanup()
  const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        throw cancelled
      },
      get: async () => {
        throw cancelled
      },
    },
  })
  const app = await open('/informations-personnelles')
  fireEvent.click(await screen.findByRole('button', { name: 'Ajouter une clé d’accès' }))
  await screen.findByText('L’ajout de la clé d’accès a été annulé.', {}, { timeout: 4000 })
  assert.is(within(screen.getByRole('list', { name: 'Clés d’accès' })).getAllByRole('listitem').length, 1)
  assert.ok(app.calls.people.some(([n]) => n === 'getPasskeyRegistrationOptions'))
  assert.not.ok(app.calls.people.some(([n]) => n === 'registerPasskey'))
})

Account.run()

// ——— /mes-collaborateurs
const Collaborators = suite('/mes-collaborateurs')
Collaborators.before.each(() => setViewport(1280))
Collaborators.after.each(() => cleanup())

Collaborators('the people it is shared with: name once they accepted, status and since when', async () => {
  await open('/mes-collaborateurs')
  const list = await screen.findByRole('list', { name: 'Collaborateurs' })
  const [first, second] = within(list).getAllByRole('listitem')
  assert.match(first!.textContent!, 'Julien Moreau')
  assert.match(first!.textContent!, 'Actif depuis le 3 janvier 2025')
  assert.match(second!.textContent!, 'cabinet.durand@example.com')
  assert.match(second!.textContent!, `Invitation envoyée le ${longDate(cabinet.invitationSentAt!)}`)
  within(second!).getByRole('button', { name: 'Renvoyer l’invitation à cabinet.durand@example.com' })
  assert.not.ok(within(first!).queryByRole('button', { name: /Renvoyer/ }), 'not for an active member')
})

// Invited in January 2025: its link expired on 9 January (the server answers 410 to it).
const expired: Share = {
  ...cabinet,
  createdAt: '2025-01-02T10:00:00.000Z',
  invitationSentAt: '2025-01-02T10:00:00.000Z',
  invitationExpiresAt: '2025-01-09T10:00:00.000Z',
}

Collaborators('an expired invitation says so, and typed again in "Inviter" it is sent again', async () => {
  const app = await open('/mes-collaborateurs', { shares: [julien, expired] })
  const row = () => within(screen.getByRole('list', { name: 'Collaborateurs' })).getAllByRole('listitem')[1]!
  await screen.findByRole('list', { name: 'Collaborateurs' })
  assert.match(row().textContent!, 'Invitation expirée le 9 janvier 2025')
  within(row()).getByText('Invitation expirée')
  fireEvent.click(screen.getByRole('button', { name: 'Inviter' }))
  const dialog = await screen.findByRole('dialog', { name: 'Inviter des collaborateurs' })
  type('Adresses e-mail', 'Cabinet.Durand@example.com', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer les invitations' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.equal(
    app.calls.people.filter(([n]) => n === 'invite'),
    [['invite', 2, { emails: ['Cabinet.Durand@example.com'] }]],
  )
  assert.equal(app.calls.notices.at(-1), { kind: 'success', message: 'Invitation envoyée.' })
  assert.is(within(screen.getByRole('list', { name: 'Collaborateurs' })).getAllByRole('listitem').length, 2, 'the same row')
  assert.match(row().textContent!, `Invitation envoyée le ${longDate(new Date().toISOString())}`)
})

Collaborators('"Renvoyer l’invitation" on a pending row: that address sent again, no dialog, the focus stays on the button', async () => {
  const app = await open('/mes-collaborateurs', { shares: [julien, expired] })
  const resend = await screen.findByRole('button', { name: 'Renvoyer l’invitation à cabinet.durand@example.com' })
  resend.focus()
  fireEvent.click(resend)
  await waitFor(() => assert.equal(app.calls.notices.at(-1), { kind: 'success', message: 'Invitation envoyée.' }))
  assert.is(screen.queryByRole('dialog'), null)
  assert.equal(
    app.calls.people.filter(([n]) => n === 'invite'),
    [['invite', 2, { emails: ['cabinet.durand@example.com'] }]],
  )
  const row = within(screen.getByRole('list', { name: 'Collaborateurs' })).getAllByRole('listitem')[1]!
  assert.match(row.textContent!, `Invitation envoyée le ${longDate(new Date().toISOString())}`)
  assert.ok(
    document.activeElement === screen.getByRole('button', { name: 'Renvoyer l’invitation à cabinet.durand@example.com' }),
    'the focus stays',
  )
})

Collaborators('"Inviter": several at once; an invalid one named, nothing sent; members and duplicates dropped', async () => {
  const app = await open('/mes-collaborateurs')
  fireEvent.click(await screen.findByRole('button', { name: 'Inviter' }))
  const dialog = await screen.findByRole('dialog', { name: 'Inviter des collaborateurs' })
  type('Adresses e-mail', 'compta@cabinet.fr, pas-une-adresse', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer les invitations' }))
  await within(dialog).findByText('Cette adresse n’est pas valide : pas-une-adresse. Corrigez-la puis réessayez.')
  assert.not.ok(app.calls.people.some(([n]) => n === 'invite'))
  type('Adresses e-mail', 'compta@cabinet.fr\nrh@cabinet.fr; COMPTA@cabinet.fr associe@example.com', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer les invitations' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.equal(
    app.calls.people.filter(([n]) => n === 'invite'),
    [['invite', 2, { emails: ['compta@cabinet.fr', 'rh@cabinet.fr'] }]],
  )
  assert.equal(app.calls.notices.at(-1), {
    kind: 'success',
    message: '2 invitations envoyées. 2 adresses déjà présentes ont été ignorées.',
  })
  assert.is(within(screen.getByRole('list', { name: 'Collaborateurs' })).getAllByRole('listitem').length, 4)
})

Collaborators('a refused invitation keeps the addresses typed', async () => {
  await open('/mes-collaborateurs', { fails: ['invite'] })
  fireEvent.click(await screen.findByRole('button', { name: 'Inviter' }))
  const dialog = await screen.findByRole('dialog', { name: 'Inviter des collaborateurs' })
  type('Adresses e-mail', 'compta@cabinet.fr', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer les invitations' }))
  await within(dialog).findByText(/réessayez dans une heure/)
  assert.is((within(dialog).getByLabelText('Adresses e-mail') as HTMLTextAreaElement).value, 'compta@cabinet.fr')
})

Collaborators('"Retirer" after a confirmation; the focus then goes to the list’s heading (its "Retirer" is gone)', async () => {
  const app = await open('/mes-collaborateurs')
  const remove = await screen.findByRole('button', { name: 'Retirer associe@example.com' })
  remove.focus()
  fireEvent.click(remove)
  const dialog = await screen.findByRole('dialog', { name: 'Retirer associe@example.com ?' })
  within(dialog).getByText(/n’aura plus accès au courrier de Boulangerie des Lilas SAS/)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Retirer l’accès' }))
  await waitFor(() => assert.is(within(screen.getByRole('list', { name: 'Collaborateurs' })).getAllByRole('listitem').length, 1))
  assert.equal(
    app.calls.people.filter(([n]) => n === 'deleteShare'),
    [['deleteShare', 2, 1]],
  )
  await waitFor(() =>
    assert.ok(
      document.activeElement === screen.getByRole('heading', { name: 'Mes collaborateurs', level: 2 }),
      `the focus is on ${document.activeElement?.tagName}`,
    ),
  )
})

Collaborators("'Tous' and a shared order: no list, a sentence saying why; loading errors offer 'Réessayer'", async () => {
  await open('/mes-collaborateurs', {}, { defaultOrder: 'all' })
  await screen.findByText(/Choisissez une domiciliation dans le sélecteur « Domiciliation »/)
  cleanup()
  await open('/mes-collaborateurs', {}, { defaultOrder: 3 })
  await screen.findByText(/Studio Nuage SAS est partagée avec vous : seul son titulaire/)
  cleanup()
  await open('/mes-collaborateurs', { fails: ['loadShares'] })
  await screen.findByRole('button', { name: 'Réessayer' })
})

Collaborators('"Recommander": one address, checked, sent; the field empties', async () => {
  const app = await open('/mes-collaborateurs')
  const region = await screen.findByRole('region', { name: 'Recommander Domicilium' })
  fireEvent.click(within(region).getByRole('button', { name: 'Envoyer la recommandation' }))
  await within(region).findByText(/Saisissez l’adresse e-mail de la personne/)
  type('Son adresse e-mail', 'ami@example.com', region)
  fireEvent.click(within(region).getByRole('button', { name: 'Envoyer la recommandation' }))
  await waitFor(() =>
    assert.equal(
      app.calls.people.filter(([n]) => n === 'sendInvite'),
      [['sendInvite', { email: 'ami@example.com' }]],
    ),
  )
  await waitFor(() => assert.is((within(region).getByLabelText('Son adresse e-mail') as HTMLInputElement).value, ''))
})

Collaborators.run()

// ——— /mes-representants
const Representatives = suite('/mes-representants')
Representatives.before.each(() => setViewport(360, 740))
Representatives.after.each(() => cleanup())

Representatives(
  'on a phone: the list; add with all four fields, the phone normalised; remove after a confirmation, the focus then on the heading',
  async () => {
    const app = await open('/mes-representants')
    const list = await screen.findByRole('list', { name: 'Représentants' })
    assert.match(list.textContent!, 'Léa Fontaine')
    assert.match(list.textContent!, '06 45 23 17 89')
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter un représentant' }))
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un représentant' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ajouter' }))
    await within(dialog).findByText('Indiquez le prénom.')
    within(dialog).getByText(/Saisissez un numéro français/)
    type('Prénom', 'Paul', dialog)
    type('Nom', 'Durand', dialog)
    type('Adresse e-mail', 'paul@example.com', dialog)
    type('Téléphone', '+44 20 7946 0958', dialog)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ajouter' }))
    await within(dialog).findByText(/Saisissez un numéro français/)
    type('Téléphone', '+33 (0)6 11 22 33 44', dialog)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ajouter' }))
    await waitFor(() => assert.match(screen.getByRole('list', { name: 'Représentants' }).textContent!, 'Paul Durand'))
    assert.equal(
      app.calls.people.filter(([n]) => n === 'addMandataire'),
      [['addMandataire', 2, { firstname: 'Paul', lastname: 'Durand', email: 'paul@example.com', phone: '06 11 22 33 44' }]],
    )
    const remove = screen.getByRole('button', { name: 'Retirer Léa Fontaine' })
    remove.focus()
    fireEvent.click(remove)
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Retirer Léa Fontaine ?' })).getByRole('button', {
        name: 'Retirer le représentant',
      }),
    )
    await waitFor(() => assert.not.match(screen.getByRole('list', { name: 'Représentants' }).textContent!, 'Léa'))
    // Its "Retirer" is gone: the focus goes to the list's heading, not to the page.
    await waitFor(() =>
      assert.ok(
        document.activeElement === screen.getByRole('heading', { name: 'Mes représentants', level: 2 }),
        `the focus is on ${document.activeElement?.tagName}`,
      ),
    )
  },
)

Representatives('a failed addition keeps what was typed; an empty list says so in words', async () => {
  await open('/mes-representants', { representatives: [], fails: ['addRepresentative'] })
  await screen.findByText(/Aucun représentant pour le moment/)
  fireEvent.click(screen.getByRole('button', { name: 'Ajouter un représentant' }))
  const dialog = await screen.findByRole('dialog', { name: 'Ajouter un représentant' })
  type('Prénom', 'Paul', dialog)
  type('Nom', 'Durand', dialog)
  type('Adresse e-mail', 'paul@example.com', dialog)
  type('Téléphone', '0611223344', dialog)
  fireEvent.click(within(dialog).getByRole('button', { name: 'Ajouter' }))
  await within(dialog).findByText(/momentanément indisponible/)
  assert.is((within(dialog).getByLabelText('Prénom') as HTMLInputElement).value, 'Paul')
})

Representatives('reached from the packages page: "Qui peut retirer mes colis ?"', async () => {
  const app = await open('/mes-courriers/colis')
  fireEvent.click(await screen.findByRole('link', { name: 'Qui peut retirer mes colis ?' }))
  await waitFor(() => assert.is(app.currentPath(), '/mes-representants'))
  await screen.findByRole('list', { name: 'Représentants' })
})

Representatives.run()

// ——— /invitation/:token and /login
const Invitation = suite('/invitation/:token, and passkeys on /login')
Invitation.before.each(() => setViewport(360, 740))
Invitation.after.each(() => {
  cleanup()
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential
})

const forNina = { email: 'nina@example.com', raisonSociale: 'Boulangerie des Lilas SAS', invitedBy: 'Camille Martin', hasAccount: false }

Invitation('a new address: first name, last name, a password under the rule; signed in, on the shared order', async () => {
  const app = await renderApp('/invitation/jeton-7', { people: { invitation: forNina } })
  await screen.findByText(/Camille Martin vous invite à consulter le courrier et les colis de/)
  fireEvent.click(screen.getByRole('button', { name: 'Créer mon accès et accepter' }))
  await screen.findByText('Indiquez votre prénom.')
  type('Prénom', 'Nina')
  type('Nom', 'Roussel')
  type('Mot de passe', 'azerty123456')
  await screen.findByText('au moins 12 caractères (12 pour l’instant) ✓')
  type('Confirmez le mot de passe', 'azerty123456')
  fireEvent.click(screen.getByRole('button', { name: 'Créer mon accès et accepter' }))
  await screen.findByText(/fait partie des plus courants/)
  type('Mot de passe', 'une phrase de passe')
  type('Confirmez le mot de passe', 'une phrase de passe')
  fireEvent.click(screen.getByRole('button', { name: 'Créer mon accès et accepter' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  assert.equal(
    app.calls.people.find(([n]) => n === 'createInvitationAccount'),
    ['createInvitationAccount', 'jeton-7', { firstname: 'Nina', lastname: 'Roussel', password: 'une phrase de passe' }],
  )
  assert.is(app.session.getSnapshot().context.user?.email, 'nina@example.com')
  assert.is(app.session.getSnapshot().context.openOrder, 2, 'the portal opens on the shared order')
  assert.ok(app.calls.notices.some((n) => n.message === INVITATION_ACCEPTED))
})

Invitation('an existing account: its password, then accepted with the new token, before the session keeps it', async () => {
  const app = await renderApp('/invitation/jeton-8', {
    people: { invitation: { ...forNina, email: 'demo@example.com', hasAccount: true } },
  })
  await screen.findByText(/connectez-vous pour accepter/)
  type('Mot de passe', 'faux')
  fireEvent.click(screen.getByRole('button', { name: 'Me connecter et accepter' }))
  await screen.findByText('Identifiants incorrects')
  type('Mot de passe', 'Demo1234!')
  fireEvent.click(screen.getByRole('button', { name: 'Me connecter et accepter' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  assert.equal(
    app.calls.people.find(([n]) => n === 'acceptInvitation'),
    ['acceptInvitation', 'jeton-8', F.authUser.apiToken],
  )
})

Invitation('an expired link says so in French, with a way to sign in', async () => {
  await renderApp('/invitation/jeton-9', {
    people: { invitation: 'Cette invitation a expiré. Demandez à Camille Martin de vous inviter à nouveau.' },
  })
  await screen.findByText('Cette invitation a expiré. Demandez à Camille Martin de vous inviter à nouveau.')
  screen.getByRole('link', { name: 'Connectez-vous' })
  assert.is(screen.queryByRole('button', { name: 'Réessayer' }), null, 'that link will never work')
})

Invitation(
  'the service unavailable is not a bad link: it says so, « Réessayer » reads the link again, the focus on the title',
  async () => {
    const app = await renderApp('/invitation/jeton-12', { people: { invitation: forNina, invitationUnavailableOnce: true } })
    const alert = await screen.findByRole('alert')
    assert.match(alert.textContent!, /momentanément indisponible/)
    assert.is(screen.queryByRole('link', { name: 'Connectez-vous' }), null)
    const retry = within(alert).getByRole('button', { name: 'Réessayer' })
    retry.focus()
    fireEvent.click(retry)
    await screen.findByRole('button', { name: 'Créer mon accès et accepter' })
    assert.equal(
      app.calls.people.filter(([name]) => name === 'getInvitation'),
      [
        ['getInvitation', 'jeton-12'],
        ['getInvitation', 'jeton-12'],
      ],
    )
    await waitFor(() => assert.is(document.activeElement, screen.getByRole('heading', { level: 1, name: 'Invitation' })))
  },
)

Invitation('signed in with another account: asked to sign out first', async () => {
  await renderApp('/invitation/jeton-10', { signedIn: true, defaultOrder: 2, people: { invitation: forNina } })
  await screen.findByText(/envoyée à nina@example.com, mais vous êtes connecté avec demo@example.com/)
  fireEvent.click(screen.getByRole('button', { name: 'Me déconnecter pour continuer' }))
  await screen.findByRole('button', { name: 'Créer mon accès et accepter' })
})

Invitation('/login offers "Se connecter avec une clé d’accès" where the browser has passkeys', async () => {
  await renderApp('/login')
  await screen.findByRole('button', { name: 'Se connecter' })
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.is(screen.queryByRole('button', { name: 'Se connecter avec une clé d’accès' }), null, 'not without WebAuthn')
  cleanup()
  ;(window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {}
  await renderApp('/login')
  await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })
})

Invitation.run()

// ——— /retablir-adresse/:token (« Ce n’était pas vous ? »)
const Revert = suite('/retablir-adresse/:token: the link of an address change’s notice')
Revert.before.each(() => setViewport(360, 740))
Revert.after.each(() => cleanup())

const RESTORED =
  'Votre adresse demo@example.com est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.'
const USED =
  'Ce lien a déjà servi : l’adresse a déjà été rétablie. Pour vous connecter, choisissez un nouveau mot de passe avec « Mot de passe oublié ? ».'

Revert(
  'what will happen, then « Rétablir mon adresse » sends the link once; the server’s message, focused; the way to sign in',
  async () => {
    const app = await renderApp('/retablir-adresse/jeton-11', { people: { emailRevert: { message: RESTORED } } })
    await screen.findByRole('heading', { name: 'Rétablir mon adresse e-mail' })
    screen.getByText(/toutes les connexions à votre espace sont fermées/)
    assert.equal(app.calls.people, [], 'nothing sent before the click')
    const button = screen.getByRole('button', { name: 'Rétablir mon adresse' })
    fireEvent.click(button)
    fireEvent.click(button)
    const done = await screen.findByText(RESTORED)
    await waitFor(() => assert.is(document.activeElement, done.closest('[role="status"]'), 'the message is focused'))
    assert.equal(app.calls.people, [['revertEmailChange', 'jeton-11']], 'sent once')
    assert.is(app.currentPath(), '/retablir-adresse/jeton-11', 'no sign-in asked')
    fireEvent.click(screen.getByRole('link', { name: 'Aller à la connexion' }))
    await waitFor(() => assert.is(app.currentPath(), '/login'))
  },
)

Revert('a used link (410): the server’s words, focused, no retry, the way to a new password', async () => {
  const app = await renderApp('/retablir-adresse/jeton-12', { people: { emailRevert: { status: 410, message: USED } } })
  fireEvent.click(await screen.findByRole('button', { name: 'Rétablir mon adresse' }))
  const refused = await screen.findByText(USED)
  await waitFor(() => assert.is(document.activeElement, refused.closest('[role="alert"]')))
  assert.is(screen.queryByRole('button', { name: 'Réessayer' }), null)
  assert.is(screen.getByRole('link', { name: 'choisir un nouveau mot de passe' }).getAttribute('href'), '/reset-password')
  assert.is(app.calls.people.length, 1)
})

Revert('another failure (429): its message and « Réessayer », which sends again', async () => {
  const app = await renderApp('/retablir-adresse/jeton-13', {
    people: { emailRevert: { status: 429, message: 'Trop de tentatives : veuillez patienter une minute avant de réessayer.' } },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Rétablir mon adresse' }))
  const failed = await screen.findByText('Trop de tentatives : veuillez patienter une minute avant de réessayer.')
  await waitFor(() => assert.is(document.activeElement, failed.closest('[role="alert"]')))
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await waitFor(() => assert.is(app.calls.people.length, 2))
})

Revert.run()
