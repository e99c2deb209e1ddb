// The shell's page inside the dashboard layout: the dashboard. Its bare pages (login, password
// screens, missing documents) are routed by App.tsx, from bare.ts.
import type { Area } from '../page.ts'
import { DashboardPage } from './dashboardPage.ts'

export const shell: Area = {
  routes: [
    {
      path: '/tableau-de-bord',
      title: 'Tableau de bord',
      icon: 'dashboard',
      Page: DashboardPage,
      menu: { label: 'Tableau de bord', position: 1 },
    },
  ],
}
