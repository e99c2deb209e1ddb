// A billing document fetched with the token and handed to the browser to save (`saveFile`): the domiciliation
// certificate (issued first: a verification code, kept to show its public page), the contract, the Kbis filed, an
// invoice or a credit note. A failure says why, and the button tries again.
import { assign, fromPromise, setup } from 'xstate'
import type { Certificate } from '../../../server/contract/billing.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export type DocumentRequest =
  | { kind: 'certificate'; orderId: number }
  | { kind: 'contract'; contractId: number }
  | { kind: 'kbis'; contractId: number }
  | { kind: 'invoice'; id: number; number: string }
  | { kind: 'creditNote'; id: number; number: string }

export interface DownloadedDocument {
  blob: Blob
  fileName: string
  /** For a certificate: its code and verification page. */
  certificate: Certificate | null
}

export interface DocumentDownloadContext {
  request: DocumentRequest | null
  certificate: Certificate | null
  error: string | null
}

export const documentDownloadMachine = deferred(() =>
  setup({
    types: {
      context: {} as DocumentDownloadContext,
      events: {} as { type: 'download.start'; request: DocumentRequest },
    },
    actors: {
      fetchDocument: fromPromise<DownloadedDocument, DocumentRequest>(async () => {
        throw new Error('documentDownload: fetchDocument is not provided')
      }),
    },
    actions: {
      saveFile: (_, _params: { blob: Blob; fileName: string }) => {},
    },
  }).createMachine({
    id: 'documentDownload',
    context: { request: null, certificate: null, error: null },
    initial: 'idle',
    states: {
      idle: {
        on: { 'download.start': { target: 'fetching', actions: assign({ request: ({ event }) => event.request, error: null }) } },
      },
      fetching: {
        tags: ['busy'],
        invoke: {
          id: 'fetchDocument',
          src: 'fetchDocument',
          input: ({ context }) => context.request!,
          onDone: {
            target: 'idle',
            actions: [
              { type: 'saveFile', params: ({ event }) => ({ blob: event.output.blob, fileName: event.output.fileName }) },
              assign({ certificate: ({ context, event }) => event.output.certificate ?? context.certificate }),
            ],
          },
          onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
