// The entry point: goober first, then the services (src/wiring), then the app.
import './views/goober.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { navigate } from 'wouter/use-browser-location'
import { App } from './views/App.tsx'
import { createServices } from './wiring/services.ts'

const services = createServices({
  navigate: (to, options) => navigate(to, options),
  // The toast library loads with the first toast (or with the Toaster, right after the first paint).
  notify: (notice) => void import('./views/Toasts.tsx').then((m) => m.showToast(notice)),
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
)

// Right behind the first paint: the session, so that signing in does not wait for its code.
const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200))
idle(() => void services.loadSession())
