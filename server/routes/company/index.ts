// The company area: legal submissions, ordered by an order's owner when the order checks allow it,
// listed for the owner and the collaborators, moved on by the provider's jurists (operator API).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict } from '../../http/errors.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'
import {
  createLegalSubmission,
  deleteLegalSubmission,
  findOpenLegalSubmission,
  listLegalSubmissions,
} from '../../db/repositories/company.ts'
import { requireOrder, scopedOrderIds } from '../../db/repositories/company-orders.ts'
import { legalFormalityLabels, refusalFor } from '../../services/legal-formalities.ts'
import { orderChecks } from '../../services/order-checks.ts'
import { trimmedOrNull } from '../../contract/rules/text.ts'
import { contractRoutes } from './contracts.ts'
import { machineOf } from '../operator-input.ts'
import { companyOperatorRoutes } from './operator.ts'
import { orderRoutes } from './orders.ts'
import { companyJustificatifRoutes } from './backoffice-justificatifs.ts'
import { companyFormalityRoutes, moveFormality } from './backoffice-formalities.ts'

export const alreadyUnderWay = 'Une demande de cette formalité est déjà en cours pour cette société : suivez-la dans « Formalités ».'

export function companyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, mailer, config, clock, oneAtATime } = deps
  define('legalSubmissions', async ({ user, query }) => listLegalSubmissions(db, await scopedOrderIds(db, user.id, 'all', query.orderId)))

  define('createLegalSubmission', async ({ user, body }) => {
    const order = await requireOrder(db, user.id, body.orderId, 'owner')
    const refusal = refusalFor(body.kind, orderChecks(order))
    if (refusal) throw conflict(refusal)
    // Under the key of the order and the formality: a request met here is kept (its e-mail has left), not one about to
    // be taken back.
    return oneSendAtATime(oneAtATime, `legal-submission:${order.id}:${body.kind}`, async () => {
      if (await findOpenLegalSubmission(db, order.id, body.kind)) throw conflict(alreadyUnderWay)
      const submission = await createLegalSubmission(db, {
        orderId: order.id,
        userId: user.id,
        kind: body.kind,
        comment: trimmedOrNull(body.comment),
        at: clock.now(),
      })
      if (!submission) throw conflict(alreadyUnderWay)
      // An e-mail that cannot leave takes the request back (a French 503): before, the retry met it as « déjà en cours »
      // and the support never heard of it.
      await sendOrUndo(
        mailer,
        {
          to: config.supportEmail,
          subject: `Formalité commandée : ${legalFormalityLabels[body.kind]} pour ${order.raison_sociale}`,
          text:
            `${user.firstname} ${user.lastname} <${user.email}> commande « ${legalFormalityLabels[body.kind]} » pour ${order.raison_sociale} (commande ${order.id}, demande ${submission.id}).` +
            (submission.comment ? `\n\nPrécisions :\n${submission.comment}` : ''),
        },
        () => deleteLegalSubmission(db, submission.id),
      )
      return submission
    })
  })

  define('operatorLegalSubmissions', async () => listLegalSubmissions(db))

  define('operatorUpdateLegalSubmission', async ({ params, body, req }) =>
    moveFormality(deps, { id: params.id, to: body.status, actor: machineOf(req), log: req.log }),
  )

  contractRoutes(define, deps)
  orderRoutes(define, deps)
  companyOperatorRoutes(define, deps)
  companyJustificatifRoutes(define, deps)
  companyFormalityRoutes(define, deps)
}
