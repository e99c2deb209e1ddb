// A page that is nothing but one picture laid on it, as a scanner makes it: its picture read from the PDF as it is
// stored and decoded by the canvas's native decoders, instead of pdf.js decoding it in JavaScript and drawing it
// (letter-render.ts, for the pages OCR reads). An A4 JPEG scan took 200 ms (150 dpi) or 427 ms (300 dpi) to be drawn
// through pdf.js, 137 or 191 ms this way (docs/MAIL.md). Only what this module reads exactly is taken: a page whose
// content is `q`, one or more `cm` that keep the picture upright (neither mirrored nor turned), `/Name Do`, `Q`; no
// rotation, no crop box other than the media box, an unencrypted file; a picture of 8-bit grey or RGB (device or
// ICC-based) with no mask, no decode array and no transparency, stored as a baseline or progressive JPEG without EXIF
// data (DCTDecode) or as raw samples (FlateDecode without predictor). Anything else answers null and the page is drawn
// by pdf.js as before.
import { inflateSync } from 'node:zlib'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, type PDFObject, PDFRawStream } from 'pdf-lib'

/** The largest picture read this way, in pixels (a 400 dpi A4 scan has 15.5 million); pdf.js draws larger ones. */
export const SCAN_PICTURE_MAX_PIXELS = 20_000_000
/** A page's content stream is a few dozen bytes; a longer one is not a bare scan. */
const MAX_CONTENT_BYTES = 4096

export interface ScanPicture {
  /** The page's box, in points (its MediaBox: a scan's page has no other). */
  box: { x: number; y: number; width: number; height: number }
  /** Where the picture lies on the page, in points from the box's top left corner. */
  at: { left: number; top: number; width: number; height: number }
  /** Its pixels: a JPEG file, or 8-bit samples, `channels` a pixel, row after row from the top. */
  picture: { type: 'jpeg'; bytes: Uint8Array } | { type: 'samples'; width: number; height: number; channels: 1 | 3; samples: Uint8Array }
}

const name = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : undefined)
const number = (value: PDFObject | undefined) => (value instanceof PDFNumber ? value.asNumber() : undefined)

/**
 * `pdf` parsed by pdf-lib for scanPicture, or null when pdf-lib cannot parse it (pdf.js draws its pages). Imported
 * here, not by the renderer: the server's bundle gives a dynamic import of pdf-lib (CommonJS) without its named exports.
 */
export function parseScans(pdf: Uint8Array): Promise<PDFDocument | null> {
  return PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false }).catch(() => null)
}

/** Page `index` (from 0) of `doc` when it is a bare scan as described above; null otherwise. */
export function scanPicture(doc: PDFDocument, index: number): ScanPicture | null {
  try {
    return readScan(doc, index)
  } catch {
    // A structure pdf-lib cannot follow: pdf.js, which opened the letter, draws the page.
    return null
  }
}

function readScan(doc: PDFDocument, index: number): ScanPicture | null {
  if (doc.isEncrypted || index < 0 || index >= doc.getPageCount()) return null
  const page = doc.getPage(index).node
  // pdf-lib's getters and `lookup` resolve references.
  if ((number(page.Rotate()) ?? 0) % 360 !== 0 || page.get(PDFName.of('UserUnit'))) return null
  const rectangle = (array: PDFArray) => {
    const corners = array.asArray().map((_, i) => number(array.lookup(i)))
    if (corners.length !== 4 || corners.some((value) => value === undefined || !Number.isFinite(value))) return undefined
    const [x1, y1, x2, y2] = corners as [number, number, number, number]
    return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) }
  }
  const box = rectangle(page.MediaBox())
  if (!box || !(box.width > 0 && box.height > 0)) return null
  // A crop box is taken when it is the media box (many PDF writers give both).
  const crop = page.CropBox()
  if (crop) {
    const cropped = crop instanceof PDFArray ? rectangle(crop) : undefined
    if (!cropped || (Object.keys(box) as (keyof typeof box)[]).some((key) => cropped[key] !== box[key])) return null
  }

  const drawn = paintedPicture(page.Contents())
  if (!drawn) return null
  const [a, b, c, d, e, f] = drawn.matrix
  if (Math.abs(b) > 1e-9 || Math.abs(c) > 1e-9 || !(a > 0) || !(d > 0)) return null
  const xobjects = page.Resources()?.lookup(PDFName.of('XObject'))
  const stream = xobjects instanceof PDFDict ? xobjects.lookup(PDFName.of(drawn.name)) : undefined
  if (!(stream instanceof PDFRawStream)) return null
  const picture = pictureOf(stream)
  if (!picture) return null
  return { box, at: { left: e - box.x, top: box.y + box.height - (f + d), width: a, height: d }, picture }
}

