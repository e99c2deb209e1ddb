import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { commonPasswords, passwordMessages, passwordProblem as serverProblem } from '../../server/services/password-policy.ts'
import { normaliseFrenchPhone as serverPhone } from '../../server/contract/rules/phone.ts'
import { COMMON_LONG_PASSWORDS } from '../../src/machines/commonPasswords.ts'
import { PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT, PASSWORD_TOO_SIMPLE, passwordChecks, passwordProblem } from '../../src/machines/passwordRule.ts'
import { normaliseFrenchPhone } from '../../src/machines/representatives.machine.ts'

const Rule = suite('the password rule, the same in the SPA and on the server')

Rule('the SPA holds exactly the shipped list\'s entries of 12 characters or more', () => {
  const expected = [...commonPasswords()].filter((p) => [...p].length >= 12)
  assert.equal([...COMMON_LONG_PASSWORDS].sort(), [...new Set(expected)].sort(),
    'regenerate src/machines/commonPasswords.ts from server/data/common-passwords.txt (its entries of 12 characters or more)')
  assert.ok(commonPasswords().size >= 30_000, 'a real list of the most common passwords')
  assert.ok(readFileSync(join(import.meta.dirname, '../../server/data/common-passwords.txt'), 'utf8').startsWith('#'), 'its source said at its top')
})

Rule('same messages, same verdicts', () => {
  assert.is(PASSWORD_TOO_SHORT, passwordMessages.tooShort)
  assert.is(PASSWORD_TOO_COMMON, passwordMessages.common)
  assert.is(PASSWORD_TOO_SIMPLE, passwordMessages.tooSimple)
  for (const candidate of ['', 'Demo1234!', 'court', '123456789012', 'QWERTY123456', 'azertyuiop123', 'motdepasse123', 'une phrase de passe', 'Ça c’est long 🙂', '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂', 'é'.repeat(11), ' '.repeat(12), 'azerazerazer', 'abcdefghijkl', '🙂🎉🌍 trois emoji']) {
    assert.is(passwordProblem(candidate), serverProblem(candidate), JSON.stringify(candidate))
  }
})

Rule('12 characters as a person counts them; no composition rules', () => {
  assert.is(passwordProblem('abcdefghijk'), PASSWORD_TOO_SHORT)
  assert.is(passwordProblem('🙂🎉🌍'.repeat(4)), PASSWORD_TOO_SIMPLE, 'twelve emoji are twelve characters (three repeated four times: too simple)')
  assert.is(passwordProblem('🙂🎉🌍🌞🌧🍀⚡🔥💧🌈🌙⭐'), null, 'twelve different emoji')
  assert.is(passwordProblem('tout en minuscules'), null)
  assert.is(passwordProblem('Demo1234!'), PASSWORD_TOO_SHORT, 'the demo password could not be chosen today')
  assert.equal(passwordChecks('').map((c) => c.ok), [false, false])
  assert.equal(passwordChecks('qwerty123456').map((c) => c.ok), [true, false])
  assert.equal(passwordChecks('une phrase de passe').map((c) => c.ok), [true, true])
})

Rule('repeated characters, repeated blocks and runs are refused (NIST SP 800-63B), whatever the case', () => {
  for (const simple of [' '.repeat(12), '\u200b'.repeat(12), 'a'.repeat(12), 'aaaaaaaaaaaB', 'abababababab', 'AbAbAbAbAbAb', 'azerazerazer', 'abcabcabcabc',
    'abcdefghijklm', 'ZYXWVUTSRQPO', '789012345678', '987654321098', '🙂'.repeat(12), 'é'.repeat(12)]) {
    assert.is(passwordProblem(simple), PASSWORD_TOO_SIMPLE, JSON.stringify(simple))
    assert.is(passwordChecks(simple)[1].ok, false, `${JSON.stringify(simple)} shown refused while typing`)
  }
  for (const fine of ['une phrase de passe', 'motdepassemotdepasse', 'abcdefghijkX', 'aab aab aab !', 'Ça c’est long 🙂', 'correct horse battery']) {
    assert.is(passwordProblem(fine), null, JSON.stringify(fine))
  }
})

Rule('French phone numbers: the SPA normalises as the server does', () => {
  for (const input of ['06 12 34 56 78', '06.12.34.56.78', '0612345678', '+33 6 12 34 56 78', '+33 (0)6 12 34 56 78', '0033612345678', '+44 20 7946 0958', '12345', '06-12-34-56-78', '01 23 45 67 8', '00 12 34 56 78', 'abc']) {
    assert.is(normaliseFrenchPhone(input), serverPhone(input), input)
  }
  assert.is(normaliseFrenchPhone('+33 6 12 34 56 78'), '06 12 34 56 78')
})

Rule.run()
