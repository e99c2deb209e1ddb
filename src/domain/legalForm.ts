// What a legal form implies for the calendars: the tax on profits by default, whether the company
// holds an annual approval of its accounts and files them at the registry. Rules: README.md here.

/** 'is': impôt sur les sociétés; 'ir': the profit is taxed as the members' income (impôt sur le revenu). */
export type ProfitTax = 'is' | 'ir'

export interface LegalFormProfile {
  /** The form's acronym, or null when the form is unknown (the defaults of a commercial company apply). */
  code: string | null
  /** Before any option: an EURL may opt for IS, a young SARL for IR; the calendar takes the option as input. */
  profitTax: ProfitTax
  /** Members approve the accounts within six months of the year end (commercial companies). */
  approvesAccountsWithinSixMonths: boolean
  /** The accounts are filed at the registry (sociétés à responsabilité limitée and par actions). */
  filesAccounts: boolean
  /** A legal person: it declares its beneficial owners. */
  hasBeneficialOwners: boolean
}

type Profile = Omit<LegalFormProfile, 'code'>

const capitalCompany: Profile = { profitTax: 'is', approvesAccountsWithinSixMonths: true, filesAccounts: true, hasBeneficialOwners: true }
const soleMemberLimited: Profile = { ...capitalCompany, profitTax: 'ir' }
const partnership: Profile = { profitTax: 'ir', approvesAccountsWithinSixMonths: true, filesAccounts: false, hasBeneficialOwners: true }
const civilCompany: Profile = { profitTax: 'ir', approvesAccountsWithinSixMonths: false, filesAccounts: false, hasBeneficialOwners: true }
const soleTrader: Profile = { profitTax: 'ir', approvesAccountsWithinSixMonths: false, filesAccounts: false, hasBeneficialOwners: false }

const PROFILES: Record<string, Profile> = {
  SARL: capitalCompany,
  SAS: capitalCompany,
  SASU: capitalCompany,
  SA: capitalCompany,
  SCA: capitalCompany,
  SELARL: capitalCompany,
  SELAS: capitalCompany,
  SELASU: capitalCompany,
  SELAFA: capitalCompany,
  SELCA: capitalCompany,
  // A sole member who is a natural person: IR unless the EURL opted for IS.
  EURL: soleMemberLimited,
  SELARLU: soleMemberLimited,
  SNC: partnership,
  // The commandités' share is taxed as their income, the rest bears IS: IS keeps every IS deadline shown.
  SCS: { ...partnership, profitTax: 'is' },
  SCI: civilCompany,
  SC: civilCompany,
  SCM: civilCompany,
  SCP: civilCompany,
  SCCV: civilCompany,
  EI: soleTrader,
  EIRL: soleTrader,
}

const ALIASES: Record<string, string> = {
  SOCIETEARESPONSABILITELIMITEE: 'SARL',
  ENTREPRISEUNIPERSONNELLEARESPONSABILITELIMITEE: 'EURL',
  SARLUNIPERSONNELLE: 'EURL',
  SARLU: 'EURL',
  SOCIETEPARACTIONSSIMPLIFIEE: 'SAS',
  SOCIETEPARACTIONSSIMPLIFIEEUNIPERSONNELLE: 'SASU',
  SASUNIPERSONNELLE: 'SASU',
  SOCIETEANONYME: 'SA',
  SOCIETEENNOMCOLLECTIF: 'SNC',
  SOCIETECIVILEIMMOBILIERE: 'SCI',
  SOCIETECIVILE: 'SC',
  ENTREPRISEINDIVIDUELLE: 'EI',
  ENTREPRENEURINDIVIDUEL: 'EI',
  MICROENTREPRISE: 'EI',
  MICROENTREPRENEUR: 'EI',
  AUTOENTREPRENEUR: 'EI',
}

/** "S.A.R.L.", "sarl", "Société par actions simplifiée" → their acronym; null when unknown. */
export function legalFormCode(legalForm: string | null | undefined): string | null {
  if (!legalForm) return null
  const letters = legalForm
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
  const code = ALIASES[letters] ?? letters
  return code in PROFILES ? code : null
}

/** An unknown form is taken for a commercial company under IS: showing a deadline too many beats missing one. */
export function legalFormProfile(legalForm: string | null | undefined): LegalFormProfile {
  const code = legalFormCode(legalForm)
  return { code, ...(code === null ? capitalCompany : PROFILES[code]!) }
}
