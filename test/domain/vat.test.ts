import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import {
  AMOUNT_ERRORS,
  fromHT,
  fromTTC,
  MAX_AMOUNT_CENTS,
  parseFrenchAmount,
  VAT_RATE_LABELS,
  VAT_RATES,
  type VatRate,
} from '../../src/domain/vat.ts'

const NNBSP = '\u202F'
const NBSP = '\u00A0'
const anyRate = fc.constantFrom(...VAT_RATES)
const anyCents = fc.integer({ min: 0, max: MAX_AMOUNT_CENTS })

/** Reference rounding in BigInt, written independently of the module: half up of n / d. */
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d)

const Parse = suite('vat: French amounts typed by a person')

Parse('accepted spellings, in cents', () => {
  const accepted: [string, number][] = [
    ['1 234,56', 123456],
    ['1234.56', 123456],
    ['1234,56', 123456],
    [`1${NNBSP}234,56`, 123456],
    [`1${NBSP}234,56`, 123456],
    ['100', 10000],
    ['0,5', 50],
    ['0,05', 5],
    ['0', 0],
    ['  12,3  ', 1230],
    ['1 234 567,89 €', 123456789],
    ['1234,56€', 123456],
    ['007', 700],
    ['999 999 999,99', MAX_AMOUNT_CENTS],
  ]
  for (const [input, cents] of accepted) assert.equal(parseFrenchAmount(input), { ok: true, cents }, JSON.stringify(input))
})

Parse('refused inputs, each with its French message', () => {
  const refused: [string, string][] = [
    ['abc', AMOUNT_ERRORS.invalid],
    ['1,2,3', AMOUNT_ERRORS.invalid],
    ['', AMOUNT_ERRORS.invalid],
    ['   ', AMOUNT_ERRORS.invalid],
    ['12 34', AMOUNT_ERRORS.invalid],
    ['1.234,56', AMOUNT_ERRORS.invalid],
    [',5', AMOUNT_ERRORS.invalid],
    ['5,', AMOUNT_ERRORS.invalid],
    ['1e3', AMOUNT_ERRORS.invalid],
    ['+5', AMOUNT_ERRORS.invalid],
    ['NaN', AMOUNT_ERRORS.invalid],
    ['-5', AMOUNT_ERRORS.negative],
    ['\u22125,00', AMOUNT_ERRORS.negative],
    ['1,234', AMOUNT_ERRORS.decimals],
    ['1 000 000 000', AMOUNT_ERRORS.tooLarge],
  ]
  for (const [input, error] of refused) assert.equal(parseFrenchAmount(input), { ok: false, error }, JSON.stringify(input))
  assert.is(AMOUNT_ERRORS.invalid, 'Saisissez un montant, par exemple 1 234,56.')
})

Parse("property: what Intl.NumberFormat('fr-FR') writes parses back to the same cents", () => {
  const euros = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  fc.assert(
    fc.property(anyCents, fc.constantFrom(NNBSP, NBSP, ' '), (cents, space) => {
      const text = euros.format(cents / 100).replace(/[\u202F\u00A0]/g, space)
      assert.equal(parseFrenchAmount(text), { ok: true, cents }, text)
    }),
  )
})

Parse.run()

const Rates = suite('vat: HT and TTC in cents, rounded half up')

Rates('the four rates', () => {
  assert.equal([...VAT_RATES], [2000, 1000, 550, 210])
  assert.equal(
    VAT_RATES.map((r) => VAT_RATE_LABELS[r]),
    ['20 %', '10 %', '5,5 %', '2,1 %'],
  )
})

