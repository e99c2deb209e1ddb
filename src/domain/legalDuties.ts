// The yearly legal duties of a company ("Obligations juridiques annuelles"), from its fiscal year end:
// approval of the accounts, filing at the greffe, beneficial owners. Rules, choices and sources: ./README.md.
import { addMonths, assertIsoDate, dateParts, isoDate, lastDayOfMonth, longDateFr, type IsoDate } from './dates.ts'
import { byDate, type Deadline, type LegalKind } from './deadline.ts'
import { DEFAULT_FISCAL_YEAR_END_MONTH } from './fiscalCalendar.ts'
import { legalFormProfile } from './legalForm.ts'

export type { Deadline, LegalKind } from './deadline.ts'

export interface LegalDutiesInput {
  today: IsoDate
  legalForm: string | null
  /** 1–12, the fiscal year ending on that month's last day; default 12. */
  fiscalYearEndMonth?: number
}

export interface StandingDuty {
  id: string
  title: string
  detail: string
  kind: 'beneficiaires-effectifs'
  source: string
}

export interface LegalDuties {
  /** This calendar year's and next year's dated duties, sorted by date. */
  deadlines: Deadline<LegalKind>[]
  /** Duties triggered by an event rather than by a date. */
  standing: StandingDuty[]
}

export const APPROVAL_MONTHS = 6
export const FILING_MONTHS_ONLINE = 2
export const FILING_MONTHS_PAPER = 1

export const LEGAL_SOURCES = {
  accounts: 'https://entreprendre.service-public.fr/vosdroits/F31214',
  filing: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000039260292',
  beneficialOwners: 'https://www.legifrance.gouv.fr/jorf/article_jo/JORFARTI000041567073',
} as const

export const BENEFICIAL_OWNERS_DUTY: StandingDuty = {
  id: 'beneficiaires-effectifs',
  title: 'Registre des bénéficiaires effectifs : déclarer tout changement dans les 30 jours',
  detail:
    "Un associé qui franchit 25 % du capital ou des droits de vote, un nouveau dirigeant, l'adresse d'un bénéficiaire qui change : " +
    'une déclaration modificative se dépose sur le guichet unique (procedures.inpi.fr) dans les 30 jours.',
  kind: 'beneficiaires-effectifs',
  source: LEGAL_SOURCES.beneficialOwners,
}

export function legalDuties(input: LegalDutiesInput): LegalDuties {
  assertIsoDate(input.today, 'today')
  const endMonth = input.fiscalYearEndMonth ?? DEFAULT_FISCAL_YEAR_END_MONTH
  if (!Number.isInteger(endMonth) || endMonth < 1 || endMonth > 12) throw new RangeError(`fiscalYearEndMonth must be 1–12, got ${endMonth}`)
  const profile = legalFormProfile(input.legalForm)
  const year = dateParts(input.today)[0]
  const first = isoDate(year, 1, 1)
  const last = isoDate(year + 1, 12, 31)
  const deadlines: Deadline<LegalKind>[] = []
  const add = (deadline: Deadline<LegalKind>) => {
    if (deadline.date >= first && deadline.date <= last) deadlines.push(deadline)
  }

  if (profile.approvesAccountsWithinSixMonths) {
    for (const y of [year - 2, year - 1, year, year + 1]) {
      const close = lastDayOfMonth(y, endMonth)
      const exercise = `exercice clos le ${longDateFr(close)}`
      // Company-law periods: not moved past weekends and holidays (an assembly may meet any day).
      const approval = addMonths(close, APPROVAL_MONTHS)
      add({
        id: `approbation-comptes-${close.slice(0, 7)}`,
        date: approval,
        title: `Approbation des comptes (${exercise})`,
        kind: 'approbation-comptes',
        source: LEGAL_SOURCES.accounts,
        detail: "Assemblée générale ordinaire, ou décision de l'associé unique, dans les six mois de la clôture.",
      })
      if (profile.filesAccounts) {
        add({
          id: `depot-comptes-${close.slice(0, 7)}`,
          date: addMonths(approval, FILING_MONTHS_ONLINE),
          title: `Dépôt des comptes au greffe (${exercise})`,
          kind: 'depot-comptes',
          source: LEGAL_SOURCES.filing,
          detail:
            `Dans les deux mois de l'approbation pour un dépôt en ligne sur le guichet unique (un mois sur papier) ; ` +
            `date calculée pour une approbation le ${longDateFr(approval)}, plus tôt si les comptes sont approuvés avant.`,
        })
      }
    }
  }

  return { deadlines: deadlines.sort(byDate), standing: profile.hasBeneficialOwners ? [BENEFICIAL_OWNERS_DUTY] : [] }
}

/** The filing date for an approval that already took place, online (2 months) or on paper (1 month). */
export function filingDeadline(approvedOn: IsoDate, online = true): IsoDate {
  assertIsoDate(approvedOn, 'approvedOn')
  return addMonths(approvedOn, online ? FILING_MONTHS_ONLINE : FILING_MONTHS_PAPER)
}
