// The session area's flows that the signed-out pages start (a forgotten password, a new password) with their real
// effects: the call, the toast, the way back to /login. The session actor itself is in session-actor.ts.
import { fromPromise } from 'xstate'
import { PASSWORD_CHANGED, submissionMachine } from '../machines/session/submission.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'

export function createSessionFlows({ api, notify, navigate }: WiringDeps) {
  return {
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
