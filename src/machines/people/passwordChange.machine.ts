// "Modifier mon mot de passe" (/informations-personnelles): current, new and confirmation; the new one
// follows the rule (passwordRule.ts) before anything is sent; a refusal (wrong current password) keeps
// what was typed; once changed the other devices are signed out by the server, this one stays, and a
// toast says so (the only announcement: the form, emptied, says nothing more).
import { assign, fromPromise, setup } from 'xstate'
import { PASSWORDS_DIFFER, passwordProblem } from '../passwordRule.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const CURRENT_MISSING = 'Saisissez votre mot de passe actuel.'
export const PASSWORD_UPDATED = 'Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés.'

export interface PasswordDraft {
  current: string
  next: string
  confirmation: string
}
export type PasswordProblems = Partial<Record<keyof PasswordDraft, string>>

const emptyDraft: PasswordDraft = { current: '', next: '', confirmation: '' }

export function passwordDraftProblems(draft: PasswordDraft): PasswordProblems {
  const problems: PasswordProblems = {}
  if (draft.current === '') problems.current = CURRENT_MISSING
  const next = passwordProblem(draft.next)
  if (next) problems.next = next
  if (draft.confirmation !== draft.next) problems.confirmation = PASSWORDS_DIFFER
  return problems
}

export const passwordChangeMachine = deferred(() =>
  setup({
    types: {
      context: {} as { draft: PasswordDraft; problems: PasswordProblems; error: string | null },
      events: {} as { type: 'password.change'; draft: Partial<PasswordDraft> } | { type: 'password.submit' },
    },
    actors: {
      updatePassword: fromPromise<unknown, { currentPassword: string; newPassword: string }>(async () => {
        throw new Error('passwordChange: updatePassword is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      hasProblems: ({ context }) => Object.keys(passwordDraftProblems(context.draft)).length > 0,
    },
  }).createMachine({
    id: 'passwordChange',
    context: { draft: emptyDraft, problems: {}, error: null },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'password.change': { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.draft }), error: null }) },
          'password.submit': [
            { guard: 'hasProblems', actions: assign({ problems: ({ context }) => passwordDraftProblems(context.draft) }) },
            { target: 'saving', actions: assign({ problems: {} }) },
          ],
        },
      },
      saving: {
        tags: ['busy'],
        invoke: {
          id: 'updatePassword',
          src: 'updatePassword',
          input: ({ context }) => ({ currentPassword: context.draft.current, newPassword: context.draft.next }),
          onDone: {
            target: 'editing',
            actions: [
              assign({ draft: emptyDraft, problems: {}, error: null }),
              { type: 'notify', params: { kind: 'success', message: PASSWORD_UPDATED } },
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
