// /factures: the years with invoices (own and shared, merged; this year first when it has some), the chosen year's
// invoices and credit notes, and "Payer" on an unpaid invoice of an order the user owns: a confirmation with the amount
// (the order's unpaid invoices of every year, read again first: the server pays them all, not only the year shown),
// then POST pay-unpaid-invoice {orderId, expectedAmountInclTaxCents} with the card on file: the server charges only the
// total confirmed (409 AMOUNT_CHANGED otherwise, nothing charged: counted again, with its reason). Paid, the order's
// invoices turn "Payée" (`invoicesPaid` tells the portal, whose unpaid banner then goes); without a card, the way to
// /moyen-de-paiement; a declined card says why in French and nothing changes.
// An invoice issued meanwhile (an 'invoice' notification, `book.refresh`) reads the years and the year shown again, its
// rows still shown (`rereading`: `years`, then `year`); a re-read that fails keeps them under the reason and
// 'Réessayer' (`rereading.stale`). News during a read starts it again, so the list read last is never older than the
// last news; news during a payment is kept (`refreshPending`) and read once the list is back (`ready`); news before the
// confirmation counts the amount again, so that the one confirmed is the one shown.
import { assign, fromPromise, setup } from 'xstate'
import type { CreditNote, Invoice, PayUnpaidReply } from '../../../server/contract/billing.ts'
import { codeOf, messageOf, type Notice } from '../shared.ts'
import { deferred } from '../deferred.ts'

export interface YearBook {
  invoices: Invoice[]
  creditNotes: CreditNote[]
}

export interface Payment {
  orderId: number
  raisonSociale: string
  /** The order's unpaid invoices of every year (the server pays all of them), and their total including tax. */
  count: number
  amountInclTaxCents: number
  /** The years of those invoices, newest first. */
  years: number[]
}

export interface InvoiceBookContext {
  /** The order selected in the header; null: 'Tous'. */
  orderId: number | null
  /** The orders whose invoices the user may pay (their own). */
  payableOrderIds: number[]
  currentYear: number
  years: number[]
  year: number | null
  invoices: Invoice[]
  creditNotes: CreditNote[]
  payment: Payment | null
  error: string | null
  /** News came during a payment: read again once it ends. */
  refreshPending: boolean
}

export type InvoiceBookEvent =
  | { type: 'book.retry' }
  /** An invoice may have been issued (a live notification): read the years and the year shown again. */
  | { type: 'book.refresh' }
  | { type: 'year.select'; year: number }
  | { type: 'invoice.pay'; orderId: number }
  | { type: 'payment.confirm' }
  | { type: 'payment.cancel' }
  /** The amount could not be read: read it again. */
  | { type: 'payment.retry' }

/** This year when it has invoices, else the latest. */
const firstYear = (years: number[], currentYear: number) => (years.includes(currentYear) ? currentYear : years[0]!)

/** The year shown, kept while it is listed; none shown yet: the first year. */
const yearToShow = (year: number | null, years: number[], currentYear: number) =>
  year !== null && years.includes(year) ? year : firstYear(years, currentYear)

const unpaidOf = (invoices: Invoice[], orderId: number) => invoices.filter((i) => i.domId === orderId && !i.paid)

/** What paying the order settles, from these invoices; null when none of them is unpaid. */
const paymentOf = (invoices: Invoice[], orderId: number): Payment | null => {
  const unpaid = unpaidOf(invoices, orderId)
  if (!unpaid.length) return null
  return {
    orderId,
    raisonSociale: unpaid[0]!.raisonSociale,
    count: unpaid.length,
    amountInclTaxCents: unpaid.reduce((s, i) => s + i.amountInclTaxCents, 0),
    years: [...new Set(unpaid.map((i) => Number(i.date.slice(0, 4))))].sort((a, b) => b - a),
  }
}

