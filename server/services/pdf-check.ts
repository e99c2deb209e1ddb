// The PDF half of checkFile (file-types.ts), run on a worker thread (pdf-check-worker.ts, pdf-check-thread.ts): the
// whole structure parsed by pdf-lib, within a bound on what it inflates, and no JavaScript or Launch action anywhere.
import { constants, inflateSync } from 'node:zlib'
import {
  decodePDFRawStream,
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObjectStreamParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFXRefStreamParser,
  type PDFObject,
} from 'pdf-lib'
import type { PdfReading } from './pdf-check-thread.ts'
import { MAX_PDF_PAGES } from '../contract/rules/uploads.ts'

/**
 * What pdf-lib may decode while loading one PDF: its object streams and cross-reference streams, 20 MB in all (a
 * scanned letter's are a few hundred kilobytes; its page images are never decoded by the check).
 */
export const PDF_DECODE_BUDGET_BYTES = 20 * 1024 * 1024

/**
 * What the streams pdf.js decodes whole when it draws the pages may inflate to, in all: page contents, forms, fonts
 * (every stream but the pictures, which pdf.js decodes only as far as their declared size, and leaves out beyond
 * letter-render.ts's MAX_EMBEDDED_IMAGE_PIXELS). pdf-lib never decodes them, so a 1 MB file whose page content
 * inflated to 1 GB of spaces passed the check, and took pdf.js 46 s and 3.2 GB (peak RSS) to draw. A letter's pages
 * hold a few kilobytes to a few megabytes; 64 MB inflate in about 0.2 s.
 */
export const PDF_CONTENT_BUDGET_BYTES = 64 * 1024 * 1024

/** Its page count, or why it is refused. */
export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  let pdf: PDFDocument
  let pages: number
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })
    if (overBudget.has(pdf.context)) return { problem: 'heavy' }
    pages = pdf.getPageCount()
  } catch {
    return { problem: 'unreadable' }
  }
  if (pages < 1) return { problem: 'unreadable' }
  if (pages > MAX_PDF_PAGES) return { problem: 'long' }
  if (runsCode(pdf)) return { problem: 'active' }
  return contentWithinBudget(pdf) ? { pages } : { problem: 'heavy' }
}

// --- A bound on what loading inflates
//
// pdf-lib decodes an object stream or a cross-reference stream whole, in JavaScript, as soon as it meets one, however
// large it comes out: 2 MB of Flate data inflating to 2 GB held the event loop for 27 s and took 3.2 GB (found in
// review). Reading the file's bytes beforehand cannot tell which streams pdf-lib will decode (it follows its own parse:
// a /Type given by reference, a Filter chain such as ASCIIHex then Flate), so the bound sits where it decodes: the two
// parsers' `forStream`, through which every such stream goes, get the stream already decoded within what is left of the
// load's budget (Flate by zlib, with maxOutputLength; the other filters by pdf-lib's own decoders, read piece by piece).
// Beyond it the stream is refused and its load marked: readPdf answers 'heavy'. (pdf-lib 1.17.1: uploads.test.ts's bomb
// test fails should another version decode elsewhere.)

const overBudget = new WeakSet<PDFContext>()
const spent = new WeakMap<PDFContext, number>()
const FILTER = PDFName.of('Filter')
const DECODE_PARMS = PDFName.of('DecodeParms')
const FLATE = PDFName.of('FlateDecode')
const SUBTYPE = PDFName.of('Subtype')
const IMAGE = PDFName.of('Image')

class OverBudget extends Error {}

/** `stream` decoded within what is left of its load's budget, as a stream with no filter; throws beyond it. */
function decodedWithinBudget(stream: PDFRawStream): PDFRawStream {
  const context = stream.dict.context
  try {
    if (overBudget.has(context)) throw new OverBudget()
    const before = spent.get(context) ?? 0
    const decoded = decodeWithin(stream, PDF_DECODE_BUDGET_BYTES - before)
    spent.set(context, before + decoded.length)
    const dict = stream.dict.clone()
    dict.delete(FILTER)
    dict.delete(DECODE_PARMS)
    return PDFRawStream.of(dict, decoded)
  } catch (error) {
    if (error instanceof OverBudget) overBudget.add(context)
    // pdf-lib takes any error here for an invalid object and goes on; readPdf reads the mark.
    throw error
  }
}

