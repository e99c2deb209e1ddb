// "Modifier mon e-mail" (/informations-personnelles): the new address is checked, then sent once
// (PUT users/me/email); a refusal (taken: 409) keeps what was typed and says why; once changed the
// page shows the new address.
import { assign, fromPromise, setup } from 'xstate'
import type { User } from '../../../server/contract/session.ts'
import { isEmail, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const EMAIL_INVALID = 'Saisissez une adresse e-mail valide, par exemple nom@entreprise.fr.'
export const EMAIL_UNCHANGED = 'C’est déjà votre adresse : saisissez la nouvelle.'
export const EMAIL_CHANGED = 'Votre adresse e-mail a été modifiée. Un message en avertit votre ancienne adresse.'

export const emailChangeMachine = deferred(() =>
  setup({
    types: {
      context: {} as { email: string; draft: string; error: string | null },
      input: {} as { email: string },
      events: {} as { type: 'email.edit' } | { type: 'email.change'; value: string } | { type: 'email.submit' } | { type: 'email.cancel' },
    },
    actors: {
      updateEmail: fromPromise<User, { newEmail: string }>(async () => {
        throw new Error('emailChange: updateEmail is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** The account's address changed (the wiring tells the rest of the portal). */
      emailChanged: (_, _params: { user: User }) => {},
    },
    guards: {
      invalid: ({ context }) => !isEmail(context.draft),
      unchanged: ({ context }) => context.draft.trim().toLowerCase() === context.email.toLowerCase(),
    },
  }).createMachine({
    id: 'emailChange',
    context: ({ input }) => ({ email: input.email, draft: '', error: null }),
    initial: 'showing',
    states: {
      showing: {
        on: { 'email.edit': { target: 'editing', actions: assign({ draft: '', error: null }) } },
      },
      editing: {
        tags: ['form'],
        on: {
          'email.change': { actions: assign({ draft: ({ event }) => event.value, error: null }) },
          'email.submit': [
            { guard: 'invalid', actions: assign({ error: EMAIL_INVALID }) },
            { guard: 'unchanged', actions: assign({ error: EMAIL_UNCHANGED }) },
            { target: 'saving' },
          ],
          'email.cancel': { target: 'showing' },
        },
      },
      saving: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'updateEmail',
          src: 'updateEmail',
          input: ({ context }) => ({ newEmail: context.draft.trim() }),
          onDone: {
            target: 'showing',
            actions: [
              assign({ email: ({ event }) => event.output.email, draft: '' }),
              { type: 'emailChanged', params: ({ event }) => ({ user: event.output }) },
              { type: 'notify', params: { kind: 'success', message: EMAIL_CHANGED } },
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
