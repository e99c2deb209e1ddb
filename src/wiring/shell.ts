// The shell's flows (missing documents, password screens) with their real effects: the calls, the toasts, and what
// they tell the portal. The layout's own (Kbis banner, problem report) are the dashboard's (dashboard.ts).
import { fromPromise } from 'xstate'
import { identityUploadMachine } from '../machines/company/identityUpload.machine.ts'
import { codeOf } from '../machines/shared.ts'
import { PASSWORD_CHANGED, submissionMachine } from '../machines/session/submission.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'

export function createShellFlows({ api, notify, navigate, toPortal }: WiringDeps) {
  return {
    identityUpload: later(() =>
      identityUploadMachine.provide({
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
          completed: (_, { reply, orderId }) =>
            toPortal({ type: 'documents.completed', orderId, missingDocumentsValidatedAt: reply.missingDocumentsValidatedAt }),
        },
      }),
    ),
    passwordResetRequest: later(() =>
      submissionMachine.provide({
        actors: {
          submit: fromPromise(({ input, signal }) => api.requestPasswordReset({ email: input.email!, domain: input.domain! }, { signal })),
        },
      }),
    ),
    passwordReset: later(() =>
      submissionMachine.provide({
        actors: {
          submit: fromPromise(({ input, signal }) => api.resetPassword({ token: input.token!, password: input.password! }, { signal })),
        },
        actions: {
          // The server's words: a reset also removes the account's passkeys, and its reply says so when there were some.
          succeeded: (_, { reply }) => {
            const said = (reply as { message?: unknown } | undefined)?.message
            notify({ kind: 'success', message: typeof said === 'string' && said ? said : PASSWORD_CHANGED })
            navigate('/login')
          },
        },
      }),
    ),
  }
}
