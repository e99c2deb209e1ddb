// Administration › Opérateurs › « Inviter un opérateur »: the address, the name and the roles sent once; the answer's
// single-use enrolment link shown this once (the server keeps only its hash), until the administrator closes it. A
// refusal (an address taken) keeps what was typed and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { Static } from 'typebox'
import type { InvitedOperator, OperatorSummary } from '../../../../server/contract/operators.ts'
import type { OperatorRole } from '../../../../server/contract/route-def.ts'
import { messageOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export interface InviteValues {
  email: string
  name: string
  roles: OperatorRole[]
}
export type Invited = Static<typeof InvitedOperator>

export type OperatorInviteEvent = { type: 'invite.send'; values: InviteValues } | { type: 'invite.close' }

export const operatorInviteMachine = deferred(() =>
  setup({
    types: {
      context: {} as { values: InviteValues | null; invited: Invited | null; error: string | null },
      events: {} as OperatorInviteEvent,
    },
    actors: {
      invite: fromPromise<Invited, InviteValues>(async () => {
        throw new Error('operatorInvite: invite is not provided')
      }),
    },
    actions: {
      /** The new operator, for the list (provided by the page: the directory's `operator.invited`). */
      invited: (_, _params: { operator: OperatorSummary }) => {},
    },
  }).createMachine({
    id: 'operatorInvite',
    context: { values: null, invited: null, error: null },
    initial: 'editing',
    states: {
      editing: {
        on: { 'invite.send': { target: 'sending', actions: assign({ values: ({ event }) => event.values, error: null }) } },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'invite',
          src: 'invite',
          input: ({ context }) => context.values!,
          onDone: {
            target: 'invited',
            actions: [
              assign({ invited: ({ event }) => event.output }),
              { type: 'invited', params: ({ event }) => ({ operator: event.output.operator }) },
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      // The link is shown until closed, then forgotten: nothing can show it again.
      invited: {
        on: { 'invite.close': { target: 'editing', actions: assign({ values: null, invited: null }) } },
      },
    },
  }),
)
