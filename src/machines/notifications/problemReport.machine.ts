// The problem report (spec §2, §5, §8): with no specific order it is refused and nothing is sent;
// otherwise it is sent and, only on success, the box is cleared.
import { assign, fromPromise, setup } from 'xstate'
import { messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'
import { freeTextProblem, isBlank, plainLineBreaks } from '../../../server/contract/rules/text.ts'

export const PROBLEM_NO_ORDER = 'Veuillez sélectionner une commande spécifique'
export const PROBLEM_SENT = 'Votre demande est envoyé, nous revenons vers vous au plus vite'
export const PROBLEM_EMPTY = 'Veuillez décrire votre problème avant de l’envoyer.'

export interface ProblemReportContext {
  message: string
  error: string | null
  /** The order the report being sent is about. */
  orderId: number | null
}

export type ProblemReportEvent =
  | { type: 'problem.open' }
  | { type: 'problem.close' }
  | { type: 'problem.change'; message: string }
  | { type: 'problem.submit'; orderId: number | null }

export const problemReportMachine = deferred(() =>
  setup({
    types: {
      context: {} as ProblemReportContext,
      events: {} as ProblemReportEvent,
    },
    actors: {
      sendProblem: fromPromise<unknown, { orderId: number; message: string }>(async () => {
        throw new Error('problemReport: sendProblem is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
    },
    guards: {
      hasNoOrder: (_, params: { orderId: number | null }) => params.orderId === null,
      /** The server's schema refuses it before its handler looks for a blank message. */
      hasHiddenControl: ({ context }) => freeTextProblem(context.message) !== null,
      isBlank: ({ context }) => isBlank(context.message),
    },
  }).createMachine({
    id: 'problemReport',
    context: { message: '', error: null, orderId: null },
    initial: 'closed',
    states: {
      closed: {
        on: { 'problem.open': { target: 'open', actions: assign({ error: null }) } },
      },
      open: {
        tags: ['modal'],
        initial: 'editing',
        states: {
          editing: {
            on: {
              'problem.close': { target: '#problemReport.closed' },
              'problem.change': { actions: assign({ message: ({ event }) => plainLineBreaks(event.message), error: null }) },
              'problem.submit': [
                {
                  guard: { type: 'hasNoOrder', params: ({ event }) => ({ orderId: event.orderId }) },
                  actions: { type: 'notify', params: { kind: 'error', message: PROBLEM_NO_ORDER } },
                },
                { guard: 'hasHiddenControl', actions: assign({ error: ({ context }) => freeTextProblem(context.message) }) },
                { guard: 'isBlank', actions: assign({ error: PROBLEM_EMPTY }) },
                { target: 'sending', actions: assign({ orderId: ({ event }) => event.orderId }) },
              ],
            },
          },
          sending: {
            tags: ['busy'],
            invoke: {
              id: 'sendProblem',
              src: 'sendProblem',
              input: ({ context }) => ({ orderId: context.orderId!, message: context.message.trim() }),
              onDone: {
                target: '#problemReport.closed',
                actions: [assign({ message: '', error: null }), { type: 'notify', params: { kind: 'success', message: PROBLEM_SENT } }],
              },
              onError: {
                target: 'editing',
                actions: { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) },
              },
            },
          },
        },
      },
    },
  }),
)
