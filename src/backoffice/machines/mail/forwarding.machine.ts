// Réexpéditions: the pending forwarding requests of every customer, oldest first; one at a time marked « Expédié »
// (carrier and tracking number, which the customer sees with the carrier's link) or « Impossible » (the reason the
// customer reads). Done, the request leaves the list; a refusal keeps the form as typed and says why.
import { assign, fromPromise, setup } from 'xstate'
import type { ForwardingDone, ForwardingRequest } from '../../../../server/contract/mail-backoffice.ts'
import { TRACKING_NUMBER_PATTERN } from '../../../../server/contract/rules/carriers.ts'
import { isBlank } from '../../../../server/contract/rules/text.ts'
import { messageOf, type Notice } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export type Outcome = { kind: 'shipped'; carrier: string; trackingNumber: string } | { kind: 'impossible'; reason: string }

export const FORWARDING_MESSAGES = {
  carrier: 'Indiquez le transporteur.',
  trackingNumber: 'Le numéro de suivi compte de 4 à 40 lettres ou chiffres (espaces et tirets permis entre eux).',
  reason: 'Expliquez au client pourquoi le courrier ne peut pas partir (3 caractères au moins).',
} as const

const tracking = new RegExp(TRACKING_NUMBER_PATTERN)

export function outcomeProblems(outcome: Outcome): Partial<Record<'carrier' | 'trackingNumber' | 'reason', string>> {
  if (outcome.kind === 'impossible') return outcome.reason.trim().length < 3 ? { reason: FORWARDING_MESSAGES.reason } : {}
  return {
    ...(isBlank(outcome.carrier) ? { carrier: FORWARDING_MESSAGES.carrier } : {}),
    ...(tracking.test(outcome.trackingNumber.trim()) ? {} : { trackingNumber: FORWARDING_MESSAGES.trackingNumber }),
  }
}

export const forwardingDone = (request: ForwardingRequest, done: ForwardingDone) =>
  done.outcome.kind === 'expédiée'
    ? `Réexpédition de ${request.raisonSociale} marquée expédiée (${done.outcome.carrier}, ${done.outcome.trackingNumber}).`
    : `Réexpédition de ${request.raisonSociale} marquée impossible : le client en lit la raison.`

export type ForwardingEvent =
  | { type: 'list.retry' }
  | { type: 'request.open'; id: number; kind: Outcome['kind'] }
  | { type: 'request.cancel' }
  | { type: 'request.send'; outcome: Outcome }

export const forwardingMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        requests: ForwardingRequest[] | null
        error: string | null
        /** The request whose form is open, and which one. */
        open: { id: number; kind: Outcome['kind'] } | null
        outcome: Outcome | null
        problems: Partial<Record<'carrier' | 'trackingNumber' | 'reason', string>>
        sendError: string | null
      },
      events: {} as ForwardingEvent,
    },
    actors: {
      load: fromPromise<ForwardingRequest[], void>(async () => {
        throw new Error('forwarding: load is not provided')
      }),
      send: fromPromise<ForwardingDone, { id: number; outcome: Outcome }>(async () => {
        throw new Error('forwarding: send is not provided')
      }),
    },
    actions: { notify: (_, _params: Notice) => {} },
    guards: {
      listed: ({ context, event }) =>
        !!context.requests?.some((r) => r.id === (event as Extract<ForwardingEvent, { type: 'request.open' }>).id),
      complete: ({ context, event }) => {
        const { outcome } = event as Extract<ForwardingEvent, { type: 'request.send' }>
        return outcome.kind === context.open?.kind && Object.keys(outcomeProblems(outcome)).length === 0
      },
    },
  }).createMachine({
    id: 'forwarding',
    context: { requests: null, error: null, open: null, outcome: null, problems: {}, sendError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ requests: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'list.retry': { target: 'loading' } } },
      list: {
        on: {
          'request.open': {
            guard: 'listed',
            target: 'form',
            actions: assign({ open: ({ event }) => ({ id: event.id, kind: event.kind }), outcome: null, problems: {}, sendError: null }),
          },
        },
      },
      form: {
        on: {
          'request.cancel': { target: 'list', actions: assign({ open: null, outcome: null, problems: {}, sendError: null }) },
          'request.open': {
            guard: 'listed',
            actions: assign({ open: ({ event }) => ({ id: event.id, kind: event.kind }), outcome: null, problems: {}, sendError: null }),
          },
          'request.send': [
            {
              guard: 'complete',
              target: 'sending',
              actions: assign({ outcome: ({ event }) => event.outcome, problems: {}, sendError: null }),
            },
            {
              actions: assign({
                outcome: ({ event }) => event.outcome,
                problems: ({ event }) => outcomeProblems(event.outcome),
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
          input: ({ context }) => ({ id: context.open!.id, outcome: context.outcome! }),
          onDone: {
            target: 'list',
            actions: [
              {
                type: 'notify',
                params: ({ context, event }) => ({
                  kind: 'success' as const,
                  message: forwardingDone(context.requests!.find((r) => r.id === context.open!.id)!, event.output),
                }),
              },
              assign({
                requests: ({ context }) => context.requests!.filter((r) => r.id !== context.open!.id),
                open: null,
                outcome: null,
              }),
            ],
          },
          onError: { target: 'form', actions: assign({ sendError: ({ event }) => messageOf(event.error) }) },
        },
      },
    },
  }),
)
