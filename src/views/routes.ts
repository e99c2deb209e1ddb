// The routes of spec §2: metadata (title and icon for the header) and the page each one loads
// lazily, so that a route's code is only fetched when it is visited.
import { type ComponentType, type LazyExoticComponent, lazy } from 'react'
import type { IconName } from './icons.tsx'

export interface PageProps {
  route: PageRoute
}

export interface PageRoute {
  path: string
  title: string
  icon: IconName
  Page: LazyExoticComponent<ComponentType<PageProps>>
}

const preparing = lazy(() => import('./pages/Preparing.tsx'))

export const pageRoutes: PageRoute[] = [
  { path: '/tableau-de-bord', title: 'Tableau de bord', icon: 'dashboard', Page: lazy(() => import('./pages/Dashboard.tsx')) },
  { path: '/mes-reunions', title: 'Mes réunions', icon: 'meeting', Page: preparing },
  { path: '/mes-courriers/courriers', title: 'Mes courriers', icon: 'mail', Page: lazy(() => import('./pages/mail/LettersPage.tsx')) },
  { path: '/mes-courriers/reexpeditions', title: 'Réexpéditions', icon: 'mail', Page: lazy(() => import('./pages/mail/CourierRequestsPage.tsx')) },
  { path: '/mes-courriers/colis', title: 'Colis', icon: 'mail', Page: lazy(() => import('./pages/mail/PackagesPage.tsx')) },
  { path: '/mes-courriers/mes-dossiers', title: 'Mes dossiers', icon: 'mail', Page: lazy(() => import('./pages/mail/FoldersPage.tsx')) },
  { path: '/mes-courriers/export-comptable', title: 'Export comptable', icon: 'mail', Page: lazy(() => import('./pages/mail/AccountingExportPage.tsx')) },
  { path: '/souscription/mes-abonnements', title: 'Mes abonnements', icon: 'subscription', Page: preparing },
  { path: '/souscription/attestation-contrats', title: 'Attestation et contrats', icon: 'subscription', Page: preparing },
  { path: '/suivi-comptable/tresorerie', title: 'Trésorerie', icon: 'accounting', Page: preparing },
  { path: '/suivi-comptable/calendrier-fiscal', title: 'Calendrier fiscal', icon: 'calendar', Page: preparing },
  { path: '/suivi-comptable/formalite-juridique', title: 'Obligations juridiques annuelles', icon: 'legal', Page: preparing },
  { path: '/suivi-comptable/simulateur-tva', title: 'Simulateur de TVA', icon: 'accounting', Page: preparing },
  { path: '/factures', title: 'Mes factures', icon: 'invoice', Page: preparing },
  { path: '/moyen-de-paiement', title: 'Moyen de paiement', icon: 'card', Page: preparing },
  { path: '/informations-personnelles', title: 'Informations personnelles', icon: 'person', Page: preparing },
  { path: '/mes-collaborateurs', title: 'Mes collaborateurs', icon: 'users', Page: preparing },
  { path: '/mes-representants', title: 'Mes représentants', icon: 'users', Page: preparing },
  { path: '/formalites', title: 'Formalités', icon: 'formalities', Page: preparing },
  { path: '/formalites-juridique', title: 'Formalités juridiques', icon: 'legal', Page: preparing },
  { path: '/gestion-de-mon-entreprise', title: 'Gestion de mon entreprise', icon: 'company', Page: preparing },
]

/** The route whose page hides the header and uses a special layout (spec §2). */
export const LEGAL_FORMALITIES_PATH = '/formalites-juridique'

export const routeByPath = (path: string) => pageRoutes.find((r) => r.path === path)
