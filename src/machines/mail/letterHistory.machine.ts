// notifications: a letter's history shown in the viewer (GET documents/{id}/history);
// a failed load says why and offers 'Réessayer'.
import { assign, fromPromise, setup } from 'xstate'
import type { LetterEvent } from '../../../server/contract/mail.ts'
import { failureOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const HISTORY_FAILED = 'L’historique de ce courrier n’a pas pu être chargé.'

export const letterHistoryMachine = deferred(() =>
  setup({
    types: {
      context: {} as { documentId: number; events: LetterEvent[]; error: string | null },
      input: {} as { documentId: number },
      events: {} as { type: 'history.retry' } | { type: 'history.reload' },
    },
    actors: {
      loadHistory: fromPromise<{ events: LetterEvent[] }, { documentId: number }>(async () => {
        throw new Error('letterHistory: loadHistory is not provided')
      }),
    },
  }).createMachine({
    id: 'letterHistory',
    context: ({ input }) => ({ documentId: input.documentId, events: [], error: null }),
    initial: 'loading',
    states: {
      loading: {
        // An action on the letter while its history is read (opening it marks it read at the same time): the answer
        // may not hold it, so the history is read again (the read under way is dropped).
        on: { 'history.reload': { target: 'loading', reenter: true } },
        invoke: {
          id: 'loadHistory',
          src: 'loadHistory',
          input: ({ context }) => ({ documentId: context.documentId }),
          onDone: { target: 'loaded', actions: assign({ events: ({ event }) => event.output.events }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failureOf(HISTORY_FAILED, event.error) }) },
        },
      },
      // After an action on the letter (filed, sent), read again.
      loaded: { on: { 'history.reload': 'loading' } },
      failed: {
        on: {
          'history.retry': { target: 'loading', actions: assign({ error: null }) },
          'history.reload': { target: 'loading', actions: assign({ error: null }) },
        },
      },
    },
  }),
)
