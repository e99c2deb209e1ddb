// Signing in to the back office (/operateur/connexion), always in two steps: the e-mail and password answer a ticket
// valid 5 minutes (never a session), then the 6-digit code of the authenticator app, or one of the operator's passkeys
// (« Utiliser une clé d’accès »: the browser's prompt and the server's check in one actor), answers the session. A wrong
// code, a code already used, a key refused or its prompt cancelled, or too many tries keep the code step; a ticket
// expired (or used up) goes back to the password with the server's reason. The password is never kept: it goes from the event to the call.
import { assign, fromPromise, setup } from 'xstate'
import { codeOf, isServiceFailure, messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'
import type { OperatorSession } from './operatorSession.machine.ts'

export type SignInEvent =
  | { type: 'signIn.password'; email: string; password: string }
  | { type: 'signIn.code'; code: string }
  // « Utiliser une clé d’accès »: the second factor by a passkey instead of the code.
  | { type: 'signIn.passkey' }
  // « Changer d’adresse » on the code step: back to the first step.
  | { type: 'signIn.restart' }

/** The server's code for a ticket that no longer opens the code step (expired, or spent by too many wrong codes). */
export const TICKET_EXPIRED_CODE = 'SIGN_IN_EXPIRED'

export const signInMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        email: string
        ticket: string | null
        error: string | null
        /** The last failure was the service's (unreachable, 5xx, 429): the same step can be tried again as it is. */
        unavailable: boolean
      },
      events: {} as SignInEvent,
    },
    actors: {
      checkPassword: fromPromise<{ ticket: string }, { email: string; password: string }>(async () => {
        throw new Error('signIn: checkPassword is not provided')
      }),
      checkCode: fromPromise<OperatorSession, { ticket: string; code: string }>(async () => {
        throw new Error('signIn: checkCode is not provided')
      }),
      /** The browser's passkey prompt for the ticket's operator, then the server's check of its answer. */
      checkPasskey: fromPromise<OperatorSession, { ticket: string }>(async () => {
        throw new Error('signIn: checkPasskey is not provided')
      }),
    },
    actions: {
      /** The session opened: handed to the session actor (provided by the wiring). */
      signedIn: (_, _params: { session: OperatorSession }) => {},
    },
    guards: {
      ticketExpired: (_, params: { error: unknown }) => codeOf(params.error) === TICKET_EXPIRED_CODE,
    },
  }).createMachine({
    id: 'signIn',
    context: { email: '', ticket: null, error: null, unavailable: false },
    initial: 'password',
    states: {
      password: {
        on: {
          'signIn.password': {
            target: 'checkingPassword',
            actions: assign({ email: ({ event }) => event.email, error: null, unavailable: false }),
          },
        },
      },
      checkingPassword: {
        tags: ['busy'],
        invoke: {
          id: 'checkPassword',
          src: 'checkPassword',
          input: ({ event }) => {
            const { email, password } = event as Extract<SignInEvent, { type: 'signIn.password' }>
            return { email, password }
          },
          onDone: { target: 'code', actions: assign({ ticket: ({ event }) => event.output.ticket }) },
          onError: {
            target: 'password',
            actions: assign({ error: ({ event }) => messageOf(event.error), unavailable: ({ event }) => isServiceFailure(event.error) }),
          },
        },
      },
      code: {
        on: {
          'signIn.code': { target: 'checkingCode', actions: assign({ error: null, unavailable: false }) },
          'signIn.passkey': { target: 'checkingPasskey', actions: assign({ error: null, unavailable: false }) },
          'signIn.restart': { target: 'password', actions: assign({ ticket: null, error: null, unavailable: false }) },
        },
      },
      checkingCode: {
        tags: ['busy'],
        invoke: {
          id: 'checkCode',
          src: 'checkCode',
          input: ({ context, event }) => ({ ticket: context.ticket!, code: (event as Extract<SignInEvent, { type: 'signIn.code' }>).code }),
          onDone: { target: 'signedIn', actions: { type: 'signedIn', params: ({ event }) => ({ session: event.output }) } },
          onError: [
            {
              guard: { type: 'ticketExpired', params: ({ event }) => ({ error: event.error }) },
              target: 'password',
              actions: assign({ ticket: null, error: ({ event }) => messageOf(event.error), unavailable: false }),
            },
            {
              target: 'code',
              actions: assign({ error: ({ event }) => messageOf(event.error), unavailable: ({ event }) => isServiceFailure(event.error) }),
            },
          ],
        },
      },
      checkingPasskey: {
        tags: ['busy'],
        invoke: {
          id: 'checkPasskey',
          src: 'checkPasskey',
          input: ({ context }) => ({ ticket: context.ticket! }),
          onDone: { target: 'signedIn', actions: { type: 'signedIn', params: ({ event }) => ({ session: event.output }) } },
          onError: [
            {
              guard: { type: 'ticketExpired', params: ({ event }) => ({ error: event.error }) },
              target: 'password',
              actions: assign({ ticket: null, error: ({ event }) => messageOf(event.error), unavailable: false }),
            },
            {
              target: 'code',
              actions: assign({ error: ({ event }) => messageOf(event.error), unavailable: ({ event }) => isServiceFailure(event.error) }),
            },
          ],
        },
      },
      signedIn: { type: 'final' },
    },
  }),
)
