// « Mes échanges »: the list (open ones first, empty, error with « Réessayer »), one conversation read (who wrote each
// message and when), an answer (sent, refused and kept as typed, blank), a closed one reopened by the answer, the menu's
// entry, the bell's news read again without losing what is typed, an unknown conversation, 360 px.
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PortalConversation } from '../../../server/contract/notifications.ts'
import { setViewport } from '../../util/dom.ts'
import { myConversation } from '../../util/my-conversations.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'

const lilas = (id: number, extra: Partial<PortalConversation> = {}) => myConversation(id, { orderId: 2, ...extra })
const closed = lilas(4, {
  subject: 'Résiliation',
  status: 'closed',
  closedAt: '2026-11-18T10:00:00.000Z',
  lastMessageAt: '2026-11-18T10:00:00.000Z',
  lastAuthor: 'operator',
})
const open = (path: string, scenario: Scenario & { defaultOrder?: number | 'all' } = {}) =>
  renderApp(path, { signedIn: true, defaultOrder: 2, ...scenario })

const Page = suite('« Mes échanges »')
Page.before.each(() => setViewport(1280))
Page.after.each(() => cleanup())

Page('the list: open ones first, each a link to its conversation; the menu’s entry after the spec’s', async () => {
  const app = await open('/mes-echanges', {
    notifications: { conversations: [closed, lilas(3, { lastMessageAt: '2026-11-10T10:00:00.000Z' })] },
  })
  const card = await screen.findByRole('region', { name: 'Mes échanges' })
  const rows = await within(card).findAllByRole('listitem')
  assert.equal(
    rows.map((r) => within(r).getByRole('link').textContent),
    ['Signaler un problème — Boulangerie des Lilas SAS', 'Résiliation — Boulangerie des Lilas SAS'],
  )
  assert.match(rows[0]!.textContent!, 'Ouverte')
  assert.match(rows[1]!.textContent!, 'Close')
  assert.match(rows[0]!.textContent!, 'Réponse de notre équipe')
  assert.equal(
    app.calls.notifications.filter(([n]) => n === 'getConversations'),
    [['getConversations', 2]],
  )
  const nav = screen.getByRole('navigation', { name: 'Rubriques' })
  const labels = within(nav)
    .getAllByRole('link')
    .map((a) => a.textContent!.trim())
  assert.is(labels[labels.indexOf('Gestion de mon entreprise') + 1], 'Mes échanges', labels.join(', '))
  fireEvent.click(within(rows[0]!).getByRole('link'))
  await screen.findByRole('list', { name: 'Messages' })
  assert.is(app.currentPath(), '/mes-echanges/3')
  assert.is(document.title, 'Mes échanges · Espace client')
})

Page('empty in words; a failed load says why and « Réessayer » reads it again', async () => {
  await open('/mes-echanges', { notifications: { conversations: [], fails: ['conversations'] } })
  const card = await screen.findByRole('region', { name: 'Mes échanges' })
  assert.match((await within(card).findByRole('alert')).textContent!, 'momentanément indisponible')
  fireEvent.click(within(card).getByRole('button', { name: 'Réessayer' }))
  await within(card).findByText(/Aucun échange pour le moment/)
})

Page('one conversation: each message with who wrote it and when; an answer sent, the field emptied', async () => {
  const app = await open('/mes-echanges/3', { notifications: { conversations: [lilas(3)] } })
  const messages = await screen.findByRole('list', { name: 'Messages' })
  const items = within(messages).getAllByRole('listitem')
  assert.match(items[0]!.textContent!, /^Camille Martin le 20 novembre 2026 à \d\d:00La lettre de l’URSSAF est illisible\.$/)
  assert.match(
    items[1]!.textContent!,
    /^Inès Garnier, de notre équipe le 20 novembre 2026 à \d\d:00Bonjour, nous la numérisons à nouveau\.$/,
  )
  const field = screen.getByLabelText('Votre message') as HTMLTextAreaElement
  fireEvent.change(field, { target: { value: '  Merci, je l’attends.  ' } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }))
  await waitFor(() => assert.is(within(messages).getAllByRole('listitem').length, 3))
  assert.equal(
    app.calls.notifications.filter(([n]) => n === 'answerConversation'),
    [['answerConversation', 3, 'Merci, je l’attends.']],
  )
  assert.is(field.value, '')
  assert.equal(app.calls.notices.at(-1), { kind: 'success', message: 'Message envoyé : notre équipe vous répondra ici.' })
})

