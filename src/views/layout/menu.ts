// The side menu of spec §2, and the legal-library group of external links.
import type { IconName } from '../icons.tsx'

export interface MenuItem {
  to: string
  label: string
  icon: IconName
  children?: { to: string; label: string }[]
}

export const menu: MenuItem[] = [
  { to: '/tableau-de-bord', label: 'Tableau de bord', icon: 'dashboard' },
  {
    to: '/mes-courriers',
    label: 'Mes courriers',
    icon: 'mail',
    children: [
      { to: '/mes-courriers/courriers', label: 'Courriers' },
      { to: '/mes-courriers/reexpeditions', label: 'Réexpéditions' },
      { to: '/mes-courriers/colis', label: 'Colis' },
      { to: '/mes-courriers/mes-dossiers', label: 'Mes dossiers' },
      { to: '/mes-courriers/export-comptable', label: 'Export comptable' },
    ],
  },
  {
    to: '/souscription',
    label: 'Souscription',
    icon: 'subscription',
    children: [
      { to: '/souscription/mes-abonnements', label: 'Mes abonnements' },
      { to: '/souscription/attestation-contrats', label: 'Attestation et contrats' },
    ],
  },
  { to: '/moyen-de-paiement', label: 'Moyen de paiement', icon: 'card' },
  { to: '/factures', label: 'Mes factures', icon: 'invoice' },
  { to: '/formalites-juridique', label: 'Formalités juridiques', icon: 'legal' },
  { to: '/formalites', label: 'Formalités', icon: 'formalities' },
  { to: '/informations-personnelles', label: 'Informations personnelles', icon: 'person' },
  { to: '/gestion-de-mon-entreprise', label: 'Gestion de mon entreprise', icon: 'company' },
]

/** The legal library: model documents and guides on the provider's site. */
export const LEGAL_LIBRARY_BASE_URL = 'https://www.domicilium.fr/bibliotheque-juridique/'
export const legalLibrary = [
  { href: `${LEGAL_LIBRARY_BASE_URL}contrat-de-travail`, label: 'Contrat de travail' },
  { href: `${LEGAL_LIBRARY_BASE_URL}pv-non-remuneration-gerant`, label: 'PV de non-rémunération du gérant' },
  { href: `${LEGAL_LIBRARY_BASE_URL}creation-entreprise`, label: 'Création d’entreprise' },
  { href: `${LEGAL_LIBRARY_BASE_URL}modification-entreprise`, label: 'Modification d’entreprise' },
  { href: `${LEGAL_LIBRARY_BASE_URL}liquidation-entreprise`, label: 'Liquidation d’entreprise' },
]
