// The billing area: subscription, certificate and contracts, invoices, payment card.
import { lazy } from 'react'
import type { Area } from '../page.ts'

const preparing = lazy(() => import('../../components/Preparing.tsx'))
const group = '/souscription'

export const billing: Area = {
  groups: [{ to: group, label: 'Souscription', icon: 'subscription', position: 3 }],
  routes: [
    { path: '/souscription/mes-abonnements', title: 'Mes abonnements', icon: 'subscription', Page: preparing, menu: { label: 'Mes abonnements', group } },
    { path: '/souscription/attestation-contrats', title: 'Attestation et contrats', icon: 'subscription', Page: preparing, menu: { label: 'Attestation et contrats', group } },
    { path: '/moyen-de-paiement', title: 'Moyen de paiement', icon: 'card', Page: preparing, menu: { label: 'Moyen de paiement', position: 4 } },
    { path: '/factures', title: 'Mes factures', icon: 'invoice', Page: preparing, menu: { label: 'Mes factures', position: 5 } },
  ],
}
