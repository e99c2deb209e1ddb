// The mail area's flows (letters, folders, accounting export, forwarding requests) with their real
// effects: the calls, the toasts, the remembered address, and what they tell the portal.
import { fromPromise } from 'xstate'
import { accountingExportMachine } from '../machines/accountingExport.machine.ts'
import { courierRequestCancelMachine } from '../machines/courierRequestCancel.machine.ts'
import { folderEditorMachine } from '../machines/folderEditor.machine.ts'
import { letterDeadlinesMachine } from '../machines/letterDeadlines.machine.ts'
import { letterPagesMachine } from '../machines/letterPages.machine.ts'
import { letterSearchMachine, SEARCH_DEBOUNCE_MS } from '../machines/letterSearch.machine.ts'
import { LETTERS_PATH, mailboxMachine } from '../machines/mailbox.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { pause } from './pause.ts'
import { readDextEmail, readStoredUser, writeDextEmail } from './storage.ts'


export function createMailFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    mailbox: later(() => mailboxMachine.provide({
      actors: {
        loadFile: fromPromise(({ input, signal }) => api.getDocumentFile(input.documentId, { signal })),
        updateDocument: fromPromise(({ input: { documentId, ...body }, signal }) => api.updateDocument(documentId, body, { signal })),
        // The e-mail goes even if the page is left before the answer (its signal is not passed: the call is not aborted);
        // the page gone, left-behind.ts tells how it ended, to the same person only (not after a sign-out, nor to another).
        sendDocuments: fromPromise(({ input, signal }) => {
          const sending = api.sendDocuments(input)
          const token = readStoredUser()?.apiToken
          void import('./left-behind.ts').then((m) => m.tellIfLeft(sending, signal, token, notify))
          return sending
        }),
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
    })),
    folderEditor: later(() => folderEditorMachine.provide({
      actors: {
        saveFolder: fromPromise(({ input, signal }) => ('folderId' in input
          ? api.updateFolder(input.folderId, { name: input.name }, { signal })
          : api.createFolder({ name: input.name, domiciliationOrderId: input.orderId }, { signal }))),
        deleteFolder: fromPromise(({ input, signal }) => api.deleteFolder(input.folderId, { signal })),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        folderSaved: (_, { folder }) => toPortal({ type: 'folder.saved', folder }),
        folderRemoved: (_, { folderId }) => toPortal({ type: 'folder.removed', folderId }),
        listOutdated: () => toPortal({ type: 'data.refresh', resource: 'folders' }),
      },
    })),
    accountingExport: later(() => accountingExportMachine.provide({
      actors: { sendDext: fromPromise(({ input, signal }) => api.sendDextInvoices(input, { signal })) },
      actions: { rememberEmail: (_, { email }) => writeDextEmail(email) },
    })),
    courierRequestCancel: later(() => courierRequestCancelMachine.provide({
      actors: { removeRequest: fromPromise(({ input, signal }) => api.removeCourierRequest(input, { signal })) },
      actions: {
        notify: (_, notice) => notify(notice),
        removed: (_, { id }) => toPortal({ type: 'courierRequest.removed', id }),
        listOutdated: () => toPortal({ type: 'data.refresh', resource: 'courierRequests' }),
      },
    })),
    /** The accounting inbox address kept from the last export, or null. */
    readDextEmail: () => readDextEmail(),
    // mail beyond the peers (issue 14)
    letterSearch: later(() => letterSearchMachine.provide({
      actors: {
        pause: fromPromise(({ signal }) => pause(SEARCH_DEBOUNCE_MS, signal)),
        searchLetters: fromPromise(async ({ input: { q, orderId }, signal }) =>
          (await api.searchDocuments(orderId === null ? { q } : { q, orderId }, { signal })).results),
      },
    })),
    letterPages: later(() => letterPagesMachine.provide({
      actors: { loadPage: fromPromise(({ input, signal }) => api.getDocumentPage(input.documentId, input.page, { signal })) },
    })),
    letterDeadlines: later(() => letterDeadlinesMachine.provide({
      actors: {
        loadDeadlines: fromPromise(async ({ input: { orderId }, signal }) =>
          (await api.getLetterDeadlines(orderId === null ? {} : { orderId }, { signal })).deadlines),
      },
    })),
    /** Whether this browser draws a PDF inside a page; where it does not (Android), letters show as page images. */
    pdfViewerEnabled: () => typeof navigator === 'undefined' || navigator.pdfViewerEnabled !== false,
  }
}
