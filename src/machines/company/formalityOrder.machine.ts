// Ordering a legal formality from the catalogue (/formalites-juridique). The three order checks
// (is-complete-kbis, is-waiting-contract, is-attente-courrier-or-finalise) decide what can be
// ordered now and say why not otherwise; "Commander" opens a confirmation (what it needs, price,
// time, a comment), then POST legal-submissions records the request that the jurists follow up.
// Ordering is the owner's: a collaborator of a shared order reads the catalogue only.
import { assign, fromPromise, setup } from 'xstate'
import type { LegalSubmission, LegalSubmissionKind } from '../../../server/contract/company.ts'
import { type OrderChecks, refusalFor, refusals } from '../../../server/contract/rules/formalities.ts'
import { plainLineBreaks } from '../../../server/contract/rules/text.ts'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export type { OrderChecks }

export type FormalityKind = LegalSubmissionKind

export type CheckAnswers = { [K in keyof OrderChecks]: boolean | undefined }

// The server judges an order with the same rule and words (server/contract/rules/formalities.ts).
export { refusalFor, refusals }

export const CHECKS_FAILED =
  'Nous n’avons pas pu vérifier l’état de votre dossier : les formalités ne peuvent pas être commandées pour le moment.'
export const ORDER_OWNER_ONLY = 'Seul le titulaire de la domiciliation peut commander une formalité.'
export const FORMALITY_ORDERED = 'Votre demande est enregistrée : nos juristes vous contactent sous 48 heures ouvrées.'
/** Told once the page was left (the page itself says why where the customer acted). */
export const FORMALITY_NOT_ORDERED = 'Votre demande de formalité n’a pas été enregistrée.'
export const FORMALITIES_PATH = '/formalites'

const known = (answers: CheckAnswers): answers is OrderChecks => Object.values(answers).every((a) => typeof a === 'boolean')

export interface FormalityOrderContext {
  orderId: number
  isShareOrder: boolean
  checks: OrderChecks | null
  kind: FormalityKind | null
  comment: string
  error: string | null
}

export type FormalityOrderEvent =
  | { type: 'checks.retry' }
  | { type: 'formality.choose'; kind: FormalityKind }
  | { type: 'formality.comment'; comment: string }
  | { type: 'formality.confirm' }
  | { type: 'formality.cancel' }

export const formalityOrderMachine = deferred(() =>
  setup({
    types: {
      context: {} as FormalityOrderContext,
      input: {} as { orderId: number; isShareOrder: boolean },
      events: {} as FormalityOrderEvent,
    },
    actors: {
      checkOrder: fromPromise<CheckAnswers, { orderId: number }>(async () => {
        throw new Error('formalityOrder: checkOrder is not provided')
      }),
      createSubmission: fromPromise<LegalSubmission, { orderId: number; kind: FormalityKind; comment: string }>(async () => {
        throw new Error('formalityOrder: createSubmission is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** The request is recorded: show where it is followed (provided by the wiring). */
      ordered: (_, _params: { submission: LegalSubmission }) => {},
    },
    guards: {
      checksKnown: (_, params: { answers: CheckAnswers }) => known(params.answers),
      isShareOrder: ({ context }) => context.isShareOrder,
      allowed: ({ context }, params: { kind: FormalityKind }) =>
        context.checks !== null && refusalFor(params.kind, context.checks) === null,
    },
  }).createMachine({
    id: 'formalityOrder',
    context: ({ input }) => ({ ...input, checks: null, kind: null, comment: '', error: null }),
    initial: 'checking',
    states: {
      checking: {
        tags: ['loading'],
        invoke: {
          id: 'checkOrder',
          src: 'checkOrder',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: [
            {
              guard: { type: 'checksKnown', params: ({ event }) => ({ answers: event.output }) },
              target: 'ready',
              actions: assign({ checks: ({ event }) => event.output as OrderChecks }),
            },
            { target: 'checkFailed', actions: assign({ error: CHECKS_FAILED }) },
          ],
          onError: { target: 'checkFailed', actions: assign({ error: ({ event }) => messageOf(event.error, CHECKS_FAILED) }) },
        },
      },
      checkFailed: {
        on: { 'checks.retry': { target: 'checking', actions: assign({ error: null }) } },
      },
      ready: {
        on: {
          'formality.choose': [
            { guard: 'isShareOrder', actions: assign({ error: ORDER_OWNER_ONLY }) },
            {
              guard: { type: 'allowed', params: ({ event }) => ({ kind: event.kind }) },
              target: 'confirming',
              actions: assign({ kind: ({ event }) => event.kind, comment: '', error: null }),
            },
            { actions: assign({ error: ({ context, event }) => refusalFor(event.kind, context.checks!) }) },
          ],
        },
      },
      confirming: {
        tags: ['modal'],
        on: {
          'formality.comment': { actions: assign({ comment: ({ event }) => plainLineBreaks(event.comment) }) },
          'formality.confirm': { target: 'ordering', actions: assign({ error: null }) },
          'formality.cancel': { target: 'ready', actions: assign({ kind: null, comment: '', error: null }) },
        },
      },
      ordering: {
        tags: ['modal', 'busy'],
        invoke: {
          id: 'createSubmission',
          src: 'createSubmission',
          input: ({ context }) => ({ orderId: context.orderId, kind: context.kind!, comment: context.comment.trim() }),
          onDone: {
            target: 'ordered',
            actions: [
              { type: 'notify', params: { kind: 'success', message: FORMALITY_ORDERED } },
              { type: 'ordered', params: ({ event }) => ({ submission: event.output }) },
            ],
          },
          // The modal stays open with what was typed, and says why.
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      ordered: { type: 'final' },
    },
  }),
)
