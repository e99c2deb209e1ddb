// « Quitter cette domiciliation » (/informations-personnelles): a collaborator leaves an order shared with them, after a
// confirmation. Left, the portal reads its orders again (the order is no longer one of them); a refusal or a failure
// keeps the confirmation open with the reason.
import { assign, fromPromise, setup } from 'xstate'
import type { MessageReply } from '../../../server/contract/common.ts'
import { deferred } from '../deferred.ts'
import { messageOf } from '../shared.ts'

export interface SharedOrder {
  id: number
  raisonSociale: string
}

export const leaveOrderMachine = deferred(() =>
  setup({
    types: {
      context: {} as { selected: SharedOrder | null; error: string | null },
      events: {} as { type: 'leave.open'; order: SharedOrder } | { type: 'leave.confirm' } | { type: 'leave.cancel' },
    },
    actors: {
      leaveOrder: fromPromise<MessageReply, { orderId: number }>(async () => {
        throw new Error('leaveOrder: leaveOrder is not provided')
      }),
    },
    actions: {
      /** The order is no longer the person's: the portal reads its orders again (with the reply's message). */
      left: (_, _params: { orderId: number; message: string }) => {},
    },
  }).createMachine({
    id: 'leaveOrder',
    context: { selected: null, error: null },
    initial: 'idle',
    states: {
      idle: {
        on: { 'leave.open': { target: 'confirming', actions: assign({ selected: ({ event }) => event.order, error: null }) } },
      },
      confirming: {
        tags: ['dialog'],
        on: { 'leave.confirm': 'leaving', 'leave.cancel': { target: 'idle', actions: assign({ selected: null }) } },
      },
      leaving: {
        tags: ['dialog', 'busy'],
        invoke: {
          id: 'leaveOrder',
          src: 'leaveOrder',
          input: ({ context }) => ({ orderId: context.selected!.id }),
          onDone: {
            target: 'left',
            actions: { type: 'left', params: ({ context, event }) => ({ orderId: context.selected!.id, message: event.output.message }) },
          },
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      // The portal starts again without the order (the wiring): this page goes with it.
      left: { type: 'final' },
    },
  }),
)
