// The provider's own documents (certificate, contract, invoices, credit notes) as tagged PDFs: real fonts embedded (DejaVu
// Sans Condensed, a subset of each), every text in a structure tree a screen reader follows, drawings marked as
// artifacts, French as the language, and the XMP metadata of PDF/A-2u (docs/LEGAL.md says what is and is not met).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import {
  PDFArray,
  type PDFDict,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  type PDFRef,
  PDFString,
  rgb,
} from 'pdf-lib'
import { winAnsi } from './pdf.ts'
import { srgbProfile } from './srgb-profile.ts'

const require = createRequire(import.meta.url)
let fontBytes: { regular: Uint8Array; bold: Uint8Array } | undefined
/** The fonts' files, read once per process (shipped by the dejavu-fonts-ttf package: nothing is downloaded). */
function fonts() {
  fontBytes ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  }
  return fontBytes
}

type Font = ReturnType<typeof fontkit.create>
const parsed = new Map<Uint8Array, Font>()
/**
 * fontkit, each font parsed once per process, and text laid out glyph by glyph from the font's character map: fontkit's
 * OpenType shaping took about 3 ms a string on DejaVu (GSUB and GPOS), 250 ms an invoice; these documents need no
 * ligature nor contextual form, and go without kerning.
 */
const quickFontkit = {
  create(bytes: Uint8Array) {
    let font = parsed.get(bytes)
    if (!font) {
      const made = fontkit.create(bytes)
      made.layout = ((text: string) => ({ glyphs: made.glyphsForString(text), positions: [] })) as unknown as Font['layout']
      font = made
      parsed.set(bytes, font)
    }
    return font
  },
} as unknown as typeof fontkit

/** Standard structure types (ISO 32000-1, 14.8.4) the documents use. */
export type Role = 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Figure' | 'Sect'

export interface StructureElement {
  role: Role
  parent: StructureElement | null
  kids: (StructureElement | { page: PDFPage; mcid: number })[]
  alt?: string
}

export interface DocumentInfo {
  title: string
  subject?: string
  date: Date
  author: string
}

export type Draw = (
  page: PDFPage,
  value: string,
  x: number,
  y: number,
  size?: number,
  font?: PDFFont,
  element?: StructureElement | Role,
) => void

export interface TaggedDocument {
  pdf: PDFDocument
  regular: PDFFont
  bold: PDFFont
  addPage(): PDFPage
  /** A new structure element under `parent` (the document when none), in reading order. */
  element(role: Role, parent?: StructureElement): StructureElement
  /** Draws `value` as marked content of `element` (a new one of that role when a role is given; a paragraph by default). */
  text: Draw
  /** What `draw` puts on the page is decoration a screen reader skips (rules, frames). */
  artifact(page: PDFPage, draw: () => void): void
  /** What `draw` puts on the page is a picture, read as `alt`. */
  figure(page: PDFPage, alt: string, draw: () => void): void
  /** Text the embedded fonts draw: their own characters kept, any other one the nearest the standard fonts have, or "?". */
  drawable(text: string): string
  save(): Promise<Uint8Array>
}

const ink = rgb(0.1, 0.1, 0.12)
const A4: [number, number] = [595, 842]

const xmlEscape = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
const xmpDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`

/** The XMP packet PDF/A asks for: the same title, author, dates and producer as the document's information dictionary. */
function xmp(info: DocumentInfo, producer: string) {
  const title = xmlEscape(info.title)
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${xmlEscape(info.author)}</rdf:li></rdf:Seq></dc:creator>
   ${info.subject ? `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(info.subject)}</rdf:li></rdf:Alt></dc:description>` : ''}
   <dc:language><rdf:Bag><rdf:li>fr-FR</rdf:li></rdf:Bag></dc:language>
   <xmp:CreateDate>${xmpDate(info.date)}</xmp:CreateDate>
   <xmp:ModifyDate>${xmpDate(info.date)}</xmp:ModifyDate>
   <xmp:CreatorTool>${xmlEscape(producer)}</xmp:CreatorTool>
   <pdf:Producer>${xmlEscape(producer)}</pdf:Producer>
   <pdfaid:part>2</pdfaid:part>
   <pdfaid:conformance>U</pdfaid:conformance>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`
}

