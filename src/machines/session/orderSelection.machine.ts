// The order selection screen (spec §2, §4): the customer picks one of their orders, or 'Tous'.
import { assign, setup } from 'xstate'
import type { Order } from '../../../server/contract/session.ts'
import { deferred } from '../deferred.ts'

/** What the customer chose: an order id, or null for 'Tous' (no single order); or nothing. */
export type OrderChoice = { orderId: number | null } | { cancelled: true }

export const orderSelectionMachine = deferred(() =>
  setup({
    types: {
      context: {} as { orderIds: number[]; canCancel: boolean; choice: OrderChoice | null },
      input: {} as { orders: Pick<Order, 'id'>[]; canCancel: boolean },
      events: {} as { type: 'order.choose'; orderId: number | null } | { type: 'selection.cancel' },
      output: {} as OrderChoice,
    },
    guards: {
      isKnownChoice: ({ context }, params: { orderId: number | null }) =>
        params.orderId === null || context.orderIds.includes(params.orderId),
      canCancel: ({ context }) => context.canCancel,
    },
  }).createMachine({
    id: 'orderSelection',
    context: ({ input }) => ({ orderIds: input.orders.map((o) => o.id), canCancel: input.canCancel, choice: null }),
    initial: 'choosing',
    states: {
      choosing: {
        on: {
          'order.choose': {
            guard: { type: 'isKnownChoice', params: ({ event }) => ({ orderId: event.orderId }) },
            target: 'chosen',
            actions: assign({ choice: ({ event }) => ({ orderId: event.orderId }) }),
          },
          'selection.cancel': {
            guard: 'canCancel',
            target: 'cancelled',
            actions: assign({ choice: { cancelled: true } }),
          },
        },
      },
      chosen: { type: 'final' },
      cancelled: { type: 'final' },
    },
    output: ({ context }) => context.choice ?? { cancelled: true },
  }),
)
