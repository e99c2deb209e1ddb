// What the views receive from the composition root (src/wiring, mounted by src/main.tsx) or from a
// test: the live session actor, and the flows they start themselves with their effects provided.
import { createContext, use, useContext, useEffect, useState, useSyncExternalStore } from 'react'
import type { StartupRef } from '../machines/session/startup.machine.ts'
import type { AppServices, FlowArea, Flows, SessionRef } from '../wiring/services.ts'

export type { AppServices, FlowArea, Flows, SessionRef, StartupRef }

export const AppContext = createContext<AppServices | null>(null)

export function useServices(): AppServices {
  const services = useContext(AppContext)
  if (!services) throw new Error('AppContext is missing: render the views inside <App services={…}>')
  return services
}

/** The session actor, suspending until its code has loaded. */
export const useSession = (): SessionRef => use(useServices().loadSession())

/** The session actor once loaded, without suspending: the login form shows before it. */
export function useSessionWhenLoaded(): SessionRef | undefined {
  const { loadSession } = useServices()
  const [session, setSession] = useState<SessionRef>()
  useEffect(() => {
    let live = true
    void loadSession().then((s) => live && setSession(s))
    return () => {
      live = false
    }
  }, [loadSession])
  return session
}

/** A value read from an actor's snapshot, following its changes (undefined while there is no actor). */
export function useSnapshotValue<S, T>(
  actor: { getSnapshot: () => S; subscribe: (next: () => void) => { unsubscribe: () => void } } | undefined,
  select: (snapshot: S) => T,
  fallback: T,
): T {
  return useSyncExternalStore(
    (onChange) => {
      if (!actor) return () => {}
      const subscription = actor.subscribe(onChange)
      return () => subscription.unsubscribe()
    },
    () => (actor ? select(actor.getSnapshot()) : fallback),
    () => (actor ? select(actor.getSnapshot()) : fallback),
  )
}

/** An area's flows, suspending until that area's code has loaded (only its own: each area is a chunk of its own). */
export const useFlows = <A extends FlowArea>(area: A): Flows<A> => use(useServices().loadFlows(area))

/** The startup child of the session: present once signed in and the portal's code has loaded. */
export function useStartup(): StartupRef | undefined {
  return useSnapshotValue(useSession(), (s) => s.context.startup ?? undefined, undefined)
}
