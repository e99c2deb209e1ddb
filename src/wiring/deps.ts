// What every wiring factory receives from the composition root (or from a test).
import type { HostedCard } from '../machines/billing/cardReplacement.machine.ts'
import type { SessionEvent, SessionRef } from '../machines/session/session.machine.ts'
import type { Notice } from '../machines/shared.ts'
import type { StartupEvent } from '../machines/session/startup.machine.ts'
import type { Api } from './api.ts'

/** `A`: the calls it may make (the first signed-in screen's flows take only that screen's: api.ts). */
export interface WiringDeps<A = Api> {
  api: A
  /** Shows a toast. */
  notify: (notice: Notice) => void
  /** Goes to a route from outside the router (machine actions). */
  navigate: (to: string, options?: { replace?: boolean }) => void
  /** Tells the signed-in portal (the startup actor and its data) what a flow changed. */
  toPortal: (event: StartupEvent) => void
  /** Tells the session what a flow did: a user signed in another way (passkey, invitation), a sign-out. */
  toSession: (event: SessionEvent) => void
  /** billing: Stripe.js's card field (the real provider); tests give a fake, the portal loads stripe-card.ts on demand. */
  loadHostedCard?: (publishableKey: string) => Promise<HostedCard>
}

/** `toPortal` for the session running now: what a flow changed reaches its startup child, if any. */
export const portalOf =
  (session: () => SessionRef | undefined): WiringDeps['toPortal'] =>
  (event) =>
    void session()?.getSnapshot().context.startup?.send(event)
