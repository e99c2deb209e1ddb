// A company's SIREN: the nine digits INSEE gives it, the last one a Luhn key. Written once for the operators' form
// (the SPA says it before sending) and the server (which refuses it whatever reaches it); a pure rule of the contract.

export const SIREN_INVALID = 'Le SIREN doit compter 9 chiffres et sa clé de contrôle (Luhn) doit être juste.'

/** Blanks people and PDFs put between the groups: spaces, tabs, no-break and narrow no-break spaces. */
const BLANKS = /[\s\u00a0\u202f]+/g

/** The nine digits of a SIREN written with or without blanks between its groups ("732 829 320"), or null. */
export function sirenDigits(value: string): string | null {
  const digits = value.trim().replace(BLANKS, '')
  return /^\d{9}$/.test(digits) ? digits : null
}

/**
 * Luhn's check over a string of digits: from the right, every second digit doubled (less 9 past 9), the sum a multiple of
 * 10. A SIREN's key, and a card number's (the test card form, src/machines/billing/cardReplacement.machine.ts).
 */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** Whether the value is a SIREN: 9 digits (blanks between groups ignored) whose key is right. 000 000 000 passes Luhn but is none. */
export function isValidSiren(value: string): boolean {
  const digits = sirenDigits(value)
  return digits !== null && digits !== '000000000' && luhnValid(digits)
}

/** "732829320" as people read it: "732 829 320" (a value that is not nine digits is given back as it came). */
export function formatSiren(value: string): string {
  const digits = sirenDigits(value)
  return digits ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` : value
}

/** The legal forms « Nouveau client » offers (the contract's LegalForm), in the form's order. */
export const LEGAL_FORMS = ['SAS', 'SASU', 'SARL', 'EURL', 'SA', 'SCI', 'SNC', 'SCOP', 'SELARL', 'EI', 'Association'] as const
