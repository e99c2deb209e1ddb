// Why a Kbis or an identity document is refused, in the words the customer reads: one rule for the server (the e-mail,
// the refusal's check), the back office (the reasons offered) and the portal (the Kbis banner, /missing-document).

export const REFUSAL_REASONS = ['illisible', 'pas-au-nom', 'plus-de-trois-mois', 'autre'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

/** The choices an operator is offered, as the back office lists them. */
export const refusalReasonLabels: Record<RefusalReason, string> = {
  illisible: 'Illisible',
  'pas-au-nom': 'Pas au nom de la société',
  'plus-de-trois-mois': 'De plus de trois mois',
  autre: 'Autre (précisez)',
}

const refusalPhrases: Record<Exclude<RefusalReason, 'autre'>, string> = {
  illisible: 'document illisible',
  'pas-au-nom': 'document qui n’est pas au nom de la société',
  'plus-de-trois-mois': 'document de plus de trois mois',
}

/** « document illisible », or the operator's own words for « autre » (without a final full stop: a sentence follows). */
export function refusalText(reason: RefusalReason, detail: string | null): string {
  if (reason !== 'autre') return refusalPhrases[reason]
  return (detail ?? '').trim().replace(/[.\s]+$/, '') || 'motif non précisé'
}

/** The Kbis banner after a refusal (PRODUCT.md): « Votre Kbis a été refusé : document illisible. Déposez-en un autre. » */
export const kbisRefusedText = (reason: RefusalReason, detail: string | null) =>
  `Votre Kbis a été refusé : ${refusalText(reason, detail)}. Déposez-en un autre.`

/** « autre » without its words, or words too short to tell the customer anything. */
export const REFUSAL_DETAIL_REQUIRED = 'Précisez le motif du refus (« Autre ») : le client le lira.'
