// /missing-document: what was already sent for the order (spec §7's uploaded-documents), each waiting for the provider's
// check, accepted, or refused with why; the documents still to send are those never sent or refused. The call swallows
// its errors (spec §8): then nothing is listed and every document asked for is offered.
import { assign, fromPromise, setup } from 'xstate'
import type { UploadedDocument } from '../../../server/contract/company.ts'
import type { MissingDocument } from '../../../server/contract/session.ts'
import { deferred } from '../deferred.ts'

/** The documents asked for that still need a file: never sent, or refused. */
export const stillToSend = (asked: MissingDocument[], uploaded: UploadedDocument[]) =>
  asked.filter((doc) => {
    const sent = uploaded.find((u) => u.type === doc.type)
    return !sent || sent.status === 'refusé'
  })

export const uploadedDocumentsMachine = deferred(() =>
  setup({
    types: {
      context: {} as { orderId: number; documents: UploadedDocument[] },
      input: {} as { orderId: number },
      events: {} as { type: 'uploaded.changed'; documents: UploadedDocument[] },
    },
    actors: {
      load: fromPromise<UploadedDocument[] | undefined, { orderId: number }>(async () => {
        throw new Error('uploadedDocuments: load is not provided')
      }),
    },
  }).createMachine({
    id: 'uploadedDocuments',
    context: ({ input }) => ({ orderId: input.orderId, documents: [] }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'ready', actions: assign({ documents: ({ event }) => event.output ?? [] }) },
          // Swallowed by the client already (spec §8); anything else: as if nothing was listed.
          onError: { target: 'ready' },
        },
      },
      ready: {
        on: { 'uploaded.changed': { actions: assign({ documents: ({ event }) => event.documents }) } },
      },
    },
  }),
)
