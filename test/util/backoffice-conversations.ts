// Messages' answers as the server gives them, for the back office's machine and view tests.
import type { ConversationSummary, OperatorConversation } from '../../server/contract/notifications-backoffice.ts'

export const conversationSummary = (id: number, extra: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id,
  orderId: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  subject: 'Signaler un problème',
  status: 'open',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastMessageAt: '2026-11-20T09:00:00.000Z',
  waitingSince: '2026-11-20T09:00:00.000Z',
  messageCount: 1,
  lastMessage: 'La lettre de l’URSSAF est illisible.',
  ...extra,
})

export const conversation = (id: number, extra: Partial<OperatorConversation> = {}): OperatorConversation => ({
  ...conversationSummary(id),
  closedAt: null,
  closedBy: null,
  messages: [
    {
      id: 1,
      body: 'La lettre de l’URSSAF est illisible.',
      createdAt: '2026-11-20T09:00:00.000Z',
      author: { kind: 'customer', name: 'Camille Martin' },
    },
  ],
  ...extra,
})

/** The conversation once an operator answered it. */
export const answered = (id: number, body: string, by = 'Inès Garnier'): OperatorConversation => {
  const before = conversation(id)
  return {
    ...before,
    waitingSince: null,
    messageCount: 2,
    lastMessage: body,
    messages: [...before.messages, { id: 2, body, createdAt: '2026-11-20T10:00:00.000Z', author: { kind: 'operator', name: by } }],
  }
}

export const closedConversation = (id: number): OperatorConversation => ({
  ...conversation(id),
  status: 'closed',
  closedAt: '2026-11-20T11:00:00.000Z',
  closedBy: 'Inès Garnier',
})
