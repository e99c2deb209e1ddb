// "Ajouter une option" on a subscription card (/souscription/mes-abonnements): the options the subscription does not
// hold, with their price at its interval; one is chosen, confirmed with its price, then requested with the subscription
// key (POST …/{id}:add-option) and confirmed (POST /stripe/add-option-subscription {contractId, planId}); the card shows
// it at once (`subscriptionChanged`). A refusal keeps the dialog on the confirmation and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { AddOptionReply, Subscription, SubscriptionOption } from '../../../server/contract/billing.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const optionAdded = (option: Pick<SubscriptionOption, 'nickname'>) =>
  `L’option « ${option.nickname} » a été ajoutée à votre abonnement.`
/** Told once the page was left (the page itself shows the server's reason in its dialog). */
export const OPTION_NOT_ADDED = 'L’option n’a pas été ajoutée à votre abonnement.'

/** The confirmation's input: its call's body, and what its outcome is told with (the order, the option's name). */
export interface ConfirmOptionInput {
  contractId: number
  planId: string
  orderId: number
  nickname: string
}

export interface OptionTarget {
  orderId: number
  contractId: number
  subscriptionId: string
}

export interface SubscriptionOptionContext {
  target: OptionTarget
  options: SubscriptionOption[]
  chosen: SubscriptionOption | null
  error: string | null
}

export type SubscriptionOptionEvent =
  | { type: 'option.open' }
  | { type: 'option.retry' }
  | { type: 'option.pick'; planId: string }
  | { type: 'option.confirm' }
  | { type: 'option.back' }
  | { type: 'option.close' }

export const subscriptionOptionMachine = deferred(() =>
  setup({
    types: {
      context: {} as SubscriptionOptionContext,
      input: {} as OptionTarget,
      events: {} as SubscriptionOptionEvent,
    },
    actors: {
      /** GET …/{id}/subscription-options. */
      loadOptions: fromPromise<SubscriptionOption[], { orderId: number }>(async () => {
        throw new Error('subscriptionOption: loadOptions is not provided')
      }),
      /** POST …/{id}:add-option {option, key}: the key is derived from the subscription id where the call is made. */
      requestOption: fromPromise<AddOptionReply, { orderId: number; subscriptionId: string; option: string }>(async () => {
        throw new Error('subscriptionOption: requestOption is not provided')
      }),
      /** POST /stripe/add-option-subscription {contractId, planId}. */
      confirmOption: fromPromise<Subscription, ConfirmOptionInput>(async () => {
        throw new Error('subscriptionOption: confirmOption is not provided')
      }),
    },
    actions: {
      subscriptionChanged: (_, _params: { orderId: number; subscription: Subscription }) => {},
      notify: (_, _params: Notice) => {},
    },
    guards: {
      isOffered: ({ context }, params: { planId: string }) => context.options.some((o) => o.planId === params.planId),
    },
  }).createMachine({
    id: 'subscriptionOption',
    context: ({ input }) => ({ target: input, options: [], chosen: null, error: null }),
    initial: 'closed',
    states: {
      closed: {
        on: { 'option.open': { target: 'loading', actions: assign({ chosen: null, error: null }) } },
      },
      loading: {
        tags: ['dialog', 'loading'],
        invoke: {
          id: 'loadOptions',
          src: 'loadOptions',
          input: ({ context }) => ({ orderId: context.target.orderId }),
          onDone: { target: 'choosing', actions: assign({ options: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
        on: { 'option.close': { target: 'closed' } },
      },
      failed: {
        tags: ['dialog'],
        on: {
          'option.retry': { target: 'loading', actions: assign({ error: null }) },
          'option.close': { target: 'closed' },
        },
      },
      choosing: {
        tags: ['dialog'],
        on: {
          'option.pick': {
            guard: { type: 'isOffered', params: ({ event }) => ({ planId: event.planId }) },
            target: 'confirming',
            actions: assign({ chosen: ({ context, event }) => context.options.find((o) => o.planId === event.planId)!, error: null }),
          },
          'option.close': { target: 'closed' },
        },
      },
      confirming: {
        tags: ['dialog'],
        on: {
          'option.confirm': { target: 'requesting', actions: assign({ error: null }) },
          'option.back': { target: 'choosing', actions: assign({ chosen: null, error: null }) },
          'option.close': { target: 'closed' },
        },
      },
      requesting: {
        tags: ['dialog', 'busy'],
        invoke: {
          id: 'requestOption',
          src: 'requestOption',
          input: ({ context }) => ({
            orderId: context.target.orderId,
            subscriptionId: context.target.subscriptionId,
            option: context.chosen!.option,
          }),
          onDone: {
            target: 'confirmingOption',
            actions: assign({ chosen: ({ context, event }) => ({ ...context.chosen!, planId: event.output.planId }) }),
          },
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      confirmingOption: {
        tags: ['dialog', 'busy'],
        invoke: {
          id: 'confirmOption',
          src: 'confirmOption',
          input: ({ context }) => ({
            contractId: context.target.contractId,
            planId: context.chosen!.planId,
            orderId: context.target.orderId,
            nickname: context.chosen!.nickname,
          }),
          onDone: {
            target: 'closed',
            actions: [
              {
                type: 'subscriptionChanged',
                params: ({ context, event }) => ({ orderId: context.target.orderId, subscription: event.output }),
              },
              { type: 'notify', params: ({ context }) => ({ kind: 'success' as const, message: optionAdded(context.chosen!) }) },
            ],
          },
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
