// The people area: personal information, collaborators, representatives.
import { lazy } from 'react'
import type { Area } from '../page.ts'

export const people: Area = {
  routes: [
    {
      path: '/informations-personnelles',
      title: 'Informations personnelles',
      icon: 'person',
      Page: lazy(() => import('./PersonalInfoPage.tsx')),
      menu: { label: 'Informations personnelles', position: 8 },
    },
    { path: '/mes-collaborateurs', title: 'Mes collaborateurs', icon: 'users', Page: lazy(() => import('./CollaboratorsPage.tsx')) },
    { path: '/mes-representants', title: 'Mes représentants', icon: 'users', Page: lazy(() => import('./RepresentativesPage.tsx')) },
  ],
}
