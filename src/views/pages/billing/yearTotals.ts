// The totals under /factures' list of a year (its own module, so that the page does not pull the flow's code).
import type { YearBook } from '../../../machines/billing/invoiceBook.machine.ts'

/** The year's totals: invoices excluding and including tax, credit notes including tax, and what remains. */
export function yearTotals(book: YearBook) {
  const invoicedExclTax = book.invoices.reduce((s, i) => s + i.amountExclTaxCents, 0)
  const invoicedInclTax = book.invoices.reduce((s, i) => s + i.amountInclTaxCents, 0)
  const creditedInclTax = book.creditNotes.reduce((s, c) => s + c.amountInclTaxCents, 0)
  return { invoicedExclTax, invoicedInclTax, creditedInclTax, netInclTax: invoicedInclTax - creditedInclTax }
}
