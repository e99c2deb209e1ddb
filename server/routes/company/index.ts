// The company area: legal submissions, ordered by an order's owner when the order checks allow it,
// listed for the owner and the collaborators, moved on by the provider's jurists (operator API).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, notFound } from '../../http/errors.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'
import {
  createLegalSubmission,
  deleteLegalSubmission,
  findLegalSubmission,
  findOpenLegalSubmission,
  listLegalSubmissions,
  moveLegalSubmission,
} from '../../db/repositories/company.ts'
import { requireOrder, scopedOrderIds } from '../../db/repositories/company-orders.ts'
import { findUserById } from '../../db/repositories/session.ts'
import { recordEvent } from '../../services/events.ts'
import { legalFormalityLabels, legalSubmissionSteps, refusalFor } from '../../services/legal-formalities.ts'
import { orderChecks } from '../../services/order-checks.ts'
import { trimmedOrNull } from '../../contract/rules/text.ts'
import { contractRoutes } from './contracts.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { machineOf } from '../operator-input.ts'
import { companyOperatorRoutes } from './operator.ts'
import { orderRoutes } from './orders.ts'

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

  define('operatorUpdateLegalSubmission', async ({ params, body, req }) => {
    const submission = await findLegalSubmission(db, params.id)
    if (!submission) throw notFound('Demande de formalité')
    const from = legalSubmissionSteps.indexOf(submission.status)
    if (body.status === 'Reçue' || legalSubmissionSteps.indexOf(body.status) <= from) {
      throw conflict(
        `La demande est à l’étape « ${submission.status} » : elle ne peut qu’avancer (${
          legalSubmissionSteps
            .slice(from + 1)
            .map((s) => `« ${s} »`)
            .join(', ') || 'elle est terminée'
        }).`,
      )
    }
    const to = body.status
    // notify: the bell's event is committed with the move, or not at all.
    const moved = await db.transaction().execute(async (trx) => {
      if (!(await moveLegalSubmission(trx, submission.id, submission.status, to, clock.now()))) return false
      await recordJournal(trx, {
        actor: machineOf(req),
        action: 'formality.moved',
        orderId: submission.orderId,
        summary: `Formalité « ${legalFormalityLabels[submission.kind]} » de ${submission.raisonSociale} : ${submission.status} → ${to}`,
        before: { status: submission.status },
        after: { status: to },
        at: clock.now(),
      })
      await recordEvent(trx, {
        kind: 'formality',
        orderId: submission.orderId,
        title: `${legalFormalityLabels[submission.kind]} : ${body.status}`,
        body: `Votre demande pour ${submission.raisonSociale} est passée à l’étape « ${body.status} ».`,
        link: '/formalites',
        at: clock.now(),
      })
      return true
    })
    if (!moved) throw conflict('La demande vient d’être modifiée par ailleurs : rechargez-la avant de la faire avancer.')
    const owner = await findUserById(db, submission.ownerId)
    if (owner) {
      // The step has moved and the bell told the owner: an e-mail that cannot leave is logged, not a 500 (whose retry
      // could only answer 409, the step being already there).
      await mailer
        .send({
          to: owner.email,
          subject: `${legalFormalityLabels[submission.kind]} (${submission.raisonSociale}) : ${body.status}`,
          text: `Bonjour ${owner.firstname},\n\nVotre demande « ${legalFormalityLabels[submission.kind]} » pour ${submission.raisonSociale} est passée à l’étape « ${body.status} ».\n\n${config.publicUrl}/formalites\n`,
          link: `${config.publicUrl}/formalites`,
        })
        .catch((error: unknown) =>
          req.log.warn({ err: error, legalSubmission: submission.id }, 'e-mail d’étape de formalité non envoyé (la cloche l’a dit)'),
        )
    }
    const { ownerId: _, ...updated } = (await findLegalSubmission(db, submission.id))!
    return updated
  })

  contractRoutes(define, deps)
  orderRoutes(define, deps)
  companyOperatorRoutes(define, deps)
}
