// The rows of Mes factures: invoices (number, date, company, excl. and incl. VAT, "Payée" or "À payer", PDF, "Payer")
// and credit notes (with the invoice they refer to).
import { useActorRef, useSelector } from '@xstate/react'
import type { CreditNote, Invoice } from '../../../../server/contract/billing.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, Button, formatDate, formatEuros } from '../../components/ui.tsx'
import { Badge, companyOf, Muted, Row, Rows } from '../../components/page.tsx'
import { Actions } from './styles.ts'

/** Invoice and credit-note PDFs, one at a time. */
function usePdf() {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.documentDownload)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  return { busy, error, send: actor.send }
}

export function InvoiceRows({
  invoices,
  showCompany,
  canPay,
  onPay,
}: {
  invoices: Invoice[]
  showCompany: boolean
  canPay: (invoice: Invoice) => boolean
  onPay: (orderId: number) => void
}) {
  const pdf = usePdf()
  return (
    <>
      {pdf.error && (
        <Alert $kind="error" role="alert">
          {pdf.error}
        </Alert>
      )}
      <Rows aria-label="Factures">
        {invoices.map((i) => (
          <Row key={i.id}>
            <div>
              <strong>N° de facture {i.number}</strong>
              <div>
                <Muted>
                  du <time dateTime={i.date}>{formatDate(i.date)}</time>
                </Muted>{' '}
                {companyOf(showCompany, i.raisonSociale)}
              </div>
              <div>
                Montant HT {formatEuros(i.amountExclTaxCents)} · Montant TTC <strong>{formatEuros(i.amountInclTaxCents)}</strong>
              </div>
            </div>
            <Actions>
              <Badge $tone={i.paid ? 'success' : 'warning'}>{i.paid ? 'Payée' : 'À payer'}</Badge>
              <BusyButton
                type="button"
                $variant="secondary"
                busy={pdf.busy}
                aria-label={`PDF de la facture ${i.number}`}
                onClick={() => pdf.send({ type: 'download.start', request: { kind: 'invoice', id: i.id, number: i.number } })}
              >
                PDF
              </BusyButton>
              {canPay(i) && (
                <Button type="button" onClick={() => onPay(i.domId)} aria-label={`Payer la facture ${i.number}`}>
                  Payer
                </Button>
              )}
            </Actions>
          </Row>
        ))}
      </Rows>
    </>
  )
}

export function CreditNoteRows({
  creditNotes,
  invoices,
  showCompany,
}: {
  creditNotes: CreditNote[]
  invoices: Invoice[]
  showCompany: boolean
}) {
  const pdf = usePdf()
  return (
    <>
      {pdf.error && (
        <Alert $kind="error" role="alert">
          {pdf.error}
        </Alert>
      )}
      <Rows aria-label="Avoirs">
        {creditNotes.map((c) => {
          const invoice = invoices.find((i) => i.id === c.invoiceId)
          return (
            <Row key={c.id}>
              <div>
                <strong>Avoir {c.number}</strong>
                <div>
                  <Muted>
                    du <time dateTime={c.date}>{formatDate(c.date)}</time>
                    {invoice ? `, sur la facture ${invoice.number}` : c.invoiceId ? ', sur une facture d’une autre année' : ''}
                  </Muted>{' '}
                  {companyOf(showCompany, c.raisonSociale)}
                </div>
                <div>
                  Montant HT {formatEuros(c.amountExclTaxCents)} · Montant TTC <strong>{formatEuros(c.amountInclTaxCents)}</strong>
                </div>
              </div>
              <BusyButton
                type="button"
                $variant="secondary"
                busy={pdf.busy}
                aria-label={`PDF de l’avoir ${c.number}`}
                onClick={() => pdf.send({ type: 'download.start', request: { kind: 'creditNote', id: c.id, number: c.number } })}
              >
                PDF
              </BusyButton>
            </Row>
          )
        })}
      </Rows>
    </>
  )
}
