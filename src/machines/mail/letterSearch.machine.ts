// The search box of /mes-courriers/courriers. Under three characters the page filters its list by
// sender and kind (`local`); from three, the text of the letters is searched on the server
// (GET documents/search), once the customer stops typing for a moment (`waiting`, ~250 ms). A new
// query or another order while a search is under way drops it: the stale answer never shows, the
// request is aborted. A failed search says why and offers 'Réessayer'.
import { assign, fromPromise, setup } from 'xstate'
import type { DocumentSearchResult } from '../../../server/contract/mail.ts'
import { failureOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const SEARCH_MIN_LENGTH = 3
/** How long the customer pauses before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 250
export const SEARCH_FAILED = 'La recherche dans vos courriers n’a pas abouti.'

export interface LetterSearchContext {
  /** What is typed, trimmed. */
  query: string
  /** The order shown (null with 'Tous'). */
  orderId: number | null
  results: DocumentSearchResult[]
  /** The query the results answer. */
  answered: string | null
  error: string | null
}

export type LetterSearchEvent =
  | { type: 'query.change'; query: string }
  | { type: 'order.change'; orderId: number | null }
  | { type: 'search.retry' }

export const isRemoteQuery = (query: string) => query.trim().length >= SEARCH_MIN_LENGTH

export const letterSearchMachine = deferred(() =>
  setup({
    types: {
      context: {} as LetterSearchContext,
      input: {} as { orderId: number | null },
      events: {} as LetterSearchEvent,
    },
    actors: {
      /** The pause before a search; the wiring waits SEARCH_DEBOUNCE_MS. */
      pause: fromPromise<void>(async () => {
        throw new Error('letterSearch: pause is not provided')
      }),
      searchLetters: fromPromise<DocumentSearchResult[], { q: string; orderId: number | null }>(async () => {
        throw new Error('letterSearch: searchLetters is not provided')
      }),
    },
    guards: {
      isShort: (_, params: { query: string }) => !isRemoteQuery(params.query),
      isUnchanged: ({ context }, params: { query: string }) => params.query.trim() === context.query,
      isSameOrder: ({ context }, params: { orderId: number | null }) => params.orderId === context.orderId,
      hasRemoteQuery: ({ context }) => isRemoteQuery(context.query),
    },
  }).createMachine({
    id: 'letterSearch',
    context: ({ input }) => ({ query: '', orderId: input.orderId, results: [], answered: null, error: null }),
    initial: 'local',
    on: {
      'query.change': [
        { guard: { type: 'isUnchanged', params: ({ event }) => ({ query: event.query }) } },
        {
          guard: { type: 'isShort', params: ({ event }) => ({ query: event.query }) },
          target: '.local',
          actions: assign({ query: ({ event }) => event.query.trim(), results: [], answered: null, error: null }),
        },
        { target: '.waiting', reenter: true, actions: assign({ query: ({ event }) => event.query.trim(), error: null }) },
      ],
      'order.change': [
        { guard: { type: 'isSameOrder', params: ({ event }) => ({ orderId: event.orderId }) } },
        {
          guard: { type: 'hasRemoteQuery' },
          target: '.searching',
          reenter: true,
          actions: assign({ orderId: ({ event }) => event.orderId, results: [], answered: null, error: null }),
        },
        { actions: assign({ orderId: ({ event }) => event.orderId }) },
      ],
    },
    states: {
      local: {},
      waiting: {
        tags: ['remote', 'busy'],
        invoke: { id: 'pause', src: 'pause', onDone: 'searching', onError: 'searching' },
      },
      searching: {
        tags: ['remote', 'busy'],
        invoke: {
          id: 'searchLetters',
          src: 'searchLetters',
          input: ({ context }) => ({ q: context.query, orderId: context.orderId }),
          onDone: { target: 'found', actions: assign({ results: ({ event }) => event.output, answered: ({ context }) => context.query }) },
          onError: {
            target: 'failed',
            actions: assign({ results: [], answered: null, error: ({ event }) => failureOf(SEARCH_FAILED, event.error) }),
          },
        },
      },
      found: { tags: ['remote'] },
      failed: {
        tags: ['remote'],
        on: { 'search.retry': { target: 'searching', actions: assign({ error: null }) } },
      },
    },
  }),
)
