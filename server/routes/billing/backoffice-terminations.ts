// The back office's Résiliations (roles Conformité and Administrateur): the termination requests, waiting ones first;
// « Accepter » for an end date (the subscription cancelled at that date at the payment provider, the owner e-mailed;
// the portal then says « Domiciliation résiliée au … », no certificate is issued nor letter forwarded past it), or
// « Contacter le client », which opens a conversation of the order (Messages). Every write journaled.
import type { FastifyBaseLogger } from 'fastify'
import type { BackofficeTermination } from '../../contract/billing-backoffice.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, notFound } from '../../http/errors.ts'
import {
  acceptTermination,
  findTermination,
  linkTerminationConversation,
  listTerminations,
  lockTermination,
  type TerminationRow,
} from '../../db/repositories/billing-terminations.ts'
import { createConversation, orderOwner } from '../../db/repositories/notifications-conversations.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { latestTerminationDate } from '../../contract/rules/termination.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { parisDay } from '../../lib/time.ts'
import { oneSendAtATime } from '../../http/send-or-undo.ts'
import { mailReply, recordReplyEvent } from '../../services/conversations.ts'
import { parisMidnight } from '../operators/journal.ts'
import { frenchDay } from '../../contract/rules/french-date.ts'

export const TERMINATION_SUBJECT = 'Votre demande de résiliation'

export const terminationMessages = {
  pastEndDate: 'La date de fin ne peut pas être dans le passé : choisissez aujourd’hui ou une date ultérieure.',
  tooFar: (latest: string) => `La date de fin ne peut pas dépasser le ${frenchDay(latest)}.`,
  alreadyAccepted: (endDate: string) => `Cette résiliation est déjà acceptée, pour le ${frenchDay(endDate)} : rien n’a été changé.`,
  alreadyContacted: 'Une conversation est déjà ouverte au sujet de cette résiliation : répondez-y dans Messages.',
  emptyMessage: 'Écrivez votre message au client avant de l’envoyer.',
}

/** The instant a domiciliation ending on `day` ends: the midnight after it, in Paris. */
export const endOfParisDay = (day: string) =>
  parisMidnight(new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10))

const toTermination = (row: TerminationRow): BackofficeTermination => ({
  id: row.id,
  orderId: row.order_id,
  raisonSociale: row.raison_sociale,
  requestedBy: `${row.firstname} ${row.lastname}`,
  reason: row.reason,
  comment: row.comment,
  requestedDate: row.requested_date,
  createdAt: row.created_at.toISOString(),
  state: row.accepted_at ? 'acceptée' : 'en attente',
  endDate: row.end_date,
  acceptedAt: row.accepted_at?.toISOString() ?? null,
  acceptedBy: row.accepted_by_name,
  conversationId: row.conversation_id,
})

export function terminationBackofficeRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, payments, mailer, config, oneAtATime } = deps

  define('operatorTerminations', async () => (await listTerminations(db)).map(toTermination))

  define('operatorAcceptTermination', async ({ params, body, operator, req }) => {
    const now = clock.now()
    const today = parisDay(now)
    if (body.endDate < today) throw badRequest(terminationMessages.pastEndDate, 'PAST_DATE')
    // One acceptance of a request at a time, in every instance: the provider is asked outside the transaction (its
    // test double writes through the database), between the checks and the write that they guard.
    const accepted = await oneSendAtATime(oneAtATime, `termination-accept:${params.id}`, async () => {
      const request = await findTermination(db, params.id)
      if (!request) throw notFound('Demande de résiliation')
      if (request.end_date) throw conflict(terminationMessages.alreadyAccepted(request.end_date))
      const latest = latestTerminationDate(today, request.requested_date)
      if (body.endDate > latest) throw badRequest(terminationMessages.tooFar(latest), 'TOO_FAR')
      // First: a refusal of the provider leaves the request waiting, with nothing journaled.
      if (request.subscription_id) await payments.cancelSubscriptionAt(request.subscription_id, endOfParisDay(body.endDate))
      await db.transaction().execute(async (trx) => {
        await lockTermination(trx, request.id)
        await acceptTermination(trx, request.id, { operatorId: operator.id, endDate: body.endDate, at: now })
        await recordJournal(trx, {
          actor: { operatorId: operator.id },
          action: 'termination.accepted',
          orderId: request.order_id,
          summary: `Résiliation de ${request.raison_sociale} acceptée au ${frenchDay(body.endDate)}`,
          before: { state: 'en attente', requestedDate: request.requested_date },
          after: { state: 'acceptée', endDate: body.endDate },
          at: now,
        })
      })
      return request
    })
    const owner = await orderOwner(db, accepted.order_id)
    if (owner) {
      const link = `${config.publicUrl}/souscription/mes-abonnements`
      await mailer
        .send({
          to: owner.email,
          subject: `Résiliation acceptée : ${accepted.raison_sociale}`,
          text: `Bonjour ${owner.firstname},\n\nVotre demande de résiliation est acceptée : la domiciliation de ${accepted.raison_sociale} prend fin le ${frenchDay(body.endDate)}. Votre abonnement s’arrête à cette date ; aucune attestation ne sera plus délivrée ni aucun courrier réexpédié au-delà.\n\nVotre espace client :\n${link}\n\n${config.brandName}`,
          link,
        })
        .catch((error: unknown) => (req.log as FastifyBaseLogger).warn({ err: error }, 'e-mail d’une résiliation acceptée non envoyé'))
    }
    return toTermination((await findTermination(db, params.id))!)
  })

  define('operatorContactTermination', async ({ params, body, operator, req }) => {
    if (isBlank(body.message)) throw badRequest(terminationMessages.emptyMessage)
    const text = body.message.trim()
    const now = clock.now()
    const { request, conversationId } = await db.transaction().execute(async (trx) => {
      const request = await lockTermination(trx, params.id)
      if (!request) throw notFound('Demande de résiliation')
      if (request.conversation_id) throw conflict(terminationMessages.alreadyContacted)
      const conversationId = await createConversation(trx, {
        orderId: request.order_id,
        subject: TERMINATION_SUBJECT,
        author: { operatorId: operator.id },
        body: text,
        at: now,
      })
      await linkTerminationConversation(trx, request.id, conversationId)
      await recordJournal(trx, {
        actor: { operatorId: operator.id },
        action: 'termination.contacted',
        orderId: request.order_id,
        summary: `${operator.name} a écrit au client au sujet de la résiliation de ${request.raison_sociale}`,
        after: { conversationId, message: text },
        at: now,
      })
      await recordReplyEvent(trx, {
        conversationId,
        orderId: request.order_id,
        subject: TERMINATION_SUBJECT,
        raisonSociale: request.raison_sociale,
        at: now,
      })
      return { request, conversationId }
    })
    const owner = await orderOwner(db, request.order_id)
    await mailReply(
      { mailer, config, log: req.log as FastifyBaseLogger },
      { conversationId, operatorName: operator.name, raisonSociale: request.raison_sociale, body: text, to: owner ? [owner] : [] },
    )
    return toTermination((await findTermination(db, params.id))!)
  })
}
