// Domain objects shaped like the API's answers, for machine and view tests.
import type { MailDocument } from '../../server/contract/mail.ts'
import type { AuthUser, Contract, Order, User } from '../../server/contract/session.ts'

export const user: User = { id: 1, email: 'demo@example.com', firstname: 'Camille', lastname: 'Martin', phone: null }
export const authUser: AuthUser = { ...user, apiToken: 'tok_demo', apiTokenExpiresAt: '2027-01-01T00:00:00.000Z' }
/** Another person with an account, signing in on the same browser (the fake API's login knows both). */
export const associate: User = { id: 5, email: 'associe@example.com', firstname: 'Julien', lastname: 'Petit', phone: null }
export const associateAuth: AuthUser = { ...associate, apiToken: 'tok_associe', apiTokenExpiresAt: '2027-01-01T00:00:00.000Z' }

function order(overrides: Partial<Order> & Pick<Order, 'id' | 'raisonSociale'>): Order {
  return {
    orderDate: '2024-03-12T10:00:00.000Z',
    status: 'Finalisé',
    hasKbis: true,
    missingDocuments: null,
    missingDocumentsValidatedAt: null,
    subscriptionId: `sub_${overrides.id}`,
    isShareOrder: false,
    contractId: overrides.id + 100,
    siren: '812345678',
    legalForm: 'SAS',
    domiciliationAddress: '12 rue de la Paix, 75002 Paris',
    qonto: false,
    shine: false,
    wantComptable: false,
    kbisRefusal: null,
    ...overrides,
  }
}

/** Waiting for its Kbis: the banner shows. */
export const atelier = order({ id: 1, raisonSociale: 'Atelier Lumière SARL', status: 'En attente de KBIS', hasKbis: false })
export const boulangerie = order({ id: 2, raisonSociale: 'Boulangerie des Lilas SAS', orderDate: '2023-05-02T09:00:00.000Z' })
/** Shared with the user: collaborators use the share endpoints. */
export const studio = order({ id: 3, raisonSociale: 'Studio Nuage SAS', isShareOrder: true, contractId: null, subscriptionId: null })
/** Missing the manager's ID document. */
export const conseil = order({
  id: 4,
  raisonSociale: 'Conseil Horizon EURL',
  missingDocuments: [{ type: 'identity_manager', label: "Pièce d'identité du gérant" }],
})
export const conseilCompleted: Order = { ...conseil, missingDocumentsValidatedAt: '2026-11-20T10:00:00.000Z' }

export const contracts: Contract[] = [atelier, boulangerie, conseil].map((o) => ({
  id: o.contractId!,
  domiciliationOrderId: o.id,
  raisonSociale: o.raisonSociale,
  adressePostaleExpedition: null,
  adresseComplementPostaleExpedition: null,
  codePostaleExpedition: null,
  villePostaleExpedition: null,
  paysPostaleExpedition: null,
  kbis: null,
  kbisValidatedAt: null,
  signedAt: null,
}))

export function letter(id: number, overrides: Partial<MailDocument> = {}): MailDocument {
  return {
    id,
    orderId: 2,
    raisonSociale: 'Boulangerie des Lilas SAS',
    sender: 'URSSAF',
    kind: 'courrier',
    receivedAt: '2026-11-02T08:30:00.000Z',
    pages: 1,
    read: false,
    deleted: false,
    folderId: null,
    // mail pipeline
    pageImages: 1,
    searchable: true,
    deadline: null,
    ...overrides,
  }
}
