// The flows the screens start themselves, with their real effects provided. Loaded lazily by the
// first screen that needs one, so that none of this weighs on the first load of /login.
import { fromPromise } from 'xstate'
import { requestPasswordReset, resetPassword } from './api/account.ts'
import { uploadIdentity, uploadKbis } from './api/contracts.ts'
import { sendProblem } from './api/orders.ts'
import { readAsDataUrl } from './effects.ts'
import { identityUploadMachine } from './machines/identityUpload.machine.ts'
import { kbisUploadMachine } from './machines/kbisUpload.machine.ts'
import { problemReportMachine } from './machines/problemReport.machine.ts'
import { submissionMachine } from './machines/submission.machine.ts'
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
  }
}
