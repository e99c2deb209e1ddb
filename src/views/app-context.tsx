// What the views receive from the composition root (src/main.tsx) or from a test: the live
// session actor, and the flows they start themselves with their effects already provided.
import { createContext, use, useContext, useEffect, useState, useSyncExternalStore } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { accountingExportMachine } from '../machines/accountingExport.machine.ts'
import type { courierRequestCancelMachine } from '../machines/courierRequestCancel.machine.ts'
import type { folderEditorMachine } from '../machines/folderEditor.machine.ts'
import type { identityUploadMachine } from '../machines/identityUpload.machine.ts'
import type { mailboxMachine } from '../machines/mailbox.machine.ts'
import type { kbisUploadMachine } from '../machines/kbisUpload.machine.ts'
import type { problemReportMachine } from '../machines/problemReport.machine.ts'
import type { sessionMachine } from '../machines/session.machine.ts'
import type { StartupRef } from '../machines/startup.machine.ts'
import type { submissionMachine } from '../machines/submission.machine.ts'
import type { unpaidInvoicesMachine } from '../machines/unpaidInvoices.machine.ts'

export type SessionRef = ActorRefFrom<typeof sessionMachine>
export type { StartupRef }

/** Machines with their effects provided; views start them with useActorRef. */
export interface Flows {
  kbisUpload: typeof kbisUploadMachine
  problemReport: typeof problemReportMachine
  identityUpload: typeof identityUploadMachine
  passwordResetRequest: typeof submissionMachine
  passwordReset: typeof submissionMachine
  mailbox: typeof mailboxMachine
  folderEditor: typeof folderEditorMachine
  accountingExport: typeof accountingExportMachine
  courierRequestCancel: typeof courierRequestCancelMachine
  unpaidInvoices: typeof unpaidInvoicesMachine
  /** The accounting inbox address kept from the last export, or null. */
  readDextEmail: () => string | null
}

export interface AppServices {
  /** The running session actor, loaded once (suspends the first screen that needs it). */
  loadSession: () => Promise<SessionRef>
  /** The flows load with the first screen that needs them (kept out of the first load). */
  loadFlows: () => Promise<Flows>
  /** Goes to a route from outside the router (machine actions). */
  navigate: (to: string) => void
  /** Shows a toast. */
  notify: (notice: { kind: 'success' | 'error'; message: string }) => void
}

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
export function useSnapshotValue<S, T>(actor: { getSnapshot: () => S; subscribe: (next: () => void) => { unsubscribe: () => void } } | undefined, select: (snapshot: S) => T, fallback: T): T {
  return useSyncExternalStore(
    (onChange) => {
      if (!actor) return () => {}
      const subscription = actor.subscribe(onChange)
      return () => subscription.unsubscribe()
    },
    () => (actor ? select(actor.getSnapshot()) : fallback),
  )
}

/** The flows, suspending until their code has loaded. */
export const useFlows = (): Flows => use(useServices().loadFlows())

/** The startup child of the session: present once signed in and the portal's code has loaded. */
export function useStartup(): StartupRef | undefined {
  return useSnapshotValue(useSession(), (s) => s.context.startup ?? undefined, undefined)
}