export async function taggedDocument(info: DocumentInfo): Promise<TaggedDocument> {
  const pdf = await PDFDocument.create()
  pdf.registerFontkit(quickFontkit)
  const regular = await pdf.embedFont(fonts().regular, { subset: true })
  const bold = await pdf.embedFont(fonts().bold, { subset: true })
  // Both fonts hold the same characters; the regular one's fontkit font answers for both.
  const face = (regular as unknown as { embedder: { font: { hasGlyphForCodePoint(code: number): boolean } } }).embedder.font
  const drawChar = (char: string) => {
    if (/[\s\p{Cc}\u200b-\u200f]/u.test(char)) return ' '
    return face.hasGlyphForCodePoint(char.codePointAt(0)!) ? char : winAnsi(char)
  }
  const drawable = (text: string) => [...text.normalize('NFC')].map(drawChar).join('')

  const root: StructureElement = { role: 'Sect', parent: null, kids: [] }
  const pages: PDFPage[] = []
  const nextMcid = new Map<PDFPage, number>()
  const mark = (page: PDFPage, element: StructureElement, draw: () => void) => {
    const mcid = nextMcid.get(page) ?? 0
    nextMcid.set(page, mcid + 1)
    element.kids.push({ page, mcid })
    // The property list of BDC is an inline dictionary, which pdf-lib writes as it writes any object.
    const properties = pdf.context.obj({ MCID: mcid }) as unknown as PDFName
    page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of(element.role), properties]))
    draw()
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent))
  }
  const element = (role: Role, parent: StructureElement = root): StructureElement => {
    const made: StructureElement = { role, parent, kids: [] }
    parent.kids.push(made)
    return made
  }

  const producer = `${info.author} (pdf-lib)`
  pdf.setTitle(info.title, { showInWindowTitleBar: true })
  if (info.subject) pdf.setSubject(info.subject)
  pdf.setAuthor(info.author)
  pdf.setLanguage('fr-FR')
  pdf.setProducer(producer)
  pdf.setCreator(producer)
  pdf.setCreationDate(info.date)
  pdf.setModificationDate(info.date)

  return {
    pdf,
    regular,
    bold,
    addPage() {
      const page = pdf.addPage(A4)
      pages.push(page)
      return page
    },
    element,
    text(page, value, x, y, size = 10, font = regular, within = 'P') {
      const target = typeof within === 'string' ? element(within) : within
      mark(page, target, () => page.drawText(drawable(value), { x, y, size, font, color: ink }))
    },
    artifact(page, draw) {
      page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDFName.of('Artifact')]))
      draw()
      page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent))
    },
    figure(page, alt, draw) {
      const made = element('Figure')
      made.alt = alt
      mark(page, made, draw)
    },
    drawable,
    async save() {
      finishStructure(pdf, root, pages)
      const context = pdf.context
      const metadata = context.stream(xmp(info, producer), { Type: 'Metadata', Subtype: 'XML' })
      pdf.catalog.set(PDFName.of('Metadata'), context.register(metadata))
      pdf.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }))
      const profile = context.flateStream(srgbProfile(), { N: 3 })
      pdf.catalog.set(
        PDFName.of('OutputIntents'),
        context.obj([
          context.obj({
            Type: 'OutputIntent',
            S: 'GTS_PDFA1',
            OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
            Info: PDFString.of('sRGB IEC61966-2.1'),
            DestOutputProfile: context.register(profile),
          }),
        ]),
      )
      // PDF/A wants a file identifier; made of the title and date, the same document gets the same one.
      const id = PDFHexString.of(createHash('md5').update(`${info.title}\n${info.date.toISOString()}`).digest('hex'))
      context.trailerInfo.ID = context.obj([id, id])
      return pdf.save({ useObjectStreams: false })
    },
  }
}

/** The structure tree (StructTreeRoot, its elements and the parent tree from each page's marked content back to them). */
function finishStructure(pdf: PDFDocument, root: StructureElement, pages: PDFPage[]) {
  const context = pdf.context
  const treeRef = context.nextRef()
  const byPage = new Map<PDFPage, PDFRef[]>()
  const build = (element: StructureElement, parentRef: PDFRef): PDFRef => {
    const ref = context.nextRef()
    const kids = PDFArray.withContext(context)
    const dict: PDFDict = context.obj({ Type: 'StructElem', S: element.role, P: parentRef, K: kids })
    if (element.alt) dict.set(PDFName.of('Alt'), PDFHexString.fromText(element.alt))
    for (const kid of element.kids) {
      if ('role' in kid) {
        kids.push(build(kid, ref))
      } else {
        kids.push(context.obj({ Type: 'MCR', Pg: kid.page.ref, MCID: kid.mcid }))
        const parents = byPage.get(kid.page) ?? []
        parents[kid.mcid] = ref
        byPage.set(kid.page, parents)
      }
    }
    context.assign(ref, dict)
    return ref
  }
  const documentRef = context.nextRef()
  const documentKids = PDFArray.withContext(context)
  for (const kid of root.kids) if ('role' in kid) documentKids.push(build(kid, documentRef))
  context.assign(documentRef, context.obj({ Type: 'StructElem', S: 'Document', P: treeRef, K: documentKids }))
  const nums = PDFArray.withContext(context)
  pages.forEach((page, index) => {
    page.node.set(PDFName.of('StructParents'), PDFNumber.of(index))
    // Marked content appears in drawing order, so every MCID of the page has its element.
    nums.push(PDFNumber.of(index))
    nums.push(context.obj(byPage.get(page) ?? []))
  })
  context.assign(
    treeRef,
    context.obj({ Type: 'StructTreeRoot', K: documentRef, ParentTree: context.obj({ Nums: nums }), ParentTreeNextKey: pages.length }),
  )
  pdf.catalog.set(PDFName.of('StructTreeRoot'), treeRef)
}
