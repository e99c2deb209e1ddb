// "Appareils connectés" (/informations-personnelles): the user's sessions (browser, last use), and
// "Déconnecter les autres appareils", after which only this one is left.
import { assign, fromPromise, setup } from 'xstate'
import type { Session, SignedOutReply } from '../../../server/contract/people.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

/** Told once the page was left (the page itself says why where the customer acted). */
export const OTHERS_NOT_SIGNED_OUT = 'Vos autres appareils n’ont pas été déconnectés.'

export const devicesMachine = deferred(() =>
  setup({
    types: {
      context: {} as { sessions: Session[]; loadError: string | null; error: string | null },
      events: {} as { type: 'devices.retry' } | { type: 'devices.signOutOthers' },
    },
    actors: {
      loadSessions: fromPromise<Session[]>(async () => {
        throw new Error('devices: loadSessions is not provided')
      }),
      signOutOthers: fromPromise<SignedOutReply>(async () => {
        throw new Error('devices: signOutOthers is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      hasOthers: ({ context }) => context.sessions.some((s) => !s.current),
    },
  }).createMachine({
    id: 'devices',
    context: { sessions: [], loadError: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadSessions',
          src: 'loadSessions',
          onDone: { target: 'ready', actions: assign({ sessions: ({ event }) => event.output, loadError: null }) },
          onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'devices.retry': { target: 'loading' } },
      },
      ready: {
        on: { 'devices.signOutOthers': { guard: 'hasOthers', target: 'signingOut', actions: assign({ error: null }) } },
      },
      signingOut: {
        tags: ['busy'],
        invoke: {
          id: 'signOutOthers',
          src: 'signOutOthers',
          onDone: {
            target: 'ready',
            actions: [
              assign({ sessions: ({ context }) => context.sessions.filter((s) => s.current) }),
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) },
            ],
          },
          onError: { target: 'ready', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
