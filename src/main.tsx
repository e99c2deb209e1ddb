// The entry point: the startup's first calls for a stored user (early-start.ts), goober, then the
// services (src/wiring), then the app.
import './wiring/early-start.ts'
import './views/goober.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { navigate } from 'wouter/use-browser-location'
import { App } from './views/App.tsx'
import { whenIdle } from './views/painted.ts'
import { preloadSignedIn } from './views/signedIn.ts'
import { firstRender } from './views/takeover.ts'
import { isBarePath } from './wiring/bare-pages.ts'
import { hasStoredUser } from './wiring/storage.ts'
import { createServices } from './wiring/services.ts'

/** How long the first render waits for the signed-in code before showing its loading state instead. */
const SIGNED_IN_CODE_WAIT_MS = 1500

const services = createServices({
  navigate: (to, options) => navigate(to, options),
  // The first signed-in screen's code, one module: the session, the startup, the dashboard's flows, layout and page.
  firstScreen: () => import('./signed-in-first-screen.ts'),
  // The toast library loads with the first toast (or with the Toaster, right after the first paint).
  notify: (notice) => void import('./views/Toasts.tsx').then((m) => m.showToast(notice)),
})

const signedIn = hasStoredUser() ? preloadSignedIn(services) : undefined

/**
 * The first render, and what follows it. Run from a microtask, not from this module's top level: a browser that
 * records where each timer and request comes from (DevTools, Lighthouse's trace) collects the source positions of
 * every function on the stack, and with the top level of this bundle on it, that means parsing the whole entry file
 * again, in the middle of its evaluation (45 ms on the test machine, four times that in Lighthouse's simulation).
 */
async function start() {
  // A stored user on a signed-in route: the first render waits (a little) for the first screen's code, which the
  // page announced (dist/signed-in.html). Rendered before it, the layout would suspend, and React would hold
  // the dashboard's reveal for its Suspense throttle (300 ms after the fallback) once the code is there.
  if (signedIn && !isBarePath(location.pathname))
    await Promise.race([signedIn, new Promise((resolve) => setTimeout(resolve, SIGNED_IN_CODE_WAIT_MS))])

  // /login comes drawn ahead (src/prerender.tsx): taken over in one commit; a signed-in route's empty page is drawn in slices.
  const container = document.getElementById('root')!
  firstRender(
    container,
    createRoot(container),
    <StrictMode>
      <App services={services} />
    </StrictMode>,
  )

  // The first signed-in screen's code: at once for a stored user (above). On /login, right behind the first paint with
  // the session (one module, src/signed-in-first-screen.ts), and the layout asked again as soon as the form is used
  // (LoginPage), so that signing in waits for no code.
  if (!signedIn) whenIdle(() => void services.loadSession().catch(() => {}))
}

queueMicrotask(() => void start())
