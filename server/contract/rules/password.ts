// What makes a long password still trivially guessed, beyond the list of the most common ones: NIST SP 800-63B asks to
// refuse "repetitive or sequential characters (e.g. 'aaaaaa', '1234abcd')". Twelve spaces, 'aaaaaaaaaaaa',
// 'abababababab', 'azerazerazer' or 'abcdefghijkl' passed the length rule and were not in the list.
// Shared by the SPA (shown as one types) and the server (which decides): a pure rule of the contract.
import { isBlank } from './text.ts'

/** One entry per character as a person counts them (code points), case ignored. */
const characters = (password: string) => [...password.normalize('NFC').toLowerCase()]

const DIGITS = '0123456789'
/** The step from one character to the next, a digit's 9 → 0 counting as + 1 (a keypad's run '789012'). */
const step = (a: string, b: string) => {
  if (DIGITS.includes(a) && DIGITS.includes(b))
    return (DIGITS.indexOf(b) - DIGITS.indexOf(a) + 10) % 10 === 1 ? 1 : (DIGITS.indexOf(a) - DIGITS.indexOf(b) + 10) % 10 === 1 ? -1 : 0
  return b.codePointAt(0)! - a.codePointAt(0)!
}

/** Whether the password is only blank, uses fewer than three different characters, repeats one short block three
 *  times or more, or runs up or down one character at a time ('abcdef…', '98765…'). */
export function isTooSimplePassword(password: string): boolean {
  if (isBlank(password)) return true
  const chars = characters(password)
  if (new Set(chars).size < 3) return true
  for (let period = 1; period * 3 <= chars.length; period++) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return true
  }
  const first = step(chars[0], chars[1])
  return (first === 1 || first === -1) && chars.every((c, i) => i === 0 || step(chars[i - 1], c) === first)
}

/** A chosen password's length at least, in characters as a person counts them (code points). */
export const MIN_PASSWORD_LENGTH = 12
export const PASSWORD_TOO_SHORT = `Le mot de passe doit contenir au moins ${MIN_PASSWORD_LENGTH} caractères.`
export const PASSWORD_TOO_COMMON =
  'Ce mot de passe fait partie des plus courants : choisissez-en un autre, par exemple une phrase de plusieurs mots.'

/** Characters as a person counts them (NIST): one per code point, not UTF-16 units. */
export const passwordLength = (password: string) => [...password.normalize('NFC')].length

export const PASSWORD_TOO_SIMPLE =
  'Ce mot de passe est trop facile à deviner (un même caractère répété, un motif répété ou une suite) : choisissez-en un autre, par exemple une phrase de plusieurs mots.'
