// Clients: the search (company, SIREN, e-mail, person, order number), 20 results a page with what matched. A new search
// reads page 1 again; a search or a page asked while another loads replaces it; the results shown stay while the next
// ones load. Without a query, every order, newest first.
import { assign, fromPromise, setup } from 'xstate'
import type { ClientSearchPage } from '../../../../server/contract/operators.ts'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type ClientSearchEvent = { type: 'search.submit'; query: string } | { type: 'search.page'; page: number } | { type: 'search.retry' }

/** What was typed, blanks folded: the server's search takes it so (an empty one lists every order). */
export const normalQuery = (query: string) => query.replace(/[\s\u00a0\u202f]+/g, ' ').trim()

export const clientSearchMachine = deferred(() =>
  setup({
    types: {
      context: {} as { query: string; page: number; result: ClientSearchPage | null; error: string | null },
      events: {} as ClientSearchEvent,
      input: {} as { query?: string; page?: number },
    },
    actors: {
      search: fromPromise<ClientSearchPage, { query: string; page: number }>(async () => {
        throw new Error('clientSearch: search is not provided')
      }),
    },
  }).createMachine({
    id: 'clientSearch',
    context: ({ input }) => ({ query: normalQuery(input.query ?? ''), page: input.page ?? 1, result: null, error: null }),
    initial: 'loading',
    on: {
      'search.submit': {
        target: '.loading',
        reenter: true,
        actions: assign({ query: ({ event }) => normalQuery(event.query), page: 1 }),
      },
      'search.page': { target: '.loading', reenter: true, actions: assign({ page: ({ event }) => event.page }) },
    },
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'search',
          src: 'search',
          input: ({ context }) => ({ query: context.query, page: context.page }),
          onDone: { target: 'loaded', actions: assign({ result: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'search.retry': { target: 'loading' } },
      },
      loaded: {},
    },
  }),
)
