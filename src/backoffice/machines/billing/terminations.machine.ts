// Résiliations: the termination requests, waiting ones first (the server's order); one at a time « Accepter » with an end
// date (a day, neither past nor beyond the rule's last day; the customer's day by default) or « Contacter le client » with
// a first message, which opens a conversation and goes to it in Messages. A refusal keeps the form as typed and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { BackofficeTermination } from '../../../../server/contract/billing-backoffice.ts'
import { frenchDay } from '../../../../server/contract/rules/french-date.ts'
import { latestTerminationDate } from '../../../../server/contract/rules/termination.ts'
import { isBlank } from '../../../../server/contract/rules/text.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type TerminationAction = { kind: 'accept'; endDate: string } | { kind: 'contact'; message: string }

export const TERMINATION_MESSAGES = {
  endDate: 'Saisissez la date de fin, par exemple 31/12/2026.',
  pastEndDate: 'La date de fin ne peut pas être dans le passé : choisissez aujourd’hui ou une date ultérieure.',
  tooFar: (latest: string) => `La date de fin ne peut pas dépasser le ${frenchDay(latest)}.`,
  message: 'Écrivez votre message au client avant de l’envoyer.',
  accepted: (raisonSociale: string, endDate: string) =>
    `Résiliation de ${raisonSociale} acceptée : la domiciliation prend fin le ${frenchDay(endDate)}.`,
  contacted: (raisonSociale: string) => `Message envoyé à ${raisonSociale} : la conversation est ouverte dans Messages.`,
} as const

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** What is wrong with the form, as the server would say it (`today` in Paris, YYYY-MM-DD). */
export function terminationProblem(action: TerminationAction, request: BackofficeTermination, today: string): string | null {
  if (action.kind === 'contact') return isBlank(action.message) ? TERMINATION_MESSAGES.message : null
  // A day of the calendar: 2026-02-30 is none (Date would move it to March).
  const day = DAY.test(action.endDate) ? new Date(`${action.endDate}T12:00:00Z`) : null
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== action.endDate) return TERMINATION_MESSAGES.endDate
  if (action.endDate < today) return TERMINATION_MESSAGES.pastEndDate
  const latest = latestTerminationDate(today, request.requestedDate)
  return action.endDate > latest ? TERMINATION_MESSAGES.tooFar(latest) : null
}

export type TerminationsEvent =
  | { type: 'list.retry' }
  | { type: 'termination.open'; id: number; kind: TerminationAction['kind'] }
  | { type: 'termination.cancel' }
  | { type: 'termination.send'; action: TerminationAction }

export const terminationsMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        /** Today in Paris (YYYY-MM-DD): an end date before it is refused. */
        today: string
        terminations: BackofficeTermination[] | null
        error: string | null
        /** The request whose form is open, and which form. */
        open: { id: number; kind: TerminationAction['kind'] } | null
        /** What was typed, kept when it is refused. */
        action: TerminationAction | null
        problem: string | null
        sendError: string | null
      },
      input: {} as { today: string },
      events: {} as TerminationsEvent,
    },
    actors: {
      load: fromPromise<BackofficeTermination[], void>(async () => {
        throw new Error('terminations: load is not provided')
      }),
      send: fromPromise<BackofficeTermination, { id: number; action: TerminationAction }>(async () => {
        throw new Error('terminations: send is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** Goes to the conversation « Contacter le client » opened, in Messages. */
      openConversation: (_, _params: { conversationId: number | null }) => {},
    },
    guards: {
      /** Listed and still open to that action: waiting to accept, never contacted to contact. */
      actionable: ({ context, event }) => {
        const { id, kind } = event as Extract<TerminationsEvent, { type: 'termination.open' }>
        const found = context.terminations?.find((t) => t.id === id)
        return !!found && (kind === 'accept' ? found.state === 'en attente' : found.conversationId === null)
      },
      contacted: ({ context }) => context.action?.kind === 'contact',
      complete: ({ context, event }) => {
        const { action } = event as Extract<TerminationsEvent, { type: 'termination.send' }>
        const request = context.terminations?.find((t) => t.id === context.open?.id)
        return !!request && action.kind === context.open?.kind && terminationProblem(action, request, context.today) === null
      },
    },
  }).createMachine({
    id: 'terminations',
    context: ({ input }) => ({
      today: input.today,
      terminations: null,
      error: null,
      open: null,
      action: null,
      problem: null,
      sendError: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ terminations: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'list.retry': { target: 'loading' } } },
      list: {
        on: {
          'termination.open': {
            guard: 'actionable',
            target: 'form',
            actions: assign({ open: ({ event }) => ({ id: event.id, kind: event.kind }), action: null, problem: null, sendError: null }),
          },
        },
      },
      form: {
        on: {
          'termination.cancel': { target: 'list', actions: assign({ open: null, action: null, problem: null, sendError: null }) },
          'termination.open': {
            guard: 'actionable',
            actions: assign({ open: ({ event }) => ({ id: event.id, kind: event.kind }), action: null, problem: null, sendError: null }),
          },
          'termination.send': [
            {
              guard: 'complete',
              target: 'sending',
              actions: assign({ action: ({ event }) => event.action, problem: null, sendError: null }),
            },
            {
              actions: assign({
                action: ({ event }) => event.action,
                problem: ({ context, event }) =>
                  terminationProblem(event.action, context.terminations!.find((t) => t.id === context.open!.id)!, context.today) ??
                  TERMINATION_MESSAGES.endDate,
                sendError: null,
              }),
            },
          ],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'send',
          src: 'send',
          input: ({ context }) => ({ id: context.open!.id, action: context.action! }),
          onDone: [
            {
              guard: 'contacted',
              target: 'list',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    kind: 'success' as const,
                    message: TERMINATION_MESSAGES.contacted(event.output.raisonSociale),
                  }),
                },
                assign({
                  terminations: ({ context, event }) => context.terminations!.map((t) => (t.id === event.output.id ? event.output : t)),
                  open: null,
                  action: null,
                }),
                { type: 'openConversation', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
              ],
            },
            {
              target: 'list',
              actions: [
                {
                  type: 'notify',
                  params: ({ context, event }) => ({
                    kind: 'success' as const,
                    message: TERMINATION_MESSAGES.accepted(event.output.raisonSociale, (context.action as { endDate: string }).endDate),
                  }),
                },
                assign({
                  terminations: ({ context, event }) => context.terminations!.map((t) => (t.id === event.output.id ? event.output : t)),
                  open: null,
                  action: null,
                }),
              ],
            },
          ],
          onError: { target: 'form', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
