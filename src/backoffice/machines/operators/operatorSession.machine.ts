// The operator's session in the back office: kept in the browser under its own key (never the customers'), checked
// against the server when the page opens (GET /api/backoffice/me: the roles may have changed, the session may have
// ended), ended by « Se déconnecter » (which ends it on the server too) or by any call answered 401 (30 minutes idle, a
// deactivation, a sign-out in another tab): the sign-in page then says why and leads back to the page left.
import { assign, fromPromise, setup } from 'xstate'
import type { OperatorMe } from '../../../../server/contract/operators.ts'
import { isServiceFailure, messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

/** What the browser keeps of a session: the token and who it is. */
export interface OperatorSession {
  token: string
  operator: OperatorMe
}

export type OperatorSessionEvent =
  | { type: 'session.signedIn'; session: OperatorSession }
  | { type: 'session.signOut' }
  // A call with the session answered 401; `path`: the page shown then, to come back to.
  | { type: 'session.expired'; path?: string }
  | { type: 'session.retry' }

export const SESSION_EXPIRED = 'Votre session a pris fin (30 minutes sans activité, ou fermée ailleurs) : reconnectez-vous.'
export const SIGNED_OUT = 'Vous êtes déconnecté du back-office.'

export const operatorSessionMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        session: OperatorSession | null
        /** Why the sign-in page shows: the session expired, or the operator signed out. */
        notice: string | null
        /** The check of a kept session failed for the service's sake (not a refusal): shown with « Réessayer ». */
        error: string | null
        /** The page shown when the session ended by itself: signing in again goes back there. */
        returnTo: string | null
      },
      input: {} as { stored: OperatorSession | null },
      events: {} as OperatorSessionEvent,
    },
    actors: {
      loadMe: fromPromise<OperatorMe, { token: string }>(async () => {
        throw new Error('operatorSession: loadMe is not provided')
      }),
      endSession: fromPromise<unknown, { token: string }>(async () => {
        throw new Error('operatorSession: endSession is not provided')
      }),
    },
    actions: {
      persist: (_, _params: { session: OperatorSession }) => {},
      /** Removes the kept session if it is still this one (another tab may have signed in since). */
      forget: (_, _params: { token: string | null }) => {},
    },
    guards: {
      hasStoredSession: ({ context }) => context.session !== null,
      isServiceFailure: (_, params: { error: unknown }) => isServiceFailure(params.error),
    },
  }).createMachine({
    id: 'operatorSession',
    context: ({ input }) => ({ session: input.stored, notice: null, error: null, returnTo: null }),
    initial: 'starting',
    states: {
      starting: {
        always: [{ guard: 'hasStoredSession', target: 'restoring' }, { target: 'signedOut' }],
      },
      restoring: {
        tags: ['loading'],
        invoke: {
          id: 'loadMe',
          src: 'loadMe',
          input: ({ context }) => ({ token: context.session!.token }),
          onDone: {
            target: 'signedIn',
            actions: [
              assign({ session: ({ context, event }) => ({ token: context.session!.token, operator: event.output }), error: null }),
              { type: 'persist', params: ({ context }) => ({ session: context.session! }) },
            ],
          },
          onError: [
            {
              guard: { type: 'isServiceFailure', params: ({ event }) => ({ error: event.error }) },
              target: 'unavailable',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
            {
              target: 'signedOut',
              actions: [
                { type: 'forget', params: ({ context }) => ({ token: context.session?.token ?? null }) },
                assign({ session: null, notice: SESSION_EXPIRED }),
              ],
            },
          ],
        },
      },
      unavailable: {
        on: {
          'session.retry': { target: 'restoring', actions: assign({ error: null }) },
          'session.signOut': { target: 'signingOut' },
        },
      },
      signedIn: {
        on: {
          'session.signOut': { target: 'signingOut' },
          'session.expired': {
            target: 'signedOut',
            actions: [
              { type: 'forget', params: ({ context }) => ({ token: context.session?.token ?? null }) },
              assign({ session: null, notice: SESSION_EXPIRED, returnTo: ({ event }) => event.path ?? null }),
            ],
          },
        },
      },
      signingOut: {
        tags: ['loading'],
        // The kept session goes at once: whatever the server answers, this browser is signed out.
        entry: [{ type: 'forget', params: ({ context }) => ({ token: context.session?.token ?? null }) }, assign({ returnTo: null })],
        invoke: {
          id: 'endSession',
          src: 'endSession',
          input: ({ context }) => ({ token: context.session!.token }),
          onDone: { target: 'signedOut', actions: assign({ session: null, notice: SIGNED_OUT, error: null }) },
          onError: { target: 'signedOut', actions: assign({ session: null, notice: SIGNED_OUT, error: null }) },
        },
      },
      signedOut: {
        on: {
          'session.signedIn': {
            target: 'signedIn',
            actions: [
              assign({ session: ({ event }) => event.session, notice: null, error: null }),
              { type: 'persist', params: ({ event }) => ({ session: event.session }) },
            ],
          },
        },
      },
    },
  }),
)
