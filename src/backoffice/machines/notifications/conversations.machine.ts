// Messages: the conversations, open ones first (or the closed ones), the one waiting longest first; one opened beside
// the list with its messages; an answer (never blank; a refusal keeps it as typed and says why), « Clore », « Rouvrir ».
// An action done, the conversation and its line of the list show what the server answered.
import { assign, fromPromise, setup } from 'xstate'
import type { ConversationSummary, OperatorConversation } from '../../../../server/contract/notifications-backoffice.ts'
import { isBlank } from '../../../../server/contract/rules/text.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type Shown = 'open' | 'closed'

export const CONVERSATION_MESSAGES = {
  empty: 'Écrivez votre réponse avant de l’envoyer.',
  replied: (raisonSociale: string) => `Réponse envoyée : ${raisonSociale} en est averti par e-mail.`,
  closed: 'Conversation close.',
  reopened: 'Conversation rouverte.',
} as const

const summaryOf = ({ closedAt: _c, closedBy: _b, messages: _m, ...summary }: OperatorConversation): ConversationSummary => summary

export type ConversationsEvent =
  | { type: 'list.show'; shown: Shown }
  | { type: 'list.retry' }
  | { type: 'conversation.open'; id: number }
  | { type: 'conversation.back' }
  | { type: 'reply.send'; message: string }
  | { type: 'conversation.close' }
  | { type: 'conversation.reopen' }

export const conversationsMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        shown: Shown
        conversations: ConversationSummary[] | null
        error: string | null
        /** The conversation read, with its messages. */
        current: OperatorConversation | null
        openError: string | null
        /** The answer being sent, kept as typed until the server takes it. */
        draft: string
        problem: string | null
        sendError: string | null
        status: 'open' | 'closed' | null
        /** The conversation of the address (/operateur/messages/:id), opened once the list is read. */
        openId: number | null
      },
      input: {} as { openId?: number | null } | undefined,
      events: {} as ConversationsEvent,
    },
    actors: {
      load: fromPromise<ConversationSummary[], { status: Shown }>(async () => {
        throw new Error('conversations: load is not provided')
      }),
      open: fromPromise<OperatorConversation, { id: number }>(async () => {
        throw new Error('conversations: open is not provided')
      }),
      reply: fromPromise<OperatorConversation, { id: number; message: string }>(async () => {
        throw new Error('conversations: reply is not provided')
      }),
      setStatus: fromPromise<OperatorConversation, { id: number; status: 'open' | 'closed' }>(async () => {
        throw new Error('conversations: setStatus is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** The server's conversation, and its line of the list. */
      take: assign(({ context }, conversation: OperatorConversation) => ({
        current: conversation,
        conversations: context.conversations?.map((c) => (c.id === conversation.id ? summaryOf(conversation) : c)) ?? null,
      })),
    },
    guards: {
      written: ({ event }) => !isBlank((event as Extract<ConversationsEvent, { type: 'reply.send' }>).message),
      isOpen: ({ context }) => context.current?.status === 'open',
      isClosed: ({ context }) => context.current?.status === 'closed',
      toOpen: ({ context }) => context.openId !== null,
    },
  }).createMachine({
    id: 'conversations',
    context: ({ input }) => ({
      shown: 'open',
      conversations: null,
      error: null,
      current: null,
      openError: null,
      draft: '',
      problem: null,
      sendError: null,
      status: null,
      openId: input?.openId ?? null,
    }),
    initial: 'loading',
    on: {
      'list.show': { target: '.loading', actions: assign({ shown: ({ event }) => event.shown, current: null }) },
    },
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ status: context.shown }),
          onDone: [
            { guard: 'toOpen', target: 'opening', actions: assign({ conversations: ({ event }) => event.output }) },
            { target: 'list', actions: assign({ conversations: ({ event }) => event.output }) },
          ],
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'list.retry': { target: 'loading' } } },
      list: {
        on: { 'conversation.open': { target: 'opening' } },
      },
      opening: {
        tags: ['opening'],
        entry: assign({ openError: null, current: null, draft: '', problem: null, sendError: null }),
        invoke: {
          id: 'open',
          src: 'open',
          input: ({ context, event }) => ({ id: event.type === 'conversation.open' ? event.id : context.openId! }),
          onDone: { target: 'reading', actions: assign({ current: ({ event }) => event.output, openId: null }) },
          onError: { target: 'list', actions: assign({ openError: ({ event }) => messageOf(event.error), openId: null }) },
        },
      },
      reading: {
        on: {
          'conversation.open': { target: 'opening' },
          'conversation.back': { target: 'list', actions: assign({ current: null, draft: '', problem: null, sendError: null }) },
          'reply.send': [
            {
              guard: 'written',
              target: 'replying',
              actions: assign({ draft: ({ event }) => event.message, problem: null, sendError: null }),
            },
            { actions: assign({ draft: ({ event }) => event.message, problem: CONVERSATION_MESSAGES.empty }) },
          ],
          'conversation.close': { guard: 'isOpen', target: 'changing', actions: assign({ status: 'closed', sendError: null }) },
          'conversation.reopen': { guard: 'isClosed', target: 'changing', actions: assign({ status: 'open', sendError: null }) },
        },
      },
      replying: {
        tags: ['busy'],
        invoke: {
          id: 'reply',
          src: 'reply',
          input: ({ context }) => ({ id: context.current!.id, message: context.draft }),
          onDone: {
            target: 'reading',
            actions: [
              { type: 'take', params: ({ event }) => event.output },
              assign({ draft: '' }),
              {
                type: 'notify',
                params: ({ event }) => ({ kind: 'success' as const, message: CONVERSATION_MESSAGES.replied(event.output.raisonSociale) }),
              },
            ],
          },
          onError: { target: 'reading', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
        },
      },
      changing: {
        tags: ['busy'],
        invoke: {
          id: 'setStatus',
          src: 'setStatus',
          input: ({ context }) => ({ id: context.current!.id, status: context.status! }),
          onDone: {
            target: 'reading',
            actions: [
              { type: 'take', params: ({ event }) => event.output },
              {
                type: 'notify',
                params: ({ event }) => ({
                  kind: 'success' as const,
                  message: event.output.status === 'closed' ? CONVERSATION_MESSAGES.closed : CONVERSATION_MESSAGES.reopened,
                }),
              },
            ],
          },
          onError: { target: 'reading', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