type Matrix = [number, number, number, number, number, number]
/** At most this many `cm` before the picture (pdf-lib writes four: its translation, rotation, scale and skew). */
const MAX_MATRICES = 8

/**
 * The XObject name and the picture's matrix of a content stream that is exactly `q`, one or more `a b c d e f cm`,
 * `/Name Do`, `Q` (the `q`…`Q` pair optional); undefined otherwise.
 */
function paintedPicture(contents: PDFObject | undefined): { matrix: Matrix; name: string } | undefined {
  const streams = contents instanceof PDFArray ? contents.asArray().map((_, i) => contents.lookup(i)) : [contents]
  const parts: string[] = []
  let length = 0
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) return undefined
    const filter = name(stream.dict.lookup(PDFName.of('Filter')))
    if (stream.dict.has(PDFName.of('DecodeParms')) || (filter !== undefined && filter !== 'FlateDecode')) return undefined
    if (stream.contents.length > MAX_CONTENT_BYTES) return undefined
    const bytes = filter ? inflateSync(stream.contents, { maxOutputLength: MAX_CONTENT_BYTES }) : stream.contents
    length += bytes.length
    if (length > MAX_CONTENT_BYTES) return undefined
    parts.push(Buffer.from(bytes).toString('latin1'))
  }
  const text = parts.join('\n')
  // Strings, arrays, dictionaries, inline images and comments: not a bare scan.
  if (/[[\]<>(){}%]/.test(text)) return undefined
  const tokens = text.match(/\/?[^\s/]+/g) ?? []
  const body = tokens[0] === 'q' && tokens.at(-1) === 'Q' ? tokens.slice(1, -1) : tokens
  if (body.includes('q') || body.includes('Q')) return undefined
  const [picture, paint] = body.splice(-2)
  if (paint !== 'Do' || !picture?.startsWith('/') || picture.includes('#')) return undefined
  if (body.length === 0 || body.length % 7 !== 0 || body.length / 7 > MAX_MATRICES) return undefined
  let matrix: Matrix = [1, 0, 0, 1, 0, 0]
  for (let at = 0; at < body.length; at += 7) {
    const numbers = body.slice(at, at + 6).map((token) => (/^[-+]?(?:\d+\.?\d*|\.\d+)$/.test(token) ? Number(token) : Number.NaN))
    if (body[at + 6] !== 'cm' || numbers.some((value) => !Number.isFinite(value))) return undefined
    matrix = times(numbers as Matrix, matrix)
  }
  return { matrix, name: picture.slice(1) }
}

/** `m` × `t`: the matrix after `cm m` when it was `t` (PDF's row vectors: `m` applies first to the picture's points). */
function times([a, b, c, d, e, f]: Matrix, [ta, tb, tc, td, te, tf]: Matrix): Matrix {
  return [a * ta + b * tc, a * tb + b * td, c * ta + d * tc, c * tb + d * td, e * ta + f * tc + te, e * tb + f * td + tf]
}

