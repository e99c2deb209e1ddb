// The dashboard's unpaid-invoice banner: GET user-unpaid-status says whether to show it; 'Régler'
// pays with the card on file (POST pay-unpaid-invoice, for the selected order or all of them),
// then asks the status again. A new invoice (an 'invoice' notification, `unpaid.refresh`) asks it again too, the
// banner still shown meanwhile (`refreshing`) and kept as it was if the answer fails; news during a load starts it
// again, news during a payment waits for its end (`refreshPending`).
import { assign, fromPromise, setup } from 'xstate'
import type { PayUnpaidReply, UnpaidStatus } from '../../server/contract/schemas.ts'
import { messageOf, type Notice } from './shared.ts'
import { deferred } from './deferred.ts'

export const unpaidInvoicesMachine = deferred(() => {
  const unpaidSetup = setup({
    types: {
      context: {} as { orderId: number | null; status: UnpaidStatus | null; error: string | null; refreshPending: boolean },
      input: {} as { orderId: number | null },
      events: {} as { type: 'unpaid.pay' } | { type: 'unpaid.retry' } | { type: 'unpaid.refresh' },
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
      refreshPending: ({ context }) => context.refreshPending,
    },
  })

  /** Asks user-unpaid-status: the banner when something is unpaid, else nothing to show; a failure goes to `onError`. */
  const statusRead = (onError: 'failed' | 'unpaid') => unpaidSetup.createStateConfig({
    invoke: {
      id: 'fetchStatus',
      src: 'fetchStatus',
      onDone: [
        { guard: { type: 'hasUnpaid', params: ({ event }) => ({ status: event.output }) }, target: 'unpaid', actions: assign({ status: ({ event }) => event.output }) },
        { target: 'upToDate', actions: assign({ status: ({ event }) => event.output }) },
      ],
      onError: onError === 'failed' ? { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) } : { target: 'unpaid' },
    },
  })

  return unpaidSetup.createMachine({
    id: 'unpaidInvoices',
    context: ({ input }) => ({ orderId: input.orderId, status: null, error: null, refreshPending: false }),
    initial: 'loading',
    states: {
      loading: {
        ...statusRead('failed'),
        on: { 'unpaid.refresh': { target: 'loading', reenter: true } },
      },
      // No banner shown: news asks again with a plain load.
      upToDate: {
        on: { 'unpaid.refresh': { target: 'loading' } },
      },
      failed: {
        on: {
          'unpaid.retry': { target: 'loading', actions: assign({ error: null }) },
          'unpaid.refresh': { target: 'loading', actions: assign({ error: null }) },
        },
      },
      unpaid: {
        tags: ['banner'],
        // News that came during a payment refused, asked now.
        always: { guard: 'refreshPending', target: 'refreshing', actions: assign({ refreshPending: false }) },
        on: {
          'unpaid.pay': { target: 'paying', actions: assign({ error: null }) },
          'unpaid.refresh': { target: 'refreshing' },
        },
      },
      /** Asked again after news, the banner still shown; a failed answer keeps it as it was. */
      refreshing: {
        tags: ['banner'],
        ...statusRead('unpaid'),
        on: {
          'unpaid.refresh': { target: 'refreshing', reenter: true },
          // 'Régler' meanwhile: the payment first, the status after.
          'unpaid.pay': { target: 'paying', actions: assign({ error: null, refreshPending: true }) },
        },
      },
      paying: {
        tags: ['banner', 'busy'],
        invoke: {
          id: 'pay',
          src: 'pay',
          input: ({ context }) => ({ orderId: context.orderId }),
          // Paid: the status is asked again anyway, news meanwhile included.
          onDone: {
            target: 'loading',
            actions: [{ type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) }, assign({ refreshPending: false })],
          },
          onError: {
            target: 'unpaid',
            actions: [assign({ error: ({ event }) => messageOf(event.error) }), { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) }],
          },
        },
        on: { 'unpaid.refresh': { actions: assign({ refreshPending: true }) } },
      },
    },
  })
})
