// The flows the screens start themselves, with their real effects provided. Loaded lazily by the
// first screen that needs one, so that none of this weighs on the first load of /login.
import { fromPromise } from 'xstate'
import { getUnpaidStatus, payUnpaidInvoice, requestPasswordReset, resetPassword } from './api/account.ts'
import { uploadIdentity, uploadKbis } from './api/contracts.ts'
import { sendDextInvoices } from './api/invoices.ts'
import { createFolder, deleteFolder, getDocumentFile, removeCourierRequest, sendDocuments, updateDocument, updateFolder } from './api/mail.ts'
import { sendProblem } from './api/orders.ts'
import { readAsDataUrl, readDextEmail, writeDextEmail } from './effects.ts'
import { accountingExportMachine } from './machines/accountingExport.machine.ts'
import { courierRequestCancelMachine } from './machines/courierRequestCancel.machine.ts'
import { folderEditorMachine } from './machines/folderEditor.machine.ts'
import { identityUploadMachine } from './machines/identityUpload.machine.ts'
import { kbisUploadMachine } from './machines/kbisUpload.machine.ts'
import { mailboxMachine } from './machines/mailbox.machine.ts'
import { problemReportMachine } from './machines/problemReport.machine.ts'
import { submissionMachine } from './machines/submission.machine.ts'
import { unpaidInvoicesMachine } from './machines/unpaidInvoices.machine.ts'
import type { Flows } from './views/app-context.tsx'

export function createFlows(): Flows {
  return {
    kbisUpload: kbisUploadMachine.provide({
      actors: {
        uploadKbis: fromPromise(async ({ input, signal }) => uploadKbis(input.contractId, await readAsDataUrl(input.file as unknown as Blob), { signal })),
      },
    }),
    problemReport: problemReportMachine.provide({
      actors: { sendProblem: fromPromise(({ input, signal }) => sendProblem(input.orderId, { message: input.message }, { signal })) },
    }),
    identityUpload: identityUploadMachine.provide({
      actors: {
        uploadOne: fromPromise(({ input, signal }) => {
          const form = new FormData()
          form.set('orderId', String(input.orderId))
          form.set(input.documentType, input.file as unknown as Blob, input.file.name)
          return uploadIdentity(form, { signal })
        }),
      },
    }),
    passwordResetRequest: submissionMachine.provide({
      actors: { submit: fromPromise(({ input, signal }) => requestPasswordReset({ email: input.email!, domain: input.domain! }, { signal })) },
    }),
    passwordReset: submissionMachine.provide({
      actors: { submit: fromPromise(({ input, signal }) => resetPassword({ token: input.token!, password: input.password! }, { signal })) },
    }),
    mailbox: mailboxMachine.provide({
      actors: {
        loadFile: fromPromise(({ input, signal }) => getDocumentFile(input.documentId, { signal })),
        updateDocument: fromPromise(({ input: { documentId, ...body }, signal }) => updateDocument(documentId, body, { signal })),
        sendDocuments: fromPromise(({ input, signal }) => sendDocuments(input, { signal })),
      },
    }),
    folderEditor: folderEditorMachine.provide({
      actors: {
        saveFolder: fromPromise(({ input, signal }) => ('folderId' in input
          ? updateFolder(input.folderId, { name: input.name }, { signal })
          : createFolder({ name: input.name, domiciliationOrderId: input.orderId }, { signal }))),
        deleteFolder: fromPromise(({ input, signal }) => deleteFolder(input.folderId, { signal })),
      },
    }),
    accountingExport: accountingExportMachine.provide({
      actors: { sendDext: fromPromise(({ input, signal }) => sendDextInvoices(input, { signal })) },
      actions: { rememberEmail: (_, { email }) => writeDextEmail(email) },
    }),
    courierRequestCancel: courierRequestCancelMachine.provide({
      actors: { removeRequest: fromPromise(({ input, signal }) => removeCourierRequest(input, { signal })) },
    }),
    unpaidInvoices: unpaidInvoicesMachine.provide({
      actors: {
        fetchStatus: fromPromise(({ signal }) => getUnpaidStatus({ signal })),
        pay: fromPromise(({ input, signal }) => payUnpaidInvoice(input.orderId === null ? {} : { orderId: input.orderId }, { signal })),
      },
    }),
    readDextEmail,
  }
}