/** The picture of an image XObject this module reads exactly, or undefined. */
function pictureOf(stream: PDFRawStream): ScanPicture['picture'] | undefined {
  const get = (key: string) => stream.dict.lookup(PDFName.of(key))
  if (name(get('Subtype')) !== 'Image' || get('ImageMask') || get('Mask') || get('SMask') || get('Decode')) return undefined
  const width = number(get('Width'))
  const height = number(get('Height'))
  if (!(Number.isInteger(width) && Number.isInteger(height) && width! > 0 && height! > 0)) return undefined
  if (width! * height! > SCAN_PICTURE_MAX_PIXELS || number(get('BitsPerComponent')) !== 8) return undefined
  const channels = channelsOf(get('ColorSpace'))
  if (!channels) return undefined
  let filter = get('Filter')
  if (filter instanceof PDFArray) filter = filter.size() === 1 ? filter.lookup(0) : undefined
  const parms = get('DecodeParms')
  if (parms) {
    // A predictor of 1 (none) is the only parameter read: anything else is pdf.js's.
    const list = parms instanceof PDFArray ? parms.asArray().map((_, i) => parms.lookup(i)) : [parms]
    for (const p of list)
      if (
        !(p instanceof PDFDict) ||
        p.keys().some((key) => key.decodeText() !== 'Predictor') ||
        number(p.lookup(PDFName.of('Predictor'))) !== 1
      )
        return undefined
  }
  if (name(filter) === 'DCTDecode') {
    const jpeg = jpegFrame(stream.contents)
    if (!jpeg || jpeg.width !== width || jpeg.height !== height || jpeg.components !== channels) return undefined
    return { type: 'jpeg' as const, bytes: stream.contents }
  }
  if (name(filter) === 'FlateDecode') {
    const size = width! * height! * channels
    let samples: Uint8Array
    try {
      samples = inflateSync(stream.contents, { maxOutputLength: size })
    } catch {
      return undefined
    }
    if (samples.length !== size) return undefined
    return { type: 'samples' as const, width: width!, height: height!, channels, samples }
  }
  return undefined
}

/** 1 for grey, 3 for RGB (device or ICC-based); undefined for any other colour space. */
function channelsOf(space: PDFObject | undefined): 1 | 3 | undefined {
  const device = name(space)
  if (device === 'DeviceGray') return 1
  if (device === 'DeviceRGB') return 3
  if (space instanceof PDFArray && space.size() === 2 && name(space.lookup(0)) === 'ICCBased') {
    const profile = space.lookup(1)
    const components = profile instanceof PDFRawStream ? number(profile.dict.lookup(PDFName.of('N'))) : undefined
    return components === 1 || components === 3 ? components : undefined
  }
  return undefined
}

/**
 * A JPEG's frame as its markers declare it, or undefined when this module does not take it: no start of frame before
 * the scan, a frame other than baseline or progressive Huffman, EXIF data (the canvas's decoder turns a picture by its
 * orientation tag, pdf.js never does), or an Adobe marker (which may mean inverted CMYK or a transform pdf.js reads
 * its own way).
 */
export function jpegFrame(bytes: Uint8Array): { width: number; height: number; components: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined
  let at = 2
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++
      continue
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    const body = at + 4
    if (length < 2 || body + length - 2 > bytes.length) return undefined
    if (marker === 0xe1 && String.fromCharCode(...bytes.subarray(body, body + 4)) === 'Exif') return undefined
    if (marker === 0xee) return undefined
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (length < 8 || bytes[body] !== 8) return undefined
      const height = (bytes[body + 1]! << 8) | bytes[body + 2]!
      const width = (bytes[body + 3]! << 8) | bytes[body + 4]!
      return height > 0 && width > 0 ? { width, height, components: bytes[body + 5]! } : undefined
    }
    // Any other frame type (lossless, arithmetic…) or the scan itself before a frame: not taken.
    if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xda) return undefined
    at = body + length - 2
  }
  return undefined
}
