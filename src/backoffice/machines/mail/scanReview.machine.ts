// Numérisation › a scan's review: the order (suggested, or chosen in the list), the sender and the kind, saved as
// confirmed or kept aside; « Publier » once confirmed, or « Supprimer » after a confirmation. Published (by this
// operator, or by another meanwhile: a 409) or deleted, the scan leaves the queue. A refusal leaves the form as typed.
import { assign, fromPromise, setup } from 'xstate'
import type { MailScan, PublishedScan, ScanReviewBody } from '../../../../server/contract/mail-backoffice.ts'
import { isBlank } from '../../../../server/contract/rules/text.ts'
import { messageOf, type Notice, statusOf } from '../../../machines/shared.ts'
import { deferred } from '../../../machines/deferred.ts'

export const ORDER_NEEDED = 'Choisissez la domiciliation de ce courrier.'
export const SENDER_NEEDED = 'Indiquez l’expéditeur.'

/** What the form lacks before it is saved. */
export function reviewProblems(values: Partial<ScanReviewBody>): { orderId?: string; sender?: string } {
  return {
    ...(values.orderId ? {} : { orderId: ORDER_NEEDED }),
    ...(values.sender && !isBlank(values.sender) ? {} : { sender: SENDER_NEEDED }),
  }
}

export const publishedFor = (published: PublishedScan) =>
  `Courrier de ${published.document.sender} publié pour ${published.document.raisonSociale}.`
export const deletedScan = (fileName: string) => `Le scan « ${fileName} » est supprimé.`

export type ScanReviewEvent =
  | { type: 'review.save'; values: Partial<ScanReviewBody> & { confirmed: boolean } }
  | { type: 'review.publish' }
  | { type: 'review.delete' }
  | { type: 'review.confirmDelete' }
  | { type: 'review.cancel' }
  | { type: 'review.sync'; scan: MailScan }

export const scanReviewMachine = deferred(() =>
  setup({
    types: {
      context: {} as {
        scan: MailScan
        problems: { orderId?: string; sender?: string }
        error: string | null
      },
      events: {} as ScanReviewEvent,
      input: {} as { scan: MailScan },
    },
    actors: {
      review: fromPromise<MailScan, { id: number; body: ScanReviewBody }>(async () => {
        throw new Error('scanReview: review is not provided')
      }),
      publish: fromPromise<PublishedScan, { id: number }>(async () => {
        throw new Error('scanReview: publish is not provided')
      }),
      remove: fromPromise<unknown, { id: number }>(async () => {
        throw new Error('scanReview: remove is not provided')
      }),
    },
    actions: {
      /** The queue hears of the scan as saved (provided by the queue's page). */
      changed: (_, _params: { scan: MailScan }) => {},
      /** The scan left the queue (published or deleted). */
      removed: (_, _params: { id: number }) => {},
      notify: (_, _params: Notice) => {},
    },
    guards: {
      complete: ({ event }) =>
        Object.keys(reviewProblems((event as Extract<ScanReviewEvent, { type: 'review.save' }>).values)).length === 0,
      confirmed: ({ context }) => context.scan.confirmed && !context.scan.toCheck,
      alreadyPublished: ({ event }) => statusOf((event as { error?: unknown }).error) === 409,
    },
  }).createMachine({
    id: 'scanReview',
    context: ({ input }) => ({ scan: input.scan, problems: {}, error: null }),
    initial: 'editing',
    states: {
      editing: {
        on: {
          'review.save': [
            { guard: 'complete', target: 'saving', actions: assign({ problems: {}, error: null }) },
            { actions: assign({ problems: ({ event }) => reviewProblems(event.values), error: null }) },
          ],
          'review.publish': { guard: 'confirmed', target: 'publishing', actions: assign({ error: null }) },
          'review.delete': { target: 'confirmingDelete', actions: assign({ error: null }) },
          'review.sync': { actions: assign({ scan: ({ event }) => event.scan }) },
        },
      },
      saving: {
        tags: ['busy'],
        invoke: {
          id: 'review',
          src: 'review',
          input: ({ context, event }) => {
            const { values } = event as Extract<ScanReviewEvent, { type: 'review.save' }>
            return {
              id: context.scan.id,
              body: {
                orderId: values.orderId!,
                sender: values.sender!.trim(),
                kind: values.kind ?? 'courrier',
                confirmed: values.confirmed,
              },
            }
          },
          onDone: {
            target: 'editing',
            actions: [assign({ scan: ({ event }) => event.output }), { type: 'changed', params: ({ event }) => ({ scan: event.output }) }],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      publishing: {
        tags: ['busy'],
        invoke: {
          id: 'publish',
          src: 'publish',
          input: ({ context }) => ({ id: context.scan.id }),
          onDone: {
            target: 'gone',
            actions: [
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: publishedFor(event.output) }) },
              { type: 'removed', params: ({ context }) => ({ id: context.scan.id }) },
            ],
          },
          onError: [
            // Published by another operator meanwhile: it is no longer in the queue, which is what was wanted.
            {
              guard: 'alreadyPublished',
              target: 'gone',
              actions: [
                { type: 'notify', params: ({ event }) => ({ kind: 'info' as const, message: messageOf(event.error) }) },
                { type: 'removed', params: ({ context }) => ({ id: context.scan.id }) },
              ],
            },
            { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
      },
      confirmingDelete: {
        on: { 'review.confirmDelete': { target: 'deleting' }, 'review.cancel': { target: 'editing' } },
      },
      deleting: {
        tags: ['busy'],
        invoke: {
          id: 'remove',
          src: 'remove',
          input: ({ context }) => ({ id: context.scan.id }),
          onDone: {
            target: 'gone',
            actions: [
              { type: 'notify', params: ({ context }) => ({ kind: 'success' as const, message: deletedScan(context.scan.fileName) }) },
              { type: 'removed', params: ({ context }) => ({ id: context.scan.id }) },
            ],
          },
          onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
      },
      gone: { type: 'final' },
    },
  }),
)
