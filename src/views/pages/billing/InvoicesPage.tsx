// /factures: a year picker (this year first), the year's invoices (number, date, company, excl. and incl. VAT, paid or
// to pay, PDF) and credit notes with the invoice they refer to, the year's total; own plus shared, filtered by the order
// selected in the header. "Payer" on an unpaid invoice of an order the user owns. A new invoice (a live notification)
// reads them again, the rows still shown.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useFlows } from '../../app-context.tsx'
import { ErrorState, formatEuros, Spinner } from '../../components/ui.tsx'
import { Muted, PageCard, Toolbar, useNews, useOrders, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { yearTotals } from './yearTotals.ts'
import { color, radius } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { CreditNoteRows, InvoiceRows } from './InvoiceRows.tsx'
import { PaymentDialog } from './PaymentDialog.tsx'

const YearPicker = styled('div')`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  label { font-weight: 600; }
  select {
    min-height: 44px;
    padding: 0.4rem 0.6rem;
    border: 1px solid ${color.border};
    border-radius: ${radius};
    background: ${color.surface};
  }
`

const Total = styled('p')`
  margin: 0;
  padding: 0.75rem 1rem;
  border-radius: ${radius};
  background: ${color.primarySoft};
  font-weight: 600;
`

export default function InvoicesPage(_: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  const orders = useOrders(startup)
  const payable = orders.filter((o) => !o.isShareOrder).map((o) => o.id)
  // A new machine per order shown: the lists follow the header's pick.
  return <InvoiceBook key={order?.id ?? 'all'} orderId={order?.id ?? null} payableOrderIds={payable} showCompany={!order} />
}

function InvoiceBook({
  orderId,
  payableOrderIds,
  showCompany,
}: {
  orderId: number | null
  payableOrderIds: number[]
  showCompany: boolean
}) {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.invoiceBook, { input: { orderId, payableOrderIds, currentYear: new Date().getFullYear() } })
  // While read again after news, what was shown stays: no year shown yet is "Aucune facture".
  const state = useSelector(actor, (s) =>
    s.hasTag('loading')
      ? 'loading'
      : s.matches('yearsFailed') || s.matches('yearFailed')
        ? 'failed'
        : s.context.year === null
          ? 'empty'
          : 'ready',
  )
  const stale = useSelector(actor, (s) => s.matches({ rereading: 'stale' }))
  const years = useSelector(actor, (s) => s.context.years)
  const year = useSelector(actor, (s) => s.context.year)
  const invoices = useSelector(actor, (s) => s.context.invoices)
  const creditNotes = useSelector(actor, (s) => s.context.creditNotes)
  const error = useSelector(actor, (s) => s.context.error)
  const dialog = useSelector(actor, (s) => s.hasTag('dialog'))
  // An invoice was issued (a live notification): the years and the year shown are read again.
  useNews('invoice', () => actor.send({ type: 'book.refresh' }))
  const totals = yearTotals({ invoices, creditNotes })
  return (
    <PageCard aria-labelledby="invoices-title">
      <Toolbar>
        <h2 id="invoices-title" tabIndex={-1}>
          Mes factures
        </h2>
        {years.length > 0 && year !== null && (
          <YearPicker>
            <label htmlFor="invoice-year">Année</label>
            <select
              id="invoice-year"
              value={year ?? ''}
              onChange={(e) => actor.send({ type: 'year.select', year: Number(e.target.value) })}
            >
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </YearPicker>
        )}
      </Toolbar>
      {state === 'loading' && <Spinner label="Chargement : vos factures…" />}
      {state === 'failed' && <ErrorState message={error ?? 'Le chargement a échoué.'} onRetry={() => actor.send({ type: 'book.retry' })} />}
      {stale && (
        <ErrorState
          message={`Vos factures n’ont pas pu être mises à jour. ${error ?? ''}`.trim()}
          onRetry={() => actor.send({ type: 'book.retry' })}
        />
      )}
      {state === 'empty' && <p>Aucune facture pour le moment.</p>}
      {state === 'ready' && (
        <>
          <section aria-labelledby="year-invoices">
            {/* Focused by PaymentDialog when the paid invoice's "Payer" is gone; never by Tab. */}
            <h3 id="year-invoices" tabIndex={-1}>
              Factures {year}
            </h3>
            {invoices.length === 0 ? (
              <Muted>Aucune facture en {year} pour cette domiciliation.</Muted>
            ) : (
              <InvoiceRows
                invoices={invoices}
                showCompany={showCompany}
                canPay={(i) => !i.paid && payableOrderIds.includes(i.domId)}
                onPay={(id) => actor.send({ type: 'invoice.pay', orderId: id })}
              />
            )}
          </section>
          <section aria-labelledby="year-credit-notes">
            <h3 id="year-credit-notes">Avoirs {year}</h3>
            {creditNotes.length === 0 ? (
              <Muted>Aucun avoir en {year}.</Muted>
            ) : (
              <CreditNoteRows creditNotes={creditNotes} invoices={invoices} showCompany={showCompany} />
            )}
          </section>
          <Total>
            Total {year} : {formatEuros(totals.invoicedInclTax)} TTC ({formatEuros(totals.invoicedExclTax)} HT)
            {totals.creditedInclTax > 0 && `, avoirs déduits : ${formatEuros(totals.netInclTax)} TTC`}
          </Total>
        </>
      )}
      {dialog && <PaymentDialog actor={actor} />}
    </PageCard>
  )
}
