// The mail area: letters, forwarding requests, packages, folders, accounting export.
import { lazy } from 'react'
import type { Area } from '../page.ts'

const group = '/mes-courriers'

export const mail: Area = {
  groups: [{ to: group, label: 'Mes courriers', icon: 'mail', position: 2 }],
  routes: [
    {
      path: '/mes-courriers/courriers',
      title: 'Mes courriers',
      icon: 'mail',
      Page: lazy(() => import('./LettersPage.tsx')),
      menu: { label: 'Courriers', group },
    },
    {
      path: '/mes-courriers/reexpeditions',
      title: 'Réexpéditions',
      icon: 'mail',
      Page: lazy(() => import('./CourierRequestsPage.tsx')),
      menu: { label: 'Réexpéditions', group },
    },
    {
      path: '/mes-courriers/colis',
      title: 'Colis',
      icon: 'mail',
      Page: lazy(() => import('./PackagesPage.tsx')),
      menu: { label: 'Colis', group },
    },
    {
      path: '/mes-courriers/mes-dossiers',
      title: 'Mes dossiers',
      icon: 'mail',
      Page: lazy(() => import('./FoldersPage.tsx')),
      menu: { label: 'Mes dossiers', group },
    },
    {
      path: '/mes-courriers/export-comptable',
      title: 'Export comptable',
      icon: 'mail',
      Page: lazy(() => import('./AccountingExportPage.tsx')),
      menu: { label: 'Export comptable', group },
    },
  ],
}
