// « Signaler un problème »: a customer's report on an order, kept and e-mailed to the support; it starts a conversation
// of the order (Messages in the back office, « Mes échanges » in the portal).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { createProblemReport, deleteProblemReport, hasRecentProblemReport, requireOrder } from '../../db/repositories/company-orders.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'
import { limitPerUser } from '../../http/user-rate-limit.ts'
import { badRequest } from '../../http/errors.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { createConversation } from '../../db/repositories/notifications-conversations.ts'
import { conversationRoutes } from './conversations.ts'

/** The subject of a conversation a « Signaler un problème » started. */
export const PROBLEM_SUBJECT = 'Signaler un problème'

/** A report of spaces or invisible characters only: the portal's own words for an empty box. */
export const PROBLEM_EMPTY = 'Veuillez décrire votre problème avant de l’envoyer.'

/** The same report sent again by the same person on the same order within this time (a retry after an answer lost on a
 *  bad network, a second tab) is already with the support: answered as sent, neither kept nor e-mailed twice. */
export const PROBLEM_REPEAT_MINUTES = 10

/** Up to 5,000 characters e-mailed to the support and one row each: 10 reports an hour per person are plenty. */
export const PROBLEM_LIMIT = {
  name: 'sendProblem',
  max: 10,
  windowMs: 3_600_000,
  message: 'Trop de signalements envoyés en peu de temps : réessayez dans une heure.',
}

export function problemRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, mailer, config, oneAtATime, clock } = deps
  define('sendProblem', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    if (isBlank(body.message)) throw badRequest(PROBLEM_EMPTY)
    const sent = { message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' }
    // Under a key per person and order, in every API instance: an identical report arriving meanwhile waits for this
    // one's e-mail, then finds it kept.
    return oneSendAtATime(oneAtATime, `problem:${order.id}:${user.id}`, async () => {
      if (await hasRecentProblemReport(db, order.id, user.id, body.message, PROBLEM_REPEAT_MINUTES)) return sent
      await limitPerUser(deps, user.id, PROBLEM_LIMIT)
      const reportId = await db.transaction().execute(async (trx) => {
        const id = await createProblemReport(trx, order.id, user.id, body.message)
        const message = body.message.trim()
        await createConversation(trx, {
          orderId: order.id,
          subject: PROBLEM_SUBJECT,
          problemReportId: id,
          author: { userId: user.id },
          body: message,
          at: clock.now(),
        })
        return id
      })
      // An e-mail that cannot leave takes the report back (a French 503): the retry records it once and sends it.
      await sendOrUndo(
        mailer,
        {
          to: config.supportEmail,
          subject: `Problème signalé : ${order.raison_sociale} (commande ${order.id})`,
          text: `${user.firstname} ${user.lastname} <${user.email}> signale :\n\n${body.message}`,
        },
        () => deleteProblemReport(db, reportId),
      )
      return sent
    })
  })

  conversationRoutes(define, deps)
}