Rates('from HT: exact values, halves rounded up', () => {
  assert.equal(fromHT(10000, 2000), { ht: 10000, tva: 2000, ttc: 12000 })
  assert.equal(fromHT(5, 550), { ht: 5, tva: 0, ttc: 5 }, '0,05 € at 5,5 % = 0,275 cent of VAT: 0,00 €')
  assert.equal(fromHT(5, 1000), { ht: 5, tva: 1, ttc: 6 }, '0,5 cent rounds up')
  assert.equal(fromHT(300, 550), { ht: 300, tva: 17, ttc: 317 }, '16,5 cents: up, not to even')
  assert.equal(fromHT(500, 210), { ht: 500, tva: 11, ttc: 511 }, '10,5 cents: up, not to even')
  assert.equal(fromHT(1005, 1000), { ht: 1005, tva: 101, ttc: 1106 }, '100,5 cents, where 10.05 * 0.1 in floating point is not')
  assert.equal(fromHT(123456, 2000), { ht: 123456, tva: 24691, ttc: 148147 })
  assert.equal(fromHT(0, 210), { ht: 0, tva: 0, ttc: 0 })
})

Rates('from TTC: exact values, halves rounded up on the HT', () => {
  assert.equal(fromTTC(12000, 2000), { ht: 10000, tva: 2000, ttc: 12000 })
  assert.equal(fromTTC(10550, 550), { ht: 10000, tva: 550, ttc: 10550 })
  assert.equal(fromTTC(10210, 210), { ht: 10000, tva: 210, ttc: 10210 })
  assert.equal(fromTTC(15, 2000), { ht: 13, tva: 2, ttc: 15 }, '12,5 cents HT: up')
  assert.equal(fromTTC(3, 2000), { ht: 3, tva: 0, ttc: 3 }, '2,5 cents HT: up')
  assert.equal(fromTTC(100, 550), { ht: 95, tva: 5, ttc: 100 })
  assert.equal(fromTTC(1, 210), { ht: 1, tva: 0, ttc: 1 })
})

Rates('refuses what is not an amount in cents or a rate of the list', () => {
  assert.throws(() => fromHT(-1, 2000), /amount/)
  assert.throws(() => fromHT(1.5, 2000), /amount/)
  assert.throws(() => fromTTC(MAX_AMOUNT_CENTS + 1, 2000), /amount/)
  assert.throws(() => fromHT(100, 1960 as VatRate), /rate/)
})

Rates('property: both directions equal a BigInt half-up reference, and HT + TVA = TTC', () => {
  fc.assert(
    fc.property(anyCents, anyRate, (cents, rate) => {
      const up = fromHT(cents, rate)
      assert.is(BigInt(up.tva), halfUp(BigInt(cents) * BigInt(rate), 10000n))
      assert.is(up.ht + up.tva, up.ttc)
      const down = fromTTC(cents, rate)
      assert.is(BigInt(down.ht), halfUp(BigInt(cents) * 10000n, BigInt(10000 + rate)))
      assert.is(down.ht + down.tva, down.ttc)
      assert.ok(down.tva >= 0 && down.ht <= cents)
    }),
  )
})

Rates('property: HT → TTC → HT gives the HT back', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: Math.floor(MAX_AMOUNT_CENTS / 1.2) }), anyRate, (ht, rate) => {
      assert.is(fromTTC(fromHT(ht, rate).ttc, rate).ht, ht)
    }),
  )
})

Rates('property: TTC → HT → TTC gives the TTC back, or within a cent when no HT price leads to it', () => {
  // Some TTC amounts have no HT price: at 20 %, 0,02 € HT gives 0,02 € TTC and 0,03 € HT gives 0,04 €.
  assert.equal([fromHT(2, 2000).ttc, fromHT(3, 2000).ttc], [2, 4])
  fc.assert(
    fc.property(fc.integer({ min: 0, max: Math.floor(MAX_AMOUNT_CENTS / 1.2) }), anyRate, (ttc, rate) => {
      const { ht } = fromTTC(ttc, rate)
      const back = fromHT(ht, rate).ttc
      assert.ok(Math.abs(back - ttc) <= 1, `${ttc} → ${ht} → ${back}`)
      if (back !== ttc) {
        for (const candidate of [ht - 1, ht, ht + 1].filter((h) => h >= 0)) assert.is.not(fromHT(candidate, rate).ttc, ttc)
      }
    }),
  )
})

Rates.run()
