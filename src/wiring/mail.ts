// The mail area's flows (letters, folders, accounting export, forwarding requests) with their real
// effects: the calls, the toasts, the remembered address, and what they tell the portal.
import { fromPromise } from 'xstate'
import { accountingExportMachine } from '../machines/mail/accountingExport.machine.ts'
import { courierRequestCancelMachine, REQUEST_CANCELLED, REQUEST_NOT_CANCELLED } from '../machines/mail/courierRequestCancel.machine.ts'
import {
  FOLDER_CREATED,
  FOLDER_DELETED,
  FOLDER_NOT_CREATED,
  FOLDER_NOT_DELETED,
  FOLDER_NOT_RENAMED,
  FOLDER_RENAMED,
  folderEditorMachine,
} from '../machines/mail/folderEditor.machine.ts'
import { letterPagesMachine } from '../machines/mail/letterPages.machine.ts'
import { letterSearchMachine, SEARCH_DEBOUNCE_MS } from '../machines/mail/letterSearch.machine.ts'
import {
  LETTERS_PATH,
  mailboxMachine,
  MOVE_FAILED,
  MOVE_OUT_FAILED,
  MOVED_OUT,
  MOVED_TO_FOLDER,
  SEND_FAILED,
} from '../machines/mail/mailbox.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { outlive, success } from './outlive.ts'
import { pause } from './pause.ts'
import { readDextEmail, writeDextEmail } from './storage.ts'

export function createMailFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    mailbox: later(() =>
      mailboxMachine.provide({
        actors: {
          loadFile: fromPromise(({ input, signal }) => api.getDocumentFile(input.documentId, { signal })),
          // The writes go on when the page is left before the answer (their signal is not passed: outlive.ts).
          updateDocument: fromPromise(({ input: { documentId, ...body }, signal }) => {
            const update = api.updateDocument(documentId, body)
            // A read mark (opening a letter): no toast either way, the customer asked for nothing; the list is only kept
            // true (read, or put back unread: the page showed it read at once).
            if (!('folderId' in body)) {
              return outlive(update, signal, {
                notify,
                done: () => null,
                failed: null,
                after: (document) => toPortal({ type: 'document.read', documentId: document.id, read: document.read }),
                afterFailure: () => toPortal({ type: 'document.read', documentId, read: false }),
              })
            }
            return outlive(update, signal, {
              notify,
              done: (document) => success(document.folderId === null ? MOVED_OUT : MOVED_TO_FOLDER),
              failed: body.folderId === null ? MOVE_OUT_FAILED : MOVE_FAILED,
              after: (document) => toPortal({ type: 'document.changed', document }),
            })
          }),
          sendDocuments: fromPromise(({ input, signal }) =>
            outlive(api.sendDocuments(input), signal, { notify, done: (reply) => success(reply.message), failed: SEND_FAILED }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          documentChanged: (_, { document }) => toPortal({ type: 'document.changed', document }),
          readChanged: (_, { documentId, read }) => toPortal({ type: 'document.read', documentId, read }),
          selectOrder: (_, { orderId }) => toPortal({ type: 'order.select', orderId }),
          selectDocument: (_, { documentId }) => toPortal({ type: 'document.select', documentId }),
          // The e-mail's link is followed once: a reload does not follow it again.
          forgetLink: () => navigate(LETTERS_PATH, { replace: true }),
          foldersOutdated: () => toPortal({ type: 'data.refresh', resource: 'folders' }),
        },
      }),
    ),
    folderEditor: later(() =>
      folderEditorMachine.provide({
        actors: {
          saveFolder: fromPromise(({ input, signal }) => {
            const renaming = 'folderId' in input
            return outlive(
              renaming
                ? api.updateFolder(input.folderId, { name: input.name })
                : api.createFolder({ name: input.name, domiciliationOrderId: input.orderId }),
              signal,
              {
                notify,
                done: () => success(renaming ? FOLDER_RENAMED : FOLDER_CREATED),
                failed: renaming ? FOLDER_NOT_RENAMED : FOLDER_NOT_CREATED,
                after: (folder) => toPortal({ type: 'folder.saved', folder }),
              },
            )
          }),
          deleteFolder: fromPromise(({ input, signal }) =>
            outlive(api.deleteFolder(input.folderId), signal, {
              notify,
              done: () => success(FOLDER_DELETED),
              failed: FOLDER_NOT_DELETED,
              after: () => toPortal({ type: 'folder.removed', folderId: input.folderId }),
            }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          folderSaved: (_, { folder }) => toPortal({ type: 'folder.saved', folder }),
          folderRemoved: (_, { folderId }) => toPortal({ type: 'folder.removed', folderId }),
          listOutdated: () => toPortal({ type: 'data.refresh', resource: 'folders' }),
        },
      }),
    ),
    accountingExport: later(() =>
      accountingExportMachine.provide({
        actors: { sendDext: fromPromise(({ input, signal }) => api.sendDextInvoices(input, { signal })) },
        actions: { rememberEmail: (_, { email }) => writeDextEmail(email) },
      }),
    ),
    courierRequestCancel: later(() =>
      courierRequestCancelMachine.provide({
        actors: {
          removeRequest: fromPromise(({ input, signal }) =>
            outlive(api.removeCourierRequest(input), signal, {
              notify,
              done: () => success(REQUEST_CANCELLED),
              failed: REQUEST_NOT_CANCELLED,
              after: () => toPortal({ type: 'courierRequest.removed', id: input.id }),
            }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          removed: (_, { id }) => toPortal({ type: 'courierRequest.removed', id }),
          listOutdated: () => toPortal({ type: 'data.refresh', resource: 'courierRequests' }),
        },
      }),
    ),
    /** The accounting inbox address kept from the last export, or null. */
    readDextEmail: () => readDextEmail(),
    // mail beyond the peers
    letterSearch: later(() =>
      letterSearchMachine.provide({
        actors: {
          pause: fromPromise(({ signal }) => pause(SEARCH_DEBOUNCE_MS, signal)),
          searchLetters: fromPromise(
            async ({ input: { q, orderId }, signal }) =>
              (await api.searchDocuments(orderId === null ? { q } : { q, orderId }, { signal })).results,
          ),
        },
      }),
    ),
    letterPages: later(() =>
      letterPagesMachine.provide({
        actors: {
          loadPage: fromPromise(({ input, signal }) => api.getDocumentPage(input.documentId, input.page, { signal })),
          pause: fromPromise(({ input, signal }) => pause(input.ms, signal)),
        },
      }),
    ),
    /** Whether this browser draws a PDF inside a page; where it does not (Android), letters show as page images. */
    pdfViewerEnabled: () => typeof navigator === 'undefined' || navigator.pdfViewerEnabled !== false,
  }
}
