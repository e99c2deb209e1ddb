// The one rule for a password a person chooses (set-password, change, invitation), shown as one types
// and checked again by the server (server/services/password-policy.ts, same messages): 12 characters
// at least, not among the most common passwords nor a repetition or a run (server/contract/rules/password.ts), no
// composition rules (NIST SP 800-63B).
import { PASSWORD_TOO_SIMPLE, isTooSimplePassword } from '../../server/contract/rules/password.ts'
import { COMMON_LONG_PASSWORDS } from './commonPasswords.ts'

export { PASSWORD_TOO_SIMPLE }

export const MIN_PASSWORD_LENGTH = 12

export const PASSWORD_TOO_SHORT = `Le mot de passe doit contenir au moins ${MIN_PASSWORD_LENGTH} caractères.`
export const PASSWORD_TOO_COMMON = 'Ce mot de passe fait partie des plus courants : choisissez-en un autre, par exemple une phrase de plusieurs mots.'
export const PASSWORDS_DIFFER = 'Les deux mots de passe ne sont pas identiques.'

let common: Set<string> | undefined
const isCommon = (password: string) => (common ??= new Set(COMMON_LONG_PASSWORDS)).has(password.normalize('NFC').toLowerCase())

/** Characters as a person counts them: one per code point. */
export const passwordLength = (password: string) => [...password.normalize('NFC')].length

/** The rule's lines, each met or not, for the list shown under the field. */
export function passwordChecks(password: string): { label: string; ok: boolean }[] {
  return [
    { label: `au moins ${MIN_PASSWORD_LENGTH} caractères (${passwordLength(password)} pour l’instant)`, ok: passwordLength(password) >= MIN_PASSWORD_LENGTH },
    { label: 'pas un mot de passe courant ni une répétition ou une suite', ok: password !== '' && !isCommon(password) && !isTooSimplePassword(password) },
  ]
}

/** Why a chosen password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT
  if (isCommon(password)) return PASSWORD_TOO_COMMON
  if (isTooSimplePassword(password)) return PASSWORD_TOO_SIMPLE
  return null
}
