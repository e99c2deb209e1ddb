// The people area: personal information, collaborators, representatives.
import { lazy } from 'react'
import type { Area } from '../page.ts'

const preparing = lazy(() => import('../../components/Preparing.tsx'))

export const people: Area = {
  routes: [
    { path: '/informations-personnelles', title: 'Informations personnelles', icon: 'person', Page: preparing, menu: { label: 'Informations personnelles', position: 8 } },
    { path: '/mes-collaborateurs', title: 'Mes collaborateurs', icon: 'users', Page: preparing },
    { path: '/mes-representants', title: 'Mes représentants', icon: 'users', Page: preparing },
  ],
}
