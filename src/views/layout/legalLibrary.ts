// The legal-library group of the side menu: external links to the provider's site.

/** The legal library: model documents and guides on the provider's site. */
export const LEGAL_LIBRARY_BASE_URL = 'https://www.domicilium.fr/bibliotheque-juridique/'
export const legalLibrary = [
  { href: `${LEGAL_LIBRARY_BASE_URL}contrat-de-travail`, label: 'Contrat de travail' },
  { href: `${LEGAL_LIBRARY_BASE_URL}pv-non-remuneration-gerant`, label: 'PV de non-rémunération du gérant' },
  { href: `${LEGAL_LIBRARY_BASE_URL}creation-entreprise`, label: 'Création d’entreprise' },
  { href: `${LEGAL_LIBRARY_BASE_URL}modification-entreprise`, label: 'Modification d’entreprise' },
  { href: `${LEGAL_LIBRARY_BASE_URL}liquidation-entreprise`, label: 'Liquidation d’entreprise' },
]
