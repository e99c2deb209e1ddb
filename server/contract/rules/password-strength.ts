// How fast a chosen password would be guessed, as a cracking program tries them: zxcvbn-ts with its common
// passwords, its keyboard layouts (azerty included) and French and English dictionaries. The one strength rule of the
// server (server/services/password-policy.ts, which decides) and of the screens (src/machines/passwordRule.ts, which
// load this module with the form that needs it: its dictionaries are far too large for a page's first load).
// A password is accepted from about 10¹⁰ guesses (zxcvbn's score 4): 'Motdepasse123!' and 'Azerty123456!' are not.
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
// The English surnames and Wikipedia words (380 kB gzip of the 1,140 the whole packages would weigh on a screen) are
// left out, imported file by file: the French dictionaries, the English common words and first names, and the list
// of leaked passwords stay.
import englishWords from '@zxcvbn-ts/language-en/dist/commonWords.json.mjs'
import englishFirstNames from '@zxcvbn-ts/language-en/dist/firstnames.json.mjs'
import englishSequences from '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs'
import * as fr from '@zxcvbn-ts/language-fr'

/** zxcvbn's score of a password that would take about 10¹⁰ guesses or more: the lowest one accepted. */
export const MIN_STRENGTH_SCORE = 4

/** zxcvbn's warnings in our French: whole sentences, French quotes and apostrophes. */
const warnings: typeof fr.translations.warnings = {
  straightRow: 'Une rangée de touches du clavier se devine vite.',
  keyPattern: 'Un motif du clavier se devine vite.',
  simpleRepeat: 'Un caractère répété (« aaa ») se devine vite.',
  extendedRepeat: 'Une suite de caractères répétée (« abcabcabc ») se devine vite.',
  sequences: 'Une suite courante (« abc », « 1234 ») se devine vite.',
  recentYears: 'Une année récente se devine vite.',
  dates: 'Une date se devine vite.',
  topTen: 'Ce mot de passe est parmi les dix plus utilisés.',
  topHundred: 'Ce mot de passe est parmi les cent plus utilisés.',
  common: 'Ce mot de passe est couramment utilisé.',
  similarToCommon: 'Ce mot de passe ressemble à un mot de passe couramment utilisé.',
  wordByItself: 'Un mot seul se devine vite.',
  namesByThemselves: 'Un nom ou un prénom seul se devine vite.',
  commonNames: 'Les noms et prénoms courants se devinent vite.',
  userInputs: 'Un mot de passe ne doit pas reprendre vos données personnelles.',
  pwned: 'Ce mot de passe a été divulgué lors d’une fuite de données.',
}

let factory: ZxcvbnFactory | undefined
/** Built at the first check (about half a second: the dictionaries are ranked), then kept. */
const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: {
      ...common.dictionary,
      'commonWords-en': englishWords,
      'firstnames-en': englishFirstNames,
      ...englishSequences,
      ...fr.dictionary,
    },
    graphs: common.adjacencyGraphs,
    translations: { ...fr.translations, warnings },
    // Each l33t substitution doubles the variants tried: past 4, a check took up to a second (the event loop's).
    l33tMaxSubstitutions: 4,
    maxLength: 128,
  }))

export const PASSWORD_TOO_GUESSABLE = 'Ce mot de passe serait vite deviné par un logiciel qui essaie les mots et les mots de passe connus.'
const ADVICE = 'Choisissez-en un plus long et moins prévisible, par exemple une phrase de plusieurs mots.'

/** Whether a program would take long enough to guess the password and, when not, what makes it easy (French). */
export function passwordStrength(password: string): { strong: boolean; warning: string } {
  const { score, feedback } = estimator().check(password.normalize('NFC'))
  return { strong: score >= MIN_STRENGTH_SCORE, warning: feedback.warning ?? PASSWORD_TOO_GUESSABLE }
}

/** The French reason a password too fast to guess is refused: what makes it easy, then the advice. */
export const weakPasswordMessage = (warning: string) => `${warning} ${ADVICE}`

/** The French reason why a program would guess the password too fast, or null when it is strong enough. */
export function strengthProblem(password: string): string | null {
  const { strong, warning } = passwordStrength(password)
  return strong ? null : weakPasswordMessage(warning)
}
