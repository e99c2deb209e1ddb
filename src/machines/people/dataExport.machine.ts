// « Mes données » (/informations-personnelles): the person's latest export read when the section opens; « Préparer mes
// données » starts one on the server (a background job that outlives the page); while it is prepared its progress is read
// again every few seconds; ready, the ZIP is downloaded (the e-mailed link leads back here); failed, « Réessayer »
// starts another. A failed read while it is prepared is tried again at the next tick (the job goes on regardless).
import { assign, fromPromise, setup } from 'xstate'
import type { DataExport } from '../../../server/contract/people-exports.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export type { DataExport }

/** How often the progress is read while the ZIP is prepared. */
export const DATA_EXPORT_POLL_MS = 2000

export const DATA_EXPORT_FAILED = 'La préparation de vos données a échoué. Réessayez ; si cela se reproduit, écrivez-nous.'

export const dataExportMachine = deferred(() =>
  setup({
    types: {
      context: {} as { current: DataExport | null; loadError: string | null; error: string | null },
      events: {} as
        | { type: 'dataExport.prepare' }
        | { type: 'dataExport.retry' }
        | { type: 'dataExport.download' }
        | { type: 'dataExport.reload' },
    },
    actors: {
      loadLatest: fromPromise<DataExport | null>(async () => {
        throw new Error('dataExport: loadLatest is not provided')
      }),
      start: fromPromise<DataExport>(async () => {
        throw new Error('dataExport: start is not provided')
      }),
      check: fromPromise<DataExport, { id: number }>(async () => {
        throw new Error('dataExport: check is not provided')
      }),
      download: fromPromise<void, DataExport>(async () => {
        throw new Error('dataExport: download is not provided')
      }),
    },
    guards: {
      isPreparing: ({ context }) => context.current?.state === 'preparing',
      isReady: ({ context }) => context.current?.state === 'ready',
      isFailed: ({ context }) => context.current?.state === 'failed',
      isGone: (_, params: { status: unknown }) => params.status === 410,
    },
    delays: { poll: DATA_EXPORT_POLL_MS },
  }).createMachine({
    id: 'dataExport',
    context: { current: null, loadError: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadLatest',
          src: 'loadLatest',
          onDone: { target: 'deciding', actions: assign({ current: ({ event }) => event.output, loadError: null }) },
          onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
        },
      },
      loadFailed: {
        on: { 'dataExport.reload': { target: 'loading' } },
      },
      /** Where the export the server answered leaves the section: none yet or expired is « idle ». */
      deciding: {
        always: [
          { guard: 'isPreparing', target: 'preparing' },
          { guard: 'isReady', target: 'ready' },
          { guard: 'isFailed', target: 'failed' },
          { target: 'idle' },
        ],
      },
      idle: {
        on: { 'dataExport.prepare': { target: 'starting' } },
      },
      starting: {
        tags: ['busy'],
        entry: assign({ error: null }),
        invoke: {
          id: 'start',
          src: 'start',
          onDone: { target: 'deciding', actions: assign({ current: ({ event }) => event.output }) },
          onError: { target: 'deciding', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      preparing: {
        tags: ['preparing'],
        initial: 'waiting',
        states: {
          waiting: { after: { poll: { target: 'checking' } } },
          checking: {
            invoke: {
              id: 'check',
              src: 'check',
              input: ({ context }) => ({ id: context.current!.id }),
              onDone: { target: '#dataExport.deciding', actions: assign({ current: ({ event }) => event.output }) },
              onError: { target: 'waiting' },
            },
          },
        },
      },
      ready: {
        on: {
          'dataExport.download': { target: 'downloading' },
          'dataExport.prepare': { target: 'starting' },
        },
      },
      downloading: {
        tags: ['busy'],
        entry: assign({ error: null }),
        invoke: {
          id: 'download',
          src: 'download',
          input: ({ context }) => context.current!,
          onDone: { target: 'ready' },
          onError: [
            // Past its 7 days (410): the server's words, and the section offers to prepare another.
            {
              guard: { type: 'isGone', params: ({ event }) => ({ status: (event.error as { status?: unknown } | null)?.status }) },
              target: 'idle',
              actions: assign({ current: null, error: ({ event }) => messageOf(event.error) }),
            },
            { target: 'ready', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      failed: {
        on: { 'dataExport.retry': { target: 'starting' } },
      },
    },
  }),
)
