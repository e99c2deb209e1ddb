// The back office's menu as each demo operator reads it, in order: one list for the view tests and the browser tests.

/** Inès, Administrateur: every page. */
export const ADMIN_MENU = [
  'Tableau de bord',
  'Clients',
  'Numérisation',
  'Colis',
  'Réexpéditions',
  'Justificatifs',
  'Messages',
  'Formalités juridiques',
  'Résiliations',
  'Administration',
  'Mes clés d’accès',
]
