// « Ce n’était pas vous ? » (/retablir-adresse/:token, beyond the spec): the link of an address change's notice. The
// page says what will happen, then « Rétablir mon adresse » sends the link once: done, the server's message (the address
// back, every connection closed, a reset link sent); a link unknown, used, expired or superseded, or an address now
// another account's, can never work (no retry, the server's way out instead); any other failure can be tried again.
import { assign, fromPromise, setup } from 'xstate'
import type { MessageReply } from '../../../server/contract/common.ts'
import { messageOf, statusOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const REVERT_LINK_UNUSABLE = 'Ce lien n’est pas valable : il est incomplet, a déjà servi ou a expiré.'

export interface EmailRevertContext {
  token: string
  message: string | null
  error: string | null
}

export const emailRevertMachine = deferred(() =>
  setup({
    types: {
      context: {} as EmailRevertContext,
      input: {} as { token: string },
      events: {} as { type: 'revert.send' },
    },
    actors: {
      revertEmailChange: fromPromise<MessageReply, { token: string }>(async () => {
        throw new Error('emailRevert: revertEmailChange is not provided')
      }),
    },
    guards: {
      // Unknown (404), used, expired or superseded (410), the address now another account's (409: it
      // offered « Réessayer », which could not work): sending it again cannot.
      isUnusable: (_, params: { error: unknown }) => [404, 409, 410].includes(statusOf(params.error)),
    },
  }).createMachine({
    id: 'emailRevert',
    context: ({ input }) => ({ token: input.token, message: null, error: null }),
    initial: 'idle',
    states: {
      idle: {
        on: { 'revert.send': 'sending' },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'revertEmailChange',
          src: 'revertEmailChange',
          input: ({ context }) => ({ token: context.token }),
          onDone: { target: 'done', actions: assign({ message: ({ event }) => event.output.message, error: null }) },
          onError: [
            {
              guard: { type: 'isUnusable', params: ({ event }) => ({ error: event.error }) },
              target: 'unusable',
              actions: assign({ error: ({ event }) => messageOf(event.error, REVERT_LINK_UNUSABLE) }),
            },
            { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      done: { type: 'final' },
      unusable: { type: 'final' },
      failed: {
        on: { 'revert.send': { target: 'sending', actions: assign({ error: null }) } },
      },
    },
  }),
)
