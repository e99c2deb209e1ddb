// The legal formalities requested (/formalites): those of the selected order, or of every order with
// 'Tous' (GET legal-submissions); a failed load says why and offers 'Réessayer'.
import { assign, fromPromise, setup } from 'xstate'
import type { LegalSubmission } from '../../server/contract/schemas.ts'
import { messageOf } from './shared.ts'
import { deferred } from './deferred.ts'

export const legalSubmissionListMachine = deferred(() => setup({
  types: {
    context: {} as { orderId: number | null; submissions: LegalSubmission[]; error: string | null },
    input: {} as { orderId: number | null },
    events: {} as { type: 'list.retry' },
  },
  actors: {
    loadSubmissions: fromPromise<LegalSubmission[], { orderId: number | null }>(async () => {
      throw new Error('legalSubmissionList: loadSubmissions is not provided')
    }),
  },
}).createMachine({
  id: 'legalSubmissionList',
  context: ({ input }) => ({ orderId: input.orderId, submissions: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSubmissions',
        src: 'loadSubmissions',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: { target: 'loaded', actions: assign({ submissions: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error, 'Vos formalités n’ont pas pu être chargées.') }) },
      },
    },
    loaded: {},
    failed: {
      on: { 'list.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
  },
}))
