// The legal formalities customers order from /formalites-juridique: what each is called, whether the
// order checks allow it now (the same rules the portal explains), and the steps a request goes through.
import type { LegalSubmissionKind, LegalSubmissionStatus } from '../contract/company.ts'

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

export { refusalFor, refusals } from '../contract/rules/formalities.ts'
