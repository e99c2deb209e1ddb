// The dashboard's unpaid-invoice banner: GET user-unpaid-status says whether to show it; 'Régler'
// pays with the card on file (POST pay-unpaid-invoice, for the selected order or all of them),
// then asks the status again.
import { assign, fromPromise, setup } from 'xstate'
import type { PayUnpaidReply, UnpaidStatus } from '../../server/contract/schemas.ts'
import { messageOf, type Notice } from './shared.ts'
import { deferred } from './deferred.ts'

export const unpaidInvoicesMachine = deferred(() => setup({
  types: {
    context: {} as { orderId: number | null; status: UnpaidStatus | null; error: string | null },
    input: {} as { orderId: number | null },
    events: {} as { type: 'unpaid.pay' } | { type: 'unpaid.retry' },
  },
  actors: {
    fetchStatus: fromPromise<UnpaidStatus>(async () => {
      throw new Error('unpaidInvoices: fetchStatus is not provided')
    }),
    pay: fromPromise<PayUnpaidReply, { orderId: number | null }>(async () => {
      throw new Error('unpaidInvoices: pay is not provided')
    }),
  },
  actions: {
    notify: (_, _params: Notice) => {},
  },
  guards: {
    hasUnpaid: (_, params: { status: UnpaidStatus }) => params.status.hasUnpaid,
  },
}).createMachine({
  id: 'unpaidInvoices',
  context: ({ input }) => ({ orderId: input.orderId, status: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchStatus',
        src: 'fetchStatus',
        onDone: [
          { guard: { type: 'hasUnpaid', params: ({ event }) => ({ status: event.output }) }, target: 'unpaid', actions: assign({ status: ({ event }) => event.output }) },
          { target: 'upToDate', actions: assign({ status: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    upToDate: {},
    failed: {
      on: { 'unpaid.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    unpaid: {
      tags: ['banner'],
      on: { 'unpaid.pay': { target: 'paying', actions: assign({ error: null }) } },
    },
    paying: {
      tags: ['banner', 'busy'],
      invoke: {
        id: 'pay',
        src: 'pay',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: { target: 'loading', actions: { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) } },
        onError: {
          target: 'unpaid',
          actions: [assign({ error: ({ event }) => messageOf(event.error) }), { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) }],
        },
      },
    },
  },
}))
