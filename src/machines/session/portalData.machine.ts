// What the pages show for the order picked in the header (spec §4): card, documents, subscription,
// packages, courier requests, folders, invoices and calendar invoices, loaded in parallel, one
// region each. Picking another order clears the selected document and re-enters `active`: every
// running load is stopped (its signal aborted, its answer dropped), so a stale answer from an
// earlier pick can never overwrite a newer one. The mail flows (mailbox, folderEditor,
// courierRequestCancel) report what they changed on the server with the `*.changed`/`*.removed`
// events, so every page shows it at once without loading the lists again.
// When the server says something new arrived (`data.refresh`, from the bell's live stream), a loaded
// list is read again in `refreshing` while its items stay shown and the letter being read stays
// selected; a refresh that fails keeps them too (`stale`, with the reason and 'Réessayer'). Another
// arrival during a load starts it again, so the list read last is never older than the last news; a
// letter changed here meanwhile keeps its change over the answer (`changedWhileRead`). A read mark
// (`document.read`) changes the read flag only, never what else changed meanwhile (a move).
import { assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate'
import type { CalendarInvoice, Invoice, PaymentMethod, Subscription } from '../../../server/contract/billing.ts'
import type { CourierRequest, Folder, MailDocument, Package } from '../../../server/contract/mail.ts'
import type { NotificationKind } from '../../../server/contract/notifications.ts'
import type { Order } from '../../../server/contract/session.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

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
/** Where one list stands: its region's state. `refreshing` and `stale` still hold the items read before. */
export type ListStatus = 'loading' | 'loaded' | 'refreshing' | 'stale' | 'failed'
export const RESOURCES = [
  'card',
  'documents',
  'subscriptions',
  'packages',
  'courierRequests',
  'folders',
  'invoices',
  'calendarInvoices',
] as const satisfies readonly Resource[]

export interface LoadInput {
  resource: Resource
  scope: Scope
}

const empty = (): PortalData => ({
  card: null,
  documents: [],
  subscriptions: [],
  packages: [],
  courierRequests: [],
  folders: [],
  invoices: [],
  calendarInvoices: [],
})

export type PortalDataContext = PortalData & {
  scope: Scope
  selectedDocumentId: number | null
  errors: Partial<Record<Resource, string>>
  /** How many live notifications of each kind arrived: a page with its own list (formalities) reads it again when its count moves. */
  news: Partial<Record<NotificationKind, number>>
  /**
   * Letters changed here (read, moved) while the list was being read again: the answer may have been read before the
   * server had the change, so these changes win over it. The mailbox reports each change twice (at once, then as
   * the server answered it), so a change whose answer comes after the read is applied to the list by itself.
   */
  changedWhileRead: Record<number, Partial<MailDocument>>
}

/** The lists a live notification of each kind is about, read again when one arrives (an invoice may bill a booking). */
export const NEWS_LISTS: Partial<Record<NotificationKind, Resource[]>> = {
  letter: ['documents'],
  package: ['packages'],
  invoice: ['invoices', 'calendarInvoices'],
}

/** What the mail flows changed on the server, applied to the lists loaded here. */
export type PortalDataChange =
  | { type: 'document.changed'; document: MailDocument }
  /** A letter read, or unread again: its read flag only, so that a move made meanwhile stays. */
  | { type: 'document.read'; documentId: number; read: boolean }
  | { type: 'folder.saved'; folder: Folder }
  | { type: 'folder.removed'; folderId: number }
  | { type: 'courierRequest.removed'; id: number }
  // billing: an option added, a card replaced, an order's invoices paid
  | { type: 'subscription.changed'; orderId: number; subscription: Subscription }
  | { type: 'card.changed'; card: PaymentMethod }
  | { type: 'invoices.paid'; orderId: number }
  // notifications: something new arrived on the server (a letter, a package, a formality's step)
  | { type: 'news.arrived'; kind: NotificationKind }

export type PortalDataEvent =
  | { type: 'order.select'; scope: Scope }
  | { type: 'document.select'; documentId: number }
  | { type: 'data.retry'; resource: Resource }
  /** Read one list again (raised on news about it). */
  | { type: 'data.refresh'; resource: Resource }
  | PortalDataChange

const byName = (a: Folder, b: Folder) => a.name.localeCompare(b.name, 'fr')

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
    store: assign(({ context }, params: { resource: Resource; value: PortalData[Resource] }) => {
      if (params.resource !== 'documents') return { [params.resource]: params.value }
      // The document list excludes deleted ones; the first is selected by default (spec §4). A list read
      // again keeps the letter being read while it is still listed.
      const documents = (params.value as MailDocument[])
        .filter((d) => !d.deleted)
        .map((d) => (context.changedWhileRead[d.id] ? { ...d, ...context.changedWhileRead[d.id] } : d))
      const kept = documents.some((d) => d.id === context.selectedDocumentId) ? context.selectedDocumentId : null
      return { documents, selectedDocumentId: kept ?? documents[0]?.id ?? null, changedWhileRead: {} }
    }),
    storeError: assign(({ context }, params: { resource: Resource; message: string }) => ({
      errors: { ...context.errors, [params.resource]: params.message },
      // The list kept already shows those changes; a later read comes after the server has them.
      ...(params.resource === 'documents' ? { changedWhileRead: {} } : {}),
    })),
    changeDocument: assign(({ context }, params: { document: MailDocument }) => {
      const before = context.documents.find((d) => d.id === params.document.id)
      if (!before) return {}
      const documents = context.documents.map((d) => (d.id === params.document.id ? params.document : d))
      if (before.folderId === params.document.folderId) return { documents }
      // The letter changed folder: both folders' counts follow.
      const shift = (f: Folder) => f.documentCount + (f.id === params.document.folderId ? 1 : 0) - (f.id === before.folderId ? 1 : 0)
      return { documents, folders: context.folders.map((f) => ({ ...f, documentCount: Math.max(0, shift(f)) })) }
    }),
    changeRead: assign(({ context }, params: { documentId: number; read: boolean }) => ({
      documents: context.documents.map((d) => (d.id === params.documentId ? { ...d, read: params.read } : d)),
    })),
    keepChange: assign(({ context }, params: { documentId: number; change: Partial<MailDocument> }) => ({
      changedWhileRead: {
        ...context.changedWhileRead,
        [params.documentId]: { ...context.changedWhileRead[params.documentId], ...params.change },
      },
    })),
    saveFolder: assign(({ context }, params: { folder: Folder }) => ({
      folders: [...context.folders.filter((f) => f.id !== params.folder.id), params.folder].sort(byName),
    })),
    removeFolder: assign(({ context }, params: { folderId: number }) => ({
      folders: context.folders.filter((f) => f.id !== params.folderId),
      // Spec: deleting a folder keeps its letters, unfiled.
      documents: context.documents.map((d) => (d.folderId === params.folderId ? { ...d, folderId: null } : d)),
    })),
    removeCourierRequest: assign(({ context }, params: { id: number }) => ({
      courierRequests: context.courierRequests.filter((r) => r.id !== params.id),
    })),
    // billing
    changeSubscription: assign(({ context }, params: { orderId: number; subscription: Subscription }) => ({
      subscriptions: context.subscriptions.map((s) => (s.orderId === params.orderId ? { ...s, subscription: params.subscription } : s)),
    })),
    changeCard: assign((_, params: { card: PaymentMethod }) => ({ card: params.card })),
    // pay-unpaid-invoice settles every invoice of the order, so the bookings they bill are paid too (an invoiced
    // booking is paid when its invoice is, as the server says); a booking not invoiced keeps its own flag.
    markInvoicesPaid: assign(({ context }, params: { orderId: number }) => ({
      invoices: context.invoices.map((i) => (i.domId === params.orderId ? { ...i, paid: true } : i)),
      calendarInvoices: context.calendarInvoices.map((c) =>
        c.domId === params.orderId && c.invoiceId !== null ? { ...c, paid: true } : c,
      ),
    })),
    countNews: assign(({ context }, params: { kind: NotificationKind }) => ({
      news: { ...context.news, [params.kind]: (context.news[params.kind] ?? 0) + 1 },
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
    isAboutAList: (_, params: { kind: NotificationKind }) => NEWS_LISTS[params.kind] !== undefined,
    isReadingLettersAgain: stateIn({ active: { documents: 'refreshing' } }),
  },
})

function region(resource: Resource) {
  const forThis = {
    type: 'isResource' as const,
    params: ({ event }: { event: { resource: Resource } }) => ({ expected: resource, actual: event.resource }),
  }
  const load = (onError: 'failed' | 'stale') => ({
    id: resource,
    src: 'load' as const,
    input: ({ context }: { context: PortalDataContext }) => ({ resource, scope: context.scope }),
    onDone: {
      target: 'loaded',
      actions: {
        type: 'store' as const,
        params: ({ event }: { event: { output: PortalData[Resource] } }) => ({ resource, value: event.output }),
      },
    },
    onError: {
      target: onError,
      actions: {
        type: 'storeError' as const,
        params: ({ event }: { event: { error: unknown } }) => ({ resource, message: messageOf(event.error) }),
      },
    },
  })
  // News during a load: read again from the start (the answer on its way may predate it).
  const again = (target: 'loading' | 'refreshing') => ({ guard: forThis, target, reenter: true })
  // News, or 'Réessayer', after a failure: the reason goes, the list is read again.
  const reload = (target: 'loading' | 'refreshing') => ({
    guard: forThis,
    target,
    actions: { type: 'clearError' as const, params: { resource } },
  })
  return {
    initial: 'loading' as const,
    states: {
      loading: {
        tags: ['loading'],
        invoke: load('failed'),
        on: { 'data.refresh': again('loading') },
      },
      loaded: {
        on: { 'data.refresh': { guard: forThis, target: 'refreshing' } },
      },
      /** Read again with the items still shown. */
      refreshing: {
        tags: ['loading'],
        invoke: load('stale'),
        on: { 'data.refresh': again('refreshing') },
      },
      /** The items of before, and why they could not be read again. */
      stale: {
        on: { 'data.refresh': reload('refreshing'), 'data.retry': reload('refreshing') },
      },
      failed: {
        on: { 'data.refresh': reload('loading'), 'data.retry': reload('loading') },
      },
    },
  }
}

export const portalDataMachine = deferred(() =>
  machineSetup.createMachine({
    id: 'portalData',
    context: ({ input }) => ({ ...empty(), scope: input.scope, selectedDocumentId: null, errors: {}, news: {}, changedWhileRead: {} }),
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
        actions: assign(({ event }) => ({ ...empty(), scope: event.scope, selectedDocumentId: null, errors: {}, changedWhileRead: {} })),
      },
      'document.select': {
        guard: { type: 'isListedDocument', params: ({ event }) => ({ documentId: event.documentId }) },
        actions: assign({ selectedDocumentId: ({ event }) => event.documentId }),
      },
      'document.changed': [
        {
          guard: 'isReadingLettersAgain',
          actions: [
            { type: 'changeDocument', params: ({ event }) => ({ document: event.document }) },
            { type: 'keepChange', params: ({ event }) => ({ documentId: event.document.id, change: event.document }) },
          ],
        },
        { actions: { type: 'changeDocument', params: ({ event }) => ({ document: event.document }) } },
      ],
      'document.read': [
        {
          guard: 'isReadingLettersAgain',
          actions: [
            { type: 'changeRead', params: ({ event }) => ({ documentId: event.documentId, read: event.read }) },
            { type: 'keepChange', params: ({ event }) => ({ documentId: event.documentId, change: { read: event.read } }) },
          ],
        },
        { actions: { type: 'changeRead', params: ({ event }) => ({ documentId: event.documentId, read: event.read }) } },
      ],
      'folder.saved': { actions: { type: 'saveFolder', params: ({ event }) => ({ folder: event.folder }) } },
      'folder.removed': { actions: { type: 'removeFolder', params: ({ event }) => ({ folderId: event.folderId }) } },
      'courierRequest.removed': { actions: { type: 'removeCourierRequest', params: ({ event }) => ({ id: event.id }) } },
      // billing
      'subscription.changed': {
        actions: { type: 'changeSubscription', params: ({ event }) => ({ orderId: event.orderId, subscription: event.subscription }) },
      },
      'card.changed': { actions: { type: 'changeCard', params: ({ event }) => ({ card: event.card }) } },
      'invoices.paid': { actions: { type: 'markInvoicesPaid', params: ({ event }) => ({ orderId: event.orderId }) } },
      // Counted for the pages with lists of their own; the lists of this machine it is about are read again.
      'news.arrived': [
        {
          guard: { type: 'isAboutAList', params: ({ event }) => ({ kind: event.kind }) },
          actions: [
            { type: 'countNews', params: ({ event }) => ({ kind: event.kind }) },
            enqueueActions(({ event, enqueue }) => {
              for (const resource of NEWS_LISTS[event.kind]!) enqueue.raise({ type: 'data.refresh', resource })
            }),
          ],
        },
        { actions: { type: 'countNews', params: ({ event }) => ({ kind: event.kind }) } },
      ],
    },
  }),
)

/** Letters not read yet, among those loaded (the unread counts of the pages and the dashboard). */
export const unreadCount = (documents: MailDocument[]) => documents.filter((d) => !d.read).length
