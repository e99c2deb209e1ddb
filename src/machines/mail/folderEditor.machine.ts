// Folder editing (/mes-courriers/mes-dossiers): create a folder for an order, rename one, delete one
// after a confirmation (its letters stay, unfiled). A failure keeps the form and what was typed and
// says why; every change is reported (`folderSaved`, `folderRemoved`) for portalData to apply. A
// refusal that says the list shown is out of date (404: the folder is gone; 409: a folder of that
// name exists) also has the portal read the folders again (`listOutdated`).
import { assign, fromPromise, setup } from 'xstate'
import type { Folder } from '../../../server/contract/mail.ts'
import { isOutdatedList, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, singleLineProblem } from '../../../server/contract/rules/text.ts'

export const FOLDER_NAME_EMPTY = 'Donnez un nom au dossier.'
export const FOLDER_NAME_TOO_LONG = 'Le nom du dossier ne peut pas dépasser 80 caractères.'
export const FOLDER_NO_ORDER = 'Choisissez la domiciliation à laquelle ce dossier appartient.'
export const FOLDER_CREATED = 'Le dossier a été créé.'
export const FOLDER_RENAMED = 'Le dossier a été renommé.'
export const FOLDER_DELETED = 'Le dossier a été supprimé ; ses courriers restent dans la liste, sans dossier.'
// What did not happen, told once the page was left (the page itself shows the server's reason in its form).
export const FOLDER_NOT_CREATED = 'Le dossier n’a pas été créé.'
export const FOLDER_NOT_RENAMED = 'Le dossier n’a pas été renommé.'
export const FOLDER_NOT_DELETED = 'Le dossier n’a pas été supprimé.'

export interface FolderDraft {
  name: string
  /** The order a new folder belongs to (null until chosen, with 'Tous'). */
  orderId: number | null
}

export interface FolderEditorContext {
  /** The folder being renamed or deleted; null while creating. */
  folder: Folder | null
  draft: FolderDraft
  error: string | null
}

export type SaveFolderInput = { folderId: number; name: string } | { orderId: number; name: string }

export type FolderEditorEvent =
  | { type: 'folder.new'; orderId: number | null }
  | { type: 'folder.edit'; folder: Folder }
  | { type: 'folder.change'; draft: Partial<FolderDraft> }
  | { type: 'folder.submit' }
  | { type: 'folder.remove'; folder: Folder }
  | { type: 'folder.confirm' }
  | { type: 'folder.cancel' }

/** The text rule first, as the server's schema checks it before the handler checks for a blank name. */
const nameProblem = (name: string) =>
  singleLineProblem(name) ?? (isBlank(name) ? FOLDER_NAME_EMPTY : [...name.trim()].length > 80 ? FOLDER_NAME_TOO_LONG : null)

export const folderEditorMachine = deferred(() =>
  setup({
    types: {
      context: {} as FolderEditorContext,
      events: {} as FolderEditorEvent,
    },
    actors: {
      /** POST folders (a new one) or PUT folders/{id} (a new name). */
      saveFolder: fromPromise<Folder, SaveFolderInput>(async () => {
        throw new Error('folderEditor: saveFolder is not provided')
      }),
      deleteFolder: fromPromise<unknown, { folderId: number }>(async () => {
        throw new Error('folderEditor: deleteFolder is not provided')
      }),
    },
    actions: {
      folderSaved: (_, _params: { folder: Folder }) => {},
      folderRemoved: (_, _params: { folderId: number }) => {},
      notify: (_, _params: Notice) => {},
      /** The folders as the server has them differ from those shown: the portal reads them again. */
      listOutdated: () => {},
    },
    guards: {
      badName: ({ context }) => nameProblem(context.draft.name) !== null,
      needsOrder: ({ context }) => context.folder === null && context.draft.orderId === null,
      isUnchanged: ({ context }) => context.folder !== null && context.draft.name.trim() === context.folder.name,
      isOutdated: (_, params: { error: unknown }) => isOutdatedList(params.error),
    },
  }).createMachine({
    id: 'folderEditor',
    context: { folder: null, draft: { name: '', orderId: null }, error: null },
    initial: 'idle',
    states: {
      idle: {
        on: {
          'folder.new': {
            target: 'editing',
            actions: assign({ folder: null, draft: ({ event }) => ({ name: '', orderId: event.orderId }), error: null }),
          },
          'folder.edit': {
            target: 'editing',
            actions: assign({
              folder: ({ event }) => event.folder,
              draft: ({ event }) => ({ name: event.folder.name, orderId: event.folder.domiciliationOrderId }),
              error: null,
            }),
          },
          'folder.remove': { target: 'confirmingDelete', actions: assign({ folder: ({ event }) => event.folder, error: null }) },
        },
      },
      editing: {
        tags: ['form'],
        on: {
          'folder.change': { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.draft }), error: null }) },
          'folder.submit': [
            { guard: 'badName', actions: assign({ error: ({ context }) => nameProblem(context.draft.name) }) },
            { guard: 'needsOrder', actions: assign({ error: FOLDER_NO_ORDER }) },
            // The same name: nothing to ask the server.
            { guard: 'isUnchanged', target: 'idle' },
            { target: 'saving' },
          ],
          'folder.cancel': { target: 'idle' },
        },
      },
      saving: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'saveFolder',
          src: 'saveFolder',
          input: ({ context }) =>
            context.folder
              ? { folderId: context.folder.id, name: context.draft.name.trim() }
              : { orderId: context.draft.orderId!, name: context.draft.name.trim() },
          onDone: {
            target: 'idle',
            actions: [
              { type: 'folderSaved', params: ({ event }) => ({ folder: event.output }) },
              {
                type: 'notify',
                params: ({ context }) => ({ kind: 'success' as const, message: context.folder ? FOLDER_RENAMED : FOLDER_CREATED }),
              },
            ],
          },
          onError: [
            {
              guard: { type: 'isOutdated', params: ({ event }) => ({ error: event.error }) },
              target: 'editing',
              actions: [assign({ error: ({ event }) => messageOf(event.error) }), 'listOutdated'],
            },
            { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      confirmingDelete: {
        tags: ['confirm'],
        on: {
          'folder.confirm': { target: 'deleting' },
          'folder.cancel': { target: 'idle' },
        },
      },
      deleting: {
        tags: ['confirm', 'busy'],
        invoke: {
          id: 'deleteFolder',
          src: 'deleteFolder',
          input: ({ context }) => ({ folderId: context.folder!.id }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'folderRemoved', params: ({ context }) => ({ folderId: context.folder!.id }) },
              { type: 'notify', params: { kind: 'success', message: FOLDER_DELETED } },
            ],
          },
          onError: [
            {
              guard: { type: 'isOutdated', params: ({ event }) => ({ error: event.error }) },
              target: 'confirmingDelete',
              actions: [assign({ error: ({ event }) => messageOf(event.error) }), 'listOutdated'],
            },
            { target: 'confirmingDelete', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
    },
  }),
)
