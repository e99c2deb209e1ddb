// Numérisation: the shared queue of scans not yet published (the server's: a reload shows it, read again every few
// seconds while a scan is being read), the PDFs dropped or chosen uploaded one request each, one after the other, each
// with its progress (a file that is no PDF or too large refused at once, a failed upload kept with « Réessayer »), and
// « Publier les confirmés ». A card's review (scanReview) tells the queue what changed.
import { assign, fromPromise, setup } from 'xstate'
import type { MailScan, PublishScansReply } from '../../../../server/contract/mail-backoffice.ts'
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '../../../../server/contract/rules/uploads.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

/** A file dropped or chosen, before it is sent. */
export interface LocalFile {
  /** Unique in the page (the file's name may repeat). */
  key: string
  name: string
  size: number
  type: string
  file: Blob
}

export interface UploadEntry extends LocalFile {
  /** 0 to 1. */
  progress: number
  status: 'waiting' | 'uploading' | 'failed'
  error: string | null
  /** Refused before sending (no PDF, too large): « Réessayer » would be refused again. */
  refused: boolean
}

export const NOT_A_PDF = 'Ce fichier n’est pas un PDF : seuls les scans en PDF sont acceptés.'
/** Read again this often while a scan is being read (its suggestion comes with its reading). */
export const READING_POLL_MS = 3000

/** Why a file is refused before it is sent, or null. */
export function refusalOf(file: Pick<LocalFile, 'name' | 'size' | 'type'>): string | null {
  if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return NOT_A_PDF
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE
  return null
}

/** A scan that « Publier les confirmés » takes: confirmed, with an order, not « À vérifier ». */
export const isPublishable = (scan: MailScan) => scan.confirmed && scan.orderId !== null && !scan.toCheck && !scan.published

export const published = (count: number) => (count === 1 ? '1 courrier publié.' : `${count} courriers publiés.`)

export type ScanQueueEvent =
  | { type: 'files.add'; files: LocalFile[] }
  | { type: 'upload.progress'; key: string; progress: number }
  | { type: 'upload.retry'; key: string }
  | { type: 'upload.dismiss'; key: string }
  | { type: 'queue.retry' }
  | { type: 'scan.changed'; scan: MailScan }
  | { type: 'scan.removed'; id: number }
  | { type: 'publish.confirmed' }

const withScan = (scans: MailScan[] | null, scan: MailScan) =>
  scans?.some((s) => s.id === scan.id) ? scans.map((s) => (s.id === scan.id ? scan : s)) : [...(scans ?? []), scan]

