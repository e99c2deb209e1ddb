// Which order a scanned letter is for, and who sent it, read from its text (a PDF's text layer or OCR). Pure: no
// database, no I/O; the operators' mail room shows the answer and the operator confirms or changes it.
//
// The rule, strongest evidence first: a candidate's SIREN (alone, or inside a SIRET or an intra-community VAT number)
// is sure; its company name in the recipient's address block (page 1, before « Objet » or the salutation) is
// probable; its owner's name there, its company name or its owner's name elsewhere are possible. A company named in
// the letterhead is the sender, not the recipient, unless no other is named (a letter come back to its sender). Two
// candidates with the same evidence are told apart by the address block, then by a second kind of evidence; when they
// still cannot be, no order is suggested: a wrong order publishes a letter to the wrong customer.
import { formatSiren, sirenDigits } from '../contract/rules/company.ts'

export interface CandidateOrder {
  orderId: number
  raisonSociale: string
  siren: string | null
  ownerName: string
}

/** How much the evidence is worth: a SIREN is sure, the company in the address block probable, the rest possible. */
export type Confidence = 'sûr' | 'probable' | 'possible'

export type OrderSuggestion =
  | { orderId: number; confidence: Confidence; reason: string }
  /** No order: none is named, or several are as likely (`possibleOrderIds`, for the operator to choose from). */
  | { orderId: null; confidence: null; reason: string; possibleOrderIds: number[] }

/** The letter's text: one string, or one per page (then the reasons name the page). */
export type LetterText = string | readonly string[]

/** The lines of page 1 that are the letterhead (the sender), then the last line where the address block may end. */
const LETTERHEAD_LINES = 2
const ADDRESS_BLOCK_LAST_LINE = 20

const LEGAL_FORMS = new Set('sas sasu sarl eurl sci sa snc scs sca scp scm sccv scop selarl selas selafa selca eirl ei gie sem'.split(' '))
/** « Société », « Sté »: words before a company's name that are not the name. */
const COMPANY_WORDS = new Set(['societe', 'ste'])
/** Articles, elided or not: part of a name, but they do not make it distinctive. */
const ARTICLES = new Set(['l', 'la', 'le', 'les'])
/**
 * Generic business words: a name made only of them (« Groupe France Services ») is as weak as a one-word name, found
 * only beside its legal form or alone on its line.
 */
const COMMON_WORDS = new Set(
  (
    'audit batiment capital commerce conseil conseils consulting developpement digital distribution entreprise entreprises ' +
    'europe expertise finance formation france gestion groupe holding immobilier international invest nettoyage paris ' +
    'patrimoine renovation sante securite services solutions technologies transport transports'
  ).split(' '),
)
/** The first line of the letter's body: « Objet », « Madame, Monsieur, », « Messieurs »… (a civility without comma is an address). */
const BODY_START = /^(objet\b|obj\s*:|madame,|monsieur,|madame monsieur|mesdames|messieurs|cher |chere |chers )/

// --- Text as tokens

/** Lower case without accents or ligatures: « Épicerie Solène » and « EPICERIE SOLENE » read the same. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/œ/g, 'oe').replace(/æ/g, 'ae').replace(/ß/g, 'ss')
}

/** A line's words: letters and digits only (punctuation, hyphens and apostrophes split words), « S.A.S. » and « S A S » as « sas ». */
function words(line: string): string[] {
  const folded = fold(line)
    .replace(/&/g, ' et ')
    .replace(/\b([a-z])\.(?=[a-z]\b)/g, '$1')
  const split = folded.split(/[^a-z0-9]+/).filter(Boolean)
  const joined: string[] = []
  for (let i = 0; i < split.length; ) {
    let end = i
    while (end < split.length && /^[a-z]$/.test(split[end]!)) end++
    // Three single letters in a row are a spaced-out word (« L I L A S »); one or two are initials or elisions.
    if (end - i >= 3) {
      joined.push(split.slice(i, end).join(''))
      i = end
    } else joined.push(split[i++]!)
  }
  return joined
}

