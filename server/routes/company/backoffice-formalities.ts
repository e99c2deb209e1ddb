// Formalités juridiques: a legal submission moved on, forward only and dated, its owner told (bell, e-mail), journaled;
// by the jurists' machines (operator API, index.ts) and by operators of the back office (roles Conformité and
// Administrateur), who see every submission, those under way first.
import type { FastifyBaseLogger } from 'fastify'
import type { LegalSubmission, LegalSubmissionStatus } from '../../contract/company.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, notFound } from '../../http/errors.ts'
import { findLegalSubmission, listLegalSubmissions, moveLegalSubmission } from '../../db/repositories/company.ts'
import { recordJournal, type JournalActor } from '../../db/repositories/operators-journal.ts'
import { findUserById } from '../../db/repositories/session.ts'
import { recordEvent } from '../../services/events.ts'
import { legalFormalityLabels, legalSubmissionSteps } from '../../services/legal-formalities.ts'

/** Moves a submission on to `to` (a later step only), with its journal row and the bell's event; then e-mails the owner. */
export async function moveFormality(
  { db, clock, mailer, config }: AppDeps,
  { id, to, actor, log }: { id: number; to: LegalSubmissionStatus; actor: JournalActor; log: FastifyBaseLogger },
): Promise<LegalSubmission> {
  const submission = await findLegalSubmission(db, id)
  if (!submission) throw notFound('Demande de formalité')
  const from = legalSubmissionSteps.indexOf(submission.status)
  if (to === 'Reçue' || legalSubmissionSteps.indexOf(to) <= from) {
    throw conflict(
      `La demande est à l’étape « ${submission.status} » : elle ne peut qu’avancer (${
        legalSubmissionSteps
          .slice(from + 1)
          .map((s) => `« ${s} »`)
          .join(', ') || 'elle est terminée'
      }).`,
    )
  }
  // notify: the bell's event is committed with the move, or not at all.
  const moved = await db.transaction().execute(async (trx) => {
    if (!(await moveLegalSubmission(trx, submission.id, submission.status, to, clock.now()))) return false
    await recordJournal(trx, {
      actor,
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
      title: `${legalFormalityLabels[submission.kind]} : ${to}`,
      body: `Votre demande pour ${submission.raisonSociale} est passée à l’étape « ${to} ».`,
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
        subject: `${legalFormalityLabels[submission.kind]} (${submission.raisonSociale}) : ${to}`,
        text: `Bonjour ${owner.firstname},\n\nVotre demande « ${legalFormalityLabels[submission.kind]} » pour ${submission.raisonSociale} est passée à l’étape « ${to} ».\n\n${config.publicUrl}/formalites\n`,
        link: `${config.publicUrl}/formalites`,
      })
      .catch((error: unknown) =>
        log.warn({ err: error, legalSubmission: submission.id }, 'e-mail d’étape de formalité non envoyé (la cloche l’a dit)'),
      )
  }
  const { ownerId: _, ...updated } = (await findLegalSubmission(db, submission.id))!
  return updated
}

/** Those under way first, the oldest first (the next to move on); then those finished, the latest first. */
export function formalitiesQueue(submissions: LegalSubmission[]): LegalSubmission[] {
  const open = submissions.filter((s) => s.status !== 'Terminée').sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id - b.id)
  const done = submissions
    .filter((s) => s.status === 'Terminée')
    .sort((a, b) => (b.completedAt ?? '').localeCompare(a.completedAt ?? '') || b.id - a.id)
  return [...open, ...done]
}

export function companyFormalityRoutes(define: DefineRoute, deps: AppDeps) {
  define('complianceLegalSubmissions', async () => formalitiesQueue(await listLegalSubmissions(deps.db)))

  define('complianceMoveLegalSubmission', async ({ params, body, operator, req }) =>
    moveFormality(deps, { id: params.id, to: body.status, actor: { operatorId: operator.id }, log: req.log }),
  )
}
