// The accounting export (/mes-courriers/export-comptable): pick invoices and letters, send them to
// the customer's accounting inbox (Dext) with POST send-dext-invoices. They go in batches, so the
// progress is real; the result says what was sent and what was not, and why, when it partly fails.
// The address is remembered once something went through (`rememberEmail`). The items are picked from
// the lists of the order shown in the header: another order (`order.change`) drops them, and a result.
import { assign, fromPromise, setup } from 'xstate'
import type { SendDextBody, SendDextReply } from '../../../server/contract/billing.ts'
import { isEmail, messageOf } from '../shared.ts'
import { deferred } from '../deferred.ts'

export const BATCH_SIZE = 10
export const EXPORT_NOTHING_PICKED = 'Choisissez au moins une facture ou un courrier à envoyer.'
export const EXPORT_BAD_EMAIL = 'Saisissez l’adresse e-mail de votre boîte de réception comptable (par exemple votre adresse Dext).'

export type ItemKind = 'invoice' | 'document'
export interface ExportItem {
  kind: ItemKind
  id: number
}

export interface ExportFailure extends ExportItem {
  reason: string
}

export interface AccountingExportContext {
  email: string
  /** The order whose lists the items are picked from (null: 'Tous'). */
  orderId: number | null
  picked: ExportItem[]
  /** The items of the current export, and how far it went. */
  queue: ExportItem[]
  total: number
  sent: number
  failed: ExportFailure[]
  error: string | null
}

export type AccountingExportEvent =
  | { type: 'export.email'; email: string }
  | { type: 'export.toggle'; item: ExportItem }
  | { type: 'export.pick'; items: ExportItem[] }
  | { type: 'export.submit' }
  | { type: 'export.again' }
  | { type: 'order.change'; orderId: number | null }

const same = (a: ExportItem, b: ExportItem) => a.kind === b.kind && a.id === b.id
const batchOf = (queue: ExportItem[]) => queue.slice(0, BATCH_SIZE)

export const accountingExportMachine = deferred(() =>
  setup({
    types: {
      context: {} as AccountingExportContext,
      input: {} as { email: string | null; orderId: number | null },
      events: {} as AccountingExportEvent,
    },
    actors: {
      sendDext: fromPromise<SendDextReply, SendDextBody>(async () => {
        throw new Error('accountingExport: sendDext is not provided')
      }),
    },
    actions: {
      /** Keeps the accounting address for the next visit (provided by the composition root). */
      rememberEmail: (_, _params: { email: string }) => {},
    },
    guards: {
      nothingPicked: ({ context }) => context.picked.length === 0,
      badEmail: ({ context }) => !isEmail(context.email),
      hasMore: ({ context }) => context.queue.length > 0,
      sentSome: ({ context }) => context.sent > 0,
      isSameOrder: ({ context }, params: { orderId: number | null }) => params.orderId === context.orderId,
    },
  }).createMachine({
    id: 'accountingExport',
    context: ({ input }) => ({
      email: input.email ?? '',
      orderId: input.orderId,
      picked: [],
      queue: [],
      total: 0,
      sent: 0,
      failed: [],
      error: null,
    }),
    initial: 'editing',
    on: {
      // What was picked belongs to the other order's lists: never sent for this one. An export under way goes
      // on (its batches are the other order's, as asked), but what fails in it is not picked again.
      'order.change': [
        { guard: { type: 'isSameOrder', params: ({ event }) => ({ orderId: event.orderId }) } },
        { actions: assign({ orderId: ({ event }) => event.orderId, picked: [], error: null }) },
      ],
    },
    states: {
      editing: {
        on: {
          'export.email': { actions: assign({ email: ({ event }) => event.email, error: null }) },
          'export.toggle': {
            actions: assign({
              picked: ({ context, event }) =>
                context.picked.some((p) => same(p, event.item))
                  ? context.picked.filter((p) => !same(p, event.item))
                  : [...context.picked, event.item],
              error: null,
            }),
          },
          'export.pick': { actions: assign({ picked: ({ event }) => event.items, error: null }) },
          'export.submit': [
            { guard: 'nothingPicked', actions: assign({ error: EXPORT_NOTHING_PICKED }) },
            { guard: 'badEmail', actions: assign({ error: EXPORT_BAD_EMAIL }) },
            {
              target: 'sending',
              actions: assign({
                email: ({ context }) => context.email.trim(),
                queue: ({ context }) => context.picked,
                total: ({ context }) => context.picked.length,
                sent: 0,
                failed: [],
                error: null,
              }),
            },
          ],
        },
      },
      sending: {
        tags: ['busy'],
        invoke: {
          id: 'sendDext',
          src: 'sendDext',
          input: ({ context }) => {
            const batch = batchOf(context.queue)
            return {
              email: context.email,
              invoiceIds: batch.filter((i) => i.kind === 'invoice').map((i) => i.id),
              documentIds: batch.filter((i) => i.kind === 'document').map((i) => i.id),
            }
          },
          onDone: {
            target: 'next',
            actions: assign(({ context, event }) => ({
              sent: context.sent + event.output.sent,
              failed: [...context.failed, ...event.output.failed],
              queue: context.queue.slice(BATCH_SIZE),
            })),
          },
          // A batch that fails as a whole: its items are reported with the reason, the next batches still go.
          onError: {
            target: 'next',
            actions: assign(({ context, event }) => ({
              failed: [...context.failed, ...batchOf(context.queue).map((item) => ({ ...item, reason: messageOf(event.error) }))],
              queue: context.queue.slice(BATCH_SIZE),
            })),
          },
        },
      },
      next: {
        always: [
          { guard: 'hasMore', target: 'sending', reenter: true },
          { guard: 'sentSome', target: 'done', actions: { type: 'rememberEmail', params: ({ context }) => ({ email: context.email }) } },
          { target: 'done' },
        ],
      },
      done: {
        on: {
          // What failed stays picked, ready to be sent again; what went through is dropped.
          'export.again': {
            target: 'editing',
            actions: assign({
              picked: ({ context }) => context.picked.filter((p) => context.failed.some((f) => same(f, p))),
              queue: [],
              total: 0,
              sent: 0,
              failed: [],
            }),
          },
          // The result was the other order's.
          'order.change': [
            { guard: { type: 'isSameOrder', params: ({ event }) => ({ orderId: event.orderId }) } },
            {
              target: 'editing',
              actions: assign({ orderId: ({ event }) => event.orderId, picked: [], queue: [], total: 0, sent: 0, failed: [], error: null }),
            },
          ],
        },
      },
    },
  }),
)