/** What OCR mistakes for one another (l, i, 1; o, 0; s, 5) read as one, in words that hold a letter. */
const ocrKey = (word: string) => (/[a-z]/.test(word) ? word.replace(/[l1]/g, 'i').replace(/0/g, 'o').replace(/5/g, 's') : word)

/** Two words are the same, or a long one has one character misread. */
function sameWord(expected: string, found: string): boolean {
  const a = ocrKey(expected)
  const b = ocrKey(found)
  if (a === b) return true
  if (a.length < 7 || a.length !== b.length) return false
  let differences = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++differences > 1) return false
  return true
}

type Zone = 'letterhead' | 'address' | 'body'

interface Line {
  page: number
  /** Its rank among the page's non-empty lines, from 1. */
  number: number
  zone: Zone
  raw: string
  words: string[]
}

interface Page {
  number: number
  lines: Line[]
  /** Every word of the page in order, with its line: a name broken over two lines is still found. */
  words: { word: string; line: Line }[]
}

function readPages(text: LetterText): Page[] {
  const pages = typeof text === 'string' ? [text] : text
  return pages.map((pageText, index) => {
    const number = index + 1
    const rawLines = pageText
      .split(/\r?\n|\r|\f/)
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
    let bodyStarted = number > 1
    const lines = rawLines.map((raw, i): Line => {
      const folded = fold(raw)
      if (i >= LETTERHEAD_LINES && (BODY_START.test(folded) || i >= ADDRESS_BLOCK_LAST_LINE)) bodyStarted = true
      const zone: Zone = number > 1 || bodyStarted ? 'body' : i < LETTERHEAD_LINES ? 'letterhead' : 'address'
      return { page: number, number: i + 1, zone, raw, words: words(raw) }
    })
    return { number, lines, words: lines.flatMap((line) => line.words.map((word) => ({ word, line }))) }
  })
}

// --- The candidates as what to look for

interface Needle {
  order: CandidateOrder
  /** The company name without its legal form or « Société ». */
  core: string[]
  /** A one-word or common name: found only beside its legal form or alone on its line. */
  weak: boolean
  /** The owner's name with its words turned round, so that the surname may come first (« MARTIN Camille », « Le Goff Jean »). */
  owner: string[][]
  siren: string | null
}

function prepare(order: CandidateOrder): Needle {
  const name = words(order.raisonSociale)
  let start = 0
  let end = name.length
  while (start < end && (LEGAL_FORMS.has(name[start]!) || COMPANY_WORDS.has(name[start]!))) start++
  while (end > start && LEGAL_FORMS.has(name[end - 1]!)) end--
  // Articles stay: « Les Tilleuls » is a company, « avenue des Tilleuls » a street.
  const core = name.slice(start, end)
  const significant = core.filter((word) => !ARTICLES.has(word) && !/^(et|de|des|du|d)$/.test(word))
  const weak = significant.length <= 1 || significant.join('').length < 5 || significant.every((word) => COMMON_WORDS.has(word))
  const ownerWords = words(order.ownerName)
  const owner = ownerWords.length >= 2 ? ownerWords.map((_, i) => [...ownerWords.slice(i), ...ownerWords.slice(0, i)]) : []
  return { order, core, weak, owner, siren: order.siren ? sirenDigits(order.siren) : null }
}

// --- Evidence

type Kind = 'siren' | 'name' | 'owner'

interface Evidence {
  kind: Kind
  zone: Zone
  page: number
  /** Its place in the letter (page, then line), to list equal candidates in the order the letter names them. */
  at: number
  /** The words' span on the page (names), to drop a name found inside a longer one. */
  span?: [number, number]
  /** siren: where the nine digits were (alone, in a SIRET, in a VAT number). */
  within?: 'SIRET' | 'TVA'
}

const placeOf = (line: Line) => ({ zone: line.zone, page: line.page, at: line.page * 10_000 + line.number })

