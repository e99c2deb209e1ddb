// The one rule for every password a person chooses (new password, change, invitation), as NIST
// SP 800-63B advises: long enough, not one of the most common nor a repetition or a run, not guessed fast by a cracking
// program (zxcvbn-ts: server/contract/rules/password-strength.ts), no composition rules. The SPA shows
// the same rule as one types (src/machines/passwordRule.ts, kept in step by a test).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { strengthProblem } from '../contract/rules/password-strength.ts'
import {
  MIN_PASSWORD_LENGTH,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_SIMPLE,
  isTooSimplePassword,
  passwordLength,
} from '../contract/rules/password.ts'

export const passwordMessages = { tooShort: PASSWORD_TOO_SHORT, common: PASSWORD_TOO_COMMON, tooSimple: PASSWORD_TOO_SIMPLE } as const

let common: Set<string> | undefined

// The pre-built server (dist-server/, esbuild.server.mjs) carries its copy of the list beside it.
declare const __COMMON_PASSWORDS_FILE__: string | undefined
const commonPasswordsFile =
  typeof __COMMON_PASSWORDS_FILE__ === 'string'
    ? join(import.meta.dirname, __COMMON_PASSWORDS_FILE__)
    : join(import.meta.dirname, '..', 'data', 'common-passwords.txt')

/** The shipped list of the most common passwords (server/data/common-passwords.txt), lower case. */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(commonPasswordsFile, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
  return common
}

/** The French reason a chosen password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) return passwordMessages.tooShort
  if (commonPasswords().has(password.normalize('NFC').toLowerCase())) return passwordMessages.common
  if (isTooSimplePassword(password)) return passwordMessages.tooSimple
  return strengthProblem(password)
}
