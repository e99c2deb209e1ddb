// The invitation link (/invitation/:token): who invites to which order; then, as the case may be,
// "Accepter" for the invited account already signed in, its password for the invited account not
// signed in, or first name, last name and a password (the rule of passwordRule.ts) for an address
// with no account yet. Each way ends signed in, in the portal, on the shared order. An unknown,
// expired or used link (404, 410) says so; the service unavailable (a 503, no connection) says so
// and offers to read the link again; signed in with another account, the visitor is asked to sign out first.
import { assign, fromPromise, setup } from 'xstate'
import type { InvitationInfo } from '../../../server/contract/people.ts'
import type { AuthUser } from '../../../server/contract/session.ts'
import { PASSWORDS_DIFFER, passwordProblem } from '../passwordRule.ts'
import { isServiceFailure, messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, singleLineProblem } from '../../../server/contract/rules/text.ts'

export const PASSWORD_MISSING = 'Saisissez votre mot de passe.'

export interface AccountDraft {
  firstname: string
  lastname: string
  password: string
  confirmation: string
}
export type AccountProblems = Partial<Record<keyof AccountDraft, string>>

export function accountProblems(draft: AccountDraft): AccountProblems {
  const problems: AccountProblems = {}
  // The text rule first, as the server's schema checks it before its handler looks for a blank name.
  const firstname = singleLineProblem(draft.firstname) ?? (isBlank(draft.firstname) ? 'Indiquez votre prénom.' : null)
  const lastname = singleLineProblem(draft.lastname) ?? (isBlank(draft.lastname) ? 'Indiquez votre nom.' : null)
  if (firstname) problems.firstname = firstname
  if (lastname) problems.lastname = lastname
  const password = passwordProblem(draft.password)
  if (password) problems.password = password
  if (draft.confirmation !== draft.password) problems.confirmation = PASSWORDS_DIFFER
  return problems
}

export interface InvitationContext {
  token: string
  /** The address of the account signed in in this browser, if any. */
  signedInEmail: string | null
  invitation: InvitationInfo | null
  draft: AccountDraft
  problems: AccountProblems
  error: string | null
}

export interface Accepted {
  user: AuthUser | null
  orderId: number
}

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase()

export const invitationMachine = deferred(() =>
  setup({
    types: {
      context: {} as InvitationContext,
      input: {} as { token: string; signedInEmail: string | null },
      events: {} as
        | { type: 'invitation.accept' }
        | { type: 'invitation.retry' }
        | { type: 'invitation.signOut' }
        | { type: 'invitation.change'; draft: Partial<AccountDraft> }
        | { type: 'invitation.signIn' }
        | { type: 'invitation.create' },
    },
    actors: {
      loadInvitation: fromPromise<InvitationInfo, { token: string }>(async () => {
        throw new Error('invitation: loadInvitation is not provided')
      }),
      /** The signed-in account accepts. */
      accept: fromPromise<{ orderId: number }, { token: string }>(async () => {
        throw new Error('invitation: accept is not provided')
      }),
      /** Signs the invited account in with its password, then accepts. */
      signInAndAccept: fromPromise<{ user: AuthUser; orderId: number }, { token: string; email: string; password: string }>(async () => {
        throw new Error('invitation: signInAndAccept is not provided')
      }),
      /** Creates the invited address's account, which accepts and signs in. */
      createAccount: fromPromise<
        { user: AuthUser; orderId: number },
        { token: string; firstname: string; lastname: string; password: string }
      >(async () => {
        throw new Error('invitation: createAccount is not provided')
      }),
    },
    actions: {
      /** Into the portal on the shared order, as this user (null: the one signed in already). */
      enterPortal: (_, _params: Accepted) => {},
      signOut: () => {},
    },
    guards: {
      signedInAsOther: ({ context }) => context.signedInEmail !== null && !sameAddress(context.signedInEmail, context.invitation?.email),
      signedInAsInvited: ({ context }) => sameAddress(context.signedInEmail, context.invitation?.email),
      hasAccount: ({ context }) => !!context.invitation?.hasAccount,
      passwordEmpty: ({ context }) => context.draft.password === '',
      hasProblems: ({ context }) => Object.keys(accountProblems(context.draft)).length > 0,
      isServiceFailure: (_, params: { error: unknown }) => isServiceFailure(params.error),
    },
  }).createMachine({
    id: 'invitation',
    context: ({ input }) => ({
      token: input.token,
      signedInEmail: input.signedInEmail,
      invitation: null,
      draft: { firstname: '', lastname: '', password: '', confirmation: '' },
      problems: {},
      error: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadInvitation',
          src: 'loadInvitation',
          input: ({ context }) => ({ token: context.token }),
          onDone: { target: 'deciding', actions: assign({ invitation: ({ event }) => event.output }) },
          onError: [
            // Not the link's fault: it may well be good, read it again on request.
            {
              guard: { type: 'isServiceFailure', params: ({ event }) => ({ error: event.error }) },
              target: 'unavailable',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
            { target: 'refused', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      deciding: {
        always: [
          { guard: 'signedInAsOther', target: 'otherAccount' },
          { guard: 'signedInAsInvited', target: 'confirming' },
          { guard: 'hasAccount', target: 'signInForm' },
          { target: 'accountForm' },
        ],
      },
      otherAccount: {
        on: { 'invitation.signOut': { target: 'deciding', actions: ['signOut', assign({ signedInEmail: null })] } },
      },
      confirming: {
        on: { 'invitation.accept': { target: 'accepting', actions: assign({ error: null }) } },
      },
      accepting: {
        tags: ['busy'],
        invoke: {
          id: 'accept',
          src: 'accept',
          input: ({ context }) => ({ token: context.token }),
          onDone: {
            target: 'accepted',
            actions: { type: 'enterPortal', params: ({ event }) => ({ user: null, orderId: event.output.orderId }) },
          },
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      signInForm: {
        on: {
          'invitation.change': { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.draft }), error: null }) },
          'invitation.signIn': [
            { guard: 'passwordEmpty', actions: assign({ problems: { password: PASSWORD_MISSING } }) },
            { target: 'signingIn', actions: assign({ problems: {}, error: null }) },
          ],
        },
      },
      signingIn: {
        tags: ['busy'],
        invoke: {
          id: 'signInAndAccept',
          src: 'signInAndAccept',
          input: ({ context }) => ({ token: context.token, email: context.invitation!.email, password: context.draft.password }),
          onDone: { target: 'accepted', actions: { type: 'enterPortal', params: ({ event }) => event.output } },
          onError: { target: 'signInForm', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      accountForm: {
        on: {
          'invitation.change': { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.draft }), error: null }) },
          'invitation.create': [
            { guard: 'hasProblems', actions: assign({ problems: ({ context }) => accountProblems(context.draft) }) },
            { target: 'creating', actions: assign({ problems: {}, error: null }) },
          ],
        },
      },
      creating: {
        tags: ['busy'],
        invoke: {
          id: 'createAccount',
          src: 'createAccount',
          input: ({ context }) => ({
            token: context.token,
            firstname: context.draft.firstname.trim(),
            lastname: context.draft.lastname.trim(),
            password: context.draft.password,
          }),
          onDone: { target: 'accepted', actions: { type: 'enterPortal', params: ({ event }) => event.output } },
          onError: { target: 'accountForm', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      unavailable: {
        on: { 'invitation.retry': { target: 'loading', actions: assign({ error: null }) } },
      },
      /** Unknown, used or expired: that link will never work. */
      refused: { type: 'final' },
      accepted: { type: 'final' },
    },
  }),
)
