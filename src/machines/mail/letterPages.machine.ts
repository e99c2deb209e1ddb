// The letter viewer's image mode: where the browser cannot draw a PDF inside the page (Chrome and
// Firefox for Android: `navigator.pdfViewerEnabled` false), the letter's pages are shown as the
// images the server renders (GET documents/{id}/pages/{page}, fetched with the token as Blobs).
// A page is fetched when it scrolls into view (`page.visible`), one at a time, in the order they
// were seen; a page that fails says so and can be asked again (`page.retry`). The zoom buttons
// step through a few levels (pinching works too: the browser's own). A letter without images yet
// (`pageCount` 0) is `preparing`: the page only offers the download, and asks for the letters again
// (`pages.recheck`, emitted) after each pause of PREPARING_RECHECK_MS, so that the pages show once the
// server has made them (a letter opened as it arrives), without a reload.
import { assign, emit, fromPromise, setup } from 'xstate'
import { failureOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const PAGE_FAILED = 'Cette page n’a pas pu être chargée.'
/** The widths the zoom buttons step through, as a share of the viewer's width. */
export const ZOOM_LEVELS = [1, 1.5, 2, 3] as const

/** The pauses before each new look at a letter being prepared (≈ 1 min in all, then no more: a reload does it). */
export const PREPARING_RECHECK_MS = [2000, 4000, 8000, 15_000, 30_000] as const

export type PageStatus = 'waiting' | 'queued' | 'loading' | 'shown' | 'failed'

export interface PageImage {
  status: PageStatus
  image: Blob | null
  error: string | null
}

export interface LetterPagesContext {
  documentId: number
  pages: PageImage[]
  /** Pages seen and not fetched yet, 1-based, first seen first. */
  queue: number[]
  /** The page being fetched, 1-based. */
  current: number | null
  /** Index in ZOOM_LEVELS. */
  zoom: number
  /** How many times the letters were asked for again while the images were being made. */
  rechecks: number
}

export type LetterPagesEvent =
  | { type: 'page.visible'; page: number }
  | { type: 'page.retry'; page: number }
  | { type: 'zoom.in' }
  | { type: 'zoom.out' }

const withStatus = (pages: PageImage[], page: number, change: Partial<PageImage>) =>
  pages.map((p, i) => (i === page - 1 ? { ...p, ...change } : p))

export const letterPagesMachine = deferred(() =>
  setup({
    types: {
      context: {} as LetterPagesContext,
      input: {} as { documentId: number; pageCount: number },
      events: {} as LetterPagesEvent,
      emitted: {} as { type: 'pages.recheck' },
    },
    actors: {
      loadPage: fromPromise<Blob, { documentId: number; page: number }>(async () => {
        throw new Error('letterPages: loadPage is not provided')
      }),
      pause: fromPromise<void, { ms: number }>(async () => {
        throw new Error('letterPages: pause is not provided')
      }),
    },
    guards: {
      hasNoImages: ({ context }) => context.pages.length === 0,
      mayRecheck: ({ context }) => context.rechecks < PREPARING_RECHECK_MS.length,
      isWaiting: ({ context }, params: { page: number }) => context.pages[params.page - 1]?.status === 'waiting',
      hasFailed: ({ context }, params: { page: number }) => context.pages[params.page - 1]?.status === 'failed',
      hasQueue: ({ context }) => context.queue.length > 0,
      canZoomIn: ({ context }) => context.zoom < ZOOM_LEVELS.length - 1,
      canZoomOut: ({ context }) => context.zoom > 0,
    },
    actions: {
      enqueue: assign(({ context }, params: { page: number }) => ({
        pages: withStatus(context.pages, params.page, { status: 'queued', error: null }),
        queue: [...context.queue, params.page],
      })),
    },
  }).createMachine({
    id: 'letterPages',
    context: ({ input }) => ({
      documentId: input.documentId,
      pages: Array.from({ length: Math.max(0, input.pageCount) }, () => ({ status: 'waiting' as const, image: null, error: null })),
      queue: [],
      current: null,
      zoom: 0,
      rechecks: 0,
    }),
    initial: 'checking',
    states: {
      checking: {
        always: [{ guard: 'hasNoImages', target: 'preparing' }, { target: 'viewing' }],
      },
      preparing: {
        tags: ['preparing'],
        initial: 'waiting',
        states: {
          waiting: {
            always: { guard: 'mayRecheck', target: 'pausing' },
          },
          pausing: {
            invoke: {
              id: 'pause',
              src: 'pause',
              input: ({ context }) => ({ ms: PREPARING_RECHECK_MS[context.rechecks]! }),
              onDone: {
                target: 'waiting',
                actions: [assign({ rechecks: ({ context }) => context.rechecks + 1 }), emit({ type: 'pages.recheck' })],
              },
            },
          },
        },
      },
      viewing: {
        initial: 'idle',
        on: {
          'page.visible': {
            guard: { type: 'isWaiting', params: ({ event }) => ({ page: event.page }) },
            actions: { type: 'enqueue', params: ({ event }) => ({ page: event.page }) },
          },
          'page.retry': {
            guard: { type: 'hasFailed', params: ({ event }) => ({ page: event.page }) },
            actions: { type: 'enqueue', params: ({ event }) => ({ page: event.page }) },
          },
          'zoom.in': { guard: 'canZoomIn', actions: assign({ zoom: ({ context }) => context.zoom + 1 }) },
          'zoom.out': { guard: 'canZoomOut', actions: assign({ zoom: ({ context }) => context.zoom - 1 }) },
        },
        states: {
          idle: {
            always: {
              guard: 'hasQueue',
              target: 'loading',
              actions: assign(({ context }) => {
                const [next, ...rest] = context.queue
                return { current: next!, queue: rest, pages: withStatus(context.pages, next!, { status: 'loading' }) }
              }),
            },
          },
          loading: {
            invoke: {
              id: 'loadPage',
              src: 'loadPage',
              input: ({ context }) => ({ documentId: context.documentId, page: context.current! }),
              onDone: {
                target: 'idle',
                actions: assign(({ context, event }) => ({
                  pages: withStatus(context.pages, context.current!, { status: 'shown', image: event.output }),
                  current: null,
                })),
              },
              onError: {
                target: 'idle',
                actions: assign(({ context, event }) => ({
                  pages: withStatus(context.pages, context.current!, { status: 'failed', error: failureOf(PAGE_FAILED, event.error) }),
                  current: null,
                })),
              },
            },
          },
        },
      },
    },
  }),
)
