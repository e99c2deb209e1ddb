// The code of a stored user's first signed-in screen, in one module loaded lazily, once: the session and the HTTP client
// (the first screen's calls), the portal's startup, the flows that screen starts (the dashboard's: wiring/first-screen.ts),
// the dashboard layout and the dashboard's page. One dynamic import rather than six, so that the production build makes
// it one group of chunks (esbuild.config.mjs, chunkLayers): dist/signed-in.html announces a handful of files, not forty.
// main.tsx fetches it at once for a stored user (views/signedIn.ts), /login once its first paint is done, and the
// login form again as soon as it is used, so that signing in waits only for the API (spec §4).
// Imported lazily by main.tsx (createServices) and views/signedIn.ts only, which none of it imports: no import cycle.
export { api } from './wiring/api.ts'
export { createFirstScreenFlows } from './wiring/first-screen.ts'
export { createStartup } from './wiring/portal.ts'
export { createSession } from './wiring/session-actor.ts'
// (The dashboard's page comes with the layout: views/pages/session/routes.ts.)
export { default as DashboardLayout } from './views/layout/DashboardLayout.tsx'