export const scanQueueMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        scans: MailScan[] | null
        error: string | null
        uploads: UploadEntry[]
        publishError: string | null
        skipped: PublishScansReply['skipped']
        /** The scans uploaded since the queue's reading began: an answer read before them keeps them. */
        fresh: number[]
      },
      events: {} as ScanQueueEvent,
    },
    actors: {
      load: fromPromise<MailScan[], void>(async () => {
        throw new Error('scanQueue: load is not provided')
      }),
      upload: fromPromise<MailScan, { file: Blob; fileName: string; onProgress: (progress: number) => void }>(async () => {
        throw new Error('scanQueue: upload is not provided')
      }),
      publishAll: fromPromise<PublishScansReply, { scanIds: number[] }>(async () => {
        throw new Error('scanQueue: publishAll is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      reading: ({ context }) => !!context.scans?.some((s) => s.reading === 'en cours'),
      hasWaiting: ({ context }) => context.uploads.some((u) => u.status === 'waiting'),
      somePublishable: ({ context }) => !!context.scans?.some(isPublishable),
    },
    delays: { poll: READING_POLL_MS },
  }).createMachine({
    id: 'scanQueue',
    type: 'parallel',
    context: { scans: null, error: null, uploads: [], publishError: null, skipped: [], fresh: [] },
    on: {
      'files.add': {
        actions: assign({
          uploads: ({ context, event }) => [
            ...context.uploads,
            ...event.files.map((file): UploadEntry => {
              const refusal = refusalOf(file)
              return { ...file, progress: 0, status: refusal ? 'failed' : 'waiting', error: refusal, refused: !!refusal }
            }),
          ],
        }),
      },
      'upload.progress': {
        actions: assign({
          uploads: ({ context, event }) => context.uploads.map((u) => (u.key === event.key ? { ...u, progress: event.progress } : u)),
        }),
      },
      'upload.retry': {
        actions: assign({
          uploads: ({ context, event }) =>
            context.uploads.map((u) =>
              u.key === event.key && u.status === 'failed' && !u.refused
                ? { ...u, status: 'waiting' as const, error: null, progress: 0 }
                : u,
            ),
        }),
      },
      'upload.dismiss': {
        actions: assign({
          uploads: ({ context, event }) => context.uploads.filter((u) => u.key !== event.key || u.status !== 'failed'),
        }),
      },
      'scan.changed': { actions: assign({ scans: ({ context, event }) => withScan(context.scans, event.scan) }) },
      'scan.removed': { actions: assign({ scans: ({ context, event }) => context.scans?.filter((s) => s.id !== event.id) ?? null }) },
    },
    states: {
      queue: {
        initial: 'loading',
        states: {
          loading: {
            tags: ['loading'],
            entry: assign({ error: null, fresh: [] }),
            invoke: {
              id: 'load',
              src: 'load',
              onDone: {
                target: 'shown',
                actions: assign({
                  scans: ({ context, event }) => [
                    ...event.output,
                    ...(context.scans ?? []).filter((s) => context.fresh.includes(s.id) && !event.output.some((o) => o.id === s.id)),
                  ],
                }),
              },
              onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          failed: { on: { 'queue.retry': { target: 'loading' } } },
          // While a scan is read, its suggestion is on its way: the queue is read again. Otherwise the wait starts over (a
          // delayed transition is looked at once: without it, a scan dropped after the first wait would never be read again).
          shown: {
            after: {
              poll: [
                { guard: 'reading', target: 'loading' },
                { target: 'shown', reenter: true },
              ],
            },
          },
        },
      },
      uploads: {
        initial: 'idle',
        states: {
          idle: { always: { guard: 'hasWaiting', target: 'sending' } },
          sending: {
            tags: ['uploading'],
            entry: assign({
              uploads: ({ context }) => {
                const next = context.uploads.find((u) => u.status === 'waiting')!
                return context.uploads.map((u) => (u === next ? { ...u, status: 'uploading' as const } : u))
              },
            }),
            invoke: {
              id: 'upload',
              src: 'upload',
              input: ({ context, self }) => {
                const entry = context.uploads.find((u) => u.status === 'uploading')!
                return {
                  file: entry.file,
                  fileName: entry.name,
                  onProgress: (progress: number) => self.send({ type: 'upload.progress', key: entry.key, progress }),
                }
              },
              onDone: {
                target: 'idle',
                actions: assign({
                  uploads: ({ context }) => context.uploads.filter((u) => u.status !== 'uploading'),
                  scans: ({ context, event }) => withScan(context.scans, event.output),
                  fresh: ({ context, event }) => [...context.fresh, event.output.id],
                }),
              },
              onError: {
                target: 'idle',
                actions: assign({
                  uploads: ({ context, event }) =>
                    context.uploads.map((u) =>
                      u.status === 'uploading' ? { ...u, status: 'failed' as const, error: messageOf(event.error) } : u,
                    ),
                }),
              },
            },
          },
        },
      },
      publishing: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'publish.confirmed': { guard: 'somePublishable', target: 'sending', actions: assign({ publishError: null, skipped: [] }) },
            },
          },
          sending: {
            tags: ['publishing'],
            invoke: {
              id: 'publishAll',
              src: 'publishAll',
              input: ({ context }) => ({ scanIds: context.scans!.filter(isPublishable).map((s) => s.id) }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({
                    scans: ({ context, event }) => {
                      const gone = new Set(event.output.published.map((p) => p.scan.id))
                      return context.scans?.filter((s) => !gone.has(s.id)) ?? null
                    },
                    skipped: ({ event }) => event.output.skipped,
                  }),
                  {
                    type: 'notify',
                    params: ({ event }) => ({ kind: 'success' as const, message: published(event.output.published.length) }),
                  },
                ],
              },
              onError: { target: 'idle', actions: assign({ publishError: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
