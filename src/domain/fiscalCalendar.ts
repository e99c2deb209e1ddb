// The tax deadlines of a French company for this calendar year and the next ("Calendrier fiscal").
// Each rule, the choices made (the 15th for monthly VAT, CA12E for a non-calendar year, the liasse's
// 15 online days not moved again) and the official sources are written out in ./README.md.
import {
  addDays,
  addMonths,
  assertIsoDate,
  dateParts,
  isoDate,
  lastDayOfMonth,
  longDateFr,
  monthNameFr,
  nthBusinessDayAfter,
  onOrNextBusinessDay,
  type IsoDate,
} from './dates.ts'
import { byDate, type Deadline, type FiscalKind } from './deadline.ts'
import { legalFormProfile, type ProfitTax } from './legalForm.ts'

export { isPast, nextDeadline, type Deadline, type FiscalKind } from './deadline.ts'

export type VatRegime = 'normal' | 'simplifie' | 'franchise'
export const VAT_REGIMES: readonly VatRegime[] = ['normal', 'simplifie', 'franchise']

export interface FiscalCalendarInput {
  /** The customer's today; the calendar covers its calendar year and the next. */
  today: IsoDate
  /** As the order gives it ('SARL', 'SAS', 'EURL', 'S.A.S.', …); null or unknown → a company under IS. */
  legalForm: string | null
  vatRegime: VatRegime
  /** The month the fiscal year ends on its last day, 1–12; default 12 (31 December). */
  fiscalYearEndMonth?: number
  /** The tax on profits when an option changed what the form implies (EURL or EI at IS, SARL de famille at IR). */
  profitTax?: ProfitTax
  /** The company's due day for monthly VAT, 15–24 (shown in its espace professionnel); default 15. */
  vatDueDay?: number
}

export const DEFAULT_FISCAL_YEAR_END_MONTH = 12
export const DEFAULT_VAT_DUE_DAY = 15
/** Extra days the DGFiP grants to a liasse fiscale filed online (mandatory for companies under IS). */
export const LIASSE_ONLINE_GRACE_DAYS = 15

export const FISCAL_SOURCES = {
  tva: 'https://entreprendre.service-public.fr/vosdroits/F23566',
  is: 'https://entreprendre.service-public.fr/vosdroits/F23575',
  cfe: 'https://entreprendre.service-public.fr/vosdroits/F23547',
  liasse: 'https://www.impots.gouv.fr/professionnel/calendrier-fiscal',
} as const satisfies Record<FiscalKind, string>

/** The legal date moved to the next business day when it is not one. */
function due(legal: IsoDate): Pick<Deadline, 'date' | 'movedFrom'> {
  const date = onOrNextBusinessDay(legal)
  return date === legal ? { date } : { date, movedFrom: legal }
}

/** Two business days after 1 May of `year` (CGI ann. III, art. 344 I-0 bis). */
const secondBusinessDayAfterMayDay = (year: number) => nthBusinessDayAfter(isoDate(year, 5, 1), 2)

/** Month of the 1st IS instalment after a year end in `endMonth` (CGI ann. III table, for month-end closings). */
function firstInstalmentMonth(endMonth: number): number {
  if (endMonth === 11 || endMonth === 12 || endMonth === 1) return 3
  if (endMonth <= 4) return 6
  if (endMonth <= 7) return 9
  return 12
}

const ordinalFr = (n: number) => (n === 1 ? '1er' : `${n}e`)
/** "de mars", "d'avril", "d'août", "d'octobre" */
const ofMonthFr = (month: number) => {
  const name = monthNameFr(month)
  return /^[aeiou]/.test(name) ? `d'${name}` : `de ${name}`
}
const yearMonth = (iso: IsoDate) => iso.slice(0, 7)

