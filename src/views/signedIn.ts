// The code of the first signed-in screen, where signing in lands: the session, the portal's startup, the flows that
// screen starts (the dashboard's, src/wiring/first-screen.ts), the dashboard layout and the dashboard's page, one module
// (src/signed-in-first-screen.ts), which none of its modules imports (the session's loader is main.tsx's). main.tsx
// fetches it at once for a stored user (dist/signed-in.html announces it, and nothing more); the login form as soon
// as it is used (and again on submit), so that the path from "Se connecter" to the dashboard waits only for the API
// (spec §4), never for code or a Suspense reveal. The other areas' flows come once that screen has painted, so that
// no navigation from it waits for code either (and the layout's parts it does not draw at once: layout/parts.ts).
import type { AppServices } from './app-context.tsx'
import { preloadable } from './components/preloadable.ts'
import { whenIdle, whenPainted } from './painted.ts'
import { type FlowArea, FLOW_AREAS } from '../wiring/flows.ts'

// (With the dashboard's page: pages/session/routes.ts. One module for the whole first screen's code: one group of chunks,
// esbuild.config.mjs.)
export const DashboardLayout = preloadable(() => import('../signed-in-first-screen.ts').then((m) => ({ default: m.DashboardLayout })))

/** The flows the first screen reads as it shows: the layout's (the Kbis banner, the problem report) and the dashboard's. */
export const DASHBOARD_AREAS: readonly FlowArea[] = ['firstScreen']

const ignore = () => {}

/** The services whose other areas' flows are already promised (the login form asks again at each keystroke). */
const restPromised = new WeakSet<AppServices>()

/** Fetches the first screen's code; settles (never rejects) once every part is there or failed. */
export function preloadSignedIn(services: AppServices): Promise<void> {
  services.preloadPortal?.()
  const firstScreen = Promise.all([
    services.loadSession().catch(ignore),
    ...DASHBOARD_AREAS.map((area) => services.loadFlows(area).catch(ignore)),
    DashboardLayout.preload().catch(ignore),
  ]).then(ignore)
  // Each loaded once (services.ts, preloadable.ts): calling again, as the login form does at each keystroke, costs nothing.
  if (!restPromised.has(services)) {
    restPromised.add(services)
    void firstScreen.then(() => whenPainted('signedIn', () => whenIdle(() => loadTheRest(services))))
  }
  return firstScreen
}

/** The flows the first screen does not read: every other area's (the layout's own parts: layout/parts.ts). */
function loadTheRest(services: AppServices) {
  for (const area of FLOW_AREAS) if (!DASHBOARD_AREAS.includes(area)) void services.loadFlows(area).catch(ignore)
}
