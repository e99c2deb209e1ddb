// Administration › Journal: the journal read a page at a time (50 rows, newest first) with its filters (operator,
// order, kind of action, days); new filters read page 1 again, a page asked while another loads replaces it; the rows
// shown stay while the next ones load. « Exporter en CSV » downloads the server's file with the same filters.
import { assign, fromPromise, setup } from 'xstate'
import type { Static } from 'typebox'
import type { JournalPage } from '../../../../server/contract/operators.ts'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type JournalResult = Static<typeof JournalPage>

/** The filters as the form holds them: empty means no filter. */
export interface JournalFilters {
  operatorId?: number
  orderId?: number
  action?: string
  /** Days (YYYY-MM-DD), Paris time, both included. */
  from?: string
  to?: string
}

export type JournalEvent =
  | { type: 'journal.filter'; filters: JournalFilters }
  | { type: 'journal.page'; page: number }
  | { type: 'journal.retry' }
  | { type: 'journal.export' }

export const journalMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        filters: JournalFilters
        page: number
        result: JournalResult | null
        error: string | null
        exportError: string | null
      },
      events: {} as JournalEvent,
    },
    actors: {
      load: fromPromise<JournalResult, { filters: JournalFilters; page: number }>(async () => {
        throw new Error('journal: load is not provided')
      }),
      download: fromPromise<Blob, { filters: JournalFilters }>(async () => {
        throw new Error('journal: download is not provided')
      }),
    },
    actions: {
      /** Hands the CSV file to the browser (provided by the wiring). */
      save: (_, _params: { file: Blob }) => {},
    },
  }).createMachine({
    id: 'journal',
    context: { filters: {}, page: 1, result: null, error: null, exportError: null },
    initial: 'loading',
    on: {
      'journal.filter': { target: '.loading', reenter: true, actions: assign({ filters: ({ event }) => event.filters, page: 1 }) },
      'journal.page': { target: '.loading', reenter: true, actions: assign({ page: ({ event }) => event.page }) },
    },
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ exportError: null }),
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ filters: context.filters, page: context.page }),
          onDone: { target: 'loaded', actions: assign({ result: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'journal.retry': { target: 'loading' } },
      },
      loaded: {
        on: { 'journal.export': { target: 'exporting', actions: assign({ exportError: null }) } },
      },
      exporting: {
        tags: ['exporting'],
        invoke: {
          id: 'download',
          src: 'download',
          input: ({ context }) => ({ filters: context.filters }),
          onDone: { target: 'loaded', actions: { type: 'save', params: ({ event }) => ({ file: event.output }) } },
          onError: { target: 'loaded', actions: assign({ exportError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
