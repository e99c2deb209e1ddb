// Clients › an order's page: the order (company, owner, collaborators, representatives, subscription, invoices,
// documents) and its timeline (50 entries a page, newest first) read side by side, each with its own failure and
// « Réessayer »: a timeline that fails leaves the order shown, and the other way round.
import { assign, fromPromise, setup } from 'xstate'
import type { ClientOrder, OrderTimelinePage } from '../../../../server/contract/operators.ts'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type ClientOrderEvent = { type: 'order.retry' } | { type: 'timeline.page'; page: number } | { type: 'timeline.retry' }

export const clientOrderMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        orderId: number
        order: ClientOrder | null
        error: string | null
        page: number
        timeline: OrderTimelinePage | null
        timelineError: string | null
      },
      events: {} as ClientOrderEvent,
      input: {} as { orderId: number },
    },
    actors: {
      loadOrder: fromPromise<ClientOrder, { orderId: number }>(async () => {
        throw new Error('clientOrder: loadOrder is not provided')
      }),
      loadTimeline: fromPromise<OrderTimelinePage, { orderId: number; page: number }>(async () => {
        throw new Error('clientOrder: loadTimeline is not provided')
      }),
    },
    actions: {
      choosePage: assign({ page: ({ event }) => (event as Extract<ClientOrderEvent, { type: 'timeline.page' }>).page }),
    },
  }).createMachine({
    id: 'clientOrder',
    type: 'parallel',
    context: ({ input }) => ({ orderId: input.orderId, order: null, error: null, page: 1, timeline: null, timelineError: null }),
    states: {
      order: {
        initial: 'loading',
        states: {
          loading: {
            tags: ['loading'],
            entry: assign({ error: null }),
            invoke: {
              id: 'loadOrder',
              src: 'loadOrder',
              input: ({ context }) => ({ orderId: context.orderId }),
              onDone: { target: 'shown', actions: assign({ order: ({ event }) => event.output, error: null }) },
              onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          failed: { on: { 'order.retry': { target: 'loading' } } },
          shown: {},
        },
      },
      timeline: {
        initial: 'loading',
        states: {
          loading: {
            tags: ['timelineLoading'],
            entry: assign({ timelineError: null }),
            // (Each state says it: a transition of the region itself would re-enter the order's half too.)
            on: { 'timeline.page': { target: 'loading', reenter: true, actions: 'choosePage' } },
            invoke: {
              id: 'loadTimeline',
              src: 'loadTimeline',
              input: ({ context }) => ({ orderId: context.orderId, page: context.page }),
              onDone: { target: 'shown', actions: assign({ timeline: ({ event }) => event.output, timelineError: null }) },
              onError: { target: 'failed', actions: assign({ timelineError: ({ event }) => messageOf(event.error) }) },
            },
          },
          failed: { on: { 'timeline.retry': { target: 'loading' }, 'timeline.page': { target: 'loading', actions: 'choosePage' } } },
          shown: { on: { 'timeline.page': { target: 'loading', actions: 'choosePage' } } },
        },
      },
    },
  }),
)
