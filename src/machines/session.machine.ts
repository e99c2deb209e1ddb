// The session (spec §4): login keeps the returned user object (with its apiToken) in the browser;
// logout, or a failed current-user fetch, removes it silently. While signed in, the session runs
// the startup machine as its child `startup`, so that signing out stops everything it started.
import { assign, fromPromise, setup } from 'xstate'
import type { AuthUser, LoginBody } from '../../server/contract/schemas.ts'
import { messageOf } from './shared.ts'
import { type StoredChoice, startupMachine } from './startup.machine.ts'

export interface SessionContext {
  user: AuthUser | null
  /** The default order kept from an earlier visit, handed to the startup sequence once. */
  storedChoice: StoredChoice | null
  error: string | null
}

export type SessionEvent =
  | { type: 'session.login'; username: string; password: string }
  | { type: 'session.logout' }
  | { type: 'session.expired' }

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as { storedUser: AuthUser | null; storedChoice: StoredChoice | null },
    events: {} as SessionEvent,
  },
  actors: {
    login: fromPromise<AuthUser, LoginBody>(async () => {
      throw new Error('session: login is not provided')
    }),
    startup: startupMachine,
  },
  actions: {
    /** Writes the user object under the storage key (provided by the composition root). */
    persistUser: (_, _params: { user: AuthUser }) => {},
    /** Removes the stored user and default order (provided by the composition root). */
    removeUser: () => {},
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ user: input.storedUser, storedChoice: input.storedChoice, error: null }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasUser', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      on: { 'session.login': { target: 'signingIn', actions: assign({ error: null }) } },
    },
    signingIn: {
      tags: ['loading'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => (event.type === 'session.login' ? { username: event.username, password: event.password } : { username: '', password: '' }),
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ user: ({ event }) => event.output, storedChoice: null }),
            { type: 'persistUser', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        onError: { target: 'signedOut', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    signedIn: {
      invoke: {
        id: 'startup',
        src: 'startup',
        input: ({ context }) => ({ storedChoice: context.storedChoice }),
        // The startup machine only ends when the current-user fetch failed.
        onDone: { target: 'signedOut', actions: ['removeUser', assign({ user: null, storedChoice: null })] },
      },
      on: {
        'session.logout': { target: 'signedOut', actions: ['removeUser', assign({ user: null, storedChoice: null })] },
        'session.expired': { target: 'signedOut', actions: ['removeUser', assign({ user: null, storedChoice: null })] },
      },
    },
  },
})
