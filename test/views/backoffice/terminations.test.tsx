// Résiliations in happy-dom: the requests waiting first; « Accepter » with an end date (the customer's day proposed, a
// past day refused in French before anything is sent, a refusal of the server said with the date kept); « Contacter le
// client » (a blank message refused) opens the conversation in Messages; a Courrier operator's « Accès réservé ».
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { TERMINATION_MESSAGES } from '../../../src/backoffice/machines/billing/terminations.machine.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { conversation, conversationSummary } from '../../util/backoffice-conversations.ts'
import { acceptedTermination, termination } from '../../util/backoffice-terminations.ts'

const conformite = { id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite' as const] }
const message = 'Bonjour, où devons-nous réexpédier le courrier après la fin ?'

const Terminations = suite('back office: Résiliations')
Terminations.after.each(() => cleanup())

Terminations('a Courrier operator: no entry, « Accès réservé », no call', async () => {
  const app = await renderBackOffice('/operateur/resiliations', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.not.ok(screen.queryByRole('link', { name: 'Résiliations' }))
  assert.equal(app.called('getTerminations'), [])
})

Terminations('waiting ones first; « Accepter » proposes the customer’s day, refuses a past one, accepts a valid one', async () => {
  const app = await renderBackOffice('/operateur/resiliations', {
    signedIn: conformite,
    answers: {
      getTerminations: [[termination(3), acceptedTermination(4, '2026-12-15')]],
      acceptTermination: [acceptedTermination(3, '2027-01-15')],
    },
  })
  assert.ok(await screen.findByRole('link', { name: 'Résiliations' }), 'in the menu')
  await screen.findByText('1 demande en attente, la plus ancienne en premier ; puis les résiliations acceptées.')
  const cards = within(screen.getByRole('region', { name: 'Demandes de résiliation' })).getAllByRole('listitem')
  assert.match(cards[0]!.textContent!, 'Résiliation 3 SARL')
  assert.match(cards[0]!.textContent!, 'En attente')
  assert.match(cards[1]!.textContent!, 'Acceptée par Léa Fontaine : fin le 15 décembre 2026')
  assert.not.ok(within(cards[1]!).queryByRole('button', { name: /^Accepter/ }), 'an accepted one is not accepted again')
  fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Accepter la résiliation de Résiliation 3 SARL' }))
  const date = (await screen.findByLabelText('Date de fin de la domiciliation')) as HTMLInputElement
  assert.is(date.type, 'date')
  assert.is(date.value, '2026-12-31', 'the customer’s day')
  fireEvent.change(date, { target: { value: '2020-01-01' } })
  fireEvent.click(screen.getByRole('button', { name: 'Accepter la résiliation' }))
  assert.ok(await screen.findByText(TERMINATION_MESSAGES.pastEndDate))
  assert.is(date.getAttribute('aria-invalid'), 'true')
  assert.equal(app.called('acceptTermination'), [], 'nothing sent')
  fireEvent.change(date, { target: { value: '2027-01-15' } })
  fireEvent.click(screen.getByRole('button', { name: 'Accepter la résiliation' }))
  await screen.findByText('Acceptée par Léa Fontaine : fin le 15 janvier 2027')
  assert.equal(app.called('acceptTermination'), [[3, { endDate: '2027-01-15' }]])
  assert.equal(app.notices.at(-1), {
    kind: 'success',
    message: 'Résiliation de Résiliation 3 SARL acceptée : la domiciliation prend fin le 15 janvier 2027.',
  })
})

Terminations('a refusal of the server is said, the date kept as typed', async () => {
  await renderBackOffice('/operateur/resiliations', {
    signedIn: ines,
    answers: {
      getTerminations: [[termination(3)]],
      acceptTermination: [apiError(409, 'Cette résiliation est déjà acceptée, pour le 31 décembre 2026 : rien n’a été changé.')],
    },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Accepter la résiliation de Résiliation 3 SARL' }))
  const date = (await screen.findByLabelText('Date de fin de la domiciliation')) as HTMLInputElement
  fireEvent.change(date, { target: { value: '2027-02-01' } })
  fireEvent.click(screen.getByRole('button', { name: 'Accepter la résiliation' }))
  await screen.findByText(/déjà acceptée/)
  assert.is((screen.getByLabelText('Date de fin de la domiciliation') as HTMLInputElement).value, '2027-02-01')
})

Terminations('« Contacter le client »: a blank message refused; sent, the conversation opens in Messages', async () => {
  const app = await renderBackOffice('/operateur/resiliations', {
    signedIn: conformite,
    answers: {
      getTerminations: [[termination(3), termination(5, { conversationId: 12 })]],
      contactTermination: [termination(3, { conversationId: 77 })],
      getConversations: [[conversationSummary(77)]],
      getConversation: [conversation(77, { subject: 'Votre demande de résiliation', raisonSociale: 'Résiliation 3 SARL' })],
    },
  })
  await screen.findByRole('link', { name: 'Voir la conversation avec le client' })
  fireEvent.click(screen.getByRole('button', { name: 'Contacter le client : Résiliation 3 SARL' }))
  const field = await screen.findByLabelText(/Votre message au client/)
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer et ouvrir la conversation' }))
  assert.ok(await screen.findByText(TERMINATION_MESSAGES.message))
  assert.equal(app.called('contactTermination'), [])
  fireEvent.change(field, { target: { value: message } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer et ouvrir la conversation' }))
  await screen.findByRole('heading', { name: /Votre demande de résiliation — Résiliation 3 SARL/ })
  assert.equal(app.called('contactTermination'), [[3, { message }]])
  assert.is(app.path(), '/operateur/messages/77')
  assert.equal(app.called('getConversation'), [[77]])
  assert.equal(app.notices.at(-1), {
    kind: 'success',
    message: 'Message envoyé à Résiliation 3 SARL : la conversation est ouverte dans Messages.',
  })
})

Terminations.run()
