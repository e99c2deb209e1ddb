import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { commonPasswords, passwordMessages, passwordProblem as serverProblem } from '../../server/services/password-policy.ts'
import { normaliseFrenchPhone as serverPhone } from '../../server/contract/rules/phone.ts'
import { isTooSimplePassword } from '../../server/contract/rules/password.ts'
import { COMMON_LONG_PASSWORDS } from '../../src/machines/commonPasswords.ts'
import {
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_SIMPLE,
  STRENGTH_PENDING,
  loadPasswordStrength,
  passwordChecks,
  passwordProblem,
  passwordStrengthReady,
} from '../../src/machines/passwordRule.ts'
import { normaliseFrenchPhone } from '../../src/machines/people/representatives.machine.ts'

const Rule = suite('the password rule, the same in the SPA and on the server')

Rule('before the strength estimator has come, its line waits and the server alone decides the strength', async () => {
  assert.not.ok(passwordStrengthReady(), 'nothing loads it but a password form (or this test)')
  assert.equal(passwordChecks('Motdepasse123!').at(-1), { label: STRENGTH_PENDING, ok: false })
  assert.is(passwordProblem('Motdepasse123!'), null, 'left to the server')
  assert.ok(await loadPasswordStrength())
  assert.ok(passwordStrengthReady())
  assert.is(await loadPasswordStrength(), true, 'loaded once, then kept')
})

Rule("the SPA holds exactly the shipped list's entries of 12 characters or more", () => {
  const expected = [...commonPasswords()].filter((p) => [...p].length >= 12)
  assert.equal(
    [...COMMON_LONG_PASSWORDS].sort(),
    [...new Set(expected)].sort(),
    'regenerate src/machines/commonPasswords.ts from server/data/common-passwords.txt (its entries of 12 characters or more)',
  )
  assert.ok(commonPasswords().size >= 30_000, 'a real list of the most common passwords')
  assert.ok(
    readFileSync(join(import.meta.dirname, '../../server/data/common-passwords.txt'), 'utf8').startsWith('#'),
    'its source said at its top',
  )
})

Rule('same messages, same verdicts', () => {
  assert.is(PASSWORD_TOO_SHORT, passwordMessages.tooShort)
  assert.is(PASSWORD_TOO_COMMON, passwordMessages.common)
  assert.is(PASSWORD_TOO_SIMPLE, passwordMessages.tooSimple)
  for (const candidate of [
    '',
    'Demo1234!',
    'court',
    '123456789012',
    'QWERTY123456',
    'azertyuiop123',
    'motdepasse123',
    'une phrase de passe',
    'Ça c’est long 🙂',
    '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂',
    'é'.repeat(11),
    ' '.repeat(12),
    'azerazerazer',
    'abcdefghijkl',
    '🙂🎉🌍 trois emoji',
    ...WEAK,
    'Nouveau1234!',
    'Lilas-des-Prés-1987',
    'trois mots au hasard',
  ]) {
    assert.is(passwordProblem(candidate), serverProblem(candidate), JSON.stringify(candidate))
  }
})

Rule('12 characters as a person counts them; no composition rules', () => {
  assert.is(passwordProblem('abcdefghijk'), PASSWORD_TOO_SHORT)
  assert.is(
    passwordProblem('🙂🎉🌍'.repeat(4)),
    PASSWORD_TOO_SIMPLE,
    'twelve emoji are twelve characters (three repeated four times: too simple)',
  )
  assert.is(passwordProblem('🙂🎉🌍🌞🌧🍀⚡🔥💧🌈🌙⭐'), null, 'twelve different emoji')
  assert.is(passwordProblem('tout en minuscules'), null)
  assert.is(passwordProblem('Demo1234!'), PASSWORD_TOO_SHORT, 'the demo password could not be chosen today')
  assert.equal(
    passwordChecks('').map((c) => c.ok),
    [false, false, false],
  )
  assert.equal(
    passwordChecks('qwerty123456').map((c) => c.ok),
    [true, false, false],
  )
  assert.equal(
    passwordChecks('une phrase de passe').map((c) => c.ok),
    [true, true, true],
  )
})

Rule('repeated characters, repeated blocks and runs are refused (NIST SP 800-63B), whatever the case', () => {
  for (const simple of [
    ' '.repeat(12),
    '\u200b'.repeat(12),
    'a'.repeat(12),
    'aaaaaaaaaaaB',
    'abababababab',
    'AbAbAbAbAbAb',
    'azerazerazer',
    'abcabcabcabc',
    'abcdefghijklm',
    'ZYXWVUTSRQPO',
    '789012345678',
    '987654321098',
    '🙂'.repeat(12),
    'é'.repeat(12),
  ]) {
    assert.is(passwordProblem(simple), PASSWORD_TOO_SIMPLE, JSON.stringify(simple))
    assert.is(passwordChecks(simple)[1].ok, false, `${JSON.stringify(simple)} shown refused while typing`)
  }
  for (const fine of ['une phrase de passe', 'abcdefghijkX', 'aab aab aab !', 'Ça c’est long 🙂', 'correct horse battery']) {
    assert.is(isTooSimplePassword(fine), false, JSON.stringify(fine))
  }
  for (const fine of ['une phrase de passe', 'Ça c’est long 🙂', 'correct horse battery', 'Lilas-des-Prés-1987']) {
    assert.is(passwordProblem(fine), null, JSON.stringify(fine))
  }
})

// Found by an outside probe: 12 characters or more, none in the list of common passwords, none a plain
// repetition or run; a cracking program finds each at once.
const WEAK = [
  'P@ssw0rd1234',
  'Password123!',
  'passwordpassword',
  'iloveyou1234',
  'Bonjour12345',
  'Motdepasse123!',
  'azertyazerty',
  'Azerty123456!',
]

Rule('passwords a cracking program guesses fast are refused with what makes them easy, in French, and shown so as one types', () => {
  for (const weak of [...WEAK, 'motdepassemotdepasse', 'Nouveau1234!', 'Jean-Pierre1985']) {
    const problem = passwordProblem(weak)
    assert.ok(problem, `${weak} is refused`)
    assert.match(problem!, /Choisissez-en un plus long et moins prévisible/, weak)
    assert.not.match(problem!, /[a-z]{3,} [a-z]+ (is|the|of)\b/, `${weak}: French only`)
    const line = passwordChecks(weak).at(-1)!
    assert.is(line.ok, false, `${weak} shown weak while typing`)
    // Beside the line, what makes it easy (zxcvbn's warning, in our French).
    assert.ok(problem!.startsWith(line.label.replace('difficile à deviner : ', '')), `${weak}: ${line.label}`)
  }
  assert.match(passwordProblem('Password123!')!, /ressemble à un mot de passe couramment utilisé/)
  assert.match(passwordProblem('azertyazerty')!, /répétée/, 'an azerty keyboard row repeated')
  assert.is(passwordChecks('Lilas-des-Prés-1987').at(-1)!.ok, true)
})

Rule('French phone numbers: the SPA normalises as the server does', () => {
  for (const input of [
    '06 12 34 56 78',
    '06.12.34.56.78',
    '0612345678',
    '+33 6 12 34 56 78',
    '+33 (0)6 12 34 56 78',
    '0033612345678',
    '+44 20 7946 0958',
    '12345',
    '06-12-34-56-78',
    '01 23 45 67 8',
    '00 12 34 56 78',
    'abc',
  ]) {
    assert.is(normaliseFrenchPhone(input), serverPhone(input), input)
  }
  assert.is(normaliseFrenchPhone('+33 6 12 34 56 78'), '06 12 34 56 78')
})

Rule.run()
