// The deadline a letter asks the customer to meet, read from its text (OCR or text layer): a date that
// follows "avant le", "au plus tard le", "date limite (de paiement…)", "échéance", "à régler avant",
// "date d'exigibilité"…, with the amount due near it when there is one. Shared by the server (which
// stores it when a letter is read) and the SPA (a pure rule of the contract, like phone.ts).
// OCR text is noisy: accents may be lost, spaces doubled, lines cut anywhere, "15" read "l5"; the
// text is folded (no accents, lower case, one space) before it is read. A date that no phrase
// announces ("Paris, le 3 janvier 2027") is never a deadline.

export interface Deadline {
  /** YYYY-MM-DD */
  date: string
  amountCents: number | null
}

const MONTHS: Record<string, number> = {
  janvier: 1,
  janv: 1,
  jan: 1,
  fevrier: 2,
  fevr: 2,
  fev: 2,
  mars: 3,
  avril: 4,
  avr: 4,
  mai: 5,
  juin: 6,
  juillet: 7,
  juil: 7,
  aout: 8,
  septembre: 9,
  sept: 9,
  sep: 9,
  octobre: 10,
  oct: 10,
  novembre: 11,
  nov: 11,
  decembre: 12,
  dec: 12,
}

/** Accents off, lower case, typographic apostrophes and every run of spaces (line breaks included) as one. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
}

// The phrases that announce a deadline, on folded text. "Date limite" may name what it limits.
const PHRASE = new RegExp(
  [
    '(?<![a-z])(?:',
    [
      'au plus tard(?: le)?',
      '(?:a payer|a regler|a acquitter|a retourner|a renvoyer|a deposer|a transmettre|a nous faire parvenir|payable|exigible|reglement)? ?avant(?: le)?',
      "date limite(?: (?:de|d') ?[a-z]+)?",
      "date d'? ?exigibilite",
      'exigible(?: le| au)?',
      'echeance',
      "date d'? ?echeance",
      'payable(?: le| au)',
      "jusqu'au",
    ].join('|'),
    ')(?![a-z])',
  ].join(''),
  'g',
)

// Between the phrase and its date: punctuation and a few linking words ("du", "fixee au", "le lundi").
const FILLER =
  /^[\s:.,;\-–—]*(?:(?:le|du|au|fixee au|fixee le|prevue le|est le|est fixee au|est fixee le)(?![a-z])[\s:]*)?(?:(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\s+)?/

// A day written by OCR may hold l, i or o for 1, 1 and 0 ("l5"), but never without a real digit.
const DAY = '(1er|ler|ier|[0-9lio]{1,2})(?:er)?'
const MONTH_NAME = `(${Object.keys(MONTHS).join('|')})\\.?`
const NAMED_DATE = new RegExp(`^${DAY} ?${MONTH_NAME}(?: (\\d{4}))?(?![0-9a-z])`)
const NUMERIC_DATE = new RegExp(`^${DAY} ?[/.\\-] ?(\\d{1,2}) ?[/.\\-] ?(\\d{4}|\\d{2})(?![0-9])`)

function readDay(token: string): number | null {
  if (token === '1er' || token === 'ler' || token === 'ier') return 1
  if (!/[0-9]/.test(token)) return null
  const day = Number(token.replace(/[li]/g, '1').replace(/o/g, '0'))
  return Number.isInteger(day) && day >= 1 && day <= 31 ? day : null
}

const pad = (n: number) => String(n).padStart(2, '0')

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${year}-${pad(month)}-${pad(day)}`
}

const parisDayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' })

/** The day of an instant in Paris, as YYYY-MM-DD (the server's lib/time.ts and the termination rule use it too). */
export function parisDay(instant: Date): string {
  const parts = parisDayFormat.formatToParts(instant)
  const get = (type: string) => parts.find((p) => p.type === type)!.value
  return `${get('year')}-${get('month')}-${get('day')}`
}

/** The date at the start of `text`, or null. A date without its year takes the next one from `from`. */
function readDate(text: string, from: string | null): string | null {
  const named = NAMED_DATE.exec(text)
  if (named) {
    const day = readDay(named[1]!)
    const month = MONTHS[named[2]!]!
    if (day === null) return null
    if (named[3]) return isoDate(Number(named[3]), month, day)
    if (!from) return null
    const year = Number(from.slice(0, 4))
    const thisYear = isoDate(year, month, day)
    return thisYear && thisYear >= from ? thisYear : isoDate(year + 1, month, day)
  }
  const numeric = NUMERIC_DATE.exec(text)
  if (numeric) {
    const day = readDay(numeric[1]!)
    const month = Number(numeric[2])
    const year = numeric[3]!.length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3])
    return day === null ? null : isoDate(year, month, day)
  }
  return null
}

// An amount: "1 234,56 €", "1.234,56 EUR", "1234.56 euros", "320 €". The currency is required, but
// after a label ("montant à payer : 320,00").
const NUMBER = '(\\d{1,3}(?:[ .]\\d{3})+|\\d+)(?: ?[,.] ?(\\d{2}))?'
const CURRENCY = ' ?(?:€|eur(?:os?)?(?![a-z]))'
const AMOUNT = new RegExp(`(?<![0-9,.])${NUMBER}${CURRENCY}`, 'g')
const LABELLED_AMOUNT = new RegExp(
  `(?<![a-z])(?:montant|somme|total|solde|reste|net)(?: (?:a payer|a regler|du|restant du|total|de))? ?:? ?${NUMBER}(?:${CURRENCY})?(?![0-9])`,
  'g',
)

const cents = (units: string, decimals: string | undefined) => Number(units.replace(/[ .]/g, '')) * 100 + Number(decimals ?? 0)

/**
 * The largest amount kept (21 474 836,47 €, what the database's integer cents hold): a longer number
 * near a deadline is a reference or OCR noise, never the sum due, and it is passed over.
 */
export const MAX_AMOUNT_CENTS = 2_147_483_647

/** How far an amount may stand from the deadline's phrase, in characters of folded text. */
const AMOUNT_REACH = 200

function amountNear(text: string, at: number): number | null {
  let best: { distance: number; cents: number } | null = null
  for (const pattern of [LABELLED_AMOUNT, AMOUNT]) {
    for (const match of text.matchAll(pattern)) {
      const distance = Math.abs(match.index - at)
      const value = cents(match[1]!, match[2])
      if (distance <= AMOUNT_REACH && value > 0 && value <= MAX_AMOUNT_CENTS && (!best || distance < best.distance))
        best = { distance, cents: value }
    }
    if (best) return best.cents
  }
  return null
}

/**
 * The deadline of a letter: the earliest date announced by a deadline phrase that falls on or after
 * the day the letter was received (in Paris), with the amount due nearest to its phrase; null when
 * the text announces none.
 */
export function findDeadline(text: string, receivedAt?: Date): Deadline | null {
  const folded = foldText(text)
  const from = receivedAt ? parisDay(receivedAt) : null
  let best: Deadline | null = null
  for (const phrase of folded.matchAll(PHRASE)) {
    const after = folded.slice(phrase.index + phrase[0].length)
    const filler = FILLER.exec(after)![0]
    const date = readDate(after.slice(filler.length), from)
    if (!date || (from && date < from)) continue
    if (!best || date < best.date) best = { date, amountCents: amountNear(folded, phrase.index) }
  }
  return best
}
