// Administration › Opérateurs: the list of operators, active or not; an operator's roles changed; an operator
// deactivated after a confirmation (their sessions end at once on the server). One change at a time; a refused change
// (the administrator's own role, an operator changed meanwhile) leaves the list as it was and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { OperatorRole } from '../../../../server/contract/route-def.ts'
import type { OperatorSummary } from '../../../../server/contract/operators.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type OperatorDirectoryEvent =
  | { type: 'list.retry' }
  // An operator invited by the invite flow: shown at once.
  | { type: 'operator.invited'; operator: OperatorSummary }
  | { type: 'roles.save'; id: number; roles: OperatorRole[] }
  | { type: 'deactivation.ask'; id: number }
  | { type: 'deactivation.confirm' }
  | { type: 'deactivation.cancel' }

export const rolesSaved = (name: string) => `Rôles de ${name} enregistrés.`
export const deactivated = (name: string) => `${name} est désactivé(e) : ses sessions sont fermées.`

const replaced = (list: OperatorSummary[], next: OperatorSummary) => list.map((o) => (o.id === next.id ? next : o))

export const operatorDirectoryMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        operators: OperatorSummary[]
        /** The operator a change is asked for or under way for. */
        selectedId: number | null
        /** The list could not be read. */
        error: string | null
        /** The last change was refused or failed: the server's reason, shown beside the list. */
        changeError: string | null
      },
      events: {} as OperatorDirectoryEvent,
    },
    actors: {
      load: fromPromise<OperatorSummary[], void>(async () => {
        throw new Error('operatorDirectory: load is not provided')
      }),
      saveRoles: fromPromise<OperatorSummary, { id: number; roles: OperatorRole[] }>(async () => {
        throw new Error('operatorDirectory: saveRoles is not provided')
      }),
      deactivate: fromPromise<OperatorSummary, { id: number }>(async () => {
        throw new Error('operatorDirectory: deactivate is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
  }).createMachine({
    id: 'operatorDirectory',
    context: { operators: [], selectedId: null, error: null, changeError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ operators: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'list.retry': { target: 'loading' } },
      },
      list: {
        on: {
          'operator.invited': { actions: assign({ operators: ({ context, event }) => [...context.operators, event.operator] }) },
          'roles.save': { target: 'savingRoles', actions: assign({ selectedId: ({ event }) => event.id, changeError: null }) },
          'deactivation.ask': {
            target: 'confirmingDeactivation',
            actions: assign({ selectedId: ({ event }) => event.id, changeError: null }),
          },
        },
      },
      savingRoles: {
        tags: ['busy'],
        invoke: {
          id: 'saveRoles',
          src: 'saveRoles',
          input: ({ event }) => {
            const { id, roles } = event as Extract<OperatorDirectoryEvent, { type: 'roles.save' }>
            return { id, roles }
          },
          onDone: {
            target: 'list',
            actions: [
              assign({ operators: ({ context, event }) => replaced(context.operators, event.output), selectedId: null }),
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: rolesSaved(event.output.name) }) },
            ],
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error) }) },
        },
      },
      confirmingDeactivation: {
        on: {
          'deactivation.confirm': { target: 'deactivating' },
          'deactivation.cancel': { target: 'list', actions: assign({ selectedId: null }) },
        },
      },
      deactivating: {
        tags: ['busy'],
        invoke: {
          id: 'deactivate',
          src: 'deactivate',
          input: ({ context }) => ({ id: context.selectedId! }),
          onDone: {
            target: 'list',
            actions: [
              assign({ operators: ({ context, event }) => replaced(context.operators, event.output), selectedId: null }),
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: deactivated(event.output.name) }) },
            ],
          },
          onError: { target: 'list', actions: assign({ changeError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
