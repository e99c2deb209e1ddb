// "Clés d'accès" (/informations-personnelles): the user's passkeys, added (the browser's ceremony and
// the server's check, as one effect), renamed, removed after a confirmation. A cancelled or refused
// ceremony leaves the list as it was and says so.
import { assign, fromPromise, setup } from 'xstate'
import type { Passkey } from '../../../server/contract/people.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, singleLineProblem } from '../../../server/contract/rules/text.ts'

export const PASSKEY_ADDED = 'La clé d’accès a été ajoutée : vous pourrez vous connecter avec elle.'
export const PASSKEY_RENAMED = 'La clé d’accès a été renommée.'
export const PASSKEY_REMOVED = 'La clé d’accès a été supprimée. Votre mot de passe fonctionne toujours.'
/** Told (these two) once the page was left (the page itself says why where the customer acted). */
export const PASSKEY_NOT_RENAMED = 'La clé d’accès n’a pas été renommée.'
export const PASSKEY_NOT_REMOVED = 'La clé d’accès n’a pas été supprimée.'
export const PASSKEY_NAME_EMPTY = 'Donnez un nom à la clé d’accès, par exemple « Téléphone de Camille ».'

export interface PasskeysContext {
  passkeys: Passkey[]
  /** The passkey being renamed or removed. */
  selected: Passkey | null
  draftName: string
  /** Loading the list failed. */
  loadError: string | null
  /** The last action failed (add, rename, remove). */
  error: string | null
}

export const passkeysMachine = deferred(() =>
  setup({
    types: {
      context: {} as PasskeysContext,
      events: {} as
        | { type: 'passkeys.retry' }
        | { type: 'passkey.add' }
        | { type: 'passkey.rename'; passkey: Passkey }
        | { type: 'passkey.change'; name: string }
        | { type: 'passkey.submit' }
        | { type: 'passkey.remove'; passkey: Passkey }
        | { type: 'passkey.confirm' }
        | { type: 'passkey.cancel' },
    },
    actors: {
      loadPasskeys: fromPromise<Passkey[]>(async () => {
        throw new Error('passkeys: loadPasskeys is not provided')
      }),
      /** The whole ceremony: options from the server, the browser's authenticator, the server's check. */
      createPasskey: fromPromise<Passkey>(async () => {
        throw new Error('passkeys: createPasskey is not provided')
      }),
      renamePasskey: fromPromise<Passkey, { id: number; name: string }>(async () => {
        throw new Error('passkeys: renamePasskey is not provided')
      }),
      deletePasskey: fromPromise<unknown, { id: number }>(async () => {
        throw new Error('passkeys: deletePasskey is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      /** The server's schema refuses it before its handler looks for a blank name. */
      nameNotOneLine: ({ context }) => singleLineProblem(context.draftName) !== null,
      nameEmpty: ({ context }) => isBlank(context.draftName),
      nameUnchanged: ({ context }) => context.draftName.trim() === context.selected?.name,
    },
  }).createMachine({
    id: 'passkeys',
    context: { passkeys: [], selected: null, draftName: '', loadError: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadPasskeys',
          src: 'loadPasskeys',
          onDone: { target: 'ready', actions: assign({ passkeys: ({ event }) => event.output, loadError: null }) },
          onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'passkeys.retry': { target: 'loading' } },
      },
      ready: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'passkey.add': { target: 'adding', actions: assign({ error: null }) },
              'passkey.rename': {
                target: 'renaming',
                actions: assign({ selected: ({ event }) => event.passkey, draftName: ({ event }) => event.passkey.name, error: null }),
              },
              'passkey.remove': { target: 'confirmingRemoval', actions: assign({ selected: ({ event }) => event.passkey, error: null }) },
            },
          },
          adding: {
            tags: ['busy'],
            invoke: {
              id: 'createPasskey',
              src: 'createPasskey',
              onDone: {
                target: 'idle',
                actions: [
                  assign({ passkeys: ({ context, event }) => [...context.passkeys.filter((p) => p.id !== event.output.id), event.output] }),
                  { type: 'notify', params: { kind: 'success', message: PASSKEY_ADDED } },
                ],
              },
              onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          renaming: {
            tags: ['form'],
            on: {
              'passkey.change': { actions: assign({ draftName: ({ event }) => event.name, error: null }) },
              'passkey.submit': [
                { guard: 'nameNotOneLine', actions: assign({ error: ({ context }) => singleLineProblem(context.draftName) }) },
                { guard: 'nameEmpty', actions: assign({ error: PASSKEY_NAME_EMPTY }) },
                { guard: 'nameUnchanged', target: 'idle', actions: assign({ selected: null }) },
                { target: 'savingName' },
              ],
              'passkey.cancel': { target: 'idle', actions: assign({ selected: null, error: null }) },
            },
          },
          savingName: {
            tags: ['form', 'busy'],
            invoke: {
              id: 'renamePasskey',
              src: 'renamePasskey',
              input: ({ context }) => ({ id: context.selected!.id, name: context.draftName.trim() }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({
                    passkeys: ({ context, event }) => context.passkeys.map((p) => (p.id === event.output.id ? event.output : p)),
                    selected: null,
                  }),
                  { type: 'notify', params: { kind: 'success', message: PASSKEY_RENAMED } },
                ],
              },
              onError: { target: 'renaming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          confirmingRemoval: {
            tags: ['confirm'],
            on: {
              'passkey.confirm': { target: 'removing' },
              'passkey.cancel': { target: 'idle', actions: assign({ selected: null, error: null }) },
            },
          },
          removing: {
            tags: ['confirm', 'busy'],
            invoke: {
              id: 'deletePasskey',
              src: 'deletePasskey',
              input: ({ context }) => ({ id: context.selected!.id }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({ passkeys: ({ context }) => context.passkeys.filter((p) => p.id !== context.selected!.id), selected: null }),
                  { type: 'notify', params: { kind: 'success', message: PASSKEY_REMOVED } },
                ],
              },
              onError: { target: 'confirmingRemoval', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
