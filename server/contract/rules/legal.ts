// The legal pages (LCEN art. 6, RGPD art. 13, the general terms, the RGAA accessibility statement): where they live in
// the browser (the SPA routes them, the server hands them the provider's particulars and links them from every e-mail)
// and what the provider's particulars are (server/config.ts reads them from the environment).

/** The four public pages, in the order they are listed (the footers, the e-mails). */
export const LEGAL_PAGES = [
  { path: '/mentions-legales', title: 'Mentions légales' },
  { path: '/politique-de-confidentialite', title: 'Politique de confidentialité' },
  { path: '/conditions-generales', title: 'Conditions générales' },
  { path: '/declaration-accessibilite', title: 'Déclaration d’accessibilité' },
] as const

export const isLegalPath = (path: string) => {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return LEGAL_PAGES.some((page) => page.path === bare)
}

/** The provider's particulars, as the legal pages print them. */
export interface LegalParticulars {
  /** Dénomination sociale. */
  name: string
  /** Forme juridique (SAS, SARL…). */
  legalForm: string
  /** Capital social, as written (« 10 000 € »); optional. */
  shareCapital?: string
  /** 9 digits. */
  siren: string
  /** Ville du greffe (« RCS Paris »); optional. */
  rcsCity?: string
  /** Siège social. */
  address: string
  /** The provider's telephone and e-mail (LCEN art. 6: how to reach the publisher); the e-mail is SUPPORT_EMAIL. */
  phone: string
  contactEmail: string
  /** Directeur ou directrice de la publication. */
  publicationDirector: string
  /** Numéro d'agrément préfectoral de l'entreprise de domiciliation (Code de commerce, L123-11-3). */
  prefectureApproval: string
  /** Contact for the exercise of rights (RGPD): the support address unless PRIVACY_EMAIL says otherwise. */
  privacyEmail: string
  /** L'hébergeur (LCEN art. 6, III, 1°): name, address, telephone. */
  hostName: string
  hostAddress: string
  hostPhone: string
  /** Where the portal is reached (the statement and the e-mail footer name it). */
  publicUrl: string
  brandName: string
}

/** The id of the JSON block the server writes into a legal page's HTML (server/http/spa.ts). */
export const LEGAL_PARTICULARS_ELEMENT_ID = 'mentions-prestataire'
