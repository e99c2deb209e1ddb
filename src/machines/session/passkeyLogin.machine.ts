// "Se connecter avec une clé d'accès" on /login: the server's challenge, the browser's authenticator,
// the server's check, as one effect; a signed-in user is handed to the session. An unknown or
// cancelled passkey leaves the visitor on /login with a French message (the password form stays).
import { assign, fromPromise, setup } from 'xstate'
import type { AuthUser } from '../../../server/contract/session.ts'
import { messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const passkeyLoginMachine = deferred(() =>
  setup({
    types: {
      context: {} as { error: string | null },
      events: {} as { type: 'passkey.login' },
    },
    actors: {
      signIn: fromPromise<AuthUser>(async () => {
        throw new Error('passkeyLogin: signIn is not provided')
      }),
    },
    actions: {
      /** Hands the signed-in user to the session (provided by the wiring). */
      signedIn: (_, _params: { user: AuthUser }) => {},
    },
  }).createMachine({
    id: 'passkeyLogin',
    context: { error: null },
    initial: 'idle',
    states: {
      idle: {
        on: { 'passkey.login': { target: 'signingIn', actions: assign({ error: null }) } },
      },
      signingIn: {
        tags: ['busy'],
        invoke: {
          id: 'signIn',
          src: 'signIn',
          onDone: { target: 'signedIn', actions: { type: 'signedIn', params: ({ event }) => ({ user: event.output }) } },
          onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      signedIn: { type: 'final' },
    },
  }),
)
