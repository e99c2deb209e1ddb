// The choices the calendars depend on: VAT regime, fiscal year end and, when an option changed what
// the legal form implies, the tax on profits. Kept per company (useFiscalSettings).
import { styled } from 'goober'
import { monthNameFr } from '../../../domain/dates.ts'
import type { VatRegime } from '../../../domain/fiscalCalendar.ts'
import { legalFormProfile } from '../../../domain/legalForm.ts'
import type { FiscalSettings } from '../../../wiring/fiscal-settings.ts'
import { Field } from '../../components/ui.tsx'
import { mq } from '../../theme.ts'

const regimes: Record<VatRegime, string> = {
  normal: 'Réel normal (mensuel)',
  simplifie: 'Réel simplifié (annuel)',
  franchise: 'Franchise en base',
}

/** "31 décembre (année civile)", "30 juin", "28 février (29 les années bissextiles)" */
const yearEnd = (month: number) =>
  month === 12
    ? '31 décembre (année civile)'
    : month === 2
      ? '28 février (29 les années bissextiles)'
      : `${new Date(Date.UTC(2026, month, 0)).getUTCDate()} ${monthNameFr(month)}`

const Grid = styled('div')`
  display: grid;
  gap: 0 1rem;
  ${mq.desktop} { grid-template-columns: repeat(3, 1fr); }
`

export function FiscalSettingsForm({
  settings,
  onChange,
  legalForm,
  only,
}: {
  settings: FiscalSettings
  onChange: (change: Partial<FiscalSettings>) => void
  legalForm: string | null
  /** The legal duties need the year end only. */
  only?: 'yearEnd'
}) {
  const byForm = legalFormProfile(legalForm).profitTax
  const taxName = (tax: 'is' | 'ir') => (tax === 'is' ? 'impôt sur les sociétés' : 'impôt sur le revenu')
  return (
    <Grid>
      {!only && (
        <Field id="fiscal-vat" label="Régime de TVA">
          <select id="fiscal-vat" value={settings.vatRegime} onChange={(e) => onChange({ vatRegime: e.target.value as VatRegime })}>
            {(Object.keys(regimes) as VatRegime[]).map((r) => (
              <option key={r} value={r}>
                {regimes[r]}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field id="fiscal-year-end" label="Clôture de l’exercice">
        <select
          id="fiscal-year-end"
          value={settings.fiscalYearEndMonth}
          onChange={(e) => onChange({ fiscalYearEndMonth: Number(e.target.value) })}
        >
          {Array.from({ length: 12 }, (_, i) => 12 - i).map((m) => (
            <option key={m} value={m}>
              {yearEnd(m)}
            </option>
          ))}
        </select>
      </Field>
      {!only && (
        <Field id="fiscal-profit-tax" label="Imposition des bénéfices">
          <select
            id="fiscal-profit-tax"
            value={settings.profitTax ?? ''}
            onChange={(e) => onChange({ profitTax: e.target.value === '' ? null : (e.target.value as 'is' | 'ir') })}
          >
            <option value="">
              Selon la forme juridique{legalForm ? ` (${legalForm})` : ''} : {taxName(byForm)}
            </option>
            <option value="is">Option pour l’impôt sur les sociétés</option>
            <option value="ir">Option pour l’impôt sur le revenu</option>
          </select>
        </Field>
      )}
    </Grid>
  )
}
