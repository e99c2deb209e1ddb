// /suivi-comptable/calendrier-fiscal: this year's and next year's tax deadlines for the selected
// company, computed in the browser (src/domain/fiscalCalendar.ts, rules and sources in its README):
// VAT by the regime the customer picks, corporate-tax instalments and balance, CFE, annual return;
// past ones greyed, the next one highlighted; "Ajouter à mon agenda" downloads them as an .ics file.
// The deadlines found in the company's letters join the list, each linking to its letter.
import type { Order } from '../../../../server/contract/session.ts'
import { localIsoDate } from '../../../domain/dates.ts'
import { byDate } from '../../../domain/deadline.ts'
import { fiscalCalendar, nextDeadline } from '../../../domain/fiscalCalendar.ts'
import { Muted, PageCard, Toolbar, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { Alert } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { AddToCalendar } from './AddToCalendar.tsx'
import { ChooseCompany } from './ChooseCompany.tsx'
import { DeadlineList, deadlineDate } from './DeadlineList.tsx'
import { useLetterDeadlines } from './useLetterDeadlines.tsx'
import { FiscalSettingsForm } from './FiscalSettingsForm.tsx'
import { useFiscalSettings } from './useFiscalSettings.ts'

function Calendar({ order }: { order: Order }) {
  const [settings, change] = useFiscalSettings(order.id)
  const today = localIsoDate()
  const deadlines = fiscalCalendar({
    today,
    legalForm: order.legalForm,
    vatRegime: settings.vatRegime,
    fiscalYearEndMonth: settings.fiscalYearEndMonth,
    ...(settings.profitTax ? { profitTax: settings.profitTax } : {}),
  })
  const letters = useLetterDeadlines(order.id)
  const entries = [...deadlines, ...letters.entries].sort(byDate)
  const next = nextDeadline(entries, today)
  return (
    <PageCard aria-labelledby="fiscal-title">
      <Toolbar>
        <h2 id="fiscal-title">Échéances fiscales de {order.raisonSociale}</h2>
        <AddToCalendar order={order} deadlines={deadlines} what="Calendrier fiscal" today={today} />
      </Toolbar>
      <FiscalSettingsForm settings={settings} onChange={change} legalForm={order.legalForm} />
      {next && (
        <Alert $kind="info">
          Prochaine échéance : <strong>{next.title}</strong>, le {deadlineDate(next.date)}.
        </Alert>
      )}
      {letters.state}
      <DeadlineList deadlines={entries} today={today} label="Échéances fiscales" />
      <Muted>
        Dates calculées pour une société {order.legalForm ?? ''} selon les règles publiées par l’administration ; un report pour un week-end
        ou un jour férié est indiqué. Vos dates exactes figurent dans votre espace professionnel sur impots.gouv.fr.
      </Muted>
    </PageCard>
  )
}

export default function FiscalCalendarPage({ route }: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  if (!order)
    return (
      <ChooseCompany
        startup={startup}
        title={route.title}
        why="Les échéances fiscales dépendent de la société : forme juridique, régime de TVA, clôture de l’exercice."
      />
    )
  return <Calendar key={order.id} order={order} />
}