function decodeWithin(stream: PDFRawStream, limit: number): Uint8Array {
  const filter = stream.dict.lookup(FILTER)
  const parms = stream.dict.lookup(DECODE_PARMS)
  const filters = filter instanceof PDFArray ? filter.asArray().map((_, i) => filter.lookup(i, PDFName)) : filter ? [filter] : []
  let bytes = stream.contents
  filters.forEach((name, i) => {
    if (!(name instanceof PDFName)) throw new Error('Filtre de flux illisible')
    if (name === FLATE) {
      bytes = inflateWithin(bytes, limit)
    } else {
      const stageParms = filter instanceof PDFArray ? (parms instanceof PDFArray ? parms.lookupMaybe(i, PDFDict) : undefined) : parms
      const stage = stream.dict.context.obj({ Filter: name, ...(stageParms ? { DecodeParms: stageParms } : {}) })
      bytes = readWithin(decodePDFRawStream(PDFRawStream.of(stage, bytes)), limit)
    }
  })
  if (bytes.length > limit) throw new OverBudget()
  return bytes
}

function inflateWithin(bytes: Uint8Array, limit: number): Uint8Array {
  if (limit <= 0) throw new OverBudget()
  try {
    // As pdf-lib: a stream cut short gives what it holds.
    return inflateSync(bytes, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new OverBudget()
    throw error
  }
}

/** pdf-lib's other decoders work a block at a time (a few kilobytes): read them until the limit. */
function readWithin(decoder: ReturnType<typeof decodePDFRawStream>, limit: number): Uint8Array {
  const chunks: Uint8Array[] = []
  let length = 0
  for (let chunk = decoder.getBytes(65_536); chunk.length; chunk = decoder.getBytes(65_536)) {
    length += chunk.length
    if (length > limit) throw new OverBudget()
    chunks.push(Uint8Array.from(chunk))
  }
  return Buffer.concat(chunks)
}

const objectStreamParser = PDFObjectStreamParser.forStream
PDFObjectStreamParser.forStream = (stream, shouldWaitForTick) => objectStreamParser(decodedWithinBudget(stream), shouldWaitForTick)
const xrefStreamParser = PDFXRefStreamParser.forStream
PDFXRefStreamParser.forStream = (stream) => xrefStreamParser(decodedWithinBudget(stream))

/**
 * Every stream but the pictures decodes within PDF_CONTENT_BUDGET_BYTES in all. A stream pdf-lib cannot decode (a
 * filter it lacks, an encrypted file's) is left to pdf.js: the render's time limit bounds what it does with it.
 */
function contentWithinBudget(pdf: PDFDocument): boolean {
  let left = PDF_CONTENT_BUDGET_BYTES
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.lookup(SUBTYPE) === IMAGE) continue
    try {
      left -= decodeWithin(object, left).length
    } catch (error) {
      if (error instanceof OverBudget) return false
    }
  }
  return true
}

// --- Active content

/**
 * A name as a PDF reader reads it. pdf-lib decodes only upper-case #XX escapes: `/#4aavaScript` stayed "#4aavaScript"
 * for it but is JavaScript to pdf.js. Decoded again here, in any case (a name written with a literal
 * "#23" then hex digits is decoded twice: refused all the same should it then read JavaScript).
 */
const nameOf = (name: PDFName) => name.decodeText().replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
const JS_KEYS = new Set(['JS', 'JavaScript'])
const CODE_ACTIONS = new Set(['JavaScript', 'Launch'])

/** A JavaScript or Launch action anywhere, or a JavaScript name tree: objects of object streams included. */
function runsCode(pdf: PDFDocument): boolean {
  const pending: PDFObject[] = pdf.context.enumerateIndirectObjects().map(([, object]) => object)
  while (pending.length) {
    const object = pending.pop()!
    const dict = object instanceof PDFStream ? object.dict : object
    if (dict instanceof PDFDict) {
      for (const [key, value] of dict.entries()) {
        const name = nameOf(key)
        if (JS_KEYS.has(name)) return true
        // The action's type, written in place or given by reference (a reader follows it).
        const type = value instanceof PDFRef ? pdf.context.lookup(value) : value
        if (name === 'S' && type instanceof PDFName && CODE_ACTIONS.has(nameOf(type))) return true
        pending.push(value)
      }
    } else if (dict instanceof PDFArray) {
      pending.push(...dict.asArray())
    }
  }
  return false
}
