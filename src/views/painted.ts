// The first screen, painted: what it does not draw waits for that paint, so that the bytes fetched and the work done
// before it are that screen's own. A layout says when it has committed its first screen (BareLayout, DashboardLayout
// once the startup has reached a screen); after the browser's next frame, the toasts mount (App.tsx) and, on a
// signed-in screen, the rest of the signed-in code is fetched (signedIn.ts) and the bell comes (Header.tsx).
import { useSyncExternalStore } from 'react'

/** Any first screen, or the dashboard layout's. */
export type Screen = 'any' | 'signedIn'

const painted: Record<Screen, boolean> = { any: false, signedIn: false }
const listeners = new Set<() => void>()

/** `run` once the browser has painted what was just committed: after the next frame, in a task of its own. */
const afterPaint = (run: () => void) => requestAnimationFrame(() => setTimeout(run, 0))

/** A layout committed its first screen (`signedIn`: the dashboard layout's): painted after the next frame. */
export function screenShown(signedIn: boolean) {
  afterPaint(() => {
    if (painted.any && (painted.signedIn || !signedIn)) return
    painted.any = true
    if (signedIn) painted.signedIn = true
    for (const listener of [...listeners]) listener()
  })
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** Whether such a screen has painted. */
export const hasPainted = (screen: Screen): boolean => painted[screen]

/** `run` once such a screen has painted (at once if it has). */
export function whenPainted(screen: Screen, run: () => void) {
  if (painted[screen]) return run()
  const stop = subscribe(() => {
    if (!painted[screen]) return
    stop()
    run()
  })
}

/** For tests: forgets that a screen has painted (a new page). */
export function forgetPainted() {
  painted.any = false
  painted.signedIn = false
}

/** Runs once the page is idle (a short timer where the browser cannot tell). */
export const whenIdle = (run: () => void) => void (window.requestIdleCallback ?? ((next: () => void) => setTimeout(next, 200)))(run)

/** Whether such a screen has painted, following it. */
export const usePainted = (screen: Screen): boolean =>
  useSyncExternalStore(
    subscribe,
    () => hasPainted(screen),
    () => false,
  )
