// The VAT simulator's arithmetic, in integer cents; rates in basis points (20 % = 2000), so no
// binary fraction ever enters a computation. Rounding: half up, to the cent.

/** 20 %, 10 %, 5,5 % and 2,1 %, in basis points (hundredths of a percent). */
export const VAT_RATES = [2000, 1000, 550, 210] as const
export type VatRate = (typeof VAT_RATES)[number]

export const VAT_RATE_LABELS: Record<VatRate, string> = { 2000: '20 %', 1000: '10 %', 550: '5,5 %', 210: '2,1 %' }

export const VAT_RATES_SOURCE = 'https://entreprendre.service-public.fr/vosdroits/F23567'

export interface VatBreakdown {
  ht: number
  tva: number
  ttc: number
}

/** 999 999 999,99 €: with it, 2 × cents × 10 000 stays well within the exact integers of a double. */
export const MAX_AMOUNT_CENTS = 99_999_999_999

/** numerator / denominator rounded half up, both non-negative safe integers. */
function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator))
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`an amount in cents must be an integer from 0 to ${MAX_AMOUNT_CENTS}, got ${cents}`)
  }
}

function assertRate(rate: number): asserts rate is VatRate {
  if (!(VAT_RATES as readonly number[]).includes(rate))
    throw new RangeError(`rate must be one of ${VAT_RATES.join(', ')} basis points, got ${rate}`)
}

/** From a price before tax: the VAT rounded half up to the cent, then the total. */
export function fromHT(htCents: number, rate: VatRate): VatBreakdown {
  assertCents(htCents)
  assertRate(rate)
  const tva = divideHalfUp(htCents * rate, 10_000)
  return { ht: htCents, tva, ttc: htCents + tva }
}

/** From a price including tax: the price before tax rounded half up to the cent; the VAT is the difference. */
export function fromTTC(ttcCents: number, rate: VatRate): VatBreakdown {
  assertCents(ttcCents)
  assertRate(rate)
  const ht = divideHalfUp(ttcCents * 10_000, 10_000 + rate)
  return { ht, tva: ttcCents - ht, ttc: ttcCents }
}

export type ParsedAmount = { ok: true; cents: number } | { ok: false; error: string }

export const AMOUNT_ERRORS = {
  invalid: 'Saisissez un montant, par exemple 1 234,56.',
  negative: 'Saisissez un montant positif, par exemple 1 234,56.',
  decimals: 'Deux décimales au plus, par exemple 1 234,56.',
  tooLarge: "Saisissez un montant inférieur à un milliard d'euros.",
} as const

// Spaces a French keyboard, a copy from a spreadsheet or Intl.NumberFormat('fr-FR') put between thousands.
const GROUP_SPACE = '[ \\u00A0\\u202F]'
const INTEGER_PART = `(\\d{1,3}(?:${GROUP_SPACE}\\d{3})+|\\d+)`
const AMOUNT = new RegExp(`^${INTEGER_PART}(?:[.,](\\d+))?$`)

/**
 * A French amount typed by a person: "1 234,56", "1234.56", "1 234,56" with a no-break or narrow
 * no-break space between thousands, "100", "0,5", an optional euro sign at the end. Refused: text,
 * several separators ("1,2,3"), an empty field, negative amounts, more than two decimals.
 */
export function parseFrenchAmount(input: string): ParsedAmount {
  const text = input
    .trim()
    .replace(/[\s\u00A0\u202F]*€$/u, '')
    .trim()
  if (/^[-\u2212]/u.test(text)) return { ok: false, error: AMOUNT_ERRORS.negative }
  const match = AMOUNT.exec(text)
  if (!match) return { ok: false, error: AMOUNT_ERRORS.invalid }
  const decimals = match[2] ?? ''
  if (decimals.length > 2) return { ok: false, error: AMOUNT_ERRORS.decimals }
  const euros = match[1]!.replace(new RegExp(GROUP_SPACE, 'g'), '').replace(/^0+(?=\d)/, '')
  if (euros.length > 9) return { ok: false, error: AMOUNT_ERRORS.tooLarge }
  const cents = Number(euros) * 100 + Number(decimals.padEnd(2, '0'))
  return { ok: true, cents }
}
