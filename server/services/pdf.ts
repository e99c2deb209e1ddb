// Small real PDFs: scanned letters for the demo data (the provider's own documents are in billing-pdf.ts), and the text
// the standard PDF fonts draw.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { longDate } from '../lib/time.ts'
import { wrapWords } from '../lib/wrap.ts'

export interface LetterContent {
  sender: string
  senderAddress: string[]
  recipient: string[]
  place: string
  date: Date
  subject: string
  paragraphs: string[]
  pages?: number
}

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
/** What the standard PDF fonts draw (WinAnsi): ASCII, Latin-1, and Windows-1252's letters and signs of 0x80–0x9F. */
const WIN_ANSI = new Set([
  ...range(0x20, 0x7e),
  ...range(0xa1, 0xff),
  0x152,
  0x153,
  0x160,
  0x161,
  0x178,
  0x17d,
  0x17e,
  0x192,
  0x2c6,
  0x2dc,
  0x2013,
  0x2014,
  0x2018,
  0x2019,
  0x201a,
  0x201c,
  0x201d,
  0x201e,
  0x2020,
  0x2021,
  0x2022,
  0x2026,
  0x2030,
  0x2039,
  0x203a,
  0x20ac,
  0x2122,
])
/** Letters Unicode does not decompose into a base letter and a mark, and dashes and primes outside WinAnsi. */
const NEAREST: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
  ſ: 's',
  Ə: 'E',
  ə: 'e',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
}
const drawable = (text: string) => [...text].every((char) => WIN_ANSI.has(char.codePointAt(0)!))

/**
 * Text the standard PDF fonts can draw, for every text of every PDF the app makes (pdf-lib throws on anything else:
 * "Łódź" in a forwarding address made the contract a 500). Spaces of any width are spaces, control
 * characters too; a letter outside WinAnsi loses its marks (ź → z, Ł → L, ﬁ → fi); anything else is "?".
 */
export function winAnsi(text: string): string {
  let drawn = ''
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!
    if (WIN_ANSI.has(code)) drawn += char
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || /\s|[\u200b-\u200f]/u.test(char)) drawn += ' '
    else {
      const nearest = NEAREST[char] ?? char.normalize('NFKD').replace(/\p{M}/gu, '')
      drawn += drawable(nearest) ? nearest : '?'
    }
  }
  return drawn
}
export const formatEuros = (cents: number) => winAnsi(euros.format(cents / 100))

export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  return wrapWords(winAnsi(text), (line) => font.widthOfTextAtSize(line, size) <= width)
}

export async function documentWithFonts() {
  const pdf = await PDFDocument.create()
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const text = (page: PDFPage, value: string, x: number, y: number, size = 10, font = regular) =>
    page.drawText(winAnsi(value), { x, y, size, font, color: rgb(0.1, 0.1, 0.12) })
  return { pdf, regular, bold, text }
}

const cache = new Map<string, Promise<Uint8Array>>()
// Demo data and tests generate the same documents again and again: build each distinct one once per process.
export function cached(content: unknown, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const key = JSON.stringify(content)
  let bytes = cache.get(key)
  if (!bytes) {
    bytes = make()
    cache.set(key, bytes)
    if (cache.size > 2000) cache.delete(cache.keys().next().value!)
  }
  return bytes
}

export function letterPdf(letter: LetterContent): Promise<Uint8Array> {
  return cached(letter, async () => {
    const { pdf, regular, bold, text } = await documentWithFonts()
    pdf.setTitle(`${letter.sender} - ${letter.subject}`)
    pdf.setCreationDate(letter.date)
    for (let n = 1; n <= (letter.pages ?? 1); n++) {
      const page = pdf.addPage([595, 842])
      if (n === 1) {
        text(page, letter.sender, 56, 780, 13, bold)
        letter.senderAddress.forEach((l, i) => text(page, l, 56, 764 - i * 13, 9))
        letter.recipient.forEach((l, i) => text(page, l, 330, 690 - i * 14, 10, i === 0 ? bold : regular))
        text(page, `${letter.place}, le ${longDate.format(letter.date)}`, 330, 610)
        text(page, `Objet : ${letter.subject}`, 56, 560, 10, bold)
        let y = 520
        for (const paragraph of [
          'Madame, Monsieur,',
          ...letter.paragraphs,
          'Nous vous prions d\u2019agréer, Madame, Monsieur, l\u2019expression de nos salutations distinguées.',
        ]) {
          for (const line of wrap(paragraph, regular, 10, 480)) {
            text(page, line, 56, y)
            y -= 14
          }
          y -= 10
        }
        text(page, letter.sender, 330, y - 20, 10, bold)
      } else {
        text(page, `${letter.subject} (suite)`, 56, 780, 10, bold)
        wrap(
          'Annexe : relevé détaillé des éléments mentionnés en première page, à conserver avec vos pièces comptables.',
          regular,
          10,
          480,
        ).forEach((l, i) => text(page, l, 56, 750 - i * 14))
      }
      text(page, `Page ${n}/${letter.pages ?? 1}`, 500, 30, 8)
    }
    return pdf.save({ useObjectStreams: false })
  })
}