export const invoiceBookMachine = deferred(() =>
  setup({
    types: {
      context: {} as InvoiceBookContext,
      input: {} as { orderId: number | null; payableOrderIds: number[]; currentYear: number },
      events: {} as InvoiceBookEvent,
    },
    actors: {
      /** invoices/years and invoices/years/share, merged, newest first. */
      loadYears: fromPromise<number[]>(async () => {
        throw new Error('invoiceBook: loadYears is not provided')
      }),
      /** The year's invoices and credit notes, own and shared, of the selected order (all with 'Tous'). */
      loadYear: fromPromise<YearBook, { year: number; orderId: number | null }>(async () => {
        throw new Error('invoiceBook: loadYear is not provided')
      }),
      /** The user's own invoices of every year (GET invoices without a year). */
      loadUnpaid: fromPromise<Invoice[], { orderId: number }>(async () => {
        throw new Error('invoiceBook: loadUnpaid is not provided')
      }),
      /** POST pay-unpaid-invoice {orderId, expectedAmountInclTaxCents}: the total confirmed, no more. */
      pay: fromPromise<PayUnpaidReply, { orderId: number; expectedAmountInclTaxCents: number }>(async () => {
        throw new Error('invoiceBook: pay is not provided')
      }),
    },
    actions: {
      notify: (_, _params: Notice) => {},
      invoicesPaid: (_, _params: { orderId: number }) => {},
    },
    guards: {
      noYears: (_, params: { years: number[] }) => params.years.length === 0,
      stillNone: ({ context }, params: { years: number[] }) => params.years.length === 0 && context.year === null,
      refreshPending: ({ context }) => context.refreshPending,
      isListedYear: ({ context }, params: { year: number }) => context.years.includes(params.year),
      canPay: ({ context }, params: { orderId: number }) =>
        context.payableOrderIds.includes(params.orderId) && unpaidOf(context.invoices, params.orderId).length > 0,
      noCard: (_, params: { error: unknown }) => codeOf(params.error) === 'NO_CARD',
      amountChanged: (_, params: { error: unknown }) => codeOf(params.error) === 'AMOUNT_CHANGED',
    },
  }).createMachine({
    id: 'invoiceBook',
    context: ({ input }) => ({
      orderId: input.orderId,
      payableOrderIds: input.payableOrderIds,
      currentYear: input.currentYear,
      years: [],
      year: null,
      invoices: [],
      creditNotes: [],
      payment: null,
      error: null,
      refreshPending: false,
    }),
    initial: 'loadingYears',
    states: {
      loadingYears: {
        tags: ['loading'],
        invoke: {
          id: 'loadYears',
          src: 'loadYears',
          onDone: [
            {
              guard: { type: 'noYears', params: ({ event }) => ({ years: event.output }) },
              target: 'empty',
              actions: assign({ years: [], year: null, invoices: [], creditNotes: [] }),
            },
            {
              target: 'loadingYear',
              actions: assign({
                years: ({ event }) => event.output,
                year: ({ context, event }) => yearToShow(context.year, event.output, context.currentYear),
              }),
            },
          ],
          onError: { target: 'yearsFailed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
        on: {
          'book.refresh': { target: 'loadingYears', reenter: true },
          // Years known from an earlier read: the choice waits for them.
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            actions: assign({ year: ({ event }) => event.year }),
          },
        },
      },
      yearsFailed: {
        on: {
          'book.retry': { target: 'loadingYears', actions: assign({ error: null }) },
          'book.refresh': { target: 'loadingYears', actions: assign({ error: null }) },
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            target: 'loadingYears',
            actions: assign({ year: ({ event }) => event.year, error: null }),
          },
        },
      },
      // "Aucune facture" stays on screen while news is read.
      empty: {
        on: { 'book.refresh': { target: 'rereading' } },
      },
      loadingYear: {
        tags: ['loading'],
        invoke: {
          id: 'loadYear',
          src: 'loadYear',
          input: ({ context }) => ({ year: context.year!, orderId: context.orderId }),
          onDone: {
            target: 'ready',
            actions: assign({ invoices: ({ event }) => event.output.invoices, creditNotes: ({ event }) => event.output.creditNotes }),
          },
          onError: {
            target: 'yearFailed',
            actions: assign({ error: ({ event }) => messageOf(event.error), invoices: [], creditNotes: [] }),
          },
        },
        on: {
          // Another year while one loads: the newer choice wins (the running load is stopped).
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            target: 'loadingYear',
            reenter: true,
            actions: assign({ year: ({ event }) => event.year }),
          },
          // The years too may have changed: both are read again, the year chosen kept.
          'book.refresh': { target: 'loadingYears' },
        },
      },
      yearFailed: {
        on: {
          'book.retry': { target: 'loadingYear', actions: assign({ error: null }) },
          'book.refresh': { target: 'loadingYears', actions: assign({ error: null }) },
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            target: 'loadingYear',
            actions: assign({ year: ({ event }) => event.year, error: null }),
          },
        },
      },
      ready: {
        // News that came during a payment, read now that the list is back.
        always: { guard: 'refreshPending', target: 'rereading', actions: assign({ refreshPending: false }) },
        on: {
          'book.refresh': { target: 'rereading' },
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            target: 'loadingYear',
            actions: assign({ year: ({ event }) => event.year }),
          },
          'invoice.pay': {
            guard: { type: 'canPay', params: ({ event }) => ({ orderId: event.orderId }) },
            target: 'countingUnpaid',
            actions: assign({ payment: ({ context, event }) => paymentOf(context.invoices, event.orderId), error: null }),
          },
        },
      },
      /**
       * Read again after news, the rows still shown. Another year chosen meanwhile: a plain load of it, after the years
       * (the news is not lost). 'Payer' on a row: the re-read stops, and is done again once the payment ends.
       */
      rereading: {
        initial: 'years',
        on: {
          'year.select': {
            guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
            target: 'loadingYears',
            actions: assign({ year: ({ event }) => event.year, error: null }),
          },
          'invoice.pay': {
            guard: { type: 'canPay', params: ({ event }) => ({ orderId: event.orderId }) },
            target: 'countingUnpaid',
            actions: assign({
              payment: ({ context, event }) => paymentOf(context.invoices, event.orderId),
              error: null,
              refreshPending: true,
            }),
          },
        },
        states: {
          /** First the years (the invoice may open a new one)… */
          years: {
            invoke: {
              id: 'loadYears',
              src: 'loadYears',
              onDone: [
                { guard: { type: 'stillNone', params: ({ event }) => ({ years: event.output }) }, target: '#invoiceBook.empty' },
                // None any more, while some are shown (invoices are never deleted): what is shown stays.
                { guard: { type: 'noYears', params: ({ event }) => ({ years: event.output }) }, target: '#invoiceBook.ready' },
                { target: 'year', actions: assign({ years: ({ event }) => event.output }) },
              ],
              onError: { target: 'stale', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
            on: { 'book.refresh': { target: 'years', reenter: true } },
          },
          /** …then the year shown (the first year when none was shown yet). */
          year: {
            invoke: {
              id: 'loadYear',
              src: 'loadYear',
              input: ({ context }) => ({ year: yearToShow(context.year, context.years, context.currentYear), orderId: context.orderId }),
              onDone: {
                target: '#invoiceBook.ready',
                actions: assign({
                  year: ({ context }) => yearToShow(context.year, context.years, context.currentYear),
                  invoices: ({ event }) => event.output.invoices,
                  creditNotes: ({ event }) => event.output.creditNotes,
                }),
              },
              onError: { target: 'stale', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
            },
            on: {
              'book.refresh': { target: 'years' },
              'year.select': {
                guard: { type: 'isListedYear', params: ({ event }) => ({ year: event.year }) },
                target: '#invoiceBook.loadingYear',
                actions: assign({ year: ({ event }) => event.year }),
              },
            },
          },
          /** The rows of before, and why they could not be read again. */
          stale: {
            on: {
              'book.retry': { target: 'years', actions: assign({ error: null }) },
              'book.refresh': { target: 'years', actions: assign({ error: null }) },
            },
          },
        },
      },
      // The dialog opens at once; its amount waits for the order's unpaid invoices of every year.
      countingUnpaid: {
        tags: ['dialog'],
        invoke: {
          id: 'loadUnpaid',
          src: 'loadUnpaid',
          input: ({ context }) => ({ orderId: context.payment!.orderId }),
          // None left (paid from elsewhere meanwhile): the amount shown stays, and the server says there is nothing to pay.
          onDone: {
            target: 'confirmingPayment',
            actions: assign({ payment: ({ context, event }) => paymentOf(event.output, context.payment!.orderId) ?? context.payment }),
          },
          onError: { target: 'countFailed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        },
        on: {
          'payment.cancel': { target: 'ready', actions: assign({ payment: null, error: null }) },
          // News (an invoice issued?): counted again, so that the amount confirmed is the one charged; the list is read
          // again once back at it.
          'book.refresh': { target: 'countingUnpaid', reenter: true, actions: assign({ refreshPending: true }) },
        },
      },
      countFailed: {
        tags: ['dialog'],
        on: {
          'book.refresh': { actions: assign({ refreshPending: true }) },
          'payment.retry': { target: 'countingUnpaid', actions: assign({ error: null }) },
          'payment.cancel': { target: 'ready', actions: assign({ payment: null, error: null }) },
        },
      },
      confirmingPayment: {
        tags: ['dialog'],
        on: {
          // The amount shown may no longer be the one to pay: counted again before a confirmation is taken.
          'book.refresh': { target: 'countingUnpaid', actions: assign({ refreshPending: true }) },
          'payment.confirm': { target: 'paying', actions: assign({ error: null }) },
          'payment.cancel': { target: 'ready', actions: assign({ payment: null, error: null }) },
        },
      },
      paying: {
        tags: ['dialog', 'busy'],
        invoke: {
          id: 'pay',
          src: 'pay',
          input: ({ context }) => ({ orderId: context.payment!.orderId, expectedAmountInclTaxCents: context.payment!.amountInclTaxCents }),
          onDone: {
            target: 'ready',
            actions: [
              assign({
                invoices: ({ context }) => context.invoices.map((i) => (i.domId === context.payment!.orderId ? { ...i, paid: true } : i)),
              }),
              { type: 'invoicesPaid', params: ({ context }) => ({ orderId: context.payment!.orderId }) },
              { type: 'notify', params: ({ event }) => ({ kind: 'success' as const, message: event.output.message }) },
              assign({ payment: null }),
            ],
          },
          onError: [
            {
              guard: { type: 'noCard', params: ({ event }) => ({ error: event.error }) },
              target: 'noCard',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
            // The total is no longer the one confirmed (an invoice issued, or paid elsewhere): nothing was charged; counted
            // again, the server's reason shown above the new amount, and the list read again after.
            {
              guard: { type: 'amountChanged', params: ({ event }) => ({ error: event.error }) },
              target: 'countingUnpaid',
              actions: assign({ error: ({ event }) => messageOf(event.error), refreshPending: true }),
            },
            { target: 'confirmingPayment', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          ],
        },
        on: { 'book.refresh': { actions: assign({ refreshPending: true }) } },
      },
      noCard: {
        tags: ['dialog'],
        on: {
          'payment.cancel': { target: 'ready', actions: assign({ payment: null, error: null }) },
          'book.refresh': { actions: assign({ refreshPending: true }) },
        },
      },
    },
  }),
)