Page('a blank answer is not sent; a refused one stays as typed under the reason', async () => {
  const app = await open('/mes-echanges/3', { notifications: { conversations: [lilas(3)], fails: ['answer'] } })
  const field = (await screen.findByLabelText('Votre message')) as HTMLTextAreaElement
  fireEvent.change(field, { target: { value: '   ' } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }))
  assert.is((await screen.findByRole('alert')).textContent, 'Écrivez votre message avant de l’envoyer.')
  assert.is(field.getAttribute('aria-invalid'), 'true')
  fireEvent.change(field, { target: { value: 'Toujours rien reçu.' } })
  fireEvent.submit(field.form!)
  const alert = await screen.findByText(/Votre message n’a pas été envoyé/)
  assert.match(alert.textContent!, 'momentanément indisponible')
  assert.is(field.value, 'Toujours rien reçu.')
  assert.equal(
    app.calls.notifications.filter(([n]) => n === 'answerConversation'),
    [['answerConversation', 3, 'Toujours rien reçu.']],
  )
})

Page('a closed conversation says the answer reopens it, and the answer does', async () => {
  await open('/mes-echanges/4', { notifications: { conversations: [closed] } })
  await screen.findByText('Votre réponse la rouvrira.')
  fireEvent.change(screen.getByLabelText('Votre message'), { target: { value: 'Une dernière question.' } })
  fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }))
  await waitFor(() => assert.not.ok(screen.queryByText('Votre réponse la rouvrira.')))
  assert.ok(screen.getByText('Ouverte'))
})

Page('the bell’s news of an answer reads the conversation again; what is being typed stays', async () => {
  const conversation = lilas(3)
  const app = await open('/mes-echanges/3', { notifications: { conversations: [conversation] } })
  const field = (await screen.findByLabelText('Votre message')) as HTMLTextAreaElement
  fireEvent.change(field, { target: { value: 'Je commence à écrire' } })
  await waitFor(() => assert.ok(app.calls.live))
  await act(async () =>
    app.calls.live!.push({
      id: 50,
      kind: 'message',
      orderId: 2,
      title: 'Nouvelle réponse',
      body: 'Signaler un problème — Boulangerie des Lilas SAS',
      createdAt: new Date().toISOString(),
      read: false,
      link: '/mes-echanges/3',
    }),
  )
  await waitFor(() => assert.is(app.calls.notifications.filter(([n]) => n === 'getConversation').length, 2))
  assert.is(field.value, 'Je commence à écrire')
})

Page('a conversation that is not the person’s, or no number: « introuvable », in French, with nothing to retry', async () => {
  const app = await open('/mes-echanges/999', { notifications: { conversations: [lilas(3)] } })
  assert.match((await screen.findByRole('alert')).textContent!, 'Conversation introuvable.')
  assert.ok(screen.getByRole('link', { name: '← Tous mes échanges' }))
  assert.is(screen.queryByRole('button', { name: 'Réessayer' }), null, 'a 404 is not retried')
  assert.equal(
    app.calls.notifications.filter(([n]) => n === 'getConversation'),
    [['getConversation', 999]],
  )
  cleanup()
  const again = await open('/mes-echanges/abc', { notifications: { conversations: [lilas(3)] } })
  assert.match((await screen.findByRole('alert')).textContent!, 'Conversation introuvable.')
  assert.is(screen.queryByRole('button', { name: 'Réessayer' }), null)
  assert.equal(
    again.calls.notifications.filter(([n]) => n === 'getConversation'),
    [],
    'an address that names no conversation asks nothing (it asked for conversation 0)',
  )
})

Page('at 360 px: the conversation, its answer field and its button are on screen', async () => {
  setViewport(360)
  await open('/mes-echanges/3', { notifications: { conversations: [lilas(3)] } })
  await screen.findByRole('list', { name: 'Messages' })
  assert.ok(screen.getByLabelText('Votre message'))
  assert.ok(screen.getByRole('button', { name: 'Envoyer' }))
})

Page.run()
