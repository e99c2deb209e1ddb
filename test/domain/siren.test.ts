// A SIREN is 9 digits whose last is a Luhn key (server/contract/rules/company.ts), the same rule on both sides.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { formatSiren, isValidSiren, luhnValid, SIREN_INVALID, sirenDigits } from '../../server/contract/rules/company.ts'

/** Real companies' SIRENs, as the register shows them. */
const real = ['732 829 320', '552 100 554', '443 061 841', '542 107 651', '552 081 317', '356 000 000']

const siren = suite('SIREN rule')

siren('real SIRENs are accepted, written with or without spaces between their groups', () => {
  for (const value of real) {
    assert.ok(isValidSiren(value), value)
    assert.ok(isValidSiren(value.replace(/ /g, '')), `${value} without spaces`)
    assert.ok(isValidSiren(value.replace(/ /g, '\u00a0')), `${value} with no-break spaces`)
    assert.ok(isValidSiren(value.replace(/ /g, '\u202f')), `${value} with narrow no-break spaces`)
    assert.ok(isValidSiren(`  ${value.replace(/ /g, '  ')} `), `${value} with extra blanks`)
  }
})

siren('a wrong key is refused: each real SIREN with its last digit changed, or two digits swapped', () => {
  for (const value of real) {
    const digits = value.replace(/ /g, '')
    for (let key = 0; key <= 9; key++) {
      const changed = digits.slice(0, 8) + key
      if (changed !== digits) assert.not.ok(isValidSiren(changed), changed)
    }
  }
  assert.not.ok(isValidSiren('732 829 321'))
  assert.not.ok(isValidSiren('723 829 320'), 'two neighbours swapped')
  assert.not.ok(isValidSiren('823 456 789'))
})

siren('8 or 10 digits, letters, signs and the empty value are refused', () => {
  for (const value of ['73282932', '732 829 32', '7328293200', '732 829 320 0', '552 1OO 554', '55210055A', 'ABCDEFGHI', '']) {
    assert.not.ok(isValidSiren(value), JSON.stringify(value))
  }
  for (const value of ['732-829-320', '732.829.320', '+732829320', '732829320\n1'])
    assert.not.ok(isValidSiren(value), JSON.stringify(value))
  assert.not.ok(isValidSiren('732 829 320 00012'), 'a SIRET is not a SIREN')
})

siren('000 000 000 passes Luhn but is no SIREN', () => {
  assert.ok(luhnValid('000000000'))
  assert.not.ok(isValidSiren('000 000 000'))
})

siren('Luhn alone: the textbook numbers', () => {
  assert.ok(luhnValid('79927398713'))
  assert.not.ok(luhnValid('79927398710'))
  assert.ok(luhnValid('4242424242424242'), 'a test card number')
})

siren('the digits and the written form', () => {
  assert.is(sirenDigits(' 732\u00a0829 320 '), '732829320')
  assert.is(sirenDigits('73282932'), null)
  assert.is(formatSiren('732829320'), '732 829 320')
  assert.is(formatSiren('732 829320'), '732 829 320')
  assert.is(formatSiren('abc'), 'abc')
})

siren('the message says what a SIREN must be, in French', () => {
  assert.match(SIREN_INVALID, /9 chiffres/)
  assert.match(SIREN_INVALID, /clé de contrôle/)
})

siren.run()
