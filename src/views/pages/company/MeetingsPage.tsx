// /mes-reunions: the meeting-room bookings of the selected order (all with 'Tous') from
// invoices/cal: room, date, duration, amount incl. VAT, paid; upcoming first, each with its invoice.
import type { CalendarInvoice } from '../../../../server/contract/billing.ts'
import {
  Badge,
  companyOf,
  ListState,
  Muted,
  PageCard,
  Row,
  Rows,
  usePortal,
  useResource,
  useSelectedOrder,
} from '../../components/page.tsx'
import { formatEuros } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { InvoiceDownload } from './InvoiceDownload.tsx'
import { frenchDateFormat } from '../../../../server/contract/rules/french-date.ts'

const when = frenchDateFormat({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })

/** "2 h", "1 h 30". */
export const formatDuration = (hours: number) => {
  const minutes = Math.round(hours * 60)
  const rest = minutes % 60
  return `${Math.floor(minutes / 60)} h${rest ? ` ${String(rest).padStart(2, '0')}` : ''}`
}

/** The bookings to come, soonest first, then the past ones, latest first. */
export function upcomingFirst(bookings: CalendarInvoice[], now: Date): CalendarInvoice[] {
  const upcoming = bookings.filter((b) => new Date(b.date) >= now).sort((a, b) => a.date.localeCompare(b.date))
  const past = bookings.filter((b) => new Date(b.date) < now).sort((a, b) => b.date.localeCompare(a.date))
  return [...upcoming, ...past]
}

export default function MeetingsPage(_: PageProps) {
  const { startup, data } = usePortal()
  const order = useSelectedOrder(startup)
  const { items, status, error } = useResource(data, 'calendarInvoices')
  const now = new Date()
  const bookings = upcomingFirst(items ?? [], now)
  return (
    <PageCard aria-labelledby="meetings-title">
      <h2 id="meetings-title">Mes réservations de salle</h2>
      <ListState
        status={status}
        error={error}
        label="vos réunions"
        empty="Aucune réservation de salle de réunion pour le moment."
        isEmpty={bookings.length === 0}
        onRetry={() => startup.send({ type: 'data.retry', resource: 'calendarInvoices' })}
      >
        <Rows aria-label="Réservations">
          {bookings.map((b) => {
            const upcoming = new Date(b.date) >= now
            return (
              <Row key={b.id} aria-label={`${b.room}, ${when.format(new Date(b.date))}`}>
                <div>
                  <strong>{b.room}</strong> {upcoming && <Badge>À venir</Badge>} {companyOf(!order, b.raisonSociale)}
                  <div>
                    <Muted>
                      <time dateTime={b.date}>{when.format(new Date(b.date))}</time> · {formatDuration(b.hours)}
                    </Muted>
                  </div>
                  <div>
                    {formatEuros(b.amountInclTaxCents)} TTC{' '}
                    <Badge $tone={b.paid ? 'success' : 'warning'}>{b.paid ? 'Payée' : 'À payer'}</Badge>
                  </div>
                </div>
                {b.invoiceId !== null && b.invoiceNumber !== null ? (
                  <InvoiceDownload invoiceId={b.invoiceId} number={b.invoiceNumber} />
                ) : (
                  <Muted>Facture à venir</Muted>
                )}
              </Row>
            )
          })}
        </Rows>
      </ListState>
    </PageCard>
  )
}
