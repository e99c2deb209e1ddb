// The fiscal calendar's choices for one order (VAT regime, fiscal year end, tax on profits), kept in
// this browser so that both Suivi comptable calendars show the same year at the next visit.
import { useState } from 'react'
import { DEFAULT_FISCAL_YEAR_END_MONTH } from '../../../domain/fiscalCalendar.ts'
import { type FiscalSettings, readFiscalSettings, writeFiscalSettings } from '../../../wiring/fiscal-settings.ts'

/** Until the customer says otherwise: the simplified regime (most small companies) and a calendar year. */
export const DEFAULT_FISCAL_SETTINGS: FiscalSettings = {
  vatRegime: 'simplifie',
  fiscalYearEndMonth: DEFAULT_FISCAL_YEAR_END_MONTH,
  profitTax: null,
}

export function useFiscalSettings(orderId: number): [FiscalSettings, (change: Partial<FiscalSettings>) => void] {
  const [settings, setSettings] = useState(() => readFiscalSettings(orderId) ?? DEFAULT_FISCAL_SETTINGS)
  const change = (next: Partial<FiscalSettings>) => {
    const merged = { ...settings, ...next }
    setSettings(merged)
    writeFiscalSettings(orderId, merged)
  }
  return [settings, change]
}
