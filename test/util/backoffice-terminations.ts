// Résiliations' answers as the server gives them, for the back office's machine and view tests.
import type { BackofficeTermination } from '../../server/contract/billing-backoffice.ts'

export const termination = (id: number, extra: Partial<BackofficeTermination> = {}): BackofficeTermination => ({
  id,
  orderId: 40 + id,
  raisonSociale: `Résiliation ${id} SARL`,
  requestedBy: 'Marc Roussel',
  reason: 'Cessation d’activité',
  comment: null,
  requestedDate: '2026-12-31',
  createdAt: '2026-11-20T09:00:00.000Z',
  state: 'en attente',
  endDate: null,
  acceptedAt: null,
  acceptedBy: null,
  conversationId: null,
  ...extra,
})

export const acceptedTermination = (id: number, endDate: string, by = 'Léa Fontaine') =>
  termination(id, { state: 'acceptée', endDate, acceptedAt: '2026-11-21T09:00:00.000Z', acceptedBy: by })
