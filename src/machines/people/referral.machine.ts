// "Recommander {brand}" (/mes-collaborateurs): one address, checked, sent (POST send-invite); the
// field empties once sent, keeps what was typed when it fails.
import { assign, fromPromise, setup } from 'xstate'
import { isEmail, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

/** Told once the page was left (the page itself says why where the customer acted). */
export const REFERRAL_NOT_SENT = 'Votre recommandation n’a pas été envoyée.'
export const REFERRAL_INVALID = 'Saisissez l’adresse e-mail de la personne, par exemple nom@entreprise.fr.'

export const referralMachine = deferred(() =>
  setup({
    types: {
      context: {} as { email: string; error: string | null },
      events: {} as { type: 'referral.change'; email: string } | { type: 'referral.submit' },
    },
    actors: {
      sendReferral: fromPromise<{ message: string }, { email: string }>(async () => {
        throw new Error('referral: sendReferral is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      invalid: ({ context }) => !isEmail(context.email),
    },
  }).createMachine({
    id: 'referral',
    context: { email: '', error: null },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'referral.change': { actions: assign({ email: ({ event }) => event.email, error: null }) },
          'referral.submit': [{ guard: 'invalid', actions: assign({ error: REFERRAL_INVALID }) }, { target: 'sending' }],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'sendReferral',
          src: 'sendReferral',
          input: ({ context }) => ({ email: context.email.trim() }),
          onDone: {
            target: 'editing',
            actions: [
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) },
              assign({ email: '' }),
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
