// The app's services for view tests: the real statecharts, with their effects replaced by stubs
// that answer from fixtures and record every call.
import { render } from '@testing-library/react'
import { act } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import { createActor, fromPromise } from 'xstate'
import type { IdentityUploadReply, MailDocument, Order, SendDextBody } from '../../server/contract/schemas.ts'
import { accountingExportMachine } from '../../src/machines/accountingExport.machine.ts'
import { courierRequestCancelMachine } from '../../src/machines/courierRequestCancel.machine.ts'
import { folderEditorMachine } from '../../src/machines/folderEditor.machine.ts'
import { mailboxMachine } from '../../src/machines/mailbox.machine.ts'
import { unpaidInvoicesMachine } from '../../src/machines/unpaidInvoices.machine.ts'
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
  /** Resources whose load fails (once each, then answers: 'Réessayer' works). */
  failing?: (keyof PortalData)[]
  /** Resources whose load never answers (the loading state). */
  pending?: (keyof PortalData)[]
  /** Mail effects that fail. */
  mailFails?: ('read' | 'file' | 'move' | 'send' | 'folder' | 'dext' | 'cancel' | 'pay')[]
  unpaid?: { hasUnpaid: boolean; count: number; amountInclTaxCents: number }
  dextEmail?: string | null
}

export interface Calls {
  notices: Notice[]
  kbisUploads: { contractId: number; name: string }[]
  problems: { orderId: number; message: string }[]
  resetRequests: Record<string, string>[]
  passwordResets: Record<string, string>[]
  identityUploads: { orderId: number; documentType: string }[]
  navigations: string[]
  loads: { resource: string; orderId: number | null }[]
  documentUpdates: { documentId: number; readFlag?: boolean; folderId?: number | null }[]
  files: number[]
  sentDocuments: { email: string; message?: string; documentIds: number[] }[]
  folderSaves: Record<string, unknown>[]
  folderDeletes: number[]
  dextSends: SendDextBody[]
  rememberedDext: string[]
  cancelled: { orderId: number; id: number }[]
  payments: { orderId: number | null }[]
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
  const calls: Calls = {
    notices: [], kbisUploads: [], problems: [], resetRequests: [], passwordResets: [], identityUploads: [], navigations: [],
    loads: [], documentUpdates: [], files: [], sentDocuments: [], folderSaves: [], folderDeletes: [], dextSends: [], rememberedDext: [], cancelled: [], payments: [],
  }
  const fails = (what: NonNullable<Scenario['mailFails']>[number]) => scenario.mailFails?.includes(what)
  const failedOnce = new Set<string>()
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
      portalData: portalDataMachine.provide({
        actors: {
          load: fromPromise(async ({ input }) => {
            calls.loads.push({ resource: input.resource, orderId: input.scope.order?.id ?? null })
            if (scenario.pending?.includes(input.resource)) return new Promise<never>(() => {})
            if (scenario.failing?.includes(input.resource) && !failedOnce.has(input.resource)) {
              failedOnce.add(input.resource)
              throw new Error('Le service est momentanément indisponible. Réessayez dans quelques instants.')
            }
            const value = data[input.resource]
            // Like the server: one order's lists, or every order's with 'Tous'.
            if (Array.isArray(value) && input.scope.order) {
              const id = input.scope.order.id
              return (value as { orderId?: number; domId?: number; domiciliationOrderId?: number }[])
                .filter((item) => (item.orderId ?? item.domId ?? item.domiciliationOrderId ?? id) === id) as typeof value
            }
            return value
          }),
        },
      }),
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
    mailbox: mailboxMachine.provide({
      actors: {
        loadFile: fromPromise(async ({ input }) => {
          calls.files.push(input.documentId)
          if (fails('file')) throw new Error('Le courrier numérisé n’a pas pu être chargé.')
          return new Blob(['%PDF-1.7 courrier'], { type: 'application/pdf' })
        }),
        updateDocument: fromPromise(async ({ input }): Promise<MailDocument> => {
          calls.documentUpdates.push(input)
          const document = data.documents.find((d) => d.id === input.documentId)!
          if (fails(input.readFlag !== undefined ? 'read' : 'move')) throw new Error('Le service est momentanément indisponible.')
          const { documentId: _, readFlag, ...rest } = input
          return { ...document, ...rest, ...(readFlag !== undefined ? { read: readFlag } : {}) }
        }),
        sendDocuments: fromPromise(async ({ input }) => {
          calls.sentDocuments.push(input)
          if (fails('send')) throw new Error('Le service est momentanément indisponible.')
          return { message: `Envoyé à ${input.email}.` }
        }),
      },
    }),
    folderEditor: folderEditorMachine.provide({
      actors: {
        saveFolder: fromPromise(async ({ input }) => {
          calls.folderSaves.push(input)
          if (fails('folder')) throw new Error('Un dossier porte déjà ce nom pour cette domiciliation.')
          if ('folderId' in input) return { ...data.folders.find((f) => f.id === input.folderId)!, name: input.name }
          return { id: 900 + calls.folderSaves.length, name: input.name, domiciliationOrderId: input.orderId, documentCount: 0 }
        }),
        deleteFolder: fromPromise(async ({ input }) => {
          calls.folderDeletes.push(input.folderId)
          if (fails('folder')) throw new Error('Dossier introuvable.')
          return { message: 'ok' }
        }),
      },
    }),
    accountingExport: accountingExportMachine.provide({
      actors: {
        sendDext: fromPromise(async ({ input }) => {
          calls.dextSends.push(input)
          if (fails('dext')) return { sent: input.documentIds.length, failed: input.invoiceIds.map((id) => ({ kind: 'invoice' as const, id, reason: 'Facture introuvable.' })), message: 'partiel' }
          return { sent: input.invoiceIds.length + input.documentIds.length, failed: [], message: 'ok' }
        }),
      },
      actions: { rememberEmail: (_, { email }) => void calls.rememberedDext.push(email) },
    }),
    courierRequestCancel: courierRequestCancelMachine.provide({
      actors: {
        removeRequest: fromPromise(async ({ input }) => {
          calls.cancelled.push(input)
          if (fails('cancel')) throw new Error('Seule une demande en attente peut être annulée.')
          return { message: 'ok' }
        }),
      },
    }),
    unpaidInvoices: unpaidInvoicesMachine.provide({
      actors: {
        fetchStatus: fromPromise(async () => scenario.unpaid ?? { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }),
        pay: fromPromise(async ({ input }) => {
          calls.payments.push(input)
          if (fails('pay')) throw new Error('Aucune carte enregistrée : ajoutez un moyen de paiement.')
          scenario.unpaid = { hasUnpaid: false, count: 0, amountInclTaxCents: 0 }
          return { paidCount: 1, message: '1 facture réglée.' }
        }),
      },
    }),
    readDextEmail: () => scenario.dextEmail ?? null,
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
