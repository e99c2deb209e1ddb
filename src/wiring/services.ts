// The composition: what the views receive. The first signed-in screen's code (the session with xstate, the API
// client's first calls, the portal, the dashboard's flows: src/signed-in-first-screen.ts, one module) and each other
// area's flows are imported lazily, each once, so that the first paint of /login only needs React,
// the router and the login form; main.tsx fetches them right behind it (preloadSignedIn), so that
// signing in waits for no code. Every loader's promise is tracked (settled.ts): once there, the views
// read it without suspending. Tests build the same factories (session.ts, portal.ts, the areas' flows)
// with a fake API (test/util/services.tsx).
import type { SessionRef } from '../machines/session/session.machine.ts'
import type { Api, FirstScreenApi } from './api.ts'
import type { createFirstScreenFlows } from './first-screen.ts'
import type { createStartup } from './portal.ts'
import type { createSession } from './session-actor.ts'
import { portalOf, type WiringDeps } from './deps.ts'
import { type FlowArea, type FlowFactories, flowCode, type Flows } from './flows.ts'
import { built } from './later.ts'
import { tracked } from './settled.ts'

export type { FlowArea, Flows, SessionRef }

/** The first signed-in screen's code (src/signed-in-first-screen.ts, imported by main.tsx: none of its modules imports it). */
export interface FirstScreenCode {
  api: FirstScreenApi
  createSession: typeof createSession
  createStartup: typeof createStartup
  createFirstScreenFlows: typeof createFirstScreenFlows
}

export interface AppServices {
  /** The running session actor, loaded once (suspends the first screen that needs it, unless loaded). */
  loadSession: () => Promise<SessionRef>
  /** An area's flows, loaded once with the first screen that needs them (each area its own chunk, out of the first load). */
  loadFlows: <A extends FlowArea>(area: A) => Promise<Flows<A>>
  /** Fetches the signed-in portal's code (the startup machine) ahead of the sign-in; optional in tests. */
  preloadPortal?: () => void
  navigate: WiringDeps['navigate']
  notify: WiringDeps['notify']
}

/** A loader called once; a failed load (offline) is tried again on the next call. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= tracked(
      load().catch((error: unknown) => {
        pending = undefined
        throw error
      }),
    ))
}

export function createServices({
  navigate,
  notify,
  firstScreen,
}: Pick<AppServices, 'navigate' | 'notify'> & {
  /** Imports src/signed-in-first-screen.ts (main.tsx; a test its own), which this module, reached from it, cannot. */
  firstScreen: () => Promise<FirstScreenCode>
}): AppServices {
  let current: SessionRef | undefined
  // The address the tab opened on, read before the guard sends a signed-out visitor to /login: an e-mail's link.
  const openedOn = window.location.pathname + window.location.search + window.location.hash
  // The first screen's code, one module (src/signed-in-first-screen.ts): the session, the startup, the dashboard's flows
  // and the calls they make (the first screen's); then every call for the areas' flows.
  const loadFirstScreen = once(firstScreen)
  const loadApi = () => loadFirstScreen().then((m) => m.api)
  const loadAllApi = once(() => import('./api-all.ts').then((m) => m.allApi))
  const loadPortal = () => loadFirstScreen().then((m) => m.createStartup({ api: m.api, navigate }))
  const loadSession = once(() =>
    loadFirstScreen()
      .then((m) => m.createSession({ api: m.api, notify, loadPortal, openedOn }))
      .then((s) => (current = s)),
  )
  const deps = (api: Api): WiringDeps => ({
    api,
    notify,
    navigate,
    toPortal: portalOf(() => current),
    toSession: (event) => void loadSession().then((s) => s.send(event)),
  })
  // One loader per area, each called once: its chunk and the API client, then its flows (each machine built on first use, later.ts).
  // (The dashboard's flows are given the first screen's calls only, as their own type says: api.ts.)
  const apiFor = (area: FlowArea): Promise<Api> => (area === 'firstScreen' ? (loadApi() as Promise<Api>) : loadAllApi())
  // The dashboard's flows come with the rest of the first screen's code; every other area's is a chunk of its own.
  const factory = (area: FlowArea): Promise<FlowFactories[FlowArea]> =>
    area === 'firstScreen' ? loadFirstScreen().then((m) => m.createFirstScreenFlows) : flowCode[area]()
  const areaLoaders = new Map<FlowArea, () => Promise<unknown>>()
  const loadFlows = <A extends FlowArea>(area: A): Promise<Flows<A>> => {
    let load = areaLoaders.get(area)
    if (!load)
      areaLoaders.set(
        area,
        (load = once(() => Promise.all([factory(area), apiFor(area)]).then(([create, api]) => built(create(deps(api)))))),
      )
    return load() as Promise<Flows<A>>
  }
  return {
    navigate,
    notify,
    loadSession,
    preloadPortal: () => void loadFirstScreen().catch(() => {}),
    loadFlows,
  }
}
