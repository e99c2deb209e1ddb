// The dashboard's queues (PRODUCT.md, /operateur): for each queue an operator works through, how many items wait and
// the age of the oldest, late past its target; read when the page opens and again every minute, and on « Réessayer ».
// A failed refresh keeps the figures shown and says they may be out of date.
import { assign, fromPromise, setup } from 'xstate'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

/**
 * One queue as the dashboard shows it. The server's route for these counts is not in the contract yet: this is the
 * shape the page is built on, and the wiring maps the route's answer to it once it comes.
 */
export interface Queue {
  /** Stable id, e.g. 'justificatifs'. */
  id: string
  /** « Justificatifs à vérifier ». */
  label: string
  count: number
  /** How long the oldest item has waited, in minutes (null when none waits). */
  oldestAgeMinutes: number | null
  /** The oldest item is past its target (justificatifs 48 h, messages 24 h ouvrées…). */
  late: boolean
  /** The page where the queue is worked through. */
  to: string
}

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
