// The mail room's answers as the server gives them, for the back office's machine and view tests.
import type { ForwardingRequest, MailRoomPackage, MailScan, PublishedScan } from '../../server/contract/mail-backoffice.ts'

export const scan = (id: number, extra: Partial<MailScan> = {}): MailScan => ({
  id,
  fileName: `scan-000${id}.pdf`,
  pages: 1,
  uploadedAt: '2026-11-20T09:00:00.000Z',
  uploadedBy: { id: 2, name: 'Hugo Lemaire' },
  reading: 'terminée',
  pageImages: 1,
  suggestion: { orderId: 12, raisonSociale: 'Boulangerie des Lilas SAS', confidence: 'sûr', reason: 'SIREN 823 456 785 trouvé page 1' },
  suggestedSender: 'URSSAF Île-de-France',
  orderId: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  sender: 'URSSAF Île-de-France',
  kind: 'courrier',
  confirmed: false,
  toCheck: null,
  published: null,
  ...extra,
})

export const publishedOf = (s: MailScan, documentId = 900 + s.id): PublishedScan => ({
  scan: { ...s, published: { at: '2026-11-20T10:00:00.000Z', by: 'Hugo Lemaire', documentId } },
  document: {
    id: documentId,
    orderId: s.orderId!,
    raisonSociale: s.raisonSociale!,
    sender: s.sender!,
    receivedAt: '2026-11-20T09:00:00.000Z',
    kind: s.kind,
    pages: s.pages,
    read: false,
    folderId: null,
  } as unknown as PublishedScan['document'],
  link: `http://localhost:8080/mes-courriers/courriers?order=12&doc=${documentId}`,
  notified: ['demo@example.com'],
})

export const parcel = (id: number, extra: Partial<MailRoomPackage> = {}): MailRoomPackage =>
  ({
    id,
    orderId: 12,
    raisonSociale: 'Boulangerie des Lilas SAS',
    receivedAt: '2026-11-19T11:00:00.000Z',
    carrier: 'Colissimo',
    sender: 'Moulins Bourgeois',
    status: 'À retirer',
    collectedAt: null,
    collectedBy: null,
    hasPhoto: false,
    ...extra,
  }) as MailRoomPackage

export const forwardingRequest = (id: number, extra: Partial<ForwardingRequest> = {}): ForwardingRequest => ({
  id,
  orderId: 12,
  raisonSociale: 'Boulangerie des Lilas SAS',
  createdAt: '2026-11-18T14:00:00.000Z',
  letterCount: 2,
  letters: [
    { id: 31, sender: 'URSSAF Île-de-France', kind: 'administratif', receivedAt: '2026-11-10T09:00:00.000Z' },
    { id: 32, sender: 'Banque Populaire', kind: 'courrier', receivedAt: '2026-11-12T09:00:00.000Z' },
  ],
  forwardingAddress: ['27 rue des Lilas', '75019 Paris', 'France'],
  ...extra,
})
