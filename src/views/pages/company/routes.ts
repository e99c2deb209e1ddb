// The company area: accounting follow-up, formalities, company management, meetings.
import { lazy } from 'react'
import type { Area } from '../page.ts'

/** The route whose page hides the header and uses a special layout (spec §2). */
export const LEGAL_FORMALITIES_PATH = '/formalites-juridique'

const accounting = '/suivi-comptable'

export const company: Area = {
  // Between "Mes factures" (5) and "Formalités juridiques" (6): next to the money matters.
  groups: [{ to: accounting, label: 'Suivi comptable', icon: 'accounting', position: 5.5 }],
  routes: [
    // Right after "Mes courriers" (2): the other thing that happens at the provider's address.
    {
      path: '/mes-reunions',
      title: 'Mes réunions',
      icon: 'meeting',
      Page: lazy(() => import('./MeetingsPage.tsx')),
      menu: { label: 'Mes réunions', position: 2.5 },
    },
    {
      path: '/suivi-comptable/tresorerie',
      title: 'Trésorerie',
      icon: 'accounting',
      Page: lazy(() => import('./TreasuryPage.tsx')),
      menu: { label: 'Trésorerie', group: accounting },
    },
    {
      path: '/suivi-comptable/calendrier-fiscal',
      title: 'Calendrier fiscal',
      icon: 'calendar',
      Page: lazy(() => import('./FiscalCalendarPage.tsx')),
      menu: { label: 'Calendrier fiscal', group: accounting },
    },
    {
      path: '/suivi-comptable/formalite-juridique',
      title: 'Obligations juridiques annuelles',
      icon: 'legal',
      Page: lazy(() => import('./LegalDutiesPage.tsx')),
      menu: { label: 'Obligations juridiques', group: accounting },
    },
    {
      path: '/suivi-comptable/simulateur-tva',
      title: 'Simulateur de TVA',
      icon: 'accounting',
      Page: lazy(() => import('./VatSimulatorPage.tsx')),
      menu: { label: 'Simulateur de TVA', group: accounting },
    },
    {
      path: '/formalites',
      title: 'Formalités',
      icon: 'formalities',
      Page: lazy(() => import('./FormalitiesPage.tsx')),
      menu: { label: 'Formalités', position: 7 },
    },
    {
      path: LEGAL_FORMALITIES_PATH,
      title: 'Formalités juridiques',
      icon: 'legal',
      Page: lazy(() => import('./LegalCataloguePage.tsx')),
      menu: { label: 'Formalités juridiques', position: 6 },
    },
    {
      path: '/gestion-de-mon-entreprise',
      title: 'Gestion de mon entreprise',
      icon: 'company',
      Page: lazy(() => import('./CompanyPage.tsx')),
      menu: { label: 'Gestion de mon entreprise', position: 9 },
    },
  ],
}
