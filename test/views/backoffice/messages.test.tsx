// Messages in happy-dom: the open conversations, the one waiting longest first; one opened with who wrote each message;
// a blank answer refused at its field, an answer sent and shown; « Clore » then « Rouvrir »; the closed ones; a refusal
// of the server said, the answer kept; a Courrier operator's « Accès réservé ».
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CONVERSATION_MESSAGES } from '../../../src/backoffice/machines/notifications/conversations.machine.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { answered, closedConversation, conversation, conversationSummary } from '../../util/backoffice-conversations.ts'

const conformite = { id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite' as const] }
const reply = 'Bonjour, nous la numérisons à nouveau aujourd’hui.'

const Messages = suite('back office: Messages')
Messages.after.each(() => cleanup())

Messages('a Courrier operator: no entry, « Accès réservé », no call', async () => {
  const app = await renderBackOffice('/operateur/messages', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.not.ok(screen.queryByRole('link', { name: 'Messages' }))
  assert.equal(app.called('getConversations'), [])
})

Messages('the open ones; one opened; a blank answer refused, an answer sent; « Clore », « Rouvrir »', async () => {
  const app = await renderBackOffice('/operateur/messages', {
    signedIn: conformite,
    answers: {
      getConversations: [[conversationSummary(3), conversationSummary(5, { raisonSociale: 'Studio Nuage SAS', waitingSince: null })]],
      getConversation: [conversation(3)],
      replyConversation: [answered(3, reply, 'Léa Fontaine')],
      closeConversation: [{ ...closedConversation(3), closedBy: 'Léa Fontaine' }],
      reopenConversation: [answered(3, reply, 'Léa Fontaine')],
    },
  })
  assert.ok(await screen.findByRole('link', { name: 'Messages' }), 'in the menu')
  await screen.findByText('2 conversations, celle qui attend depuis le plus longtemps en premier.')
  assert.equal(app.called('getConversations'), [[{ status: 'open' }]])
  const lilas = screen.getByRole('listitem', { name: /Boulangerie des Lilas SAS/ })
  assert.ok(within(lilas).getByText(/Attend une réponse depuis le/))
  fireEvent.click(within(lilas).getByRole('button', { name: 'Ouvrir la conversation de Boulangerie des Lilas SAS : Signaler un problème' }))
  await screen.findByRole('heading', { name: /Signaler un problème — Boulangerie des Lilas SAS/ })
  assert.ok(screen.getByText('Camille Martin'))
  const field = screen.getByLabelText(/Votre réponse/)
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer la réponse' }))
  assert.ok(await screen.findByText(CONVERSATION_MESSAGES.empty))
  assert.equal(app.called('replyConversation'), [], 'nothing sent')
  fireEvent.change(field, { target: { value: reply } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer la réponse' }))
  await screen.findByText('Léa Fontaine (équipe)')
  assert.equal(app.called('replyConversation'), [[3, { message: reply }]])
  assert.is((screen.getByLabelText(/Votre réponse/) as HTMLTextAreaElement).value, '', 'emptied once sent')
  assert.equal(app.notices.at(-1), { kind: 'success', message: CONVERSATION_MESSAGES.replied('Boulangerie des Lilas SAS') })
  fireEvent.click(screen.getByRole('button', { name: 'Clore' }))
  await screen.findByRole('button', { name: 'Rouvrir' })
  assert.ok(screen.getByText(/par Léa Fontaine/))
  assert.not.ok(screen.queryByLabelText(/Votre réponse/), 'no answer to a closed one')
  fireEvent.click(screen.getByRole('button', { name: 'Rouvrir' }))
  await screen.findByRole('button', { name: 'Clore' })
  assert.equal(app.called('closeConversation'), [[3]])
  assert.equal(app.called('reopenConversation'), [[3]])
  fireEvent.click(screen.getByRole('button', { name: '← Retour aux conversations' }))
  await screen.findByRole('heading', { name: 'Conversations ouvertes' })
})

Messages('the closed ones; a refusal of the server said, the answer kept as typed', async () => {
  const app = await renderBackOffice('/operateur/messages', {
    signedIn: ines,
    answers: {
      getConversations: [[conversationSummary(3)], [conversationSummary(7, { status: 'closed', waitingSince: null })]],
      getConversation: [conversation(3)],
      replyConversation: [apiError(409, 'Cette conversation est close : rouvrez-la avant d’y répondre.')],
    },
  })
  await screen.findByText('1 conversation, celle qui attend depuis le plus longtemps en premier.')
  fireEvent.click(screen.getByRole('button', { name: /^Ouvrir la conversation/ }))
  const field = await screen.findByLabelText(/Votre réponse/)
  fireEvent.change(field, { target: { value: reply } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer la réponse' }))
  await screen.findByText('Cette conversation est close : rouvrez-la avant d’y répondre.')
  assert.is((screen.getByLabelText(/Votre réponse/) as HTMLTextAreaElement).value, reply)
  fireEvent.click(screen.getByRole('button', { name: '← Retour aux conversations' }))
  fireEvent.click(await screen.findByRole('button', { name: 'Closes' }))
  await screen.findByRole('heading', { name: 'Conversations closes' })
  await screen.findByText('1 conversation.')
  assert.equal(app.called('getConversations'), [[{ status: 'open' }], [{ status: 'closed' }]])
})

Messages.run()
