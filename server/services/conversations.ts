// A conversation of an order with the provider, as both sides read it, and what an operator's message sets off: the
// bell of its order (in the message's transaction) and, once committed, an e-mail to the customers concerned.
import type { FastifyBaseLogger } from 'fastify'
import type { ConversationMessage, PortalConversation } from '../contract/notifications.ts'
import type { OperatorConversation } from '../contract/notifications-backoffice.ts'
import type { Config } from '../config.ts'
import { conversationMessages, findConversation, type ConversationRow } from '../db/repositories/notifications-conversations.ts'
import type { Db } from '../db/schema.ts'
import type { Mailer } from './mailer.ts'
import { recordEvent } from './events.ts'

/** The portal's page of one conversation: the bell and the e-mails lead there. */
export const conversationPath = (id: number) => `/mes-echanges/${id}`

/** One line of at most 140 characters: a list's glimpse of the last message. */
const glimpse = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 140 ? `${line.slice(0, 139)}…` : line
}

async function messagesOf(db: Db, id: number): Promise<ConversationMessage[]> {
  return (await conversationMessages(db, id)).map((m) => ({
    id: m.id,
    body: m.body,
    createdAt: m.created_at.toISOString(),
    author:
      m.author_operator_id !== null
        ? { kind: 'operator', name: m.operator_name ?? '' }
        : { kind: 'customer', name: `${m.firstname ?? ''} ${m.lastname ?? ''}`.trim() },
  }))
}

export const operatorSummary = (row: ConversationRow) => ({
  id: row.id,
  orderId: row.order_id,
  raisonSociale: row.raison_sociale,
  subject: row.subject,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  lastMessageAt: row.last_message_at.toISOString(),
  waitingSince: row.waiting_since?.toISOString() ?? null,
  messageCount: row.message_count,
  lastMessage: glimpse(row.last_message ?? ''),
})

export const portalSummary = (row: ConversationRow) => ({
  id: row.id,
  orderId: row.order_id,
  raisonSociale: row.raison_sociale,
  subject: row.subject,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  lastMessageAt: row.last_message_at.toISOString(),
  lastAuthor: row.last_by_operator ? ('operator' as const) : ('customer' as const),
  lastMessage: glimpse(row.last_message ?? ''),
})

export async function operatorConversation(db: Db, id: number): Promise<OperatorConversation | null> {
  const row = await findConversation(db, id)
  if (!row) return null
  return {
    ...operatorSummary(row),
    closedAt: row.closed_at?.toISOString() ?? null,
    closedBy: row.closed_by_name,
    messages: await messagesOf(db, id),
  }
}

export async function portalConversation(db: Db, id: number): Promise<PortalConversation | null> {
  const row = await findConversation(db, id)
  if (!row) return null
  return { ...portalSummary(row), closedAt: row.closed_at?.toISOString() ?? null, messages: await messagesOf(db, id) }
}

/** The bell of the order, in the transaction of the operator's message. */
export function recordReplyEvent(
  trx: Db,
  reply: { conversationId: number; orderId: number; subject: string; raisonSociale: string; at: Date },
) {
  return recordEvent(trx, {
    kind: 'message',
    orderId: reply.orderId,
    title: 'Nouvelle réponse',
    body: `${reply.subject} — ${reply.raisonSociale}`,
    link: conversationPath(reply.conversationId),
    at: reply.at,
  })
}

/**
 * Once committed: the e-mail of an operator's message to each person named. An e-mail that cannot leave is logged and
 * left: the message is kept and the bell has rung. Answers the addresses reached.
 */
export async function mailReply(
  deps: { mailer: Mailer; config: Config; log: FastifyBaseLogger },
  reply: { conversationId: number; operatorName: string; raisonSociale: string; body: string; to: { email: string; firstname: string }[] },
): Promise<string[]> {
  const link = `${deps.config.publicUrl}${conversationPath(reply.conversationId)}`
  const reached: string[] = []
  for (const person of reply.to) {
    try {
      await deps.mailer.send({
        to: person.email,
        subject: `Nouveau message de ${deps.config.brandName} : ${reply.raisonSociale}`,
        text: `Bonjour ${person.firstname},\n\n${reply.operatorName}, de l’équipe ${deps.config.brandName}, vous a écrit au sujet de ${reply.raisonSociale} :\n\n${reply.body}\n\nLisez-le et répondez dans « Mes échanges » de votre espace client :\n${link}\n\n${deps.config.brandName}`,
        link,
      })
      reached.push(person.email)
    } catch (error) {
      deps.log.warn({ err: error, conversation: reply.conversationId }, 'e-mail d’une réponse non envoyé')
    }
  }
  return reached
}
