// The code of the signed-in screens that signing in lands on: the session, the portal's startup, the
// flows, the dashboard layout and the dashboard's page. main.tsx fetches it at once for a stored
// user; the login form as soon as it is used (and again on submit), so that the path from
// "Se connecter" to the dashboard waits only for the API (spec §4), never for code or a Suspense reveal.
import type { AppServices } from './app-context.tsx'
import { preloadable } from './components/preloadable.ts'
import { DashboardPage } from './pages/shell/dashboardPage.ts'

export const DashboardLayout = preloadable(() => import('./layout/DashboardLayout.tsx'))

const ignore = () => {}

/** Fetches it all; settles (never rejects) once every part is there or failed. */
export function preloadSignedIn(services: AppServices): Promise<void> {
  services.preloadPortal?.()
  return Promise.all([
    services.loadSession().catch(ignore),
    services.loadFlows().catch(ignore),
    DashboardLayout.preload().catch(ignore),
    DashboardPage.preload().catch(ignore),
  ]).then(ignore)
}
