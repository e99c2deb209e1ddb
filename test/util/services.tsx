// The app's services for view tests: the real statecharts, with their effects replaced by stubs
// that answer from fixtures and record every call.
import { render } from '@testing-library/react'
import { act } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import { createActor, fromPromise } from 'xstate'
import type { IdentityUploadReply, Order } from '../../server/contract/schemas.ts'
import { identityUploadMachine } from '../../src/machines/identityUpload.machine.ts'
import { kbisUploadMachine } from '../../src/machines/kbisUpload.machine.ts'
import type { PortalData } from '../../src/machines/portalData.machine.ts'
import { portalDataMachine } from '../../src/machines/portalData.machine.ts'
import { problemReportMachine } from '../../src/machines/problemReport.machine.ts'
import { sessionMachine } from '../../src/machines/session.machine.ts'
import type { Notice } from '../../src/machines/shared.ts'
import { type StoredChoice, startupMachine } from '../../src/machines/startup.machine.ts'
import { submissionMachine } from '../../src/machines/submission.machine.ts'
import { readStoredChoice, readStoredUser, removeStoredSession, writeStoredChoice, writeStoredUser } from '../../src/storage.ts'
import { App } from '../../src/views/App.tsx'
import type { AppServices, Flows, SessionRef } from '../../src/views/app-context.tsx'
import * as F from './fixtures.ts'

export interface Scenario {
  orders?: Order[]
  /** The user fetch fails (an expired token). */
  userFails?: boolean
  /** The orders never arrive (the startup stays loading). */
  ordersPending?: boolean
  /** The portal's code cannot be loaded (offline). */
  portalFails?: boolean
  /** The answer of the Kbis upload: the stored path, or null (a failure). */
  kbisAnswer?: string | null
  /** The problem report fails. */
  problemFails?: boolean
  loginFails?: boolean
  data?: Partial<PortalData>
}

export interface Calls {
  notices: Notice[]
  kbisUploads: { contractId: number; name: string }[]
  problems: { orderId: number; message: string }[]
  resetRequests: Record<string, string>[]
  passwordResets: Record<string, string>[]
  identityUploads: { orderId: number; documentType: string }[]
  navigations: string[]
}

/** A promise React's use() reads at once, without suspending. */
function settled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value })
}

const emptyData = (): PortalData => ({
  card: null, documents: [], subscriptions: [], packages: [], courierRequests: [], folders: [], invoices: [], calendarInvoices: [],
})

export function createTestServices(scenario: Scenario, navigate: (to: string) => void) {
  const orders = scenario.orders ?? [F.atelier, F.boulangerie, F.studio, F.conseil]
  const calls: Calls = { notices: [], kbisUploads: [], problems: [], resetRequests: [], passwordResets: [], identityUploads: [], navigations: [] }
  const go = (to: string) => {
    calls.navigations.push(to)
    navigate(to)
  }
  const data = { ...emptyData(), ...scenario.data }

  const startup = startupMachine.provide({
    actors: {
      fetchUser: fromPromise(async () => {
        if (scenario.userFails) throw new Error('Session expirée ou invalide, veuillez vous reconnecter.')
        return F.user
      }),
      fetchContracts: fromPromise(async () => F.contracts),
      fetchOrders: fromPromise(() => (scenario.ordersPending ? new Promise<Order[]>(() => {}) : Promise.resolve(orders))),
      portalData: portalDataMachine.provide({ actors: { load: fromPromise(async ({ input }) => data[input.resource]) } }),
    },
    actions: {
      persistChoice: (_, { choice }) => writeStoredChoice(choice),
      navigate: (_, { to }) => go(to),
    },
  })
  const session: SessionRef = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(async ({ input }) => {
          if (scenario.loginFails || input.password !== 'Demo1234!') throw new Error('Identifiants incorrects')
          return F.authUser
        }),
        loadPortal: fromPromise(async () => {
          if (scenario.portalFails) throw new Error('Failed to fetch dynamically imported module')
          return startup
        }),
      },
      actions: {
        persistUser: (_, { user }) => writeStoredUser(user),
        removeUser: () => removeStoredSession(),
      },
    }),
    { input: { storedUser: readStoredUser(), storedChoice: readStoredChoice() } },
  )
  session.start()

  const flows: Flows = {
    kbisUpload: kbisUploadMachine.provide({
      actors: {
        uploadKbis: fromPromise(async ({ input }) => {
          calls.kbisUploads.push({ contractId: input.contractId, name: input.file.name })
          return scenario.kbisAnswer === undefined ? '/api-protected/contracts/101/kbis' : scenario.kbisAnswer
        }),
      },
    }),
    problemReport: problemReportMachine.provide({
      actors: {
        sendProblem: fromPromise(async ({ input }) => {
          calls.problems.push(input)
          if (scenario.problemFails) throw new Error('Le service est momentanément indisponible.')
          return { message: 'ok' }
        }),
      },
    }),
    identityUpload: identityUploadMachine.provide({
      actors: {
        uploadOne: fromPromise(async ({ input }): Promise<IdentityUploadReply> => {
          calls.identityUploads.push({ orderId: input.orderId, documentType: input.documentType })
          return { uploaded: [], complete: true, missingDocumentsValidatedAt: '2026-11-22T10:00:00.000Z' }
        }),
      },
    }),
    passwordResetRequest: submissionMachine.provide({
      actors: { submit: fromPromise(async ({ input }) => void calls.resetRequests.push(input)) },
    }),
    passwordReset: submissionMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          calls.passwordResets.push(input)
          if (input.token === 'expire') throw new Error('Ce lien a expiré. Demandez un nouveau lien.')
        }),
      },
    }),
  }

  const services: AppServices = {
    navigate: go,
    notify: (notice) => void calls.notices.push(notice),
    loadSession: () => settled(session),
    loadFlows: () => settled(flows),
  }
  return { services, session, calls }
}

/** Renders the whole app at a path, signed in (with a kept default order) or not. */
export async function renderApp(path: string, options: Scenario & { signedIn?: boolean; defaultOrder?: StoredChoice } = {}) {
  localStorage.clear()
  if (options.signedIn) writeStoredUser(F.authUser)
  if (options.defaultOrder !== undefined) writeStoredChoice(options.defaultOrder)
  const location = memoryLocation({ path, record: true })
  const { services, session, calls } = createTestServices(options, (to) => location.navigate(to))
  let view!: ReturnType<typeof render>
  await act(async () => {
    view = render(<App services={services} hook={location.hook} />)
  })
  return { ...view, location, services, session, calls, currentPath: () => location.history.at(-1) }
}
