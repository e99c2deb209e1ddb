// « Mes clés d’accès »: the signed-in operator's passkeys, their second factor beside the authenticator app's code. The
// list; « Ajouter une clé d’accès » (the browser's prompt and the server's check in one actor, provided by the wiring);
// a key removed after a confirmation. One change at a time; a refusal, a cancelled prompt or a failure leaves the list as
// it was and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { OperatorPasskey } from '../../../../server/contract/operators.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type MyPasskeysEvent =
  | { type: 'list.retry' }
  | { type: 'passkey.add' }
  | { type: 'removal.ask'; id: number }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' }

export const passkeyAdded = (name: string) => `La clé d’accès « ${name} » est enregistrée : utilisez-la à votre prochaine connexion.`
export const passkeyRemoved = (name: string) => `La clé d’accès « ${name} » est supprimée.`

export const myPasskeysMachine = deferred(() =>
  setup({
    types: {
      context: {} as { passkeys: OperatorPasskey[]; selectedId: number | null; error: string | null; changeError: string | null },
      events: {} as MyPasskeysEvent,
    },
    actors: {
      load: fromPromise<OperatorPasskey[], void>(async () => {
        throw new Error('myPasskeys: load is not provided')
      }),
      add: fromPromise<OperatorPasskey, void>(async () => {
        throw new Error('myPasskeys: add is not provided')
      }),
      remove: fromPromise<unknown, { id: number }>(async () => {
        throw new Error('myPasskeys: remove is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
  }).createMachine({
    id: 'myPasskeys',
    context: { passkeys: [], selectedId: null, error: null, changeError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ passkeys: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'list.retry': { target: 'loading' } },
      },
      list: {
        on: {
          'passkey.add': { target: 'adding', actions: assign({ changeError: null }) },
          'removal.ask': { target: 'confirmingRemoval', actions: assign({ selectedId: ({ event }) => event.id, changeError: null }) },
        },
      },
      adding: {
        tags: ['busy'],
        invoke: {
          id: 'add',
          src: 'add',
          onDone: {
            target: 'list',
            actions: [
              assign({ passkeys: ({ context, event }) => [...context.passkeys, event.output] }),
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: passkeyAdded(event.output.name) }) },
            ],
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error) }) },
        },
      },
      confirmingRemoval: {
        on: {
          'removal.confirm': { target: 'removing' },
          'removal.cancel': { target: 'list', actions: assign({ selectedId: null }) },
        },
      },
      removing: {
        tags: ['busy'],
        invoke: {
          id: 'remove',
          src: 'remove',
          input: ({ context }) => ({ id: context.selectedId! }),
          onDone: {
            target: 'list',
            actions: [
              {
                type: 'notify',
                params: ({ context }) => ({
                  kind: 'success' as const,
                  message: passkeyRemoved(context.passkeys.find((p) => p.id === context.selectedId)?.name ?? ''),
                }),
              },
              assign({ passkeys: ({ context }) => context.passkeys.filter((p) => p.id !== context.selectedId), selectedId: null }),
            ],
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error), selectedId: null }) },
        },
      },
    },
  }),
)
