// Sending a simple form (forgotten password, new password): the values are sent once at a time,
// a failure keeps them and says why, and whether it was the service's (unreachable, unavailable: the
// same values can be sent again) or a refusal (a link used or expired), a success is final. A send whose answer never
// came (the connection lost) may have gone through: a refusal after it may be the first send's own success (a reset
// link spent by it), and the page says so.
import { assign, fromPromise, setup } from 'xstate'
import { isServiceFailure, messageOf, statusOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export type Values = Record<string, string>

/** The toast after a new password was chosen on /set-password when the server's reply says nothing (the wiring shows it, then /login). */
export const PASSWORD_CHANGED = 'Votre mot de passe a été modifié. Vous pouvez vous connecter.'

/** /set-password: a link refused after a send whose answer was lost (the link may be spent by that very send). */
export const MAYBE_SAVED =
  'Si votre envoi précédent est parvenu malgré la coupure, votre nouveau mot de passe est déjà enregistré : essayez de vous connecter avec lui.'

export const submissionMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        values: Values | null
        error: string | null
        /** The last failure was the service's, not a refusal of what was sent: the page offers to try again. */
        unavailable: boolean
        /** A send before got no answer at all (status 0: the connection lost, maybe after the server acted). */
        unsure: boolean
      },
      events: {} as { type: 'form.submit'; values: Values },
    },
    actors: {
      submit: fromPromise<unknown, Values>(async () => {
        throw new Error('submission: submit is not provided')
      }),
    },
    actions: {
      /** What to do once it went through, with the server's reply (provided by the wiring). */
      succeeded: (_, _params: { reply: unknown }) => {},
    },
    guards: {
      isServiceFailure: (_, params: { error: unknown }) => isServiceFailure(params.error),
    },
  }).createMachine({
    id: 'submission',
    context: { values: null, error: null, unavailable: false, unsure: false },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'form.submit': {
            target: 'submitting',
            actions: assign({ values: ({ event }) => event.values, error: null, unavailable: false }),
          },
        },
      },
      submitting: {
        tags: ['busy'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => context.values!,
          onDone: { target: 'succeeded', actions: { type: 'succeeded', params: ({ event }) => ({ reply: event.output }) } },
          onError: [
            {
              guard: { type: 'isServiceFailure', params: ({ event }) => ({ error: event.error }) },
              target: 'editing',
              actions: assign({
                error: ({ event }) => messageOf(event.error),
                unavailable: true,
                unsure: ({ context, event }) => context.unsure || statusOf(event.error) === 0,
              }),
            },
            { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      succeeded: { type: 'final' },
    },
  }),
)
