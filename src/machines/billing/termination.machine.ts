// "Résilier" for one order (Mes abonnements; "Résilier ma domiciliation" on Gestion de mon entreprise mounts the same
// form): the order's request if it has one ("Résiliation demandée pour le {date}"), else a form — reason (a list, with
// details required for "Autre motif"), an optional comment, the wished date, not before the end of the current period
// nor more than two years ahead (server/contract/rules/termination.ts, the server's rule) —
// sent with POST /api-protected/termination-requests. A 409 (already requested, e.g. from another tab) reads the
// request again; any other refusal keeps the form as typed and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { TerminationRequestBody, TerminationRequestReply, TerminationStatus } from '../../../server/contract/billing.ts'
import { latestTerminationDate, parisToday, terminationTooFarText } from '../../../server/contract/rules/termination.ts'
import { messageOf, type Notice, statusOf } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { freeTextProblem, isBlank, plainLineBreaks } from '../../../server/contract/rules/text.ts'
import { frenchDay } from '../../../server/contract/rules/french-date.ts'

export const TERMINATION_REASONS = [
  'Cessation d’activité',
  'Transfert du siège social',
  'Changement de prestataire',
  'Tarifs trop élevés',
  'Services inadaptés à mes besoins',
  'Autre motif',
] as const
export const OTHER_REASON = 'Autre motif'

/** Told once the page was left (the page itself says why in its form). */
export const TERMINATION_NOT_SENT = 'Votre demande de résiliation n’a pas été enregistrée.'
export const TERMINATION_NO_REASON = 'Choisissez le motif de votre résiliation.'
export const TERMINATION_NO_DETAILS = 'Précisez le motif de votre résiliation.'
export const TERMINATION_NO_DATE = 'Indiquez la date souhaitée au format JJ/MM/AAAA.'
export const terminationTooEarly = (earliest: string) =>
  `La résiliation ne peut prendre effet avant la fin de la période en cours : choisissez le ${frenchDay(earliest)} ou une date ultérieure.`
/** A date past the last day allowed: the server's words (TOO_FAR). */
export const terminationTooFar = (latest: string) => terminationTooFarText(frenchDay(latest))
export const TERMINATION_SENT = 'Votre demande de résiliation a bien été enregistrée ; nous vous confirmons sa prise en compte par e-mail.'

export interface TerminationDraft {
  reason: string
  comment: string
  /** YYYY-MM-DD, as a date input gives it. */
  date: string
}
export type TerminationField = keyof TerminationDraft

export interface TerminationContext {
  orderId: number
  /** Today in Paris (YYYY-MM-DD): the last day allowed is counted from it. */
  today: string
  earliestDate: string | null
  /** The last day a termination may be asked for, known with the earliest one. */
  latestDate: string | null
  /** The date of the request made, once there is one. */
  requestedDate: string | null
  /** The day the domiciliation ends, once the provider accepted the request (« Domiciliation résiliée au … »). */
  endDate: string | null
  draft: TerminationDraft
  fieldErrors: Partial<Record<TerminationField, string>>
  error: string | null
}

export type TerminationEvent =
  | { type: 'termination.retry' }
  | { type: 'termination.open' }
  | { type: 'termination.change'; draft: Partial<TerminationDraft> }
  | { type: 'termination.submit' }
  | { type: 'termination.cancel' }

/** What is wrong with a draft, field by field (empty when it can be sent). */
export function terminationProblems(
  draft: TerminationDraft,
  earliestDate: string | null,
  latestDate: string | null = null,
): Partial<Record<TerminationField, string>> {
  const problems: Partial<Record<TerminationField, string>> = {}
  if (!(TERMINATION_REASONS as readonly string[]).includes(draft.reason)) problems.reason = TERMINATION_NO_REASON
  else if (draft.reason === OTHER_REASON && isBlank(draft.comment)) problems.comment = TERMINATION_NO_DETAILS
  const hidden = freeTextProblem(draft.comment)
  if (hidden) problems.comment = hidden
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.date) || Number.isNaN(Date.parse(draft.date))) problems.date = TERMINATION_NO_DATE
  else if (earliestDate && draft.date < earliestDate) problems.date = terminationTooEarly(earliestDate)
  else if (latestDate && draft.date > latestDate) problems.date = terminationTooFar(latestDate)
  return problems
}

