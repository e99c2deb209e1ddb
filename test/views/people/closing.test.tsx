// /informations-personnelles: « Fermer mon compte » (what goes and what stays, the password, the server's refusal in its
// words, the session ended once closed) and « Quitter cette domiciliation » for a collaborator.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type PeopleScenario } from '../../util/services.tsx'

const open = (people: PeopleScenario = {}, orders = [F.atelier, F.boulangerie, F.studio, F.conseil]) =>
  renderApp('/informations-personnelles', { signedIn: true, defaultOrder: 2, orders: [...orders], people })
const ACTIVE =
  'Votre domiciliation Boulangerie des Lilas SAS est active : demandez d’abord sa résiliation dans « Mes abonnements » ; vous pourrez fermer votre compte une fois la date de résiliation passée.'

async function openDialog() {
  const section = await screen.findByRole('region', { name: 'Fermer mon compte' })
  fireEvent.click(within(section).getByRole('button', { name: 'Fermer mon compte' }))
  return screen.findByRole('dialog', { name: 'Fermer votre compte ?' })
}

const Close = suite('« Fermer mon compte »')
Close.before.each(() => setViewport(1280))
Close.after.each(() => cleanup())

Close('the dialog says what goes and what the law keeps; « Garder mon compte » closes nothing', async () => {
  const app = await open()
  const dialog = await openDialog()
  assert.match(dialog.textContent!, 'vos connexions sur tous vos appareils')
  assert.match(dialog.textContent!, 'les factures et avoirs pendant dix ans')
  assert.match(dialog.textContent!, 'cinq ans après sa fin')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Garder mon compte' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.not.ok(app.calls.people.some(([name]) => name === 'closeAccount'))
})

Close('an empty or wrong password is said at the field; the dialog stays', async () => {
  const app = await open()
  fireEvent.click(within(await openDialog()).getByRole('button', { name: 'Continuer' }))
  const dialog = await screen.findByRole('dialog', { name: 'Confirmez avec votre mot de passe' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Fermer définitivement mon compte' }))
  await within(dialog).findByText('Saisissez votre mot de passe pour confirmer.')
  fireEvent.change(within(dialog).getByLabelText('Mot de passe'), { target: { value: 'pas le bon' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Fermer définitivement mon compte' }))
  await within(dialog).findByText('Le mot de passe est incorrect : votre compte n’a pas été fermé.')
  assert.is(within(dialog).getByLabelText('Mot de passe').getAttribute('aria-invalid'), 'true')
  assert.equal(
    app.calls.people.filter(([name]) => name === 'closeAccount'),
    [['closeAccount', { password: 'pas le bon' }]],
  )
})

Close('a domiciliation still active: the server’s reason, nothing to retry', async () => {
  await open({ closeRefusal: ACTIVE })
  fireEvent.click(within(await openDialog()).getByRole('button', { name: 'Continuer' }))
  const dialog = await screen.findByRole('dialog', { name: 'Confirmez avec votre mot de passe' })
  fireEvent.change(within(dialog).getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Fermer définitivement mon compte' }))
  const refused = await screen.findByRole('dialog', { name: 'Votre compte ne peut pas encore être fermé' })
  assert.is(within(refused).getByRole('alert').textContent, ACTIVE)
  assert.is(within(refused).queryByLabelText('Mot de passe'), null)
  fireEvent.click(within(refused).getByRole('button', { name: 'J’ai compris' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
})

Close('closed: the toast says so and the session ends here, without a sign-out call (the server ended it)', async () => {
  const app = await open()
  fireEvent.click(within(await openDialog()).getByRole('button', { name: 'Continuer' }))
  const dialog = await screen.findByRole('dialog', { name: 'Confirmez avec votre mot de passe' })
  fireEvent.change(within(dialog).getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Fermer définitivement mon compte' }))
  await waitFor(() => assert.ok(app.session.getSnapshot().matches('signedOut')))
  assert.ok(app.calls.notices.some((n) => n.message === 'Votre compte est fermé. Un e-mail de confirmation vous a été envoyé.'))
  assert.not.ok(app.calls.people.some(([name]) => name === 'signOut'))
  assert.is(localStorage.getItem('user'), null)
})

Close.run()

const Leave = suite('« Quitter cette domiciliation »')
Leave.before.each(() => setViewport(1280))
Leave.after.each(() => cleanup())

Leave('only the orders shared with the person are listed; none, no section', async () => {
  await open()
  const section = await screen.findByRole('region', { name: 'Domiciliations partagées avec moi' })
  assert.equal(
    within(section)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('strong')!.textContent),
    ['Studio Nuage SAS'],
  )
  cleanup()
  await open({}, [F.atelier, F.boulangerie])
  await screen.findByRole('region', { name: 'Fermer mon compte' })
  assert.is(screen.queryByRole('region', { name: 'Domiciliations partagées avec moi' }), null)
})

Leave('after a confirmation: left, the portal starts again without it, on the dashboard', async () => {
  const app = await open()
  fireEvent.click(await screen.findByRole('button', { name: 'Quitter cette domiciliation : Studio Nuage SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Quitter Studio Nuage SAS ?' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Quitter cette domiciliation' }))
  await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
  assert.ok(app.calls.notices.some((n) => n.message === 'Vous n’avez plus accès au courrier de Studio Nuage SAS.'))
  assert.equal(
    app.calls.people.filter(([name]) => name === 'leaveSharedOrder'),
    [['leaveSharedOrder', F.studio.id]],
  )
  await waitFor(() => {
    const orders = app.session.getSnapshot().context.startup?.getSnapshot().context.orders ?? []
    assert.ok(orders.length === 3 && !orders.some((o) => o.id === F.studio.id))
  })
})

Leave('a refusal keeps the confirmation open with the reason; « Rester » closes it', async () => {
  await open({ leaveRefusal: 'Vous êtes titulaire de cette domiciliation : vous ne pouvez pas la quitter.' })
  fireEvent.click(await screen.findByRole('button', { name: 'Quitter cette domiciliation : Studio Nuage SAS' }))
  const dialog = await screen.findByRole('dialog', { name: 'Quitter Studio Nuage SAS ?' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Quitter cette domiciliation' }))
  await within(dialog).findByText('Vous êtes titulaire de cette domiciliation : vous ne pouvez pas la quitter.')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Rester' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
})

Leave.run()
