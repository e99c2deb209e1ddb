// The one rule for a password a person chooses (set-password, change, invitation), shown as one types
// and checked again by the server (server/services/password-policy.ts, same messages): 12 characters
// at least, not among the most common passwords nor a repetition or a run (server/contract/rules/password.ts), not
// guessed fast by a cracking program (server/contract/rules/password-strength.ts), no composition rules (NIST SP 800-63B).
// The strength estimator's dictionaries are a chunk of their own, loaded by the forms that need it
// (loadPasswordStrength): until it has come, the strength line waits and the server alone decides it.
import {
  MIN_PASSWORD_LENGTH,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_SIMPLE,
  isTooSimplePassword,
  passwordLength,
} from '../../server/contract/rules/password.ts'
import { COMMON_LONG_PASSWORDS } from './commonPasswords.ts'

export { MIN_PASSWORD_LENGTH, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT, PASSWORD_TOO_SIMPLE, passwordLength }
export const PASSWORDS_DIFFER = 'Les deux mots de passe ne sont pas identiques.'

let common: Set<string> | undefined
const isCommon = (password: string) => (common ??= new Set(COMMON_LONG_PASSWORDS)).has(password.normalize('NFC').toLowerCase())

type Strength = typeof import('../../server/contract/rules/password-strength.ts')
let strength: Strength | undefined
let loading: Promise<boolean> | undefined
const listeners = new Set<() => void>()

/** Loads the strength estimator once (several hundred kB of dictionaries: never in a page's first load); false if it
 *  could not be loaded (offline): the next call tries again, and the server decides meanwhile. */
export function loadPasswordStrength(): Promise<boolean> {
  loading ??= import('../../server/contract/rules/password-strength.ts').then(
    (module) => {
      strength = module
      for (const listener of listeners) listener()
      return true
    },
    () => {
      loading = undefined
      return false
    },
  )
  return loading
}

/** Whether the strength estimator has come, and a way to hear when it does (React's useSyncExternalStore). */
export const passwordStrengthReady = () => strength !== undefined
export function onPasswordStrengthReady(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** The last password estimated: typing re-renders the form far more often than the password changes. */
let last: { password: string; strong: boolean; warning: string } | undefined
function estimate(password: string) {
  if (!strength) return undefined
  if (last?.password !== password) last = { password, ...strength.passwordStrength(password) }
  return last
}

export const STRENGTH_PENDING = 'difficile à deviner (vérification en cours de chargement…)'

/** The rule's lines, each met or not, for the list shown under the field. */
export function passwordChecks(password: string): { label: string; ok: boolean }[] {
  const long = passwordLength(password) >= MIN_PASSWORD_LENGTH
  const plain = password !== '' && !isCommon(password) && !isTooSimplePassword(password)
  const estimated = long && plain ? estimate(password) : undefined
  return [
    { label: `au moins ${MIN_PASSWORD_LENGTH} caractères (${passwordLength(password)} pour l’instant)`, ok: long },
    { label: 'pas un mot de passe courant ni une répétition ou une suite', ok: plain },
    !strength
      ? { label: STRENGTH_PENDING, ok: false }
      : estimated && !estimated.strong
        ? { label: `difficile à deviner : ${estimated.warning}`, ok: false }
        : { label: 'difficile à deviner', ok: Boolean(estimated?.strong) },
  ]
}

/** Why a chosen password is refused, or null (the strength left to the server while its estimator has not come). */
export function passwordProblem(password: string): string | null {
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT
  if (isCommon(password)) return PASSWORD_TOO_COMMON
  if (isTooSimplePassword(password)) return PASSWORD_TOO_SIMPLE
  // The estimate the rule's lines made of this password, not a second one.
  const estimated = estimate(password)
  return estimated && !estimated.strong ? strength!.weakPasswordMessage(estimated.warning) : null
}
