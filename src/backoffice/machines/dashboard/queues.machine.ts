// The dashboard's queues (PRODUCT.md, /operateur): for each queue an operator works through, how many items wait and
// the age of the oldest, late past its target; read when the page opens and again every minute, and on « Réessayer ».
// A failed refresh keeps the figures shown and says they may be out of date.
import { assign, fromPromise, setup } from 'xstate'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'
import type { DashboardQueue } from '../../../../server/contract/operators.ts'

/** One queue as the server counts it (GET /api/backoffice/dashboard): its count, the oldest's age, its target, late or not. */
export type Queue = DashboardQueue

export const REFRESH_MS = 60_000

export const queuesMachine = deferred(() =>
  setup({
    types: {
      context: {} as { queues: Queue[] | null; error: string | null },
      events: {} as { type: 'queues.retry' },
    },
    actors: {
      load: fromPromise<Queue[], void>(async () => {
        throw new Error('queues: load is not provided')
      }),
    },
    delays: { refresh: REFRESH_MS },
  }).createMachine({
    id: 'queues',
    context: { queues: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'shown', actions: assign({ queues: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      shown: {
        after: { refresh: { target: 'loading' } },
      },
      failed: {
        on: { 'queues.retry': { target: 'loading' } },
        after: { refresh: { target: 'loading' } },
      },
    },
  }),
)
