// The composition: what the views receive. The session (with xstate and the HTTP client), the
// portal and the other flows are imported lazily, each once, so that the first paint of /login
// only needs React, the router and the login form; main.tsx fetches the session right behind it.
import type { AppServices, Flows, SessionRef } from './views/app-context.tsx'

export function createServices({ navigate, notify }: Pick<AppServices, 'navigate' | 'notify'>): AppServices {
  let session: Promise<SessionRef> | undefined
  let flows: Promise<Flows> | undefined
  return {
    navigate,
    notify,
    loadSession: () => (session ??= import('./session.ts').then((m) => m.createSession({ navigate, notify }))),
    loadFlows: () => (flows ??= import('./flows.ts').then((m) => m.createFlows())),
  }
}
