// /mes-representants: the order's authorised recipients (mandataires) who may collect its mail and
// packages; add one (first name, last name, e-mail, French phone number in any usual spelling, all
// required), remove one after a confirmation. A failure keeps what was typed.
import { assign, fromPromise, setup } from 'xstate'
import type { Mandataire, MandataireBody } from '../../../server/contract/people.ts'
import { normaliseFrenchPhone } from '../../../server/contract/rules/phone.ts'
import { isEmail, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { isBlank, singleLineProblem } from '../../../server/contract/rules/text.ts'

export const REPRESENTATIVE_ADDED = 'Le représentant a été ajouté : il pourra retirer le courrier et les colis au comptoir.'
export const REPRESENTATIVE_REMOVED = 'Le représentant a été retiré.'
/** Told (these two) once the page was left (the page itself says why where the customer acted). */
export const REPRESENTATIVE_NOT_ADDED = 'Le représentant n’a pas été ajouté.'
export const REPRESENTATIVE_NOT_REMOVED = 'Le représentant n’a pas été retiré.'

/** The same normalisation as the server's: one rule of the contract. */
export { normaliseFrenchPhone }

export type RepresentativeDraft = MandataireBody
export type RepresentativeProblems = Partial<Record<keyof RepresentativeDraft, string>>

const emptyDraft: RepresentativeDraft = { firstname: '', lastname: '', email: '', phone: '' }

export function representativeProblems(draft: RepresentativeDraft): RepresentativeProblems {
  const problems: RepresentativeProblems = {}
  // The text rule first, as the server's schema checks it before its handler looks for a blank name.
  const firstname = singleLineProblem(draft.firstname) ?? (isBlank(draft.firstname) ? 'Indiquez le prénom.' : null)
  const lastname = singleLineProblem(draft.lastname) ?? (isBlank(draft.lastname) ? 'Indiquez le nom.' : null)
  if (firstname) problems.firstname = firstname
  if (lastname) problems.lastname = lastname
  if (!isEmail(draft.email)) problems.email = 'Saisissez une adresse e-mail valide, par exemple nom@entreprise.fr.'
  if (!normaliseFrenchPhone(draft.phone)) problems.phone = 'Saisissez un numéro français, par exemple 06 12 34 56 78 ou +33 6 12 34 56 78.'
  return problems
}

export interface RepresentativesContext {
  orderId: number
  representatives: Mandataire[]
  draft: RepresentativeDraft
  problems: RepresentativeProblems
  selected: Mandataire | null
  loadError: string | null
  error: string | null
}

export const representativesMachine = deferred(() =>
  setup({
    types: {
      context: {} as RepresentativesContext,
      input: {} as { orderId: number },
      events: {} as
        | { type: 'representatives.retry' }
        | { type: 'representative.new' }
        | { type: 'representative.change'; draft: Partial<RepresentativeDraft> }
        | { type: 'representative.submit' }
        | { type: 'representative.remove'; representative: Mandataire }
        | { type: 'representative.confirm' }
        | { type: 'representative.cancel' },
    },
    actors: {
      loadRepresentatives: fromPromise<Mandataire[], { orderId: number }>(async () => {
        throw new Error('representatives: loadRepresentatives is not provided')
      }),
      addRepresentative: fromPromise<Mandataire, { orderId: number; representative: RepresentativeDraft }>(async () => {
        throw new Error('representatives: addRepresentative is not provided')
      }),
      removeRepresentative: fromPromise<unknown, { orderId: number; id: number }>(async () => {
        throw new Error('representatives: removeRepresentative is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      hasProblems: ({ context }) => Object.keys(representativeProblems(context.draft)).length > 0,
    },
  }).createMachine({
    id: 'representatives',
    context: ({ input }) => ({
      orderId: input.orderId,
      representatives: [],
      draft: emptyDraft,
      problems: {},
      selected: null,
      loadError: null,
      error: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadRepresentatives',
          src: 'loadRepresentatives',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: { target: 'ready', actions: assign({ representatives: ({ event }) => event.output, loadError: null }) },
          onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'representatives.retry': { target: 'loading' } },
      },
      ready: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'representative.new': { target: 'adding', actions: assign({ problems: {}, error: null }) },
              'representative.remove': {
                target: 'confirmingRemoval',
                actions: assign({ selected: ({ event }) => event.representative, error: null }),
              },
            },
          },
          adding: {
            tags: ['form'],
            on: {
              'representative.change': {
                actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.draft }), error: null }),
              },
              'representative.submit': [
                { guard: 'hasProblems', actions: assign({ problems: ({ context }) => representativeProblems(context.draft) }) },
                { target: 'saving', actions: assign({ problems: {} }) },
              ],
              'representative.cancel': { target: 'idle', actions: assign({ problems: {}, error: null }) },
            },
          },
          saving: {
            tags: ['form', 'busy'],
            invoke: {
              id: 'addRepresentative',
              src: 'addRepresentative',
              input: ({ context }) => ({
                orderId: context.orderId,
                representative: {
                  firstname: context.draft.firstname.trim(),
                  lastname: context.draft.lastname.trim(),
                  email: context.draft.email.trim(),
                  phone: normaliseFrenchPhone(context.draft.phone)!,
                },
              }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({
                    representatives: ({ context, event }) => [
                      ...context.representatives.filter((r) => r.id !== event.output.id),
                      event.output,
                    ],
                    draft: emptyDraft,
                  }),
                  { type: 'notify', params: { kind: 'success', message: REPRESENTATIVE_ADDED } },
                ],
              },
              onError: { target: 'adding', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
          },
          confirmingRemoval: {
            tags: ['confirm'],
            on: {
              'representative.confirm': { target: 'removing' },
              'representative.cancel': { target: 'idle', actions: assign({ selected: null, error: null }) },
            },
          },
          removing: {
            tags: ['confirm', 'busy'],
            invoke: {
              id: 'removeRepresentative',
              src: 'removeRepresentative',
              input: ({ context }) => ({ orderId: context.orderId, id: context.selected!.id }),
              onDone: {
                target: 'idle',
                actions: [
                  assign({
                    representatives: ({ context }) => context.representatives.filter((r) => r.id !== context.selected!.id),
                    selected: null,
                  }),
                  { type: 'notify', params: { kind: 'success', message: REPRESENTATIVE_REMOVED } },
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
