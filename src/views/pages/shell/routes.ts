// The shell's page inside the dashboard layout: the dashboard. Its bare pages (login, password
// screens, missing documents) are routed by App.tsx, from bare.ts.
import { lazy } from 'react'
import type { Area } from '../page.ts'

export const shell: Area = {
  routes: [
    { path: '/tableau-de-bord', title: 'Tableau de bord', icon: 'dashboard', Page: lazy(() => import('./Dashboard.tsx')), menu: { label: 'Tableau de bord', position: 1 } },
  ],
}
