// The compliance desk's answers as the server gives them (Justificatifs, Formalités juridiques), for the back office's
// machine and view tests.
import type { LegalSubmission } from '../../server/contract/company.ts'
import type { Justificatif, JustificatifDecision } from '../../server/contract/company-backoffice.ts'

export const justificatif = (id: number, extra: Partial<Justificatif> = {}): Justificatif => ({
  kind: 'kbis',
  id,
  orderId: 12,
  raisonSociale: 'Atelier Lumière SARL',
  siren: '823 456 785',
  label: 'Kbis',
  fileName: `kbis-${id}.pdf`,
  contentType: 'application/pdf',
  filedAt: '2026-11-20T09:00:00.000Z',
  version: `"v${id}-1"`,
  status: 'à vérifier',
  decidedAt: null,
  refusal: null,
  ...extra,
})

export const decided = (
  document: Justificatif,
  decision: Partial<JustificatifDecision> & { refused?: boolean } = {},
): JustificatifDecision => ({
  justificatif: decision.refused
    ? {
        ...document,
        status: 'refusé',
        decidedAt: '2026-11-20T10:00:00.000Z',
        refusal: { reason: 'illisible', detail: null, text: 'document illisible' },
      }
    : { ...document, status: 'validé', decidedAt: '2026-11-20T10:00:00.000Z' },
  orderValidatedAt: decision.orderValidatedAt ?? null,
  notified: decision.notified ?? !!decision.refused,
})

export const submission = (id: number, extra: Partial<LegalSubmission> = {}): LegalSubmission => ({
  id,
  orderId: 14,
  raisonSociale: 'Studio Nuage SAS',
  kind: 'changement-dirigeant',
  status: 'Reçue',
  comment: null,
  receivedAt: '2026-11-18T09:00:00.000Z',
  startedAt: null,
  filedAt: null,
  completedAt: null,
  ...extra,
})
