// The shell's flows (Kbis banner, problem report, missing documents, password screens) with their
// real effects: the calls, the toasts, and what they tell the portal.
import { fromPromise } from 'xstate'
import { identityUploadMachine } from '../machines/identityUpload.machine.ts'
import { kbisUploadMachine } from '../machines/kbisUpload.machine.ts'
import { problemReportMachine } from '../machines/problemReport.machine.ts'
import { codeOf } from '../machines/shared.ts'
import { PASSWORD_CHANGED, submissionMachine } from '../machines/submission.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'


/** A chosen file as a data URL (the Kbis is sent that way, spec §3). Read with `Blob.arrayBuffer()`, not a
 *  FileReader: one promise, no events (happy-dom's FileReader, on two nested timers, stalled under load in tests). */
export async function readAsDataUrl(file: Blob): Promise<string> {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await file.arrayBuffer())
  } catch {
    throw new Error('Le fichier n’a pas pu être lu. Choisissez-le à nouveau.')
  }
  // btoa takes a binary string; built in slices, as a spread of 10 MB of arguments would overflow the stack.
  let binary = ''
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return `data:${file.type || 'application/octet-stream'};base64,${btoa(binary)}`
}

export function createShellFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    kbisUpload: later(() => kbisUploadMachine.provide({
      // Not outlive.ts: the banner lives in the layout, not in a page, so moving between pages does not stop its upload.
      actors: {
        uploadKbis: fromPromise(async ({ input, signal }) => api.uploadKbis(input.contractId, await readAsDataUrl(input.file as unknown as Blob), { signal })),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        kbisFiled: (_, filed) => toPortal({ type: 'order.kbisFiled', ...filed }),
      },
    })),
    problemReport: later(() => problemReportMachine.provide({
      actors: { sendProblem: fromPromise(({ input, signal }) => api.sendProblem(input.orderId, { message: input.message }, { signal })) },
      actions: { notify: (_, notice) => notify(notice) },
    })),
    identityUpload: later(() => identityUploadMachine.provide({
      // Not outlive.ts: the documents go one after the other, and the next ones need the page to be sent.
      actors: {
        uploadOne: fromPromise(async ({ input, signal }) => {
          const form = new FormData()
          form.set('orderId', String(input.orderId))
          form.set(input.documentType, input.file as unknown as Blob, input.file.name)
          try {
            return await api.uploadIdentity(form, { signal })
          } catch (error) {
            // Complete already (an earlier answer lost on the way, another tab): not a failure. The date the file
            // was completed is the order's, as the server has it.
            if (codeOf(error) !== 'DOCUMENTS_COMPLETE') throw error
            const order = (await api.getMyOrders({ signal })).find((o) => o.id === input.orderId)
            if (!order?.missingDocumentsValidatedAt) throw error
            return { uploaded: [], complete: true, missingDocumentsValidatedAt: order.missingDocumentsValidatedAt }
          }
        }),
      },
      actions: {
        notify: (_, notice) => notify(notice),
        completed: (_, { reply, orderId }) => toPortal({ type: 'documents.completed', orderId, missingDocumentsValidatedAt: reply.missingDocumentsValidatedAt }),
      },
    })),
    passwordResetRequest: later(() => submissionMachine.provide({
      actors: { submit: fromPromise(({ input, signal }) => api.requestPasswordReset({ email: input.email!, domain: input.domain! }, { signal })) },
    })),
    passwordReset: later(() => submissionMachine.provide({
      actors: { submit: fromPromise(({ input, signal }) => api.resetPassword({ token: input.token!, password: input.password! }, { signal })) },
      actions: {
        // The server's words: a reset also removes the account's passkeys, and its reply says so when there were some.
        succeeded: (_, { reply }) => {
          const said = (reply as { message?: unknown } | undefined)?.message
          notify({ kind: 'success', message: typeof said === 'string' && said ? said : PASSWORD_CHANGED })
          navigate('/login')
        },
      },
    })),
  }
}
