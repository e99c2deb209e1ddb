// Administration › Clés d’API: the keys (never the keys themselves, their first characters only); a named key created,
// its key shown once until dismissed (the server keeps only its hash); a key revoked after a confirmation, refused from
// its next call on. One change at a time; a refusal or a failure leaves the list as it was and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { Static } from 'typebox'
import type { ApiKeySummary, NewApiKey } from '../../../../server/contract/operators.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type CreatedKey = Static<typeof NewApiKey>

export type ApiKeysEvent =
  | { type: 'list.retry' }
  | { type: 'key.create'; name: string }
  | { type: 'key.dismiss' }
  | { type: 'revocation.ask'; id: number }
  | { type: 'revocation.confirm' }
  | { type: 'revocation.cancel' }

export const keyRevoked = (name: string) => `La clé « ${name} » est révoquée : elle est refusée dès maintenant.`

export const apiKeysMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        keys: ApiKeySummary[]
        /** The key just created, shown once. */
        created: CreatedKey | null
        selectedId: number | null
        error: string | null
        changeError: string | null
      },
      events: {} as ApiKeysEvent,
    },
    actors: {
      load: fromPromise<ApiKeySummary[], void>(async () => {
        throw new Error('apiKeys: load is not provided')
      }),
      create: fromPromise<CreatedKey, { name: string }>(async () => {
        throw new Error('apiKeys: create is not provided')
      }),
      revoke: fromPromise<ApiKeySummary, { id: number }>(async () => {
        throw new Error('apiKeys: revoke is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
  }).createMachine({
    id: 'apiKeys',
    context: { keys: [], created: null, selectedId: null, error: null, changeError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ keys: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'list.retry': { target: 'loading' } },
      },
      list: {
        on: {
          'key.create': { target: 'creating', actions: assign({ changeError: null }) },
          'revocation.ask': { target: 'confirmingRevocation', actions: assign({ selectedId: ({ event }) => event.id, changeError: null }) },
        },
      },
      creating: {
        tags: ['busy'],
        invoke: {
          id: 'create',
          src: 'create',
          input: ({ event }) => ({ name: (event as Extract<ApiKeysEvent, { type: 'key.create' }>).name }),
          onDone: {
            target: 'created',
            actions: assign({ created: ({ event }) => event.output, keys: ({ context, event }) => [event.output.apiKey, ...context.keys] }),
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error) }) },
        },
      },
      created: {
        on: { 'key.dismiss': { target: 'list', actions: assign({ created: null }) } },
      },
      confirmingRevocation: {
        on: {
          'revocation.confirm': { target: 'revoking' },
          'revocation.cancel': { target: 'list', actions: assign({ selectedId: null }) },
        },
      },
      revoking: {
        tags: ['busy'],
        invoke: {
          id: 'revoke',
          src: 'revoke',
          input: ({ context }) => ({ id: context.selectedId! }),
          onDone: {
            target: 'list',
            actions: [
              assign({
                keys: ({ context, event }) => context.keys.map((k) => (k.id === event.output.id ? event.output : k)),
                selectedId: null,
              }),
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: keyRevoked(event.output.name) }) },
            ],
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