export const terminationMachine = deferred(() =>
  setup({
    types: {
      context: {} as TerminationContext,
      /** today: for tests; the current day in Paris otherwise. */
      input: {} as { orderId: number; today?: string },
      events: {} as TerminationEvent,
    },
    actors: {
      /** GET …/{id}/termination-request. */
      loadStatus: fromPromise<TerminationStatus, { orderId: number }>(async () => {
        throw new Error('termination: loadStatus is not provided')
      }),
      /** POST /api-protected/termination-requests. */
      sendRequest: fromPromise<TerminationRequestReply, TerminationRequestBody>(async () => {
        throw new Error('termination: sendRequest is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      hasRequest: (_, params: { status: TerminationStatus }) => params.status.request !== null,
      draftInvalid: ({ context }) => Object.keys(terminationProblems(context.draft, context.earliestDate, context.latestDate)).length > 0,
      alreadyRequested: (_, params: { error: unknown }) => statusOf(params.error) === 409,
    },
  }).createMachine({
    id: 'termination',
    context: ({ input }) => ({
      orderId: input.orderId,
      today: input.today ?? parisToday(),
      earliestDate: null,
      latestDate: null,
      requestedDate: null,
      endDate: null,
      draft: { reason: '', comment: '', date: '' },
      fieldErrors: {},
      error: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'loadStatus',
          src: 'loadStatus',
          input: ({ context }) => ({ orderId: context.orderId }),
          onDone: [
            {
              guard: { type: 'hasRequest', params: ({ event }) => ({ status: event.output }) },
              target: 'requested',
              actions: assign({
                requestedDate: ({ event }) => event.output.request!.date,
                endDate: ({ event }) => event.output.request!.endDate,
                earliestDate: ({ event }) => event.output.earliestDate,
              }),
            },
            {
              target: 'available',
              actions: assign({
                earliestDate: ({ event }) => event.output.earliestDate,
                latestDate: ({ context, event }) => latestTerminationDate(context.today, event.output.earliestDate),
              }),
            },
          ],
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: {
        on: { 'termination.retry': { target: 'loading', actions: assign({ error: null }) } },
      },
      available: {
        on: {
          'termination.open': {
            target: 'editing',
            // The earliest date is offered; what was typed before a cancel is kept.
            actions: assign({
              draft: ({ context }) => ({ ...context.draft, date: context.draft.date || context.earliestDate! }),
              fieldErrors: {},
              error: null,
            }),
          },
        },
      },
      editing: {
        tags: ['form'],
        on: {
          'termination.change': {
            actions: assign({
              draft: ({ context, event }) => ({
                ...context.draft,
                ...event.draft,
                ...(event.draft.comment !== undefined ? { comment: plainLineBreaks(event.draft.comment) } : {}),
              }),
              fieldErrors: ({ context, event }) =>
                Object.fromEntries(Object.entries(context.fieldErrors).filter(([field]) => !(field in event.draft))),
            }),
          },
          'termination.submit': [
            {
              guard: 'draftInvalid',
              actions: assign({
                fieldErrors: ({ context }) => terminationProblems(context.draft, context.earliestDate, context.latestDate),
                error: null,
              }),
            },
            { target: 'sending', actions: assign({ fieldErrors: {}, error: null }) },
          ],
          'termination.cancel': { target: 'available', actions: assign({ fieldErrors: {}, error: null }) },
        },
      },
      sending: {
        tags: ['form', 'busy'],
        invoke: {
          id: 'sendRequest',
          src: 'sendRequest',
          input: ({ context }) => ({
            orderId: context.orderId,
            reason: context.draft.reason,
            date: context.draft.date,
            ...(!isBlank(context.draft.comment) ? { comment: context.draft.comment.trim() } : {}),
          }),
          onDone: {
            target: 'requested',
            actions: [
              assign({ requestedDate: ({ context }) => context.draft.date }),
              { type: 'notify', params: { kind: 'success', message: TERMINATION_SENT } },
            ],
          },
          onError: [
            {
              guard: { type: 'alreadyRequested', params: ({ event }) => ({ error: event.error }) },
              target: 'loading',
              actions: { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) },
            },
            { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      requested: {},
    },
  }),
)
