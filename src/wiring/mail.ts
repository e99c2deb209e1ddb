// The mail area's flows (letters, folders, accounting export, forwarding requests) with their real
// effects: the calls, the toasts, the remembered address, and what they tell the portal.
import { fromPromise } from 'xstate'
import { accountingExportMachine } from '../machines/accountingExport.machine.ts'
import { courierRequestCancelMachine } from '../machines/courierRequestCancel.machine.ts'
import { folderEditorMachine } from '../machines/folderEditor.machine.ts'
import { LETTERS_PATH, mailboxMachine } from '../machines/mailbox.machine.ts'
import type { WiringDeps } from './deps.ts'
import { readDextEmail, writeDextEmail } from './storage.ts'

export function createMailFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    mailbox: mailboxMachine.provide({
      actors: {
        loadFile: fromPromise(({ input, signal }) => api.getDocumentFile(input.documentId, { signal })),
        updateDocument: fromPromise(({ input: { documentId, ...body }, signal }) => api.updateDocument(documentId, body, { signal })),
        sendDocuments: fromPromise(({ input, signal }) => api.sendDocuments(input, { signal })),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        documentChanged: (_, { document }) => toPortal({ type: 'document.changed', document }),
        selectOrder: (_, { orderId }) => toPortal({ type: 'order.select', orderId }),
        selectDocument: (_, { documentId }) => toPortal({ type: 'document.select', documentId }),
        // The e-mail's link is followed once: a reload does not follow it again.
        forgetLink: () => navigate(LETTERS_PATH, { replace: true }),
      },
    }),
    folderEditor: folderEditorMachine.provide({
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
      },
    }),
    accountingExport: accountingExportMachine.provide({
      actors: { sendDext: fromPromise(({ input, signal }) => api.sendDextInvoices(input, { signal })) },
      actions: { rememberEmail: (_, { email }) => writeDextEmail(email) },
    }),
    courierRequestCancel: courierRequestCancelMachine.provide({
      actors: { removeRequest: fromPromise(({ input, signal }) => api.removeCourierRequest(input, { signal })) },
      actions: {
        notify: (_, notice) => notify(notice),
        removed: (_, { id }) => toPortal({ type: 'courierRequest.removed', id }),
      },
    }),
    /** The accounting inbox address kept from the last export, or null. */
    readDextEmail: () => readDextEmail(),
  }
}
