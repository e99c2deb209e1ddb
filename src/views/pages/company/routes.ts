// The company area: accounting follow-up, formalities, company management, meetings.
import { lazy } from 'react'
import type { Area } from '../page.ts'

const preparing = lazy(() => import('../../components/Preparing.tsx'))

/** The route whose page hides the header and uses a special layout (spec §2). */
export const LEGAL_FORMALITIES_PATH = '/formalites-juridique'

export const company: Area = {
  routes: [
    { path: '/mes-reunions', title: 'Mes réunions', icon: 'meeting', Page: preparing },
    { path: '/suivi-comptable/tresorerie', title: 'Trésorerie', icon: 'accounting', Page: preparing },
    { path: '/suivi-comptable/calendrier-fiscal', title: 'Calendrier fiscal', icon: 'calendar', Page: preparing },
    { path: '/suivi-comptable/formalite-juridique', title: 'Obligations juridiques annuelles', icon: 'legal', Page: preparing },
    { path: '/suivi-comptable/simulateur-tva', title: 'Simulateur de TVA', icon: 'accounting', Page: preparing },
    { path: '/formalites', title: 'Formalités', icon: 'formalities', Page: preparing, menu: { label: 'Formalités', position: 7 } },
    { path: LEGAL_FORMALITIES_PATH, title: 'Formalités juridiques', icon: 'legal', Page: preparing, menu: { label: 'Formalités juridiques', position: 6 } },
    { path: '/gestion-de-mon-entreprise', title: 'Gestion de mon entreprise', icon: 'company', Page: preparing, menu: { label: 'Gestion de mon entreprise', position: 9 } },
  ],
}
