// The composition: what the views receive. The API client, the session (with xstate), the portal and
// the flows are imported lazily, each once, so that the first paint of /login only needs React, the
// router and the login form; main.tsx fetches them right behind it (preloadSignedIn), so that
// signing in waits for no code. Every loader's promise is tracked (settled.ts): once there, the views
// read it without suspending. Tests build the same factories (session.ts, portal.ts, flows.ts) with a
// fake API (test/util/services.tsx).
import type { SessionRef } from '../machines/session.machine.ts'
import { portalOf, type WiringDeps } from './deps.ts'
import type { Flows } from './flows.ts'
import { tracked } from './settled.ts'

export type { Flows, SessionRef }

export interface AppServices {
  /** The running session actor, loaded once (suspends the first screen that needs it, unless loaded). */
  loadSession: () => Promise<SessionRef>
  /** The flows load with the first screen that needs them (kept out of the first load). */
  loadFlows: () => Promise<Flows>
  /** Fetches the signed-in portal's code (the startup machine) ahead of the sign-in; optional in tests. */
  preloadPortal?: () => void
  navigate: WiringDeps['navigate']
  notify: WiringDeps['notify']
}

/** A loader called once; a failed load (offline) is tried again on the next call. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => (pending ??= tracked(load().catch((error: unknown) => {
    pending = undefined
    throw error
  })))
}

export function createServices({ navigate, notify }: Pick<AppServices, 'navigate' | 'notify'>): AppServices {
  let current: SessionRef | undefined
  const loadApi = once(() => import('./api.ts').then((m) => m.api))
  const loadPortalCode = once(() => import('./portal.ts'))
  const loadPortal = () => Promise.all([loadPortalCode(), loadApi()]).then(([m, a]) => m.createStartup({ api: a, navigate }))
  const loadSession = once(() => Promise.all([import('./session.ts'), loadApi()])
    .then(([m, a]) => m.createSession({ api: a, notify, loadPortal }))
    .then((s) => (current = s)))
  return {
    navigate,
    notify,
    loadSession,
    preloadPortal: () => void loadPortalCode().catch(() => {}),
    loadFlows: once(() => Promise.all([import('./flows.ts'), loadApi()])
      .then(([m, a]) => m.createFlows({
        api: a, notify, navigate, toPortal: portalOf(() => current),
        toSession: (event) => void loadSession().then((s) => s.send(event)),
      }))),
  }
}
