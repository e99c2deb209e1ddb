// « Mes échanges » (/mes-echanges, /mes-echanges/:id): the conversations of the orders the person sees, open ones first
// (of the selected order, or of all); one read with each message, who wrote it and when; an answer (never blank; a
// refusal keeps it as typed and says why), which reopens a closed conversation. What the bell says arrived reads the
// list or the conversation again, an answer being typed kept. An address that names no conversation (/mes-echanges/abc:
// conversationId 0) asks nothing of the server, and one the server does not know for this person (404) is not offered
// « Réessayer »: both are « introuvable » for good.
import { assign, fromPromise, setup } from 'xstate'
import type { PortalConversation, PortalConversationSummary } from '../../../server/contract/notifications.ts'
import { isBlank } from '../../../server/contract/rules/text.ts'
import { deferred } from '../deferred.ts'
import { messageOf, type Notice, statusOf } from '../shared.ts'

export const MY_CONVERSATION_MESSAGES = {
  notRefreshed: 'La nouvelle réponse n’a pas pu être affichée : rechargez la page.',
  empty: 'Écrivez votre message avant de l’envoyer.',
  sent: 'Message envoyé : notre équipe vous répondra ici.',
} as const

export type MyConversationsEvent =
  | { type: 'conversations.retry' }
  | { type: 'conversations.refresh' }
  | { type: 'answer.send'; message: string }

export interface MyConversationsInput {
  /** The selected order, or null for all of the person's orders. */
  orderId: number | null
  /** The conversation of the address (/mes-echanges/:id), or null for the list; 0 when the address names none. */
  conversationId: number | null
}

export const myConversationsMachine = deferred(() =>
  setup({
    types: {
      context: {} as MyConversationsInput & {
        conversations: PortalConversationSummary[] | null
        current: PortalConversation | null
        loadError: string | null
        /** The answer being sent, kept as typed until the server takes it. */
        draft: string
        problem: string | null
        sendError: string | null
      },
      input: {} as MyConversationsInput,
      events: {} as MyConversationsEvent,
    },
    actors: {
      loadConversations: fromPromise<PortalConversationSummary[], { orderId: number | null }>(async () => {
        throw new Error('myConversations: loadConversations is not provided')
      }),
      loadConversation: fromPromise<PortalConversation, { id: number }>(async () => {
        throw new Error('myConversations: loadConversation is not provided')
      }),
      answer: fromPromise<PortalConversation, { id: number; message: string }>(async () => {
        throw new Error('myConversations: answer is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      oneConversation: ({ context }) => context.conversationId !== null,
      noConversation: ({ context }) => context.conversationId === 0,
      unknownConversation: ({ event }) => statusOf((event as { error?: unknown }).error) === 404,
      written: ({ event }) => !isBlank((event as Extract<MyConversationsEvent, { type: 'answer.send' }>).message),
    },
  }).createMachine({
    id: 'myConversations',
    context: ({ input }) => ({
      ...input,
      conversations: null,
      current: null,
      loadError: null,
      draft: '',
      problem: null,
      sendError: null,
    }),
    initial: 'start',
    states: {
      start: {
        always: [
          { guard: 'noConversation', target: 'conversation.missing' },
          { guard: 'oneConversation', target: 'conversation' },
          { target: 'list' },
        ],
      },
      list: {
        initial: 'loading',
        states: {
          loading: {
            tags: ['loading'],
            invoke: {
              id: 'loadConversations',
              src: 'loadConversations',
              input: ({ context }) => ({ orderId: context.orderId }),
              onDone: { target: 'shown', actions: assign({ conversations: ({ event }) => event.output, loadError: null }) },
              onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
            },
          },
          failed: { on: { 'conversations.retry': { target: 'loading' } } },
          shown: { on: { 'conversations.refresh': { target: 'loading' } } },
        },
      },
      conversation: {
        initial: 'loading',
        states: {
          loading: {
            tags: ['loading'],
            invoke: {
              id: 'loadConversation',
              src: 'loadConversation',
              input: ({ context }) => ({ id: context.conversationId! }),
              onDone: { target: 'reading', actions: assign({ current: ({ event }) => event.output, loadError: null }) },
              onError: [
                { guard: 'unknownConversation', target: 'missing', actions: assign({ loadError: null }) },
                { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
              ],
            },
          },
          failed: { on: { 'conversations.retry': { target: 'loading' } } },
          // Not this person's, or no such conversation: nothing to retry, nothing to refresh.
          missing: {},
          reading: {
            on: {
              'conversations.refresh': { target: 'refreshing' },
              'answer.send': [
                {
                  guard: 'written',
                  target: 'answering',
                  actions: assign({ draft: ({ event }) => event.message, problem: null, sendError: null }),
                },
                { actions: assign({ draft: ({ event }) => event.message, problem: MY_CONVERSATION_MESSAGES.empty, sendError: null }) },
              ],
            },
          },
          // Read again with the answer being typed still on screen.
          refreshing: {
            invoke: {
              id: 'reloadConversation',
              src: 'loadConversation',
              input: ({ context }) => ({ id: context.conversationId! }),
              onDone: { target: 'reading', actions: assign({ current: ({ event }) => event.output }) },
              onError: {
                target: 'reading',
                actions: { type: 'notify', params: { kind: 'error', message: MY_CONVERSATION_MESSAGES.notRefreshed } },
              },
            },
          },
          answering: {
            tags: ['busy'],
            invoke: {
              id: 'answer',
              src: 'answer',
              input: ({ context }) => ({ id: context.conversationId!, message: context.draft.trim() }),
              onDone: {
                target: 'reading',
                actions: [
                  assign({ current: ({ event }) => event.output, draft: '' }),
                  { type: 'notify', params: { kind: 'success', message: MY_CONVERSATION_MESSAGES.sent } },
                ],
              },
              onError: { target: 'reading', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
