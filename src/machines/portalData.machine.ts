// What the pages show for the order picked in the header (spec §4): card, documents, subscription,
// packages, courier requests, folders, invoices and calendar invoices, loaded in parallel, one
// region each. Picking another order clears the selected document and re-enters `active`: every
// running load is stopped (its signal aborted, its answer dropped), so a stale answer from an
// earlier pick can never overwrite a newer one.
import { assign, fromPromise, setup } from 'xstate'
import type {
  CalendarInvoice, CourierRequest, Folder, Invoice, MailDocument, Order, Package, PaymentMethod, Subscription,
} from '../../server/contract/schemas.ts'
import { messageOf } from './shared.ts'

/** Whose data to load: one order, or every order ('Tous') when `order` is null. */
export interface Scope {
  order: Order | null
  orders: Order[]
}

export interface OrderSubscription {
  orderId: number
  subscription: Subscription
}

export interface PortalData {
  card: PaymentMethod | null
  documents: MailDocument[]
  subscriptions: OrderSubscription[]
  packages: Package[]
  courierRequests: CourierRequest[]
  folders: Folder[]
  invoices: Invoice[]
  calendarInvoices: CalendarInvoice[]
}

export type Resource = keyof PortalData
export const RESOURCES = [
  'card', 'documents', 'subscriptions', 'packages', 'courierRequests', 'folders', 'invoices', 'calendarInvoices',
] as const satisfies readonly Resource[]

export interface LoadInput {
  resource: Resource
  scope: Scope
}

const empty = (): PortalData => ({
  card: null, documents: [], subscriptions: [], packages: [], courierRequests: [], folders: [], invoices: [], calendarInvoices: [],
})

export type PortalDataContext = PortalData & {
  scope: Scope
  selectedDocumentId: number | null
  errors: Partial<Record<Resource, string>>
}

export type PortalDataEvent =
  | { type: 'order.select'; scope: Scope }
  | { type: 'document.select'; documentId: number }
  | { type: 'data.retry'; resource: Resource }

const machineSetup = setup({
  types: {
    context: {} as PortalDataContext,
    input: {} as { scope: Scope },
    events: {} as PortalDataEvent,
  },
  actors: {
    /** Loads one resource for a scope; provided by the composition root. */
    load: fromPromise<PortalData[Resource], LoadInput>(async () => {
      throw new Error('portalData: the load actor is not provided')
    }),
  },
  actions: {
    store: assign((_, params: { resource: Resource; value: PortalData[Resource] }) => {
      if (params.resource !== 'documents') return { [params.resource]: params.value }
      // The document list excludes deleted ones; the first is selected by default (spec §4).
      const documents = (params.value as MailDocument[]).filter((d) => !d.deleted)
      return { documents, selectedDocumentId: documents[0]?.id ?? null }
    }),
    storeError: assign(({ context }, params: { resource: Resource; message: string }) => ({
      errors: { ...context.errors, [params.resource]: params.message },
    })),
    clearError: assign(({ context }, params: { resource: Resource }) => {
      const errors = { ...context.errors }
      delete errors[params.resource]
      return { errors }
    }),
  },
  guards: {
    isResource: (_, params: { expected: Resource; actual: Resource }) => params.expected === params.actual,
    isListedDocument: ({ context }, params: { documentId: number }) => context.documents.some((d) => d.id === params.documentId),
  },
})

function region(resource: Resource) {
  return {
    initial: 'loading' as const,
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: resource,
          src: 'load' as const,
          input: ({ context }: { context: PortalDataContext }) => ({ resource, scope: context.scope }),
          onDone: {
            target: 'loaded',
            actions: { type: 'store' as const, params: ({ event }: { event: { output: PortalData[Resource] } }) => ({ resource, value: event.output }) },
          },
          onError: {
            target: 'failed',
            actions: { type: 'storeError' as const, params: ({ event }: { event: { error: unknown } }) => ({ resource, message: messageOf(event.error) }) },
          },
        },
      },
      loaded: {},
      failed: {
        on: {
          'data.retry': {
            guard: { type: 'isResource' as const, params: ({ event }: { event: { resource: Resource } }) => ({ expected: resource, actual: event.resource }) },
            target: 'loading',
            actions: { type: 'clearError' as const, params: { resource } },
          },
        },
      },
    },
  }
}

export const portalDataMachine = machineSetup.createMachine({
  id: 'portalData',
  context: ({ input }) => ({ ...empty(), scope: input.scope, selectedDocumentId: null, errors: {} }),
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      states: {
        card: region('card'),
        documents: region('documents'),
        subscriptions: region('subscriptions'),
        packages: region('packages'),
        courierRequests: region('courierRequests'),
        folders: region('folders'),
        invoices: region('invoices'),
        calendarInvoices: region('calendarInvoices'),
      },
    },
  },
  on: {
    'order.select': {
      target: '.active',
      reenter: true,
      actions: assign(({ event }) => ({ ...empty(), scope: event.scope, selectedDocumentId: null, errors: {} })),
    },
    'document.select': {
      guard: { type: 'isListedDocument', params: ({ event }) => ({ documentId: event.documentId }) },
      actions: assign({ selectedDocumentId: ({ event }) => event.documentId }),
    },
  },
})
