// The company area's choices for the Suivi comptable calendars, per order (VAT regime, fiscal year end,
// tax on profits), kept in this browser like the rest of storage.ts, but in a module of their own so
// that /login's first load does not carry them.
import type { VatRegime } from '../domain/fiscalCalendar.ts'
import type { ProfitTax } from '../domain/legalForm.ts'
import { readRecord, writeKey as write } from './storage.ts'

export const FISCAL_SETTINGS_KEY = 'fiscalSettings'

export interface FiscalSettings {
  vatRegime: VatRegime
  /** 1–12: the fiscal year ends on that month's last day. */
  fiscalYearEndMonth: number
  /** null: what the legal form implies. */
  profitTax: ProfitTax | null
}

const vatRegimes: readonly VatRegime[] = ['normal', 'simplifie', 'franchise']
const isFiscalSettings = (value: unknown): value is FiscalSettings => {
  const v = value as Partial<FiscalSettings> | null
  return (
    !!v &&
    vatRegimes.includes(v.vatRegime as VatRegime) &&
    Number.isInteger(v.fiscalYearEndMonth) &&
    v.fiscalYearEndMonth! >= 1 &&
    v.fiscalYearEndMonth! <= 12 &&
    (v.profitTax === null || v.profitTax === 'is' || v.profitTax === 'ir')
  )
}

const readAllFiscalSettings = () => readRecord(FISCAL_SETTINGS_KEY)

/** What the customer chose for this order, or null (never chosen, or not readable). */
export function readFiscalSettings(orderId: number): FiscalSettings | null {
  const settings = readAllFiscalSettings()[String(orderId)]
  return isFiscalSettings(settings) ? settings : null
}

export const writeFiscalSettings = (orderId: number, settings: FiscalSettings) =>
  write(FISCAL_SETTINGS_KEY, JSON.stringify({ ...readAllFiscalSettings(), [orderId]: settings }))
