// The code of the signed-in screens that signing in lands on: the session, the portal's startup, the
// flows of the areas the dashboard shows, the dashboard layout and the dashboard's page. main.tsx
// fetches it at once for a stored user; the login form as soon as it is used (and again on submit),
// so that the path from "Se connecter" to the dashboard waits only for the API (spec §4), never for
// code or a Suspense reveal. The other areas' flows follow once the page is idle, so that no
// navigation from the dashboard waits for code either.
import type { AppServices } from './app-context.tsx'
import { preloadable } from './components/preloadable.ts'
import { DashboardPage } from './pages/shell/dashboardPage.ts'
import { type FlowArea, FLOW_AREAS } from '../wiring/flows.ts'

export const DashboardLayout = preloadable(() => import('./layout/DashboardLayout.tsx'))

/**
 * The areas whose flows the dashboard reads as it first shows: the layout's (the Kbis banner and the problem
 * report: shell; the bell: notifications), the unpaid-invoice banner's (billing) and the next deadlines' (mail).
 */
export const DASHBOARD_AREAS: readonly FlowArea[] = ['shell', 'notifications', 'billing', 'mail']

const ignore = () => {}

/** Runs once the page is idle (a short timer where the browser cannot tell). */
export const whenIdle = (run: () => void) => void (window.requestIdleCallback ?? ((next: () => void) => setTimeout(next, 200)))(run)

/** Fetches it all; settles (never rejects) once every part is there or failed, then starts the other areas' flows when idle. */
export function preloadSignedIn(services: AppServices): Promise<void> {
  services.preloadPortal?.()
  return Promise.all([
    services.loadSession().catch(ignore),
    ...DASHBOARD_AREAS.map((area) => services.loadFlows(area).catch(ignore)),
    DashboardLayout.preload().catch(ignore),
    DashboardPage.preload().catch(ignore),
  ]).then(() => whenIdle(() => {
    // Each loaded once (services.ts): calling again, as the login form does at each keystroke, costs nothing.
    for (const area of FLOW_AREAS) if (!DASHBOARD_AREAS.includes(area)) void services.loadFlows(area).catch(ignore)
  }))
}
