// /mes-collaborateurs: the people the selected order is shared with; "Inviter" takes several
// addresses at once (commas, spaces or new lines: each invalid one named, duplicates, active
// members and oneself dropped; a pending invitation typed again is sent again, with a new link);
// "Renvoyer l’invitation" on a pending one; "Retirer" after a confirmation. A failure keeps what
// was typed.
import { assign, fromPromise, setup, stateIn } from 'xstate'
import type { Share } from '../../../server/contract/people.ts'
import { isEmail, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const INVITE_EMPTY = 'Saisissez au moins une adresse e-mail.'
export const INVITE_NOTHING_NEW = 'Ces personnes ont déjà accès à cette domiciliation.'
export const SHARE_REMOVED = 'Cette personne n’a plus accès au courrier de la domiciliation.'
/** Told (these two) once the page was left (the page itself says why where the customer acted). */
export const INVITATIONS_NOT_SENT = 'Les invitations n’ont pas été envoyées.'
export const SHARE_NOT_REMOVED = 'Cette personne a toujours accès au courrier de la domiciliation.'
export const invalidAddresses = (invalid: string[]) =>
  invalid.length === 1
    ? `Cette adresse n’est pas valide : ${invalid[0]}. Corrigez-la puis réessayez.`
    : `Ces adresses ne sont pas valides : ${invalid.join(', ')}. Corrigez-les puis réessayez.`
export const invitationsSent = (count: number, dropped: number) =>
  `${count === 1 ? 'Invitation envoyée' : `${count} invitations envoyées`}.${dropped > 0 ? ` ${dropped === 1 ? 'Une adresse déjà présente a été ignorée' : `${dropped} adresses déjà présentes ont été ignorées`}.` : ''}`

/** The addresses typed, split on commas, semicolons, spaces and new lines. */
export const splitAddresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean)

export type InviteList = { invalid: string[] } | { emails: string[]; dropped: number }

/**
 * What to send: the invalid addresses named, or the others (duplicates, active members and oneself
 * dropped). A pending invitation is sent again: its link may have expired or been lost, and the
 * server sends a new one.
 */
export function inviteList(text: string, shares: Share[], ownEmail: string): InviteList {
  const typed = splitAddresses(text)
  const invalid = typed.filter((a) => !isEmail(a))
  if (invalid.length) return { invalid }
  const known = new Set([ownEmail.toLowerCase(), ...shares.filter((s) => s.status === 'active').map((s) => s.email.toLowerCase())])
  const first = new Map<string, string>()
  for (const address of typed) if (!first.has(address.toLowerCase())) first.set(address.toLowerCase(), address)
  const emails = [...first.values()].filter((a) => !known.has(a.toLowerCase()))
  return { emails, dropped: typed.length - emails.length }
}

export interface CollaboratorsContext {
  orderId: number
  ownEmail: string
  shares: Share[]
  draft: string
  /** The addresses being sent, how many typed were dropped, and the last sending of the row sent again. */
  sending: Omit<InviteInput, 'orderId'> | null
  selected: Share | null
  loadError: string | null
  error: string | null
}

/**
 * The invitations' call, and what its outcome is told with: the addresses dropped, and for "Renvoyer l’invitation" the row's last sending.
 */
export interface InviteInput {
  orderId: number
  emails: string[]
  dropped: number
  sentBefore?: string | null
}

export const invitationJustSent = (email: string) =>
  `Une invitation a été envoyée à ${email} il y a moins d’une minute : elle n’a pas été renvoyée. Réessayez dans un instant.`

/**
 * How the invitations' call ended, from its input and its answer (the page's toast, or the wiring's once the page is
 * gone). "Renvoyer l’invitation": the server sends a new link at most once a minute (a double click, two tabs); when
 * it did not, the invitation's last sending is the one the row had, and the customer is told so rather than "envoyée".
 */
export function invitedNotice(input: InviteInput, shares: Share[]): Notice {
  const email = input.emails[0]?.toLowerCase()
  const after = shares.find((s) => s.email.toLowerCase() === email)?.invitationSentAt
  if (input.sentBefore && after === input.sentBefore) return { kind: 'info', message: invitationJustSent(input.emails[0]!) }
  return { kind: 'success', message: invitationsSent(input.emails.length, input.dropped) }
}

const inviteInput = ({ context }: { context: CollaboratorsContext }): InviteInput => ({ orderId: context.orderId, ...context.sending! })

