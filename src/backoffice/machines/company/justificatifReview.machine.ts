// Justificatifs: the Kbis and identity documents waiting, oldest first; one opened (its details and version, the file
// beside them), then « Valider » or « Refuser » with a reason (« Autre » with its words). A decision names the version
// opened: a file the customer replaced meanwhile is refused by the server (412), and the review says so and opens the
// new file instead, never deciding it unseen. Decided, the document leaves the list. The list shown is read again every
// LIST_REFRESH_MS while no document is open (customers' new files, other operators' decisions), without a spinner; a
// failed reading keeps it as it was until the next one.
import { assign, fromPromise, setup } from 'xstate'
import type { Justificatif, JustificatifDecision, JustificatifKind } from '../../../../server/contract/company-backoffice.ts'
import { REFUSAL_DETAIL_REQUIRED, type RefusalReason } from '../../../../server/contract/rules/justificatifs.ts'
import { messageOf, type Notice, statusOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

/** How often the list shown is read again, as the dashboard's queues. */
export const LIST_REFRESH_MS = 60_000

export interface Refusal {
  reason: RefusalReason | ''
  detail: string
}

export type Decision = { kind: 'validate' } | { kind: 'refuse'; reason: RefusalReason; detail: string | null }

export const REVIEW_MESSAGES = {
  reason: 'Choisissez le motif du refus.',
  detail: REFUSAL_DETAIL_REQUIRED,
  replaced: 'Le client a envoyé un autre fichier depuis que vous l’avez ouvert : voici le nouveau, vérifiez-le avant de décider.',
} as const

export function refusalProblems(refusal: Refusal): Partial<Record<'reason' | 'detail', string>> {
  if (!refusal.reason) return { reason: REVIEW_MESSAGES.reason }
  if (refusal.reason === 'autre' && refusal.detail.trim().length < 3) return { detail: REVIEW_MESSAGES.detail }
  return {}
}

export const decisionDone = (document: Justificatif, decision: JustificatifDecision) =>
  decision.justificatif.status === 'validé'
    ? `${document.label} de ${document.raisonSociale} validé${decision.orderValidatedAt ? ' : le dossier du client est complet' : ''}.`
    : `${document.label} de ${document.raisonSociale} refusé${decision.notified ? ' : le client est prévenu par e-mail' : ' (l’e-mail n’a pas pu partir : le portail le lui montre)'}.`

const same = (a: { kind: JustificatifKind; id: number }, b: { kind: JustificatifKind; id: number }) => a.kind === b.kind && a.id === b.id

export type JustificatifReviewEvent =
  | { type: 'list.retry' }
  | { type: 'document.open'; kind: JustificatifKind; id: number }
  | { type: 'document.close' }
  | { type: 'document.validate' }
  | { type: 'refusal.start' }
  | { type: 'refusal.cancel' }
  | { type: 'refusal.send'; refusal: Refusal }

export interface JustificatifReviewContext {
  documents: Justificatif[] | null
  error: string | null
  /** The document opened, as read (its version is what a decision names). */
  open: Justificatif | null
  /** The customer replaced the file since it was opened: said above the new one. */
  replaced: boolean
  refusal: Refusal | null
  problems: Partial<Record<'reason' | 'detail', string>>
  sendError: string | null
}

export const justificatifReviewMachine = deferred(() =>
  setup({
    types: {
      context: {} as JustificatifReviewContext,
      events: {} as JustificatifReviewEvent,
    },
    actors: {
      load: fromPromise<Justificatif[], void>(async () => {
        throw new Error('justificatifReview: load is not provided')
      }),
      openDocument: fromPromise<Justificatif, { kind: JustificatifKind; id: number }>(async () => {
        throw new Error('justificatifReview: openDocument is not provided')
      }),
      decide: fromPromise<JustificatifDecision, { document: Justificatif; decision: Decision }>(async () => {
        throw new Error('justificatifReview: decide is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** The document asked for, as listed, to be read whole. */
      openFromList: assign({
        open: ({ context, event }) =>
          context.documents!.find((d) => same(d, event as Extract<JustificatifReviewEvent, { type: 'document.open' }>))!,
        replaced: false,
        sendError: null,
      }),
    },
    guards: {
      listed: ({ context, event }) =>
        !!context.documents?.some((d) => same(d, event as Extract<JustificatifReviewEvent, { type: 'document.open' }>)),
      complete: ({ event }) =>
        Object.keys(refusalProblems((event as Extract<JustificatifReviewEvent, { type: 'refusal.send' }>).refusal)).length === 0,
      replacedMeanwhile: ({ event }) => statusOf((event as { error?: unknown }).error) === 412,
      /** Decided by someone else meanwhile (409), or gone (404): it leaves the list. */
      decidedElsewhere: ({ event }) => [404, 409].includes(statusOf((event as { error?: unknown }).error)),
      waiting: ({ event }) => (event as { output?: Justificatif }).output?.status === 'à vérifier',
    },
    delays: { refresh: LIST_REFRESH_MS },
  }).createMachine({
    id: 'justificatifReview',
    context: { documents: null, error: null, open: null, replaced: false, refusal: null, problems: {}, sendError: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        entry: assign({ error: null }),
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'list', actions: assign({ documents: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      failed: { on: { 'list.retry': { target: 'loading' } } },
      list: {
        after: { refresh: { target: 'refreshing' } },
        on: { 'document.open': { guard: 'listed', target: 'opening', actions: 'openFromList' } },
      },
      // The list read again, still on screen (and a document still opened from it: the reading is then dropped).
      refreshing: {
        invoke: {
          id: 'refresh',
          src: 'load',
          onDone: { target: 'list', actions: assign({ documents: ({ event }) => event.output }) },
          onError: { target: 'list' },
        },
        on: { 'document.open': { guard: 'listed', target: 'opening', actions: 'openFromList' } },
      },
      opening: {
        tags: ['busy'],
        invoke: {
          id: 'openDocument',
          src: 'openDocument',
          input: ({ context }) => ({ kind: context.open!.kind, id: context.open!.id }),
          onDone: [
            { guard: 'waiting', target: 'reviewing', actions: assign({ open: ({ event }) => event.output }) },
            // Decided meanwhile by another operator: it leaves the list.
            {
              target: 'list',
              actions: [
                assign({
                  documents: ({ context }) => context.documents!.filter((d) => !same(d, context.open!)),
                  error: ({ event }) => `Ce justificatif a déjà été ${event.output.status} par un autre opérateur.`,
                  open: null,
                }),
              ],
            },
          ],
          onError: { target: 'list', actions: assign({ error: ({ event }) => messageOf(event.error), open: null }) },
        },
      },
      reviewing: {
        on: {
          'document.validate': { target: 'deciding', actions: assign({ refusal: null, sendError: null }) },
          'refusal.start': { target: 'refusing', actions: assign({ refusal: { reason: '', detail: '' }, problems: {}, sendError: null }) },
          'document.close': { target: 'list', actions: assign({ open: null, replaced: false, error: null }) },
        },
      },
      refusing: {
        on: {
          'refusal.cancel': { target: 'reviewing', actions: assign({ refusal: null, problems: {}, sendError: null }) },
          'document.close': { target: 'list', actions: assign({ open: null, refusal: null, problems: {}, replaced: false, error: null }) },
          'refusal.send': [
            {
              guard: 'complete',
              target: 'deciding',
              actions: assign({ refusal: ({ event }) => event.refusal, problems: {}, sendError: null }),
            },
            { actions: assign({ refusal: ({ event }) => event.refusal, problems: ({ event }) => refusalProblems(event.refusal) }) },
          ],
        },
      },
      deciding: {
        tags: ['busy'],
        invoke: {
          id: 'decide',
          src: 'decide',
          input: ({ context }) => ({
            document: context.open!,
            decision: context.refusal
              ? {
                  kind: 'refuse' as const,
                  reason: context.refusal.reason as RefusalReason,
                  detail: context.refusal.reason === 'autre' ? context.refusal.detail.trim() : null,
                }
              : { kind: 'validate' as const },
          }),
          onDone: {
            target: 'list',
            actions: [
              {
                type: 'notify',
                params: ({ context, event }) => ({ kind: 'success' as const, message: decisionDone(context.open!, event.output) }),
              },
              assign({
                documents: ({ context }) => context.documents!.filter((d) => !same(d, context.open!)),
                open: null,
                refusal: null,
                replaced: false,
                error: null,
              }),
            ],
          },
          onError: [
            // Replaced since it was opened: never decided unseen; the new file is read and shown, the operator told.
            { guard: 'replacedMeanwhile', target: 'reloading', actions: assign({ refusal: null, problems: {} }) },
            {
              guard: 'decidedElsewhere',
              target: 'list',
              actions: assign({
                documents: ({ context }) => context.documents!.filter((d) => !same(d, context.open!)),
                error: ({ event }) => messageOf(event.error),
                open: null,
                refusal: null,
              }),
            },
            {
              target: 'reviewing',
              actions: assign({ sendError: ({ event }) => messageOf(event.error), refusal: null }),
            },
          ],
        },
      },
      reloading: {
        tags: ['busy'],
        invoke: {
          id: 'openDocument',
          src: 'openDocument',
          input: ({ context }) => ({ kind: context.open!.kind, id: context.open!.id }),
          onDone: {
            target: 'reviewing',
            actions: assign({
              open: ({ event }) => event.output,
              documents: ({ context, event }) => context.documents!.map((d) => (same(d, event.output) ? event.output : d)),
              replaced: true,
              sendError: null,
            }),
          },
          onError: { target: 'list', actions: assign({ error: ({ event }) => messageOf(event.error), open: null }) },
        },
      },
    },
  }),
)
