// The composition: what the views receive. The API client, the session (with xstate), the portal and
// the flows are imported lazily, each once, so that the first paint of /login only needs React, the
// router and the login form; main.tsx fetches the session right behind it. Tests build the same
// factories (session.ts, portal.ts, flows.ts) with a fake API (test/util/services.tsx).
import type { SessionRef } from '../machines/session.machine.ts'
import type { Api } from './api.ts'
import { portalOf, type WiringDeps } from './deps.ts'
import type { Flows } from './flows.ts'

export type { Flows, SessionRef }

export interface AppServices {
  /** The running session actor, loaded once (suspends the first screen that needs it). */
  loadSession: () => Promise<SessionRef>
  /** The flows load with the first screen that needs them (kept out of the first load). */
  loadFlows: () => Promise<Flows>
  navigate: WiringDeps['navigate']
  notify: WiringDeps['notify']
}

export function createServices({ navigate, notify }: Pick<AppServices, 'navigate' | 'notify'>): AppServices {
  let api: Promise<Api> | undefined
  let session: Promise<SessionRef> | undefined
  let flows: Promise<Flows> | undefined
  let current: SessionRef | undefined
  const loadApi = () => (api ??= import('./api.ts').then((m) => m.api))
  const loadPortal = () => Promise.all([import('./portal.ts'), loadApi()]).then(([m, a]) => m.createStartup({ api: a, navigate }))
  const loadSession = () => (session ??= Promise.all([import('./session.ts'), loadApi()])
    .then(([m, a]) => m.createSession({ api: a, notify, loadPortal }))
    .then((s) => (current = s)))
  return {
    navigate,
    notify,
    loadSession,
    loadFlows: () => (flows ??= Promise.all([import('./flows.ts'), loadApi()])
      .then(([m, a]) => m.createFlows({
        api: a, notify, navigate, toPortal: portalOf(() => current),
        toSession: (event) => void loadSession().then((s) => s.send(event)),
      }))),
  }
}
