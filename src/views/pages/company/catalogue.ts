// The legal formalities the provider's jurists handle: what each is, what it needs, its price
// (excluding VAT, registry and legal-notice fees) and how long it takes.
import type { LegalSubmissionKind, LegalSubmissionStatus } from '../../../../server/contract/company.ts'

export interface Formality {
  kind: LegalSubmissionKind
  label: string
  summary: string
  needs: string[]
  priceExclTaxCents: number
  delay: string
}

export const catalogue: Formality[] = [
  {
    kind: 'creation',
    label: 'Création de société',
    summary: 'Statuts, annonce légale et immatriculation de votre société à notre adresse.',
    needs: [
      'Pièce d’identité du dirigeant',
      'Déclaration de non-condamnation du dirigeant',
      'Attestation de dépôt des fonds du capital',
      'Attestation de domiciliation (fournie par nos soins)',
    ],
    priceExclTaxCents: 24900,
    delay: '5 à 10 jours ouvrés',
  },
  {
    kind: 'transfert-siege',
    label: 'Transfert de siège social',
    summary: 'Le siège de votre société transféré à votre adresse de domiciliation.',
    needs: [
      'Procès-verbal de décision du transfert',
      'Statuts mis à jour',
      'Extrait Kbis de moins de trois mois',
      'Attestation de domiciliation (fournie par nos soins)',
    ],
    priceExclTaxCents: 19900,
    delay: '5 à 8 jours ouvrés',
  },
  {
    kind: 'changement-dirigeant',
    label: 'Changement de dirigeant',
    summary: 'La nomination d’un nouveau gérant ou président, publiée et inscrite au registre.',
    needs: [
      'Procès-verbal de nomination',
      'Pièce d’identité du nouveau dirigeant',
      'Déclaration de non-condamnation du nouveau dirigeant',
      'Statuts mis à jour s’ils nomment le dirigeant',
    ],
    priceExclTaxCents: 14900,
    delay: '5 à 8 jours ouvrés',
  },
  {
    kind: 'modification-denomination-objet',
    label: 'Changement de dénomination ou d’objet social',
    summary: 'Un nouveau nom ou une nouvelle activité pour votre société.',
    needs: ['Procès-verbal de l’assemblée', 'Statuts mis à jour', 'Recherche d’antériorité du nom (faite par nos soins)'],
    priceExclTaxCents: 17900,
    delay: '5 à 8 jours ouvrés',
  },
  {
    kind: 'modification-capital',
    label: 'Modification du capital',
    summary: 'Augmentation ou réduction du capital social.',
    needs: [
      'Procès-verbal de décision',
      'Statuts mis à jour',
      'Certificat du dépositaire des fonds (augmentation en numéraire)',
      'Rapport du commissaire aux apports, le cas échéant',
    ],
    priceExclTaxCents: 19900,
    delay: '8 à 12 jours ouvrés',
  },
  {
    kind: 'dissolution-liquidation',
    label: 'Dissolution et liquidation',
    summary: 'La fin de votre société : dissolution, comptes de liquidation, radiation.',
    needs: [
      'Procès-verbal de dissolution et de nomination du liquidateur',
      'Comptes de clôture de liquidation',
      'Procès-verbal de clôture de la liquidation',
    ],
    priceExclTaxCents: 49900,
    delay: '4 à 8 semaines',
  },
]

export const formalityLabel = (kind: LegalSubmissionKind) => catalogue.find((f) => f.kind === kind)!.label

/** The steps of a request, in order, with the date field of each. */
export const steps: { status: LegalSubmissionStatus; date: 'receivedAt' | 'startedAt' | 'filedAt' | 'completedAt' }[] = [
  { status: 'Reçue', date: 'receivedAt' },
  { status: 'En cours', date: 'startedAt' },
  { status: 'Déposée au greffe', date: 'filedAt' },
  { status: 'Terminée', date: 'completedAt' },
]
