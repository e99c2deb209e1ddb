// A write whose page was left before the answer (its actor stopped, its signal aborted; the call itself goes on, see
// outlive.ts): its outcome is told in a toast and to the portal, to the person who made it only. Loaded when a write
// starts, kept out of the flows' chunks.
import { failureOf, type Notice } from '../machines/shared.ts'
import type { WiringDeps } from './deps.ts'
import { readStoredUser } from './storage.ts'

/** How a write that outlives its page is told (outlive.ts). */
export interface Told<T> {
  notify: WiringDeps['notify']
  /** The success toast the page would have shown; null: none. */
  done: (reply: T) => Notice | null
  /** What did not happen, in the machine's own words (the server's reason follows); null: no toast. */
  failed: string | null
  /** Succeeded: what the page would have told the portal. */
  after?: (reply: T) => void
  /** Failed: likewise (a change shown ahead put back). */
  afterFailure?: () => void
}

export function tellIfLeft<T>(call: Promise<T>, signal: AbortSignal, token: string | undefined, told: Told<T>) {
  // Read when the answer comes: a sign-out or another person meanwhile hears nothing, and their portal is not touched.
  const left = () => signal.aborted && token !== undefined && readStoredUser()?.apiToken === token
  call.then(
    (reply) => {
      if (!left()) return
      const notice = told.done(reply)
      if (notice) told.notify(notice)
      told.after?.(reply)
    },
    (error: unknown) => {
      if (!left()) return
      if (told.failed !== null) told.notify({ kind: 'error', message: failureOf(told.failed, error) })
      told.afterFailure?.()
    },
  )
}
