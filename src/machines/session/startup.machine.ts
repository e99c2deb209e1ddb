// The startup sequence of the dashboard layout (spec §4), then the signed-in portal it leads to:
//   1. the user and their contracts (in parallel), then their domiciliation orders;
//   2. a default order kept from an earlier visit (this user's, and still one of their orders) → the layout directly;
//   3. otherwise several orders → the selection screen; exactly one → it becomes the default;
//   4. then the missing-documents check → /missing-document, or the dashboard.
// A page to land on (`destination`: an e-mail's link, the page opened) is where the portal then goes, whatever came in
// between (the selection screen, /missing-document), instead of the dashboard: with the order it names selected (unless
// 'Tous' shows it already), or, when it names an order that is not one of the user's, the dashboard, without a word.
// A failed current-user fetch ends the machine (the session then removes the stored user). 'Réessayer' after a failure
// asks again only what failed or never answered (the contracts, and the user if it had not answered; or the orders),
// in the same order.
import { type ActorRefFrom, assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate'
import type { NotificationKind } from '../../../server/contract/notifications.ts'
import type { Contract, Order, User } from '../../../server/contract/session.ts'
import { type OrderChoice, orderSelectionMachine } from './orderSelection.machine.ts'
import { type PortalDataChange, portalDataMachine, type Resource, type Scope } from './portalData.machine.ts'
import { linkedOrderId } from '../../../server/contract/rules/links.ts'
import { hasMissingDocuments, messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

/** The default order kept in the browser: an order id, or 'all' for 'Tous'. */
export type StoredChoice = number | 'all'

export interface StartupContext {
  user: User | null
  contracts: Contract[]
  orders: Order[]
  storedChoice: StoredChoice | null
  /** The order the pages show; null means all of them ('Tous'). */
  selectedOrderId: number | null
  /** A choice was made (kept, chosen or the only order): the selection screen can be left. */
  hasChoice: boolean
  /** The portal page to land on once the startup reaches the portal, then forgotten (null: where it is, or the dashboard). */
  destination: string | null
  error: string | null
}

export type StartupEvent =
  | { type: 'startup.retry' }
  | { type: 'order.choose'; orderId: number | null }
  | { type: 'selection.cancel' }
  | { type: 'order.select'; orderId: number | null }
  | { type: 'order.reopen' }
  /** The Kbis sent: the order has one, and its contract keeps it (not yet checked by the team). */
  | { type: 'order.kbisFiled'; orderId: number; contractId: number; kbis: string }
  // people: the account's own details changed (a new e-mail address)
  | { type: 'user.changed'; user: User }
  | { type: 'order.changed'; orderId: number; changes: OrderChanges }
  | { type: 'documents.completed'; orderId: number; missingDocumentsValidatedAt: string | null }
  | { type: 'document.select'; documentId: number }
  | { type: 'data.retry'; resource: Resource }
  /** A list a flow learnt is out of date (a request processed meanwhile): read again, its items still shown. */
  | { type: 'data.refresh'; resource: Resource }
  // billing: a forwarding address saved; the dashboard's 'Régler' paid the invoices of every order the user owns
  | { type: 'contract.changed'; contract: Contract }
  | { type: 'invoices.paidOwned' }
  | PortalDataChange

/** What the company pages change on an order (bank partners, the accountant offer), as the server now has it. */
export type OrderChanges = Partial<Pick<Order, 'qonto' | 'shine' | 'wantComptable'>>

export const NO_ORDERS_MESSAGE =
  "Vous n'avez pas encore de domiciliation active. Dès que votre commande sera enregistrée, elle apparaîtra ici."

const toStored = (orderId: number | null): StoredChoice => orderId ?? 'all'

export const DASHBOARD_PATH = '/tableau-de-bord'

export const selectedOrder = (context: Pick<StartupContext, 'orders' | 'selectedOrderId'>): Order | null =>
  context.orders.find((o) => o.id === context.selectedOrderId) ?? null

const scopeOf = (context: StartupContext): Scope => ({ order: selectedOrder(context), orders: context.orders })

/** The order whose identity documents were all sent, as the server now has it. */
const validated = (context: StartupContext, event: { orderId: number; missingDocumentsValidatedAt: string | null }): Order => ({
  ...context.orders.find((o) => o.id === event.orderId)!,
  missingDocumentsValidatedAt: event.missingDocumentsValidatedAt,
})

export const startupMachine = deferred(() =>
  setup({
    types: {
      context: {} as StartupContext,
      input: {} as { storedChoice: StoredChoice | null; destination?: string | null },
      events: {} as StartupEvent,
      output: {} as { reason: 'unauthorized' },
    },
    actors: {
      fetchUser: fromPromise<User>(async () => {
        throw new Error('startup: fetchUser is not provided')
      }),
      fetchContracts: fromPromise<Contract[]>(async () => {
        throw new Error('startup: fetchContracts is not provided')
      }),
      fetchOrders: fromPromise<Order[]>(async () => {
        throw new Error('startup: fetchOrders is not provided')
      }),
      orderSelection: orderSelectionMachine,
      portalData: portalDataMachine,
    },
    actions: {
      forwardToSelection: sendTo('selection', ({ event }) => event),
      forwardToData: sendTo('data', ({ event }) => event),
      reloadData: sendTo('data', ({ context }: { context: StartupContext }) => ({
        type: 'order.select' as const,
        scope: scopeOf(context),
      })),
      /** Keeps the default order in the browser, as this user's (provided by the composition root). */
      persistChoice: (_, _params: { userId: number; choice: StoredChoice }) => {},
      /** Goes to a route, in place of the address shown with `replace` (provided by the composition root). */
      navigate: (_, _params: { to: string; replace?: boolean }) => {},
      kbisFiled: assign(({ context, event }) => {
        if (event.type !== 'order.kbisFiled') return {}
        return {
          orders: context.orders.map((o) => (o.id === event.orderId ? { ...o, hasKbis: true } : o)),
          contracts: context.contracts.map((c) => (c.id === event.contractId ? { ...c, kbis: event.kbis, kbisValidatedAt: null } : c)),
        }
      }),
      contractChanged: assign(({ context, event }) => {
        if (event.type !== 'contract.changed') return {}
        return { contracts: context.contracts.map((c) => (c.id === event.contract.id ? event.contract : c)) }
      }),
      documentsSent: assign(({ context, event }) => {
        if (event.type !== 'documents.completed') return {}
        return { orders: context.orders.map((o) => (o.id === event.orderId ? validated(context, event) : o)) }
      }),
    },
    guards: {
      hasStoredChoice: ({ context }) => {
        const stored = context.storedChoice
        if (stored === null || context.orders.length === 0) return false
        return stored === 'all' || context.orders.some((o) => o.id === stored)
      },
      hasUser: ({ context }) => context.user !== null,
      hasNoOrders: ({ context }) => context.orders.length === 0,
      hasSeveralOrders: ({ context }) => context.orders.length > 1,
      isChoice: ({ context }, params: { choice: OrderChoice }) =>
        'orderId' in params.choice &&
        (params.choice.orderId === null || context.orders.some((o) => 'orderId' in params.choice && o.id === params.choice.orderId)),
      hasChoice: ({ context }) => context.hasChoice,
      selectedHasMissingDocuments: ({ context }) => hasMissingDocuments(selectedOrder(context)),
      isNewSelection: ({ context }, params: { orderId: number | null }) =>
        params.orderId !== context.selectedOrderId && (params.orderId === null || context.orders.some((o) => o.id === params.orderId)),
      stillMissing: (_, params: { order: Order }) => hasMissingDocuments(params.order),
      isKbisNews: (_, params: { kind: NotificationKind }) => params.kind === 'kbis',
      hasDestination: ({ context }) => context.destination !== null,
    },
  }).createMachine({
    id: 'startup',
    context: ({ input }) => ({
      user: null,
      contracts: [],
      orders: [],
      storedChoice: input.storedChoice,
      selectedOrderId: null,
      hasChoice: false,
      error: null,
      destination: input.destination ?? null,
    }),
    initial: 'account',
    states: {
      account: {
        tags: ['loading'],
        type: 'parallel',
        states: {
          user: {
            initial: 'loading',
            states: {
              loading: {
                invoke: {
                  id: 'fetchUser',
                  src: 'fetchUser',
                  onDone: { target: 'done', actions: assign({ user: ({ event }) => event.output }) },
                  onError: { target: '#startup.signedOut' },
                },
              },
              done: { type: 'final' },
            },
          },
          contracts: {
            initial: 'loading',
            states: {
              loading: {
                invoke: {
                  id: 'fetchContracts',
                  src: 'fetchContracts',
                  onDone: { target: 'done', actions: assign({ contracts: ({ event }) => event.output }) },
                  onError: { target: '#startup.failed.account', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
                },
              },
              done: { type: 'final' },
            },
          },
        },
        onDone: { target: 'loadingOrders' },
      },
      loadingOrders: {
        tags: ['loading'],
        invoke: {
          id: 'fetchOrders',
          src: 'fetchOrders',
          onDone: { target: 'deciding', actions: assign({ orders: ({ event }) => event.output }) },
          onError: { target: 'failed.orders', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      deciding: {
        always: [
          {
            guard: 'hasStoredChoice',
            target: 'ready',
            actions: assign({
              selectedOrderId: ({ context }) => (context.storedChoice === 'all' ? null : context.storedChoice),
              hasChoice: true,
            }),
          },
          { guard: 'hasNoOrders', target: 'noOrders' },
          { guard: 'hasSeveralOrders', target: 'selecting' },
          {
            target: 'checkingDocuments',
            actions: [
              assign({ selectedOrderId: ({ context }) => context.orders[0]!.id, hasChoice: true }),
              { type: 'persistChoice', params: ({ context }) => ({ userId: context.user!.id, choice: context.orders[0]!.id }) },
            ],
          },
        ],
      },
      selecting: {
        invoke: {
          id: 'selection',
          src: 'orderSelection',
          input: ({ context }) => ({ orders: context.orders, canCancel: context.hasChoice }),
          onDone: [
            {
              guard: { type: 'isChoice', params: ({ event }) => ({ choice: event.output }) },
              target: 'checkingDocuments',
              actions: [
                assign({
                  selectedOrderId: ({ event }) => ('orderId' in event.output ? event.output.orderId : null),
                  hasChoice: true,
                }),
                {
                  type: 'persistChoice',
                  params: ({ context }) => ({ userId: context.user!.id, choice: toStored(context.selectedOrderId) }),
                },
              ],
            },
            // Dismissed: back to the order shown before, if there was one, through the same missing-documents check.
            { guard: 'hasChoice', target: 'checkingDocuments' },
            { target: 'selecting', reenter: true },
          ],
        },
        on: {
          'order.choose': { actions: 'forwardToSelection' },
          'selection.cancel': { actions: 'forwardToSelection' },
        },
      },
      checkingDocuments: {
        always: [{ guard: 'selectedHasMissingDocuments', target: 'missingDocuments' }, { target: 'ready' }],
      },
      missingDocuments: {
        entry: { type: 'navigate', params: { to: '/missing-document' } },
        on: {
          'documents.completed': [
            {
              guard: { type: 'stillMissing', params: ({ context, event }) => ({ order: validated(context, event) }) },
              actions: 'documentsSent',
            },
            // Done: the page to land on (ready's entry), else the dashboard.
            { guard: 'hasDestination', target: 'ready', actions: 'documentsSent' },
            { target: 'ready', actions: ['documentsSent', { type: 'navigate', params: { to: DASHBOARD_PATH } }] },
          ],
          'order.reopen': { target: 'selecting' },
        },
      },
      ready: {
        /**
         * The portal reached with a page to land on: its order selected if it names another one of the user's (as the
         * header's pick would), then the page; a page of an order that is not theirs gives the dashboard. Once.
         */
        entry: enqueueActions(({ context, enqueue }) => {
          const destination = context.destination
          if (destination === null) return
          enqueue.assign({ destination: null })
          const orderId = linkedOrderId(destination)
          if (orderId !== null && !context.orders.some((o) => o.id === orderId)) {
            enqueue({ type: 'navigate', params: { to: DASHBOARD_PATH, replace: true } })
            return
          }
          if (orderId !== null && context.selectedOrderId !== null && context.selectedOrderId !== orderId) {
            enqueue.assign({ selectedOrderId: orderId })
            enqueue({ type: 'persistChoice', params: { userId: context.user!.id, choice: orderId } })
          }
          enqueue({ type: 'navigate', params: { to: destination, replace: true } })
        }),
        invoke: {
          id: 'data',
          src: 'portalData',
          input: ({ context }) => ({ scope: scopeOf(context) }),
        },
        // The contracts as the portal read them at start, until the bell tells of a Kbis validated: they are read again
        // (Attestation et contrats shows the date). A failed read keeps the ones shown; news during a read starts it again.
        initial: 'contractsRead',
        states: {
          contractsRead: {},
          rereadingContracts: {
            invoke: {
              id: 'rereadContracts',
              src: 'fetchContracts',
              onDone: { target: 'contractsRead', actions: assign({ contracts: ({ event }) => event.output }) },
              onError: { target: 'contractsRead' },
            },
            on: {
              'news.arrived': {
                guard: { type: 'isKbisNews', params: ({ event }) => ({ kind: event.kind }) },
                target: 'rereadingContracts',
                reenter: true,
                actions: 'forwardToData',
              },
              // A change made here meanwhile (a Kbis sent, an address saved): shown at once, and read again so that an
              // answer started before it cannot undo it.
              'order.kbisFiled': { target: 'rereadingContracts', reenter: true, actions: 'kbisFiled' },
              'contract.changed': { target: 'rereadingContracts', reenter: true, actions: 'contractChanged' },
            },
          },
        },
        on: {
          'order.select': {
            guard: { type: 'isNewSelection', params: ({ event }) => ({ orderId: event.orderId }) },
            actions: [
              assign({ selectedOrderId: ({ event }) => event.orderId }),
              { type: 'persistChoice', params: ({ context, event }) => ({ userId: context.user!.id, choice: toStored(event.orderId) }) },
              'reloadData',
            ],
          },
          'order.reopen': { target: 'selecting' },
          // /missing-document reached with a kept default order (a reload there): the layout came directly (spec §4, 2.).
          'documents.completed': [
            {
              guard: { type: 'stillMissing', params: ({ context, event }) => ({ order: validated(context, event) }) },
              actions: 'documentsSent',
            },
            { actions: ['documentsSent', { type: 'navigate', params: { to: DASHBOARD_PATH } }] },
          ],
          'document.select': { actions: 'forwardToData' },
          'data.retry': { actions: 'forwardToData' },
          'data.refresh': { actions: 'forwardToData' },
          'document.changed': { actions: 'forwardToData' },
          'document.read': { actions: 'forwardToData' },
          'folder.saved': { actions: 'forwardToData' },
          'folder.removed': { actions: 'forwardToData' },
          'courierRequest.removed': { actions: 'forwardToData' },
          // billing
          'subscription.changed': { actions: 'forwardToData' },
          'card.changed': { actions: 'forwardToData' },
          'invoices.paid': { actions: 'forwardToData' },
          // As many 'invoices.paid' as orders the user owns (a shared order's invoices are its owner's to pay).
          'invoices.paidOwned': {
            actions: enqueueActions(({ context, enqueue }) => {
              for (const order of context.orders)
                if (!order.isShareOrder) enqueue.sendTo('data', { type: 'invoices.paid', orderId: order.id })
            }),
          },
          // notifications
          'news.arrived': [
            {
              guard: { type: 'isKbisNews', params: ({ event }) => ({ kind: event.kind }) },
              target: '.rereadingContracts',
              actions: 'forwardToData',
            },
            { actions: 'forwardToData' },
          ],
        },
      },
      noOrders: {
        on: { 'startup.retry': { target: 'account', actions: assign({ error: null }) } },
      },
      // 'Réessayer' asks again what failed, and what follows it (spec §4's order), never what answered.
      failed: {
        initial: 'account',
        states: {
          account: {
            on: {
              'startup.retry': [
                // The user answered before the contracts failed: the contracts alone, then the orders.
                {
                  guard: 'hasUser',
                  target: ['#startup.account.user.done', '#startup.account.contracts'],
                  actions: assign({ error: null }),
                },
                { target: '#startup.account', actions: assign({ error: null }) },
              ],
            },
          },
          orders: { on: { 'startup.retry': { target: '#startup.loadingOrders', actions: assign({ error: null }) } } },
        },
      },
      signedOut: { type: 'final' },
    },
    on: {
      'user.changed': { actions: assign({ user: ({ event }) => event.user }) },
      'order.kbisFiled': { actions: 'kbisFiled' },
      'order.changed': {
        actions: assign({
          orders: ({ context, event }) => context.orders.map((o) => (o.id === event.orderId ? { ...o, ...event.changes } : o)),
        }),
      },
      // billing
      'contract.changed': { actions: 'contractChanged' },
    },
    output: () => ({ reason: 'unauthorized' as const }),
  }),
)

export type StartupLogic = typeof startupMachine
export type StartupRef = ActorRefFrom<typeof startupMachine>
