// The Clients area's answers as the server gives them, for the back office's machine and view tests.
import type { ClientOrder, ClientSearchPage, ClientSearchResult, NewClient, OrderTimelinePage } from '../../server/contract/operators.ts'

export const boulangerie: ClientSearchResult = {
  orderId: 12,
  raisonSociale: 'Boulangerie des Lilas',
  siren: '823 456 785',
  legalForm: 'SAS',
  status: 'Finalisé',
  orderDate: '2025-03-01T09:00:00.000Z',
  owner: { userId: 1, name: 'Camille Martin', email: 'demo@example.com' },
  matches: [{ field: 'collaboratorName', value: 'Julien Moreau' }],
}

export const searchPage = (results: ClientSearchResult[], extra: Partial<ClientSearchPage> = {}): ClientSearchPage => ({
  results,
  page: 1,
  pageSize: 20,
  total: results.length,
  ...extra,
})

export const order: ClientOrder = {
  id: 12,
  raisonSociale: 'Boulangerie des Lilas',
  siren: '823 456 785',
  legalForm: 'SAS',
  status: 'Finalisé',
  orderDate: '2025-03-01T09:00:00.000Z',
  startsOn: null,
  domiciliationAddress: '10 rue de la Paix, 75002 Paris',
  owner: {
    userId: 1,
    firstname: 'Camille',
    lastname: 'Martin',
    email: 'demo@example.com',
    phone: '06 12 34 56 78',
    emailVerified: true,
    createdAt: '2025-02-28T09:00:00.000Z',
  },
  collaborators: [
    { shareId: 3, email: 'associe@example.com', name: 'Julien Moreau', state: 'active', createdAt: '2025-04-01T09:00:00.000Z' },
  ],
  representatives: [
    {
      id: 7,
      firstname: 'Paul',
      lastname: 'Girard',
      email: 'paul@example.com',
      phone: '06 00 00 00 07',
      createdAt: '2025-05-01T09:00:00.000Z',
    },
  ],
  subscription: {
    id: 'sub_1',
    status: 'active',
    currentPeriodEnd: '2026-03-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    items: [{ planId: 'domiciliation-annuelle', label: 'Domiciliation commerciale (annuel)', amountCents: 29000, interval: 'year' }],
  },
  subscriptionUnavailable: false,
  termination: null,
  invoices: [
    {
      id: 40,
      number: 'F-2026-0040',
      date: '2026-01-01T09:00:00.000Z',
      amountExclTaxCents: 29000,
      amountInclTaxCents: 34800,
      paidAt: null,
    },
  ],
  creditNotes: [],
  documents: {
    kbis: { contractId: 5, filed: true, filedAt: '2026-11-19T09:00:00.000Z', validatedAt: null },
    identity: { required: [], validatedAt: null, uploaded: [] },
  },
  forwardingAddress: '3 place du Marché, 69001 Lyon',
  counts: { letters: 32, packagesWaiting: 2, pendingCourierRequests: 1 },
}

export const timelinePage = (count: number, extra: Partial<OrderTimelinePage> = {}): OrderTimelinePage => ({
  entries: Array.from({ length: count }, (_, i) => ({
    at: `2026-11-${String(20 - (i % 19)).padStart(2, '0')}T09:00:00.000Z`,
    kind: 'letter' as const,
    label: `Courrier reçu de URSSAF n°${i + 1}`,
    detail: null,
    by: i === 0 ? 'Inès Garnier' : null,
  })),
  page: 1,
  pageSize: 50,
  total: count,
  ...extra,
})

export const created: NewClient = {
  orderId: 31,
  status: 'En attente de KBIS',
  owner: { userId: 9, email: 'alice@example.com', name: 'Alice Durand', newAccount: true },
  subscriptionId: 'sub_31',
  ownerNotified: true,
  message: 'Verger Nouveau est créée, en attente de son Kbis. alice@example.com a reçu un e-mail pour choisir son mot de passe.',
}
