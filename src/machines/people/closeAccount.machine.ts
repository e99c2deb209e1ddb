// « Fermer mon compte » (/informations-personnelles, RGPD art. 17): a dialog that first says what goes and what the law
// keeps, then asks for the password; the server decides (every domiciliation owned over, the password right). Closed,
// the session ends here too (the server ended it); refused because a domiciliation is still active, the dialog says why
// and offers nothing to retry; a wrong password or a failure keeps the dialog, the password to type again.
import { assign, fromPromise, setup } from 'xstate'
import type { MessageReply } from '../../../server/contract/common.ts'
import { deferred } from '../deferred.ts'
import { codeOf, messageOf } from '../shared.ts'

export const closeAccountMachine = deferred(() =>
  setup({
    types: {
      context: {} as { error: string | null; refusal: string | null },
      events: {} as
        | { type: 'close.open' }
        | { type: 'close.continue' }
        | { type: 'close.submit'; password: string }
        | { type: 'close.cancel' },
    },
    actors: {
      closeAccount: fromPromise<MessageReply, { password: string }>(async () => {
        throw new Error('closeAccount: closeAccount is not provided')
      }),
    },
    actions: {
      /** The account is gone: the session ends without calling the server, which ended it (with the reply's message). */
      closed: (_, _params: { message: string }) => {},
    },
    guards: {
      ordersActive: ({ event }) => codeOf((event as { error?: unknown }).error) === 'ORDERS_ACTIVE',
      hasPassword: ({ event }) => event.type === 'close.submit' && event.password.length > 0,
    },
  }).createMachine({
    id: 'closeAccount',
    context: { error: null, refusal: null },
    initial: 'idle',
    states: {
      idle: {
        on: { 'close.open': { target: 'confirming', actions: assign({ error: null, refusal: null }) } },
      },
      confirming: {
        tags: ['dialog'],
        on: { 'close.continue': 'password', 'close.cancel': 'idle' },
      },
      password: {
        tags: ['dialog'],
        on: {
          'close.submit': [
            { guard: 'hasPassword', target: 'closing', actions: assign({ error: null }) },
            { actions: assign({ error: 'Saisissez votre mot de passe pour confirmer.' }) },
          ],
          'close.cancel': 'idle',
        },
      },
      closing: {
        tags: ['dialog', 'busy'],
        invoke: {
          id: 'closeAccount',
          src: 'closeAccount',
          input: ({ event }) => ({ password: event.type === 'close.submit' ? event.password : '' }),
          onDone: { target: 'closed', actions: { type: 'closed', params: ({ event }) => ({ message: event.output.message }) } },
          onError: [
            { guard: 'ordersActive', target: 'refused', actions: assign({ refusal: ({ event }) => messageOf(event.error) }) },
            { target: 'password', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      refused: {
        tags: ['dialog'],
        on: { 'close.cancel': 'idle' },
      },
      closed: { type: 'final' },
    },
  }),
)
