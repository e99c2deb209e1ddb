// French phone numbers in any usual spelling ("06 12 34 56 78", "06.12.34.56.78", "+33 6 12 34 56 78",
// "+33 (0)6…", "0033 6…") as one: "06 12 34 56 78". Shared by the server and the SPA (a pure rule of the
// contract: the SPA may import it as a value).

/** The number as "0X XX XX XX XX", or null when it is not a French number. */
export function normaliseFrenchPhone(input: string): string | null {
  const compact = input
    .replace(/[\s.\-/]/g, '')
    .replace(/^\+33\(0\)/, '+33')
    .replace(/^\(0\)/, '0')
  if (!/^(\+|00)?\d+$/.test(compact)) return null
  const national = compact.startsWith('+33') ? `0${compact.slice(3)}` : compact.startsWith('0033') ? `0${compact.slice(4)}` : compact
  if (!/^0[1-9]\d{8}$/.test(national)) return null
  return national.replace(/(\d{2})(?=\d)/g, '$1 ')
}
