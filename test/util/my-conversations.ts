// « Mes échanges »'s answers as the server gives them, for the portal's machine and view tests.
import type { PortalConversation, PortalConversationSummary } from '../../server/contract/notifications.ts'

export const myConversationSummary = (id: number, extra: Partial<PortalConversationSummary> = {}): PortalConversationSummary => ({
  id,
  orderId: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  subject: 'Signaler un problème',
  status: 'open',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastMessageAt: '2026-11-20T10:00:00.000Z',
  lastAuthor: 'operator',
  lastMessage: 'Bonjour, nous la numérisons à nouveau.',
  ...extra,
})

export const myConversation = (id: number, extra: Partial<PortalConversation> = {}): PortalConversation => ({
  ...myConversationSummary(id),
  closedAt: null,
  messages: [
    {
      id: 1,
      body: 'La lettre de l’URSSAF est illisible.',
      createdAt: '2026-11-20T09:00:00.000Z',
      author: { kind: 'customer', name: 'Camille Martin' },
    },
    {
      id: 2,
      body: 'Bonjour, nous la numérisons à nouveau.',
      createdAt: '2026-11-20T10:00:00.000Z',
      author: { kind: 'operator', name: 'Inès Garnier' },
    },
  ],
  ...extra,
})

/** The conversation once the customer answered it (open again if it was closed). */
export const answeredByCustomer = (id: number, body: string): PortalConversation => {
  const before = myConversation(id)
  return {
    ...before,
    status: 'open',
    closedAt: null,
    lastAuthor: 'customer',
    lastMessage: body,
    lastMessageAt: '2026-11-20T11:00:00.000Z',
    messages: [
      ...before.messages,
      { id: 3, body, createdAt: '2026-11-20T11:00:00.000Z', author: { kind: 'customer', name: 'Camille Martin' } },
    ],
  }
}