function assertInput(input: FiscalCalendarInput): Required<Omit<FiscalCalendarInput, 'legalForm' | 'profitTax'>> {
  assertIsoDate(input.today, 'today')
  const fiscalYearEndMonth = input.fiscalYearEndMonth ?? DEFAULT_FISCAL_YEAR_END_MONTH
  if (!Number.isInteger(fiscalYearEndMonth) || fiscalYearEndMonth < 1 || fiscalYearEndMonth > 12) {
    throw new RangeError(`fiscalYearEndMonth must be 1–12, got ${fiscalYearEndMonth}`)
  }
  const vatDueDay = input.vatDueDay ?? DEFAULT_VAT_DUE_DAY
  if (!Number.isInteger(vatDueDay) || vatDueDay < 15 || vatDueDay > 24) throw new RangeError(`vatDueDay must be 15–24, got ${vatDueDay}`)
  if (!VAT_REGIMES.includes(input.vatRegime))
    throw new RangeError(`vatRegime must be one of ${VAT_REGIMES.join(', ')}, got ${input.vatRegime}`)
  return { today: input.today, vatRegime: input.vatRegime, fiscalYearEndMonth, vatDueDay }
}

/** This calendar year's and next year's tax deadlines, sorted by date. */
export function fiscalCalendar(input: FiscalCalendarInput): Deadline<FiscalKind>[] {
  const { today, vatRegime, fiscalYearEndMonth: endMonth, vatDueDay } = assertInput(input)
  const profitTax = input.profitTax ?? legalFormProfile(input.legalForm).profitTax
  const year = dateParts(today)[0]
  const first = isoDate(year, 1, 1)
  const last = isoDate(year + 1, 12, 31)
  const deadlines: Deadline<FiscalKind>[] = []
  const add = (deadline: Deadline<FiscalKind>) => {
    if (deadline.date >= first && deadline.date <= last) deadlines.push(deadline)
  }
  // Rules computed from a wider window, then kept by their (moved) date: a 31 December deadline
  // moved into January belongs to the next year, a year end two years back has its liasse this year.
  const years = [year - 2, year - 1, year, year + 1]
  const closes = years.map((y) => lastDayOfMonth(y, endMonth))
  const calendarYear = endMonth === 12
  const dayRange = `La date limite dépend de votre entreprise, entre le 15 et le 24 du mois (voir votre espace professionnel sur impots.gouv.fr) : le ${vatDueDay} est retenu ici.`

  if (vatRegime === 'normal') {
    for (const y of years) {
      for (let month = 1; month <= 12; month++) {
        add({
          id: `tva-ca3-${yearMonth(isoDate(y, month, 1))}`,
          ...due(isoDate(y, month + 1, vatDueDay)),
          title: `Déclaration de TVA (CA3) ${ofMonthFr(month)} ${y}`,
          kind: 'tva',
          source: FISCAL_SOURCES.tva,
          detail: `Déclaration et paiement de la TVA du mois. ${dayRange}`,
        })
      }
    }
  }

  if (vatRegime === 'simplifie') {
    for (const y of years) {
      add({
        id: `tva-acompte-${y}-07`,
        ...due(isoDate(y, 7, vatDueDay)),
        title: `Acompte de TVA de juillet ${y} (régime simplifié)`,
        kind: 'tva',
        source: FISCAL_SOURCES.tva,
        detail: `55 % de la TVA due au titre de l'exercice précédent ; pas d'acompte si elle était inférieure à 1 000 €. ${dayRange}`,
      })
      add({
        id: `tva-acompte-${y}-12`,
        ...due(isoDate(y, 12, vatDueDay)),
        title: `Acompte de TVA de décembre ${y} (régime simplifié)`,
        kind: 'tva',
        source: FISCAL_SOURCES.tva,
        detail: `40 % de la TVA due au titre de l'exercice précédent ; pas d'acompte si elle était inférieure à 1 000 €. ${dayRange}`,
      })
    }
    if (calendarYear) {
      for (const y of years) {
        add({
          id: `tva-ca12-${y}`,
          ...due(secondBusinessDayAfterMayDay(y + 1)),
          title: `Déclaration annuelle de TVA (CA12) de ${y}`,
          kind: 'tva',
          source: FISCAL_SOURCES.tva,
          detail: "Récapitule les opérations de l'année et solde la TVA, acomptes déduits : deuxième jour ouvré après le 1er mai.",
        })
      }
    } else {
      for (const close of closes) {
        add({
          id: `tva-ca12e-${yearMonth(close)}`,
          ...due(addMonths(close, 3)),
          title: `Déclaration annuelle de TVA (CA12E), exercice clos le ${longDateFr(close)}`,
          kind: 'tva',
          source: FISCAL_SOURCES.tva,
          detail: "Pour une TVA déclarée sur l'exercice comptable : dans les trois mois de la clôture, acomptes déduits.",
        })
      }
    }
  }

  if (profitTax === 'is') {
    const firstMonth = firstInstalmentMonth(endMonth)
    for (const y of years) {
      for (const month of [3, 6, 9, 12]) {
        const rank = ((month - firstMonth + 12) % 12) / 3 + 1
        const seriesStartYear = month >= firstMonth ? y : y - 1
        const previousCloseYear = endMonth < firstMonth ? seriesStartYear : seriesStartYear - 1
        const close = lastDayOfMonth(previousCloseYear + 1, endMonth)
        add({
          id: `is-acompte-${y}-${String(month).padStart(2, '0')}`,
          ...due(isoDate(y, month, 15)),
          title: `${ordinalFr(rank)} acompte d'impôt sur les sociétés (exercice clos le ${longDateFr(close)})`,
          kind: 'is',
          source: FISCAL_SOURCES.is,
          detail:
            "Un quart de l'impôt de l'exercice précédent ; aucun acompte pour le premier exercice ni si cet impôt était inférieur à 3 000 €.",
        })
      }
    }
    for (const close of closes) {
      const [closeYear, closeMonth] = dateParts(close)
      add({
        id: `is-solde-${yearMonth(close)}`,
        ...due(calendarYear ? isoDate(closeYear + 1, 5, 15) : isoDate(closeYear, closeMonth + 4, 15)),
        title: `Solde de l'impôt sur les sociétés (exercice clos le ${longDateFr(close)})`,
        kind: 'is',
        source: FISCAL_SOURCES.is,
        detail: "Relevé de solde n° 2572 et paiement du reste de l'impôt, acomptes déduits.",
      })
    }
  }

  for (const close of closes) {
    const closeYear = dateParts(close)[0]
    const legal = onOrNextBusinessDay(
      profitTax === 'ir' || calendarYear ? secondBusinessDayAfterMayDay(closeYear + 1) : addMonths(close, 3),
    )
    add({
      id: `liasse-${yearMonth(close)}`,
      date: addDays(legal, LIASSE_ONLINE_GRACE_DAYS),
      title:
        profitTax === 'is'
          ? `Liasse fiscale (2065), exercice clos le ${longDateFr(close)}`
          : `Déclaration de résultat et liasse fiscale, exercice clos le ${longDateFr(close)}`,
      kind: 'liasse',
      source: FISCAL_SOURCES.liasse,
      detail:
        `Date légale le ${longDateFr(legal)}, plus ${LIASSE_ONLINE_GRACE_DAYS} jours pour un dépôt en ligne.` +
        (profitTax === 'ir' ? " Formulaire 2031 (BIC), 2035 (BNC) ou 2072 (société civile immobilière) selon l'activité." : ''),
    })
  }

  for (const y of years) {
    add({
      id: `cfe-${y}`,
      ...due(isoDate(y, 12, 15)),
      title: `Cotisation foncière des entreprises (CFE) ${y}`,
      kind: 'cfe',
      source: FISCAL_SOURCES.cfe,
      detail:
        "Avis d'imposition dans votre espace professionnel sur impots.gouv.fr ; un acompte est dû le 15 juin si la CFE de l'année précédente atteignait 3 000 €.",
    })
  }

  return deadlines.sort(byDate)
}