/** Where in the page's words the sequence is, each start with its end. */
function findSequence(page: Page, sequence: string[]): [number, number][] {
  const found: [number, number][] = []
  if (sequence.length === 0) return found
  for (let i = 0; i + sequence.length <= page.words.length; i++) {
    if (sequence.every((word, k) => sameWord(word, page.words[i + k]!.word))) found.push([i, i + sequence.length])
  }
  return found
}

const isFormWord = (word: string | undefined) => !!word && (LEGAL_FORMS.has(word) || COMPANY_WORDS.has(word))

/** A weak name counts beside a legal form or « Société », or alone on its line (articles and legal forms aside). */
function weakNameHolds(page: Page, [start, end]: [number, number], needle: Needle): boolean {
  if (isFormWord(page.words[start - 1]?.word) || isFormWord(page.words[end]?.word)) return true
  const line = page.words[start]!.line
  if (page.words[end - 1]!.line !== line) return false
  const rest = line.words.filter((word) => !isFormWord(word))
  return rest.length === needle.core.length && rest.every((word, k) => sameWord(needle.core[k]!, word))
}

function nameEvidence(pages: Page[], needle: Needle): Evidence[] {
  const evidence: Evidence[] = []
  for (const page of pages) {
    for (const span of findSequence(page, needle.core)) {
      if (needle.weak && !weakNameHolds(page, span, needle)) continue
      evidence.push({ kind: 'name', ...placeOf(page.words[span[0]]!.line), span })
    }
    for (const spelling of needle.owner) {
      for (const span of findSequence(page, spelling)) {
        evidence.push({ kind: 'owner', ...placeOf(page.words[span[0]]!.line), span })
      }
    }
  }
  return evidence
}

/** OCR's usual misreadings inside a number (« 8O2 », « 1l5 ») put back, in words that are mostly digits already. */
function digitsMended(line: string): string {
  return line.replace(/[0-9OoIl|]+/g, (word) =>
    /\d/.test(word) && (word.match(/\d/g)?.length ?? 0) * 2 > word.length ? word.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1') : word,
  )
}

/**
 * Where a SIREN is on the page: nine digits that start and end a group of digits (« 823 456 789 », « 823456789 »), or
 * start a SIRET (five more digits, « 823 456 789 00012 »), or follow the two-digit key of a French VAT number
 * (« FR 12 823456789 »). Groups are digits between single blanks or dots, so that OCR's odd spacing still reads.
 */
function sirenEvidence(pages: Page[], siren: string): Evidence[] {
  const evidence: Evidence[] = []
  for (const page of pages) {
    for (const line of page.lines) {
      const text = digitsMended(line.raw)
      for (const run of text.matchAll(/\d+(?:[ .\u00a0\u202f]{1,2}\d+)*/g)) {
        const groups = run[0].split(/[^\d]+/)
        const digits = groups.join('')
        const starts = new Set<number>()
        const ends = new Set<number>()
        let at = 0
        for (const group of groups) {
          starts.add(at)
          at += group.length
          ends.add(at)
        }
        const vat = /FR\s?$/i.test(text.slice(0, run.index))
        for (let o = digits.indexOf(siren); o !== -1; o = digits.indexOf(siren, o + 1)) {
          const asVat = vat && o === 2
          if (!starts.has(o) && !asVat) continue
          const within = asVat ? 'TVA' : ends.has(o + 9) ? undefined : ends.has(o + 14) ? 'SIRET' : null
          if (within === null) continue
          evidence.push({ kind: 'siren', ...placeOf(line), ...(within ? { within } : {}) })
        }
      }
    }
  }
  return evidence
}

// --- The decision

/** Evidence from the strongest (1) to the weakest (6). */
function tier(evidence: Evidence): number {
  if (evidence.kind === 'siren') return 1
  if (evidence.zone === 'letterhead') return 6
  if (evidence.zone === 'address') return evidence.kind === 'name' ? 2 : 3
  return evidence.kind === 'name' ? 4 : 5
}

