// The Kbis banner and its upload modal (spec §2, §4, §5). The banner shows while the default order
// waits for its Kbis; 'Je dépose mon Kbis' opens 'Déposer mon justificatif'; 'Oui' opens a file
// chooser that accepts only .pdf, 'Non' closes. The file goes as a data URL; a null answer is a
// failure (hasKbis unchanged, banner kept, the customer told why); success hides the banner.
import { assign, fromPromise, setup } from 'xstate'
import type { Order } from '../../../server/contract/session.ts'
import { messageOf, needsKbis, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '../../../server/contract/rules/uploads.ts'

/** The part of a browser File the flow looks at (the real File is passed through untouched). */
export interface ChosenFile {
  name: string
  type: string
  size: number
}

export const KBIS_NOT_PDF = 'Seuls les fichiers PDF (.pdf) sont acceptés.'
export const KBIS_TOO_BIG = FILE_TOO_LARGE
export const KBIS_FAILED = "Votre justificatif n'a pas pu être enregistré. Vérifiez le fichier puis réessayez."
export const KBIS_NO_CONTRACT = "Aucun contrat n'est associé à cette domiciliation : contactez-nous pour déposer votre Kbis."
export const KBIS_SUCCESS = 'Merci ! Votre justificatif a bien été déposé.'

export const isPdfName = (name: string) => /\.pdf$/i.test(name)

export interface KbisUploadContext<F extends ChosenFile = ChosenFile> {
  order: Order | null
  contractId: number | null
  file: F | null
  error: string | null
}

export type KbisUploadEvent =
  | { type: 'kbis.open' }
  | { type: 'kbis.yes' }
  | { type: 'kbis.no' }
  | { type: 'kbis.close' }
  | { type: 'kbis.file'; file: ChosenFile }
  | { type: 'kbis.cancel' }

export const kbisUploadMachine = deferred(() =>
  setup({
    types: {
      context: {} as KbisUploadContext,
      input: {} as { order: Order | null; contractId: number | null },
      events: {} as KbisUploadEvent,
    },
    actors: {
      /** Reads the file as a data URL and sends it; answers the response's kbis, or null. */
      uploadKbis: fromPromise<string | null, { contractId: number; file: ChosenFile }>(async () => {
        throw new Error('kbisUpload: uploadKbis is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** Tells the rest of the portal that the order now has its Kbis, and where its contract keeps it (provided by the view). */
      kbisFiled: (_, _params: { orderId: number; contractId: number; kbis: string }) => {},
    },
    guards: {
      needsKbis: ({ context }) => needsKbis(context.order),
      isPdf: (_, params: { file: ChosenFile }) =>
        isPdfName(params.file.name) && (params.file.type === '' || params.file.type === 'application/pdf'),
      isSmallEnough: (_, params: { file: ChosenFile }) => params.file.size > 0 && params.file.size <= MAX_UPLOAD_BYTES,
      hasContract: ({ context }) => context.contractId !== null,
      answered: (_, params: { kbis: string | null }) => params.kbis !== null,
    },
  }).createMachine({
    id: 'kbisUpload',
    context: ({ input }) => ({ order: input.order, contractId: input.contractId, file: null, error: null }),
    initial: 'checking',
    states: {
      checking: {
        always: [{ guard: 'needsKbis', target: 'banner' }, { target: 'hidden' }],
      },
      hidden: {},
      banner: {
        on: { 'kbis.open': { target: 'asking', actions: assign({ error: null }) } },
      },
      asking: {
        tags: ['modal'],
        on: {
          'kbis.yes': [
            { guard: 'hasContract', target: 'choosing', actions: assign({ error: null }) },
            { actions: assign({ error: KBIS_NO_CONTRACT }) },
          ],
          'kbis.no': { target: 'banner' },
          'kbis.close': { target: 'banner' },
        },
      },
      choosing: {
        tags: ['modal', 'chooser'],
        on: {
          'kbis.file': [
            {
              guard: { type: 'isPdf', params: ({ event }) => ({ file: event.file }) },
              target: 'checkingSize',
              actions: assign({ file: ({ event }) => event.file }),
            },
            { target: 'asking', actions: assign({ error: KBIS_NOT_PDF }) },
          ],
          'kbis.cancel': { target: 'asking' },
          'kbis.close': { target: 'banner' },
        },
      },
      checkingSize: {
        always: [
          { guard: { type: 'isSmallEnough', params: ({ context }) => ({ file: context.file! }) }, target: 'uploading' },
          { target: 'asking', actions: assign({ error: KBIS_TOO_BIG, file: null }) },
        ],
      },
      uploading: {
        tags: ['modal', 'busy'],
        invoke: {
          id: 'uploadKbis',
          src: 'uploadKbis',
          input: ({ context }) => ({ contractId: context.contractId!, file: context.file! }),
          onDone: [
            {
              guard: { type: 'answered', params: ({ event }) => ({ kbis: event.output }) },
              target: 'uploaded',
              actions: [
                assign({ order: ({ context }) => (context.order ? { ...context.order, hasKbis: true } : null), file: null, error: null }),
                {
                  type: 'kbisFiled',
                  params: ({ context, event }) => ({ orderId: context.order!.id, contractId: context.contractId!, kbis: event.output! }),
                },
                { type: 'notify', params: { kind: 'success', message: KBIS_SUCCESS } },
              ],
            },
            { target: 'asking', actions: assign({ error: KBIS_FAILED, file: null }) },
          ],
          onError: { target: 'asking', actions: assign({ error: ({ event }) => messageOf(event.error, KBIS_FAILED), file: null }) },
        },
      },
      uploaded: { type: 'final' },
    },
  }),
)
