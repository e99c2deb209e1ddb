// The missing identity documents (/missing-document): one file per document asked for (PDF, JPEG
// or PNG, 10 MB at most), sent one request each so the customer sees the progress; a document
// already sent is not sent again after a failure. The order is complete once the provider has
// validated every document (back office, Justificatifs); all sent and waiting for that check, there
// is nothing left to send: the customer is told our team checks them.
import { and, assign, fromPromise, setup } from 'xstate'
import type { IdentityUploadReply } from '../../../server/contract/company.ts'
import type { MissingDocument } from '../../../server/contract/session.ts'
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '../../../server/contract/rules/uploads.ts'
import type { ChosenFile } from './kbisUpload.machine.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const IDENTITY_WRONG_TYPE = 'Formats acceptés : PDF, JPEG ou PNG.'
export const IDENTITY_TOO_BIG = FILE_TOO_LARGE
export const IDENTITY_INCOMPLETE = 'Ajoutez un fichier pour chaque document demandé.'
export const IDENTITY_DONE = 'Merci ! Vos documents ont bien été transmis.'
export const IDENTITY_STILL_INCOMPLETE = 'Vos documents ont bien été reçus : notre équipe les vérifie et vous prévient par e-mail.'

const ACCEPTED = [
  { extension: /\.pdf$/i, type: 'application/pdf' },
  { extension: /\.jpe?g$/i, type: 'image/jpeg' },
  { extension: /\.png$/i, type: 'image/png' },
]

export function identityFileError(file: ChosenFile): string | null {
  const accepted = ACCEPTED.some((a) => a.extension.test(file.name) && (file.type === '' || file.type === a.type))
  if (!accepted) return IDENTITY_WRONG_TYPE
  if (file.size <= 0 || file.size > MAX_UPLOAD_BYTES) return IDENTITY_TOO_BIG
  return null
}

export interface IdentityUploadContext {
  orderId: number
  documents: MissingDocument[]
  files: Record<string, ChosenFile>
  fileErrors: Record<string, string>
  sent: string[]
  error: string | null
  reply: IdentityUploadReply | null
}

export type IdentityUploadEvent = { type: 'identity.file'; documentType: string; file: ChosenFile } | { type: 'identity.submit' }

const pending = (context: IdentityUploadContext) => context.documents.map((d) => d.type).filter((t) => !context.sent.includes(t))

export const identityUploadMachine = deferred(() =>
  setup({
    types: {
      context: {} as IdentityUploadContext,
      input: {} as { orderId: number; documents: MissingDocument[] },
      events: {} as IdentityUploadEvent,
    },
    actors: {
      uploadOne: fromPromise<IdentityUploadReply, { orderId: number; documentType: string; file: ChosenFile }>(async () => {
        throw new Error('identityUpload: uploadOne is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** Every document is in: tell the startup machine (provided by the view). */
      completed: (_, _params: { reply: IdentityUploadReply; orderId: number }) => {},
    },
    guards: {
      isAcceptable: (_, params: { file: ChosenFile }) => identityFileError(params.file) === null,
      /** A document asked for and not sent yet (one sent is not sent again). */
      isPending: ({ context }, params: { documentType: string }) => pending(context).includes(params.documentType),
      allChosen: ({ context }) => pending(context).every((t) => t in context.files),
      isComplete: (_, params: { reply: IdentityUploadReply }) => params.reply.complete,
      morePending: ({ context }) => pending(context).length > 0,
    },
  }).createMachine({
    id: 'identityUpload',
    context: ({ input }) => ({
      orderId: input.orderId,
      documents: input.documents,
      files: {},
      fileErrors: {},
      sent: [],
      error: null,
      reply: null,
    }),
    initial: 'editing',
    states: {
      editing: {
        on: {
          'identity.file': [
            {
              guard: { type: 'isPending', params: ({ event }) => ({ documentType: event.documentType }) },
              actions: assign(({ context, event }) => {
                const problem = identityFileError(event.file)
                const files = { ...context.files }
                const fileErrors = { ...context.fileErrors }
                if (problem) {
                  delete files[event.documentType]
                  fileErrors[event.documentType] = problem
                } else {
                  files[event.documentType] = event.file
                  delete fileErrors[event.documentType]
                }
                return { files, fileErrors, error: null }
              }),
            },
          ],
          // Refused once everything is sent (the server still waiting for something): nothing is left to send.
          'identity.submit': [
            { guard: and(['morePending', 'allChosen']), target: 'uploading', actions: assign({ error: null }) },
            { guard: 'morePending', actions: assign({ error: IDENTITY_INCOMPLETE }) },
          ],
        },
      },
      uploading: {
        tags: ['busy'],
        invoke: {
          id: 'uploadOne',
          src: 'uploadOne',
          input: ({ context }) => {
            const documentType = pending(context)[0]!
            return { orderId: context.orderId, documentType, file: context.files[documentType]! }
          },
          onDone: [
            {
              guard: { type: 'isComplete', params: ({ event }) => ({ reply: event.output }) },
              target: 'completed',
              actions: [
                assign(({ context, event }) => ({ sent: context.documents.map((d) => d.type), reply: event.output })),
                { type: 'notify', params: { kind: 'success', message: IDENTITY_DONE } },
                { type: 'completed', params: ({ context, event }) => ({ reply: event.output, orderId: context.orderId }) },
              ],
            },
            {
              actions: assign(({ context, event }) => ({ sent: [...context.sent, pending(context)[0]!], reply: event.output })),
              target: 'next',
            },
          ],
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      next: {
        always: [
          { guard: 'morePending', target: 'uploading' },
          // Everything was sent but the server still waits for something: say so.
          { target: 'editing', actions: assign({ error: IDENTITY_STILL_INCOMPLETE }) },
        ],
      },
      completed: { type: 'final' },
    },
  }),
)