const confidenceOf = (best: number): Confidence => (best === 1 ? 'sûr' : best === 2 ? 'probable' : 'possible')

interface Found {
  needle: Needle
  evidence: Evidence[]
  best: number
  inAddress: boolean
  kinds: number
}

/** A company name found inside another candidate's longer one (« Atelier Lumière » in « Atelier Lumière Nord ») is that one's. */
function dropContainedNames(all: { needle: Needle; evidence: Evidence[] }[]) {
  for (const mine of all) {
    mine.evidence = mine.evidence.filter(
      (evidence) =>
        evidence.kind !== 'name' ||
        !all.some(
          (other) =>
            other !== mine &&
            other.evidence.some(
              (longer) =>
                longer.kind === 'name' &&
                longer.page === evidence.page &&
                longer.span![0] <= evidence.span![0] &&
                longer.span![1] >= evidence.span![1] &&
                longer.span![1] - longer.span![0] > evidence.span![1] - evidence.span![0],
            ),
        ),
    )
  }
}

const NUMBER_WORDS = ['', 'une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix']

function listed(names: string[]): string {
  const shown = names.length > 5 ? [...names.slice(0, 4), `${names.length - 4} autres`] : names
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} et ${shown.at(-1)}`
}

function describe(found: Found, evidence: Evidence, pagesKnown: boolean): string {
  const { order } = found.needle
  const page = pagesKnown ? ` page ${evidence.page}` : ''
  const who = evidence.kind === 'owner' ? `${order.ownerName} (titulaire)` : `« ${order.raisonSociale} »`
  if (evidence.kind === 'siren') {
    const within = evidence.within === 'SIRET' ? ', dans un SIRET' : evidence.within === 'TVA' ? ', dans un numéro de TVA' : ''
    return `SIREN ${formatSiren(order.siren!)} trouvé${page || ' dans le texte'}${within}`
  }
  if (evidence.zone === 'letterhead') return `${who} en tête ${pagesKnown ? 'de la page 1' : 'du courrier'}`
  if (evidence.zone === 'address') return `${who} dans l’adresse du destinataire${pagesKnown ? `, page ${evidence.page}` : ''}`
  return `${who} cité${page || ' dans le texte'}`
}

/** The recipient's line when it names a company that is none of the candidates (« DUPONT FRÈRES SARL »). */
function otherRecipient(pages: Page[], named: Set<Line>): string | null {
  for (const line of pages[0]?.lines ?? []) {
    if (line.zone !== 'address' || named.has(line)) continue
    const form = line.words.some((word) => LEGAL_FORMS.has(word))
    const other = line.words.filter((word) => !LEGAL_FORMS.has(word) && word.length >= 3 && /[a-z]/.test(word))
    const legalMention = line.words.some((word) => /^(capital|rcs|siret|siren|tva|domicilie|domiciliee|chez)$/.test(word))
    if (form && other.length > 0 && !legalMention) return line.raw
  }
  return null
}

/** The order the letter is for, or none with why. */
export function suggestOrder(text: LetterText, candidates: readonly CandidateOrder[]): OrderSuggestion {
  const none = (reason: string, possibleOrderIds: number[] = []): OrderSuggestion => ({
    orderId: null,
    confidence: null,
    reason,
    possibleOrderIds,
  })
  const pages = readPages(text)
  const pagesKnown = typeof text !== 'string'
  if (!pages.some((page) => page.words.some(({ word }) => /[a-z]{2}/.test(word)))) return none('aucun texte lu sur le courrier')

  const all = candidates.map((order) => {
    const needle = prepare(order)
    return { needle, evidence: [...(needle.siren ? sirenEvidence(pages, needle.siren) : []), ...nameEvidence(pages, needle)] }
  })
  dropContainedNames(all)
  let found: Found[] = all
    .filter(({ evidence }) => evidence.length > 0)
    .map(({ needle, evidence }) => ({
      needle,
      evidence: evidence.toSorted((a, b) => tier(a) - tier(b) || a.page - b.page),
      best: Math.min(...evidence.map(tier)),
      inAddress: evidence.some((e) => e.zone === 'address'),
      kinds: new Set(evidence.map((e) => e.kind)).size,
    }))
  if (found.length === 0) return none('aucune de nos sociétés n’est nommée : ni SIREN, ni raison sociale, ni titulaire reconnus')

  // Named in the letterhead, a company is the sender; the letter is for it only when no other is named.
  const senders = found.filter(({ evidence }) => evidence.some((e) => e.kind !== 'siren' && e.zone === 'letterhead'))
  const others = found.filter((f) => !senders.includes(f))
  if (others.length > 0) found = others

  // Named only in the body while the address block names a company of someone else's: a letter for that one.
  if (found.every((f) => f.best >= 4 && f.best <= 5)) {
    const namedLines = new Set(
      found.flatMap((f) => f.evidence.filter((e) => e.span).map((e) => pages[e.page - 1]!.words[e.span![0]]!.line)),
    )
    const recipient = otherRecipient(pages, namedLines)
    if (recipient) return none(`le destinataire, « ${recipient} », n’est pas une de nos sociétés`)
  }

  const rank = (f: Found) => [f.best, f.inAddress ? 0 : 1, -f.kinds]
  const compare = (a: Found, b: Found) => {
    const [x, y] = [rank(a), rank(b)]
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!
  }
  found.sort(compare)
  const [first, second] = found as [Found, Found | undefined]
  if (second && compare(first, second) === 0) {
    const firstNamed = (f: Found) => Math.min(...f.evidence.map((e) => e.at))
    const tied = found
      .filter((f) => compare(f, first) === 0)
      .sort((a, b) => firstNamed(a) - firstNamed(b) || a.needle.order.orderId - b.needle.order.orderId)
    const names = tied.map((f) => f.needle.order.raisonSociale)
    const labels = names.map((name, i) =>
      names.indexOf(name) !== names.lastIndexOf(name) ? `${name} (commande ${tied[i]!.needle.order.orderId})` : name,
    )
    const count = NUMBER_WORDS[tied.length] ?? String(tied.length)
    return none(
      `${count} sociétés possibles : ${listed(labels)}`,
      tied.map((f) => f.needle.order.orderId),
    )
  }
  const primary = first.evidence[0]!
  let reason = describe(first, primary, pagesKnown)
  // Chosen over an equal by a second piece of evidence: say which.
  if (second && second.best === first.best) {
    const support = first.evidence.find((e) => e.kind !== primary.kind || (e.zone === 'address') !== (primary.zone === 'address'))
    if (support) reason += ` ; ${describe(first, support, pagesKnown)}`
  }
  return { orderId: first.needle.order.orderId, confidence: confidenceOf(first.best), reason }
}

// --- The sender

/** Senders known by a word of their letterhead, with the name to show; `place` keeps the rest of the line (« de Paris »). */
const KNOWN_SENDERS: { pattern: RegExp; name: string; place?: boolean }[] = [
  { pattern: /greffe du tribunal (?:de commerce|des activites economiques)/, name: 'Greffe du tribunal de commerce', place: true },
  { pattern: /greffe du tribunal judiciaire/, name: 'Greffe du tribunal judiciaire', place: true },
  { pattern: /service des impots des entreprises|\bsie\b/, name: 'Service des impôts des entreprises', place: true },
  { pattern: /pole (?:de )?recouvrement specialise/, name: 'Pôle de recouvrement spécialisé', place: true },
  {
    pattern: /finances publiques|\bdgfip\b|\bddfip\b|\bdrfip\b|impots\.gouv|tresor public|\btresorerie\b/,
    name: 'Direction générale des Finances publiques',
  },
  { pattern: /\burssaf\b/, name: 'URSSAF', place: true },
  { pattern: /douanes?\b/, name: 'Direction générale des douanes et droits indirects' },
  { pattern: /\binpi\b|institut national de la propriete industrielle/, name: 'INPI' },
  { pattern: /\binsee\b/, name: 'INSEE' },
  { pattern: /france travail|pole emploi/, name: 'France Travail' },
  { pattern: /\bcpam\b|caisse primaire d.assurance maladie|assurance maladie/, name: 'Assurance Maladie' },
  { pattern: /bnp paribas/, name: 'BNP Paribas' },
  { pattern: /societe generale/, name: 'Société Générale' },
  { pattern: /credit agricole/, name: 'Crédit Agricole' },
  { pattern: /credit mutuel/, name: 'Crédit Mutuel' },
  { pattern: /\bcic\b/, name: 'CIC' },
  { pattern: /\blcl\b|credit lyonnais/, name: 'LCL' },
  { pattern: /banque postale/, name: 'La Banque Postale' },
  { pattern: /caisse d.epargne/, name: 'Caisse d’Épargne' },
  { pattern: /banque populaire/, name: 'Banque Populaire' },
  { pattern: /\bbred\b/, name: 'BRED' },
  { pattern: /\bqonto\b/, name: 'Qonto' },
  { pattern: /\bhsbc\b/, name: 'HSBC' },
  { pattern: /boursorama|boursobank/, name: 'BoursoBank' },
  { pattern: /\bshine\b/, name: 'Shine' },
  { pattern: /\bla poste\b/, name: 'La Poste' },
]

/** Lines of a letterhead that are not its sender's name: a document's title, an address, a date, contact details. */
const NOT_A_NAME =
  /^(republique francaise|liberte|offre|promotion|facture|avoir|devis|releve|bon de|lettre recommandee|recommande|avis de reception|accuse de reception|copie|duplicata|original|page\b|date\b|le \d|n[o°]\b|ref|tel|fax|e-?mail|courriel|www\.|https?:|siret|siren|rcs|tva|capital|bp\b|cs\b|tsa\b|madame|monsieur|objet)/

/** « PARIS » as « Paris », « ILE-DE-FRANCE » as « Ile-de-France »: a place written in capitals, tamed. */
function tamed(place: string): string {
  if (place !== place.toUpperCase()) return place
  return place
    .toLowerCase()
    .replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
    .replace(/(^|[\s-])(De|Du|Des|La|Le|Les|Sur|En|D’|D')(?=[\s-])/g, (_, before: string, word: string) => before + word.toLowerCase())
}

function knownSender(line: Line): string | null {
  const folded = fold(line.raw)
  for (const { pattern, name, place } of KNOWN_SENDERS) {
    const match = pattern.exec(folded)
    if (!match) continue
    if (!place) return name
    // The place after the name on the same line (« de Paris », « Île-de-France »), as written.
    const rest = line.raw
      .slice(match.index + match[0].length)
      .replace(/^[\s,–—-]+|[\s,.;:–—-]+$/g, '')
      .replace(/\s*\(.*$/, '')
    return !rest || /\d{5}|cedex/i.test(rest) || rest.length > 40 ? name : `${name} ${tamed(rest)}`
  }
  return null
}

/**
 * Who sent the letter, from its letterhead, or null: an administration, a bank or a big firm known by its words in the
 * first five lines of page 1 (its usual name given), else the first of the first three lines that reads as a name
 * (not a document's title, an address, a date or contact details), as written.
 */
export function suggestSender(text: LetterText): string | null {
  const [page] = readPages(text)
  if (!page) return null
  const head = page.lines.filter((line) => line.zone !== 'body')
  for (const line of head.slice(0, 5)) {
    const known = knownSender(line)
    if (known) return known
  }
  for (const line of head.slice(0, 3)) {
    const folded = fold(line.raw)
    if (NOT_A_NAME.test(folded) || /^\d/.test(folded) || /\b\d{5}\b/.test(folded) || (folded.match(/[a-z]/g)?.length ?? 0) < 3) continue
    return line.raw.replace(/^[\s*•·|:-]+|[\s*•·|:,-]+$/g, '')
  }
  return null
}
