// The letter list and its viewer (/mes-courriers/courriers). The list itself is portalData's; this
// flow works on the letter the customer opens and reports every change with `documentChanged`, or
// `readChanged` for its read flag alone (the wiring forwards them to portalData), in four independent regions:
//   viewer   the scan of the open letter, fetched as a PDF Blob (the page shows it from a blob: URL);
//   reading  opening an unread letter marks it read at once (the unread counts follow), then
//            PUT documents/{id} {readFlag: true}; a failure puts it back and says so. Only the read
//            flag is reported, never the letter as it was when opened: a move made meanwhile stays;
//   moving   PUT documents/{id} {folderId}: filed in a folder, or taken out of it, one move at a time (another
//            asked meanwhile is ignored); a folder gone or changed (404, 409) has the portal read the folders again;
//   sending  'Envoyer par e-mail': recipient, optional message, one or several letters.
// Picking another order (`order.switched`) drops the scan, the read marks and the move still
// awaited: their answers belong to a list that is no longer shown. A sending e-mail, a move and a read mark go on,
// even past the page: the wiring does not abort their calls, and tells their outcome once the page is gone
// (wiring/outlive.ts).
// The page reports what the portal shows (`portal.seen`: the order, the list's state); from it
//   order    notices another order and switches (a phone goes back to the list);
//   link     follows the "Nouveau courrier" e-mail's link (?domiciliation=…&courrier=…): the
//            letter's order first (unless 'Tous' shows it already), then the letter, once.
import { assign, fromPromise, raise, setup } from 'xstate'
import type { MailDocument } from '../../../server/contract/mail.ts'
import type { ListStatus } from '../session/portalData.machine.ts'
import { failureOf, isEmail, isOutdatedList, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, plainLineBreaks } from '../../../server/contract/rules/text.ts'

export const READ_FAILED = 'Le courrier n’a pas pu être marqué comme lu : il reste non lu.'
export const FILE_FAILED = 'Le courrier numérisé n’a pas pu être chargé.'
export const MOVE_FAILED = 'Le courrier n’a pas pu être classé dans ce dossier.'
export const MOVE_OUT_FAILED = 'Le courrier n’a pas pu être retiré de son dossier.'
/** The sending failed once the page was left (its toast; the page, when there, shows the server's reason alone in its form). */
export const SEND_FAILED = 'L’envoi par e-mail n’a pas abouti.'
export const SEND_NO_LETTER = 'Choisissez au moins un courrier à envoyer.'
export const SEND_BAD_EMAIL = 'Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.'
export const MOVED_TO_FOLDER = 'Le courrier a été classé dans le dossier.'
export const MOVED_OUT = 'Le courrier a été retiré de son dossier.'
export const LINKED_LETTER_GONE = 'Ce courrier est introuvable dans cette domiciliation : il a peut-être été supprimé.'
/** The letters page, where the e-mail's link lands. */
export const LETTERS_PATH = '/mes-courriers/courriers'

/** What the portal shows the letters page: the selected order (null for 'Tous') and the letter list. */
export interface PortalSeen {
  orderId: number | null
  /** The user's orders. */
  orderIds: readonly number[]
  /** A list read again after news (`refreshing`), or that could not be (`stale`), shows what it held: the
   * linked letter is taken from it if there, else awaited (the answer, or 'Réessayer'), never said gone. */
  status: ListStatus
  documentIds: readonly number[]
}

/** The letter an e-mail's link points at, with its order when the link names it. */
export interface LinkedLetter {
  documentId: number
  orderId: number | null
}

export interface SendForm {
  email: string
  message: string
}

export interface MailboxContext {
  /** The letter shown in the viewer. */
  opened: MailDocument | null
  file: Blob | null
  fileError: string | null
  /** Letters opened while an earlier one was being marked read: marked next, one at a time. */
  toMark: MailDocument[]
  marking: MailDocument | null
  move: { document: MailDocument; folderId: number | null } | null
  sendIds: number[]
  form: SendForm
  sendError: string | null
  /** The order the page showed last (undefined before the first report). */
  orderId: number | null | undefined
  link: LinkedLetter | null
  /** On a phone, the viewer shows instead of the list. */
  phoneViewer: boolean
}

