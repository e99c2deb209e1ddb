// The shell's page inside the dashboard layout: the dashboard. Its bare pages (login, password
// screens, missing documents) are routed by App.tsx, from bare.ts.
// The dashboard is not loaded lazily: it is where signing in and `/` land, so it comes with the layout, in the first
// signed-in screen's code (src/signed-in-first-screen.ts), fetched before that screen's first render.
import type { Area } from '../page.ts'
import Dashboard from './Dashboard.tsx'

export const shell: Area = {
  routes: [
    {
      path: '/tableau-de-bord',
      title: 'Tableau de bord',
      icon: 'dashboard',
      Page: Dashboard,
      menu: { label: 'Tableau de bord', position: 1 },
    },
  ],
}
