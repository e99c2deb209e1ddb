// Which legal formalities the three order checks allow now, and why not otherwise: one rule, in the
// same words, for the server (which refuses) and the SPA (which explains). Pure: the SPA imports it.
import type { LegalSubmissionKind, LegalSubmissionStatus } from '../company.ts'

/** What each formality is called (the support's e-mail, the customer's, the back office's Formalités juridiques). */
export const legalFormalityLabels: Record<LegalSubmissionKind, string> = {
  creation: 'Création de société',
  'transfert-siege': 'Transfert de siège social',
  'changement-dirigeant': 'Changement de dirigeant',
  'modification-denomination-objet': 'Changement de dénomination ou d’objet social',
  'modification-capital': 'Modification du capital',
  'dissolution-liquidation': 'Dissolution et liquidation',
}

/** In order: a request only moves forward. */
export const legalSubmissionSteps: readonly LegalSubmissionStatus[] = ['Reçue', 'En cours', 'Déposée au greffe', 'Terminée']

/** The step after this one, or null once finished. */
export const nextLegalSubmissionStep = (status: LegalSubmissionStatus): LegalSubmissionStatus | null =>
  legalSubmissionSteps[legalSubmissionSteps.indexOf(status) + 1] ?? null

export interface OrderChecks {
  completeKbis: boolean
  waitingContract: boolean
  attenteCourrierOrFinalise: boolean
}

export const refusals = {
  waitingContract:
    'Votre contrat de domiciliation n’est pas encore signé : l’attestation de domiciliation, jointe à chaque dossier, ne peut pas encore être délivrée.',
  alreadyRegistered: 'Votre société est déjà immatriculée : une création ne la concerne pas, choisissez plutôt une modification.',
  kbisMissing: 'Votre Kbis (ou avis de situation INSEE) et vos pièces justificatives doivent d’abord être validés.',
  notActive: 'Votre domiciliation n’est pas encore active : cette formalité pourra être commandée dès qu’elle le sera.',
} as const

/**
 * Why the order checks do not allow this formality now, or null when they do. A creation is for a
 * company not yet registered; every other one needs its Kbis; the changes and the dissolution also
 * need an active domiciliation. Every file carries the domiciliation certificate: no unsigned contract.
 */
export function refusalFor(kind: LegalSubmissionKind, checks: OrderChecks): string | null {
  if (checks.waitingContract) return refusals.waitingContract
  if (kind === 'creation') return checks.completeKbis ? refusals.alreadyRegistered : null
  if (!checks.completeKbis) return refusals.kbisMissing
  if (kind === 'transfert-siege') return null
  return checks.attenteCourrierOrFinalise ? null : refusals.notActive
}
