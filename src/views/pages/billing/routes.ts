// The billing area: subscription, certificate and contracts, invoices, payment card (its public certificate check,
// /verification/{code}, is a bare page: bare.ts).
import { lazy } from 'react'
import type { Area } from '../page.ts'

const group = '/souscription'

export const billing: Area = {
  groups: [{ to: group, label: 'Souscription', icon: 'subscription', position: 3 }],
  routes: [
    {
      path: '/souscription/mes-abonnements',
      title: 'Mes abonnements',
      icon: 'subscription',
      Page: lazy(() => import('./SubscriptionsPage.tsx')),
      menu: { label: 'Mes abonnements', group },
    },
    {
      path: '/souscription/attestation-contrats',
      title: 'Attestation et contrats',
      icon: 'subscription',
      Page: lazy(() => import('./CertificatePage.tsx')),
      menu: { label: 'Attestation et contrats', group },
    },
    {
      path: '/moyen-de-paiement',
      title: 'Moyen de paiement',
      icon: 'card',
      Page: lazy(() => import('./PaymentMethodPage.tsx')),
      menu: { label: 'Moyen de paiement', position: 4 },
    },
    {
      path: '/factures',
      title: 'Mes factures',
      icon: 'invoice',
      Page: lazy(() => import('./InvoicesPage.tsx')),
      menu: { label: 'Mes factures', position: 5 },
    },
  ],
}
