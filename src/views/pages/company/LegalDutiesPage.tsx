// /suivi-comptable/formalite-juridique: the yearly legal duties of the selected company
// (src/domain/legalDuties.ts): approval of the accounts within six months of the year end, filing at
// the registry after it, the beneficial-owners register; and the filing date of accounts approved.
import { useState } from 'react'
import type { Order } from '../../../../server/contract/session.ts'
import { isIsoDate, localIsoDate } from '../../../domain/dates.ts'
import { filingDeadline, legalDuties } from '../../../domain/legalDuties.ts'
import { Muted, PageCard, Toolbar, usePortal, useSelectedOrder } from '../../components/page.tsx'
import { Card, Field } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { AddToCalendar } from './AddToCalendar.tsx'
import { ChooseCompany } from './ChooseCompany.tsx'
import { DeadlineList, deadlineDate, SourceLink } from './DeadlineList.tsx'
import { FiscalSettingsForm } from './FiscalSettingsForm.tsx'
import { useFiscalSettings } from './useFiscalSettings.ts'

function ApprovedAccounts() {
  const [approvedOn, setApprovedOn] = useState('')
  const valid = isIsoDate(approvedOn)
  return (
    <Card aria-labelledby="approved-title">
      <h3 id="approved-title">Vos comptes sont approuvés ?</h3>
      <Field id="approved-on" label="Date de l’approbation">
        <input
          id="approved-on"
          type="date"
          value={approvedOn}
          onChange={(e) => setApprovedOn(e.target.value)}
          aria-describedby="approved-result"
        />
      </Field>
      <p id="approved-result" aria-live="polite">
        {valid ? (
          <>
            Dépôt au greffe au plus tard le <strong>{deadlineDate(filingDeadline(approvedOn))}</strong> en ligne (le{' '}
            {deadlineDate(filingDeadline(approvedOn, false))} sur papier).
          </>
        ) : (
          <Muted>Indiquez la date de l’assemblée (ou de la décision de l’associé unique) pour connaître la date limite de dépôt.</Muted>
        )}
      </p>
    </Card>
  )
}

function Duties({ order }: { order: Order }) {
  const [settings, change] = useFiscalSettings(order.id)
  const today = localIsoDate()
  const { deadlines, standing } = legalDuties({ today, legalForm: order.legalForm, fiscalYearEndMonth: settings.fiscalYearEndMonth })
  return (
    <PageCard aria-labelledby="duties-title">
      <Toolbar>
        <h2 id="duties-title">Obligations juridiques de {order.raisonSociale}</h2>
        <AddToCalendar order={order} deadlines={deadlines} what="Obligations juridiques" today={today} />
      </Toolbar>
      <FiscalSettingsForm settings={settings} onChange={change} legalForm={order.legalForm} only="yearEnd" />
      {deadlines.length === 0 ? (
        <p>Pour une société {order.legalForm ?? ''}, la loi ne fixe ni délai d’approbation des comptes ni dépôt au greffe.</p>
      ) : (
        <DeadlineList deadlines={deadlines} today={today} label="Obligations" />
      )}
      {standing.map((duty) => (
        <Card key={duty.id} aria-labelledby={`duty-${duty.id}`}>
          <h3 id={`duty-${duty.id}`}>{duty.title}</h3>
          <p>{duty.detail}</p>
          <SourceLink href={duty.source} />
        </Card>
      ))}
      {deadlines.some((d) => d.kind === 'depot-comptes') && <ApprovedAccounts />}
    </PageCard>
  )
}

export default function LegalDutiesPage({ route }: PageProps) {
  const { startup } = usePortal()
  const order = useSelectedOrder(startup)
  if (!order)
    return (
      <ChooseCompany
        startup={startup}
        title={route.title}
        why="Les obligations juridiques dépendent de la société : forme juridique et clôture de l’exercice."
      />
    )
  return <Duties key={order.id} order={order} />
}