export type MailboxEvent =
  | { type: 'letter.open'; document: MailDocument }
  | { type: 'viewer.retry' }
  | { type: 'letter.move'; document: MailDocument; folderId: number | null }
  | { type: 'send.open'; documentIds: number[] }
  | { type: 'send.pick'; documentIds: number[] }
  | { type: 'send.change'; form: Partial<SendForm> }
  | { type: 'send.submit' }
  | { type: 'send.close' }
  | { type: 'order.switched' }
  | { type: 'portal.seen'; seen: PortalSeen }
  | { type: 'link.follow'; link: LinkedLetter }
  | { type: 'viewer.show' }
  | { type: 'viewer.hide' }

const machineSetup = setup({
  types: {
    context: {} as MailboxContext,
    events: {} as MailboxEvent,
  },
  actors: {
    loadFile: fromPromise<Blob, { documentId: number }>(async () => {
      throw new Error('mailbox: loadFile is not provided')
    }),
    updateDocument: fromPromise<MailDocument, { documentId: number; readFlag?: boolean; folderId?: number | null }>(async () => {
      throw new Error('mailbox: updateDocument is not provided')
    }),
    sendDocuments: fromPromise<{ message: string }, { email: string; message?: string; documentIds: number[] }>(async () => {
      throw new Error('mailbox: sendDocuments is not provided')
    }),
  },
  actions: {
    openInViewer: assign((_, params: { document: MailDocument }) => ({ opened: params.document, file: null, fileError: null })),
    keepOpened: assign((_, params: { document: MailDocument }) => ({ opened: params.document })),
    /** A letter changed (read flag, folder): the page hands it to portalData. */
    documentChanged: (_, _params: { document: MailDocument }) => {},
    /** A letter's read flag changed, nothing else: the page hands it to portalData. */
    readChanged: (_, _params: { documentId: number; read: boolean }) => {},
    notify: (_, _params: Notice) => {},
    /** The portal shows this order (the link's). */
    selectOrder: (_, _params: { orderId: number }) => {},
    /** The portal selects this letter in its list. */
    selectDocument: (_, _params: { documentId: number }) => {},
    /** The link is done with: the address loses it, so that a reload does not follow it again. */
    forgetLink: () => {},
    /** A move refused because the folder is gone (404) or changed (409): the portal reads the folders again. */
    foldersOutdated: () => {},
  },
  guards: {
    isUnread: (_, params: { document: MailDocument }) => !params.document.read,
    hasMoreToMark: ({ context }) => context.toMark.length > 0,
    hasLetters: ({ context }) => context.sendIds.length > 0,
    hasEmail: ({ context }) => isEmail(context.form.email),
    isOpened: ({ context }, params: { document: MailDocument }) => context.opened?.id === params.document.id,
    orderChanged: ({ context }, params: { seen: PortalSeen }) => context.orderId !== params.seen.orderId,
    linkNeedsOrder: ({ context }, { seen }: { seen: PortalSeen }) => {
      const orderId = context.link?.orderId ?? null
      return orderId !== null && seen.orderId !== null && seen.orderId !== orderId && seen.orderIds.includes(orderId)
    },
    listLoading: (_, { seen }: { seen: PortalSeen }) => seen.status === 'loading',
    linkInList: ({ context }, { seen }: { seen: PortalSeen }) =>
      context.link !== null && seen.documentIds.includes(context.link.documentId),
    listLoaded: (_, { seen }: { seen: PortalSeen }) => seen.status === 'loaded',
    isOutdated: (_, params: { error: unknown }) => isOutdatedList(params.error),
  },
})

const moveFailed = (context: MailboxContext, error: unknown): Notice => ({
  kind: 'error',
  message: failureOf(context.move!.folderId === null ? MOVE_OUT_FAILED : MOVE_FAILED, error),
})

// Opening a letter in the viewer, whatever it showed: the same letter again (its read flag changed)
// keeps the scan already shown; another one loads its own.
type OpenEvent = { event: { document: MailDocument } }
const openLetter = [
  {
    guard: { type: 'isOpened' as const, params: ({ event }: OpenEvent) => ({ document: event.document }) },
    actions: { type: 'keepOpened' as const, params: ({ event }: OpenEvent) => ({ document: event.document }) },
  },
  {
    target: '#mailbox.viewer.loading',
    reenter: true,
    actions: { type: 'openInViewer' as const, params: ({ event }: OpenEvent) => ({ document: event.document }) },
  },
]

