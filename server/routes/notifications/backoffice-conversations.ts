// The back office's Messages (roles Conformité and Administrateur): every conversation, open ones first, the one waiting
// longest first; an answer (the customers who wrote are e-mailed, the order's bell rings), « Clore », « Rouvrir ».
// Every write journaled in its transaction.
import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, notFound } from '../../http/errors.ts'
import {
  addConversationMessage,
  conversationCustomers,
  listConversationsForOperators,
  lockConversation,
  setConversationStatus,
} from '../../db/repositories/notifications-conversations.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import type { SessionOperator } from '../../db/repositories/operators.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { mailReply, operatorConversation, operatorSummary, recordReplyEvent } from '../../services/conversations.ts'

export const conversationMessages = {
  empty: 'Écrivez votre réponse avant de l’envoyer.',
  closed: 'Cette conversation est close : rouvrez-la avant d’y répondre.',
  alreadyClosed: 'Cette conversation est déjà close.',
  alreadyOpen: 'Cette conversation est déjà ouverte.',
}

/**
 * An operator's message in a conversation, in the caller's transaction: added, journaled, the order's bell rung. The
 * e-mails leave once the transaction has committed (`mailReply`), to the customers `conversationCustomers` names.
 */
export async function writeOperatorMessage(
  trx: Parameters<typeof recordJournal>[0],
  operator: Pick<SessionOperator, 'id' | 'name'>,
  conversation: { id: number; order_id: number; subject: string; raison_sociale: string },
  body: string,
  at: Date,
  action = 'conversation.replied',
) {
  await addConversationMessage(trx, conversation.id, { operatorId: operator.id }, body, at)
  await recordJournal(trx, {
    actor: { operatorId: operator.id },
    action,
    orderId: conversation.order_id,
    summary: `Réponse de ${operator.name} à « ${conversation.subject} » (${conversation.raison_sociale})`,
    after: { conversationId: conversation.id, message: body },
    at,
  })
  await recordReplyEvent(trx, {
    conversationId: conversation.id,
    orderId: conversation.order_id,
    subject: conversation.subject,
    raisonSociale: conversation.raison_sociale,
    at,
  })
}

export function conversationBackofficeRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps

  define('operatorConversations', async ({ query }) =>
    (await listConversationsForOperators(db, { status: query.status, orderId: query.orderId })).map(operatorSummary),
  )

  define('operatorConversation', async ({ params }) => {
    const found = await operatorConversation(db, params.id)
    if (!found) throw notFound('Conversation')
    return found
  })

  define('operatorReplyConversation', async ({ params, body, operator, req }) => {
    if (isBlank(body.message)) throw badRequest(conversationMessages.empty)
    const text = body.message.trim()
    const now = clock.now()
    const conversation = await db.transaction().execute(async (trx) => {
      const found = await lockConversation(trx, params.id)
      if (!found) throw notFound('Conversation')
      if (found.status === 'closed') throw conflict(conversationMessages.closed)
      await writeOperatorMessage(trx, operator, found, text, now)
      return found
    })
    const to = await conversationCustomers(db, conversation.id, conversation.order_id)
    await mailReply(
      { ...deps, log: req.log as FastifyBaseLogger },
      { conversationId: conversation.id, operatorName: operator.name, raisonSociale: conversation.raison_sociale, body: text, to },
    )
    return (await operatorConversation(db, params.id))!
  })

  const setStatus =
    (status: 'open' | 'closed') =>
    async ({ params, operator }: { params: { id: number }; operator: SessionOperator }) => {
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        const found = await lockConversation(trx, params.id)
        if (!found) throw notFound('Conversation')
        if (found.status === status)
          throw conflict(status === 'closed' ? conversationMessages.alreadyClosed : conversationMessages.alreadyOpen)
        await setConversationStatus(trx, found.id, status, operator.id, now)
        await recordJournal(trx, {
          actor: { operatorId: operator.id },
          action: status === 'closed' ? 'conversation.closed' : 'conversation.reopened',
          orderId: found.order_id,
          summary: `« ${found.subject} » (${found.raison_sociale}) ${status === 'closed' ? 'close' : 'rouverte'} par ${operator.name}`,
          before: { status: found.status },
          after: { status },
          at: now,
        })
      })
      return (await operatorConversation(db, params.id))!
    }

  define('operatorCloseConversation', setStatus('closed'))
  define('operatorReopenConversation', setStatus('open'))
}