export const collaboratorsMachine = deferred(() =>
  setup({
    types: {
      context: {} as CollaboratorsContext,
      input: {} as { orderId: number; ownEmail: string },
      events: {} as
        | { type: 'collaborators.retry' }
        | { type: 'invite.open' }
        | { type: 'invite.change'; text: string }
        | { type: 'invite.submit' }
        | { type: 'invite.cancel' }
        | { type: 'invite.resend'; share: Share }
        | { type: 'share.remove'; share: Share }
        | { type: 'share.confirm' }
        | { type: 'share.cancel' },
    },
    actors: {
      loadShares: fromPromise<Share[], { orderId: number }>(async () => {
        throw new Error('collaborators: loadShares is not provided')
      }),
      invite: fromPromise<Share[], InviteInput>(async () => {
        throw new Error('collaborators: invite is not provided')
      }),
      removeShare: fromPromise<unknown, { orderId: number; shareId: number }>(async () => {
        throw new Error('collaborators: removeShare is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      // The invitations answered replace their rows (a pending one sent again keeps its place), new ones go last.
      keepInvitations: assign({
        shares: ({ context }, output: Share[]) => [
          ...context.shares.map((s) => output.find((n) => n.id === s.id) ?? s),
          ...output.filter((n) => !context.shares.some((s) => s.id === n.id)),
        ],
      }),
    },
    guards: {
      empty: ({ context }) => splitAddresses(context.draft).length === 0,
      hasInvalid: ({ context }) => 'invalid' in inviteList(context.draft, context.shares, context.ownEmail),
      nothingNew: ({ context }) => {
        const list = inviteList(context.draft, context.shares, context.ownEmail)
        return 'emails' in list && list.emails.length === 0
      },
      /** The share is still in the list, waiting for its acceptance. */
      pending: ({ context }, share: Share) => context.shares.some((s) => s.id === share.id && s.status === 'invitée'),
      resending: stateIn({ ready: { sendingInvites: 'fromRow' } }),
    },
  }).createMachine({
    id: 'collaborators',
    context: ({ input }) => ({
      orderId: input.orderId,
      ownEmail: input.ownEmail,
      shares: [],
      draft: '',
      sending: null,
      selected: null,
      loadError: null,
      error: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadShares',
          src: 'loadShares',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'ready', actions: assign({ shares: ({ event }) => event.output, loadError: null }) },
          onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'collaborators.retry': { target: 'loading' } },
      },
      ready: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'invite.open': { target: 'inviting', actions: assign({ error: null }) },
              'share.remove': { target: 'confirmingRemoval', actions: assign({ selected: ({ event }) => event.share, error: null }) },
              'invite.resend': {
                guard: { type: 'pending', params: ({ event }) => event.share },
                target: 'sendingInvites.fromRow',
                actions: assign({
                  sending: ({ event }) => ({ emails: [event.share.email], dropped: 0, sentBefore: event.share.invitationSentAt }),
                  error: null,
                }),
              },
            },
          },
          inviting: {
            tags: ['form'],
            on: {
              'invite.change': { actions: assign({ draft: ({ event }) => event.text, error: null }) },
              'invite.submit': [
                { guard: 'empty', actions: assign({ error: INVITE_EMPTY }) },
                {
                  guard: 'hasInvalid',
                  actions: assign({
                    error: ({ context }) =>
                      invalidAddresses((inviteList(context.draft, context.shares, context.ownEmail) as { invalid: string[] }).invalid),
                  }),
                },
                { guard: 'nothingNew', actions: assign({ error: INVITE_NOTHING_NEW }) },
                {
                  target: 'sendingInvites.fromForm',
                  actions: assign({
                    sending: ({ context }) =>
                      inviteList(context.draft, context.shares, context.ownEmail) as { emails: string[]; dropped: number },
                  }),
                },
              ],
              'invite.cancel': { target: 'idle', actions: assign({ error: null }) },
            },
          },
          // From the form (its dialog stays open, busy) or from a pending row's "Renvoyer l’invitation".
          sendingInvites: {
            tags: ['busy'],
            initial: 'fromForm',
            states: {
              fromForm: { tags: ['form'] },
              fromRow: {},
            },
            invoke: {
              id: 'invite',
              src: 'invite',
              input: inviteInput,
              onDone: [
                // From a row: a draft kept from a cancelled form stays for the next "Inviter".
                {
                  guard: 'resending',
                  target: 'idle',
                  // Told before the row takes the answer (the notice compares the two sendings).
                  actions: [
                    { type: 'notify', params: ({ context, event }) => invitedNotice(inviteInput({ context }), event.output) },
                    { type: 'keepInvitations', params: ({ event }) => event.output },
                    assign({ sending: null }),
                  ],
                },
                {
                  target: 'idle',
                  actions: [
                    { type: 'keepInvitations', params: ({ event }) => event.output },
                    { type: 'notify', params: ({ context, event }) => invitedNotice(inviteInput({ context }), event.output) },
                    assign({ sending: null, draft: '' }),
                  ],
                },
              ],
              onError: [
                {
                  guard: 'resending',
                  target: 'idle',
                  actions: [
                    { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) },
                    assign({ sending: null }),
                  ],
                },
                { target: 'inviting', actions: assign({ error: ({ event }) => messageOf(event.error), sending: null }) },
              ],
            },
          },
          confirmingRemoval: {
            tags: ['confirm'],
            on: {
              'share.confirm': { target: 'removing' },
              'share.cancel': { target: 'idle', actions: assign({ selected: null, error: null }) },
            },
          },
          removing: {
            tags: ['confirm', 'busy'],
            invoke: {
              id: 'removeShare',
              src: 'removeShare',
              input: ({ context }) => ({ orderId: context.orderId, shareId: context.selected!.id }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({ shares: ({ context }) => context.shares.filter((s) => s.id !== context.selected!.id), selected: null }),
                  { type: 'notify', params: { kind: 'success', message: SHARE_REMOVED } },
                ],
              },
              onError: { target: 'confirmingRemoval', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
        },
      },
    },
  }),
)