export const mailboxMachine = deferred(() =>
  machineSetup.createMachine({
    id: 'mailbox',
    context: {
      opened: null,
      file: null,
      fileError: null,
      toMark: [],
      marking: null,
      move: null,
      sendIds: [],
      form: { email: '', message: '' },
      sendError: null,
      orderId: undefined,
      link: null,
      phoneViewer: false,
    },
    type: 'parallel',
    on: {
      'viewer.show': { actions: assign({ phoneViewer: true }) },
      'viewer.hide': { actions: assign({ phoneViewer: false }) },
    },
    states: {
      order: {
        initial: 'unknown',
        states: {
          unknown: { on: { 'portal.seen': { target: 'known', actions: assign({ orderId: ({ event }) => event.seen.orderId }) } } },
          known: {
            on: {
              'portal.seen': {
                guard: { type: 'orderChanged', params: ({ event }) => ({ seen: event.seen }) },
                actions: [assign({ orderId: ({ event }) => event.seen.orderId, phoneViewer: false }), raise({ type: 'order.switched' })],
              },
            },
          },
        },
      },
      link: {
        initial: 'none',
        on: { 'link.follow': { target: '.following', actions: assign({ link: ({ event }) => event.link }) } },
        states: {
          none: {},
          following: {
            on: {
              'portal.seen': [
                {
                  guard: { type: 'linkNeedsOrder', params: ({ event }) => ({ seen: event.seen }) },
                  actions: { type: 'selectOrder', params: ({ context }) => ({ orderId: context.link!.orderId! }) },
                },
                { guard: { type: 'listLoading', params: ({ event }) => ({ seen: event.seen }) } },
                {
                  guard: { type: 'linkInList', params: ({ event }) => ({ seen: event.seen }) },
                  target: 'none',
                  actions: [
                    { type: 'selectDocument', params: ({ context }) => ({ documentId: context.link!.documentId }) },
                    assign({ phoneViewer: true, link: null }),
                    'forgetLink',
                  ],
                },
                {
                  guard: { type: 'listLoaded', params: ({ event }) => ({ seen: event.seen }) },
                  target: 'none',
                  actions: [
                    { type: 'notify', params: { kind: 'error' as const, message: LINKED_LETTER_GONE } },
                    assign({ link: null }),
                    'forgetLink',
                  ],
                },
                // The list failed: the link waits for 'Réessayer'.
              ],
            },
          },
        },
      },
      viewer: {
        initial: 'empty',
        states: {
          empty: { on: { 'letter.open': openLetter } },
          loading: {
            tags: ['loadingFile'],
            invoke: {
              id: 'loadFile',
              src: 'loadFile',
              input: ({ context }) => ({ documentId: context.opened!.id }),
              onDone: { target: 'shown', actions: assign({ file: ({ event }) => event.output }) },
              onError: { target: 'failed', actions: assign({ fileError: ({ event }) => failureOf(FILE_FAILED, event.error) }) },
            },
            on: { 'letter.open': openLetter },
          },
          shown: { on: { 'letter.open': openLetter } },
          failed: {
            on: {
              'letter.open': openLetter,
              'viewer.retry': { target: 'loading', actions: assign({ fileError: null }) },
            },
          },
        },
        on: {
          'order.switched': { target: '.empty', actions: assign({ opened: null, file: null, fileError: null }) },
        },
      },
      reading: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'letter.open': {
                guard: { type: 'isUnread', params: ({ event }) => ({ document: event.document }) },
                target: 'marking',
                actions: assign({ marking: ({ event }) => event.document }),
              },
            },
          },
          marking: {
            // Read at once on screen; the server is told behind.
            entry: { type: 'readChanged', params: ({ context }) => ({ documentId: context.marking!.id, read: true }) },
            invoke: {
              id: 'markRead',
              src: 'updateDocument',
              input: ({ context }) => ({ documentId: context.marking!.id, readFlag: true }),
              onDone: {
                target: 'next',
                actions: { type: 'readChanged', params: ({ event }) => ({ documentId: event.output.id, read: event.output.read }) },
              },
              onError: {
                target: 'next',
                actions: [
                  { type: 'readChanged', params: ({ context }) => ({ documentId: context.marking!.id, read: false }) },
                  { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: failureOf(READ_FAILED, event.error) }) },
                ],
              },
            },
            on: {
              'letter.open': {
                guard: { type: 'isUnread', params: ({ event }) => ({ document: event.document }) },
                actions: assign({
                  toMark: ({ context, event }) => [...context.toMark.filter((d) => d.id !== event.document.id), event.document],
                }),
              },
            },
          },
          next: {
            always: [
              {
                guard: 'hasMoreToMark',
                target: 'marking',
                actions: assign({ marking: ({ context }) => context.toMark[0]!, toMark: ({ context }) => context.toMark.slice(1) }),
              },
              { target: 'idle', actions: assign({ marking: null }) },
            ],
          },
        },
        on: { 'order.switched': { target: '.idle', actions: assign({ marking: null, toMark: [] }) } },
      },
      moving: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'letter.move': {
                target: 'saving',
                actions: assign({ move: ({ event }) => ({ document: event.document, folderId: event.folderId }) }),
              },
            },
          },
          saving: {
            tags: ['moving'],
            invoke: {
              id: 'move',
              src: 'updateDocument',
              input: ({ context }) => ({ documentId: context.move!.document.id, folderId: context.move!.folderId }),
              onDone: {
                target: 'idle',
                actions: [
                  { type: 'documentChanged', params: ({ event }) => ({ document: event.output }) },
                  {
                    type: 'notify',
                    params: ({ event }) => ({
                      kind: 'success' as const,
                      message: event.output.folderId === null ? MOVED_OUT : MOVED_TO_FOLDER,
                    }),
                  },
                  assign({ move: null }),
                ],
              },
              onError: [
                {
                  // The folder offered was deleted or changed in another tab: the select stops offering it.
                  guard: { type: 'isOutdated', params: ({ event }) => ({ error: event.error }) },
                  target: 'idle',
                  actions: [
                    { type: 'notify', params: ({ context, event }) => moveFailed(context, event.error) },
                    'foldersOutdated',
                    assign({ move: null }),
                  ],
                },
                {
                  target: 'idle',
                  actions: [{ type: 'notify', params: ({ context, event }) => moveFailed(context, event.error) }, assign({ move: null })],
                },
              ],
            },
          },
        },
        on: { 'order.switched': { target: '.idle', actions: assign({ move: null }) } },
      },
      sending: {
        initial: 'closed',
        states: {
          closed: {
            on: { 'send.open': { target: 'editing', actions: assign({ sendIds: ({ event }) => event.documentIds, sendError: null }) } },
          },
          editing: {
            tags: ['sendForm'],
            on: {
              'send.change': {
                actions: assign({
                  form: ({ context, event }) => ({
                    ...context.form,
                    ...event.form,
                    ...(event.form.message !== undefined ? { message: plainLineBreaks(event.form.message) } : {}),
                  }),
                  sendError: null,
                }),
              },
              'send.pick': { actions: assign({ sendIds: ({ event }) => event.documentIds, sendError: null }) },
              'send.submit': [{ guard: 'hasLetters', target: 'checking' }, { actions: assign({ sendError: SEND_NO_LETTER }) }],
              'send.close': { target: 'closed' },
            },
          },
          checking: {
            always: [
              { guard: 'hasEmail', target: 'submitting' },
              { target: 'editing', actions: assign({ sendError: SEND_BAD_EMAIL }) },
            ],
          },
          submitting: {
            tags: ['sendForm', 'busy'],
            invoke: {
              id: 'sendDocuments',
              src: 'sendDocuments',
              input: ({ context }) => ({
                email: context.form.email.trim(),
                ...(!isBlank(context.form.message) ? { message: context.form.message.trim() } : {}),
                documentIds: context.sendIds,
              }),
              onDone: {
                target: 'closed',
                actions: [
                  { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) },
                  // The recipient stays for the next time; the message was for these letters.
                  assign({ form: ({ context }) => ({ ...context.form, message: '' }), sendIds: [] }),
                ],
              },
              // Nothing typed is lost: the form stays open with its values.
              onError: { target: 'editing', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
