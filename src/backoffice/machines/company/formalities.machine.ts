// Formalités juridiques: every legal submission, those under way first; one moved on to its next step with one button
// (forward only: the step sent is the one after the step shown). Moved, it is shown at its new step, the operator told;
// refused (moved meanwhile by someone else, 409), the list is read again and the reason shown.
import { assign, fromPromise, setup } from 'xstate'
import type { LegalSubmission, LegalSubmissionStatus } from '../../../../server/contract/company.ts'
import { legalFormalityLabels, nextLegalSubmissionStep } from '../../../../server/contract/rules/formalities.ts'
import { messageOf, type Notice, statusOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export const formalityMoved = (moved: LegalSubmission) =>
  `${legalFormalityLabels[moved.kind]} de ${moved.raisonSociale} : étape « ${moved.status} » ; le client est prévenu.`

export type FormalitiesEvent = { type: 'list.retry' } | { type: 'formality.advance'; id: number }

export const formalitiesMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        submissions: LegalSubmission[] | null
        error: string | null
        /** The submission being moved, and to which step. */
        moving: { id: number; to: LegalSubmissionStatus } | null
        /** Why the last move was refused, for that submission. */
        moveError: { id: number; message: string } | null
      },
      events: {} as FormalitiesEvent,
    },
    actors: {
      load: fromPromise<LegalSubmission[], void>(async () => {
        throw new Error('formalities: load is not provided')
      }),
      move: fromPromise<LegalSubmission, { id: number; to: LegalSubmissionStatus }>(async () => {
        throw new Error('formalities: move is not provided')
      }),
    },
    actions: { notify: (_, _params: Notice) => {} },
    guards: {
      canAdvance: ({ context, event }) => {
        const submission = context.submissions?.find((s) => s.id === (event as Extract<FormalitiesEvent, { type: 'formality.advance' }>).id)
        return !!submission && nextLegalSubmissionStep(submission.status) !== null
      },
      outdated: ({ event }) => statusOf((event as { error?: unknown }).error) === 409,
    },
  }).createMachine({
    id: 'formalities',
    context: { submissions: null, error: null, moving: null, moveError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ submissions: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'list.retry': { target: 'loading' } } },
      list: {
        on: {
          'formality.advance': {
            guard: 'canAdvance',
            target: 'moving',
            actions: assign({
              moving: ({ context, event }) => ({
                id: event.id,
                to: nextLegalSubmissionStep(context.submissions!.find((s) => s.id === event.id)!.status)!,
              }),
              moveError: null,
            }),
          },
        },
      },
      moving: {
        tags: ['busy'],
        invoke: {
          id: 'move',
          src: 'move',
          input: ({ context }) => context.moving!,
          onDone: {
            target: 'list',
            actions: [
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: formalityMoved(event.output) }) },
              assign({
                submissions: ({ context, event }) => context.submissions!.map((s) => (s.id === event.output.id ? event.output : s)),
                moving: null,
              }),
            ],
          },
          onError: [
            {
              guard: 'outdated',
              target: 'loading',
              actions: assign({
                moveError: ({ context, event }) => ({ id: context.moving!.id, message: messageOf(event.error) }),
                moving: null,
              }),
            },
            {
              target: 'list',
              actions: assign({
                moveError: ({ context, event }) => ({ id: context.moving!.id, message: messageOf(event.error) }),
                moving: null,
              }),
            },
          ],
        },
      },
    },
  }),
)
