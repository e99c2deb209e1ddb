// The dashboard's unpaid-invoice banner: GET user-unpaid-status (every order the user owns) says whether to show it;
// 'Régler' pays what it shows with the card on file (POST pay-unpaid-invoice {expectedAmountInclTaxCents}, every order
// the user owns, as the status counts them: the server charges that total or nothing, 409 AMOUNT_CHANGED), then asks
// the status again; a total changed meanwhile asks it at once, the reason shown. A new invoice (an 'invoice'
// notification, `unpaid.refresh`) asks it again too, the banner still shown meanwhile (`refreshing`) and kept as it
// was if the answer fails; news during a load starts it again, news during a payment waits for its end
// (`refreshPending`).
import { assign, fromPromise, setup } from 'xstate'
import type { PayUnpaidReply, UnpaidStatus } from '../../../server/contract/billing.ts'
import { codeOf, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

/** A payment (the banner's or the invoice book's) that failed once its page was left: its toast, before the server's reason. */
export const PAYMENT_FAILED = 'Le paiement n’a pas abouti.'

export const unpaidInvoicesMachine = deferred(() => {
  const unpaidSetup = setup({
    types: {
      /** noCard: the payment was refused for want of a card (the banner then links to /moyen-de-paiement). */
      context: {} as { status: UnpaidStatus | null; error: string | null; noCard: boolean; refreshPending: boolean },
      events: {} as { type: 'unpaid.pay' } | { type: 'unpaid.retry' } | { type: 'unpaid.refresh' },
    },
    actors: {
      fetchStatus: fromPromise<UnpaidStatus>(async () => {
        throw new Error('unpaidInvoices: fetchStatus is not provided')
      }),
      /** Pays every unpaid invoice of the user's own orders, if they still total the amount shown. */
      pay: fromPromise<PayUnpaidReply, { expectedAmountInclTaxCents: number }>(async () => {
        throw new Error('unpaidInvoices: pay is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      /** Paid: the rest of the portal is told (the invoices and the bookings they bill of every order the user owns). */
      paid: () => {},
      /** A payment refused: why, for the banner (for want of a card, it links to one). */
      keepRefusal: assign(({ event }) => {
        const error = (event as { error?: unknown }).error
        return { error: messageOf(error), noCard: codeOf(error) === 'NO_CARD' }
      }),
    },
    guards: {
      hasUnpaid: (_, params: { status: UnpaidStatus }) => params.status.hasUnpaid,
      refreshPending: ({ context }) => context.refreshPending,
      amountChanged: (_, params: { error: unknown }) => codeOf(params.error) === 'AMOUNT_CHANGED',
    },
  })

  /** Asks user-unpaid-status: the banner when something is unpaid, else nothing to show; a failure goes to `onError`. */
  const statusRead = (onError: 'failed' | 'unpaid') =>
    unpaidSetup.createStateConfig({
      invoke: {
        id: 'fetchStatus',
        src: 'fetchStatus',
        onDone: [
          {
            guard: { type: 'hasUnpaid', params: ({ event }) => ({ status: event.output }) },
            target: 'unpaid',
            actions: assign({ status: ({ event }) => event.output }),
          },
          { target: 'upToDate', actions: assign({ status: ({ event }) => event.output }) },
        ],
        onError:
          onError === 'failed'
            ? { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) }
            : { target: 'unpaid' },
      },
    })

  return unpaidSetup.createMachine({
    id: 'unpaidInvoices',
    context: { status: null, error: null, noCard: false, refreshPending: false },
    initial: 'loading',
    states: {
      loading: {
        ...statusRead('failed'),
        on: { 'unpaid.refresh': { target: 'loading', reenter: true } },
      },
      // No banner shown: news asks again with a plain load.
      upToDate: {
        on: { 'unpaid.refresh': { target: 'loading' } },
      },
      failed: {
        on: {
          'unpaid.retry': { target: 'loading', actions: assign({ error: null }) },
          'unpaid.refresh': { target: 'loading', actions: assign({ error: null }) },
        },
      },
      unpaid: {
        tags: ['banner'],
        // News that came during a payment refused, asked now.
        always: { guard: 'refreshPending', target: 'refreshing', actions: assign({ refreshPending: false }) },
        on: {
          'unpaid.pay': { target: 'paying', actions: assign({ error: null, noCard: false }) },
          // News: the figures may change, the reason of an earlier refusal goes with them.
          'unpaid.refresh': { target: 'refreshing', actions: assign({ error: null, noCard: false }) },
        },
      },
      /** Asked again after news, the banner still shown; a failed answer keeps it as it was. */
      refreshing: {
        tags: ['banner'],
        ...statusRead('unpaid'),
        on: {
          'unpaid.refresh': { target: 'refreshing', reenter: true },
          // 'Régler' meanwhile: the payment first, the status after.
          'unpaid.pay': { target: 'paying', actions: assign({ error: null, noCard: false, refreshPending: true }) },
        },
      },
      paying: {
        tags: ['banner', 'busy'],
        invoke: {
          id: 'pay',
          src: 'pay',
          input: ({ context }) => ({ expectedAmountInclTaxCents: context.status!.amountInclTaxCents }),
          // Paid: the status is asked again anyway, news meanwhile included.
          onDone: {
            target: 'loading',
            actions: [
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) },
              'paid',
              assign({ refreshPending: false }),
            ],
          },
          onError: [
            // Not the total shown (an invoice issued, or paid elsewhere): nothing charged; the status asked at once, the reason kept.
            {
              guard: { type: 'amountChanged', params: ({ event }) => ({ error: event.error }) },
              target: 'refreshing',
              actions: [
                'keepRefusal',
                assign({ refreshPending: false }),
                { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) },
              ],
            },
            {
              target: 'unpaid',
              actions: [
                'keepRefusal',
                { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, message: messageOf(event.error) }) },
              ],
            },
          ],
        },
        on: { 'unpaid.refresh': { actions: assign({ refreshPending: true }) } },
      },
    },
  })
})
