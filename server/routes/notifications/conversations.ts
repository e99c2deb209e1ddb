// « Mes échanges »: the conversations of the orders a person owns or shares, read and answered from the portal. A
// conversation of an order the person does not see is « introuvable » (404), as any other order's resource.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { NotFoundError } from '../../db/errors.ts'
import { requireOrder, scopedOrderIds } from '../../db/repositories/company-orders.ts'
import {
  addConversationMessage,
  findConversation,
  listConversationsOfOrders,
  lockConversation,
} from '../../db/repositories/notifications-conversations.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { portalConversation, portalSummary } from '../../services/conversations.ts'

export const ANSWER_EMPTY = 'Écrivez votre message avant de l’envoyer.'

export function conversationRoutes(define: DefineRoute, { db, clock }: AppDeps) {
  /** The conversation's order, if the person sees it; else the same 404 as a conversation that does not exist. */
  async function visibleConversation(userId: number, id: number) {
    const row = await findConversation(db, id)
    if (!row) throw notFound('Conversation')
    await requireOrder(db, userId, row.order_id, 'member').catch((error: unknown) => {
      throw error instanceof NotFoundError ? notFound('Conversation') : error
    })
    return row
  }

  define('conversations', async ({ user, query }) =>
    (await listConversationsOfOrders(db, await scopedOrderIds(db, user.id, 'all', query.orderId))).map(portalSummary),
  )

  define('conversation', async ({ user, params }) => {
    await visibleConversation(user.id, params.id)
    return (await portalConversation(db, params.id))!
  })

  define('answerConversation', async ({ user, params, body }) => {
    if (isBlank(body.message)) throw badRequest(ANSWER_EMPTY)
    await visibleConversation(user.id, params.id)
    const now = clock.now()
    await db.transaction().execute(async (trx) => {
      if (!(await lockConversation(trx, params.id))) throw notFound('Conversation')
      await addConversationMessage(trx, params.id, { userId: user.id }, body.message.trim(), now)
    })
    return (await portalConversation(db, params.id))!
  })
}
