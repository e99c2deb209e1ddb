// The deadlines found in the letters (GET letter-deadlines) of the selected order, or of every order
// with 'Tous': the fiscal calendar lists them among its dates, the dashboard shows the next ones.
// A failed load says why and offers 'Réessayer'.
import { assign, fromPromise, setup } from 'xstate'
import type { LetterDeadline } from '../../../server/contract/mail.ts'
import { failureOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const LETTER_DEADLINES_FAILED = 'Les échéances de vos courriers n’ont pas pu être chargées.'

export const letterDeadlinesMachine = deferred(() =>
  setup({
    types: {
      context: {} as { orderId: number | null; deadlines: LetterDeadline[]; error: string | null },
      input: {} as { orderId: number | null },
      events: {} as { type: 'deadlines.retry' },
    },
    actors: {
      loadDeadlines: fromPromise<LetterDeadline[], { orderId: number | null }>(async () => {
        throw new Error('letterDeadlines: loadDeadlines is not provided')
      }),
    },
  }).createMachine({
    id: 'letterDeadlines',
    context: ({ input }) => ({ orderId: input.orderId, deadlines: [], error: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'loadDeadlines',
          src: 'loadDeadlines',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'loaded', actions: assign({ deadlines: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failureOf(LETTER_DEADLINES_FAILED, event.error) }) },
        },
      },
      loaded: {},
      failed: {
        on: { 'deadlines.retry': { target: 'loading', actions: assign({ error: null }) } },
      },
    },
  }),
)
