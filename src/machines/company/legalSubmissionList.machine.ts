// The legal formalities requested (/formalites): those of the selected order, or of every order with
// 'Tous' (GET legal-submissions); a failed load says why and offers 'Réessayer'. When an operator moves
// one to its next step, the live notification reads the list again (`list.refresh`) with the requests
// still shown; a refresh that fails keeps them under the reason and 'Réessayer' (`stale`); news during
// a load starts it again, so the list read last is never older than the last news.
import { assign, fromPromise, setup } from 'xstate'
import type { LegalSubmission } from '../../../server/contract/company.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

const load = (onError: 'failed' | 'stale') => ({
  id: 'loadSubmissions',
  src: 'loadSubmissions' as const,
  input: ({ context }: { context: { orderId: number | null } }) => ({ orderId: context.orderId }),
  onDone: {
    target: 'loaded',
    actions: { type: 'store' as const, params: ({ event }: { event: { output: LegalSubmission[] } }) => ({ submissions: event.output }) },
  },
  onError: {
    target: onError,
    actions: { type: 'storeError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
  },
})

export const legalSubmissionListMachine = deferred(() =>
  setup({
    types: {
      context: {} as { orderId: number | null; submissions: LegalSubmission[]; error: string | null },
      input: {} as { orderId: number | null },
      events: {} as { type: 'list.retry' } | { type: 'list.refresh' },
    },
    actors: {
      loadSubmissions: fromPromise<LegalSubmission[], { orderId: number | null }>(async () => {
        throw new Error('legalSubmissionList: loadSubmissions is not provided')
      }),
    },
    actions: {
      store: assign((_, params: { submissions: LegalSubmission[] }) => ({ submissions: params.submissions })),
      storeError: assign((_, params: { error: unknown }) => ({
        error: messageOf(params.error, 'Vos formalités n’ont pas pu être chargées.'),
      })),
      clearError: assign({ error: null }),
    },
  }).createMachine({
    id: 'legalSubmissionList',
    context: ({ input }) => ({ orderId: input.orderId, submissions: [], error: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: load('failed'),
        on: { 'list.refresh': { target: 'loading', reenter: true } },
      },
      loaded: {
        on: { 'list.refresh': { target: 'refreshing' } },
      },
      /** Read again with the requests still shown. */
      refreshing: {
        invoke: load('stale'),
        on: { 'list.refresh': { target: 'refreshing', reenter: true } },
      },
      /** The requests of before, and why they could not be read again. */
      stale: {
        on: {
          'list.retry': { target: 'refreshing', actions: 'clearError' },
          'list.refresh': { target: 'refreshing', actions: 'clearError' },
        },
      },
      failed: {
        on: { 'list.retry': { target: 'loading', actions: 'clearError' }, 'list.refresh': { target: 'loading', actions: 'clearError' } },
      },
    },
  }),
)
