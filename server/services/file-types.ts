// Uploaded files are judged by their bytes, never by their name or declared type: every upload (Kbis, identity
// documents, operators' letters) goes through checkFile, the strict check.
import { readPdfOffThread } from './pdf-check-thread.ts'

export type FileType = 'pdf' | 'jpeg' | 'png'
export const contentTypes: Record<FileType, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png' }

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b)
const tail = (bytes: Uint8Array, size: number) => Buffer.from(bytes.subarray(Math.max(0, bytes.length - size)))
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const PNG_IEND = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])

/** A first look: the type of a complete file (a truncated one has lost its end marker), or null. Uploads use checkFile. */
export function sniffFileType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]) && tail(bytes, 1024).includes('%%EOF')) return 'pdf'
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9)
    return 'jpeg'
  if (startsWith(bytes, PNG_SIGNATURE) && tail(bytes, 12).subarray(4).equals(PNG_IEND)) return 'png'
  return null
}

/** The bytes of a base64 data URL, or null when it is not one. */
export function decodeDataUrl(value: string): { mediaType: string; bytes: Buffer } | null {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9-]+=[^;,]*)*);base64,/i.exec(value)
  if (!match) return null
  // Whitespace dropped first, then one linear check: a pattern where two parts can both match the same run of spaces
  // (as `[…\s]*={0,2}\s*$` did) backtracks in quadratic time, and a body of spaces held the event loop for minutes.
  const payload = value.slice(match[0].length).replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return null
  return { mediaType: (match[1] ?? 'text/plain').toLowerCase(), bytes: Buffer.from(payload, 'base64') }
}

export type CheckedFile =
  | { type: FileType; pages: number }
  /**
   * unknown: not a complete PDF, JPEG or PNG; unreadable: it claims to be one but does not hold together; active: it
   * carries code; heavy: a PDF too heavy to read, its structure inflating beyond pdf-check.ts's PDF_DECODE_BUDGET_BYTES,
   * its pages' contents, forms and fonts beyond PDF_CONTENT_BUDGET_BYTES, or its reading taking longer than
   * pdf-check-thread.ts's PDF_CHECK_TIMEOUT_MS; long: a PDF of more than pdf-check.ts's MAX_PDF_PAGES pages.
   */
  | { type: null; problem: 'unknown' | 'unreadable' | 'active' | 'heavy' | 'long' }

// Markup or script a browser or a PDF reader could run; long enough never to occur by chance in compressed data.
const ACTIVE_MARKUP = /<script|<!doctype html|javascript:/i

/**
 * The one check of every upload: the type read from the bytes, the whole structure decoded, no active content. A PDF
 * is read by pdf-lib on a worker thread (pdf-check-thread.ts), within `pdfTimeoutMs`.
 */
export async function checkFile(bytes: Uint8Array, { pdfTimeoutMs }: { pdfTimeoutMs?: number } = {}): Promise<CheckedFile> {
  const type = sniffFileType(bytes)
  if (!type) return { type: null, problem: 'unknown' }
  if (ACTIVE_MARKUP.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')))
    return { type: null, problem: 'active' }
  if (type === 'png')
    return soundPng(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      ? { type, pages: 1 }
      : { type: null, problem: 'unreadable' }
  if (type === 'jpeg')
    return soundJpeg(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      ? { type, pages: 1 }
      : { type: null, problem: 'unreadable' }
  const pdf = await readPdfOffThread(bytes, pdfTimeoutMs)
  return 'problem' in pdf ? { type: null, problem: pdf.problem } : { type, pages: pdf.pages }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] }

/** IHDR first and sound, every chunk whole with its checksum, image data, and nothing after IEND. */
function soundPng(png: Buffer): boolean {
  let sawData = false
  for (let at = 8, first = true; at + 12 <= png.length; first = false) {
    const length = png.readUInt32BE(at)
    const end = at + 12 + length
    if (length > 0x7fffffff || end > png.length) return false
    const type = png.toString('latin1', at + 4, at + 8)
    if (!/^[A-Za-z]{4}$/.test(type) || crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) return false
    if (first) {
      if (type !== 'IHDR' || length !== 13) return false
      const width = png.readUInt32BE(at + 8)
      const height = png.readUInt32BE(at + 12)
      const [depth, color, compression, filter, interlace] = png.subarray(at + 16, at + 21)
      if (
        !width ||
        !height ||
        width > 0x7fffffff ||
        height > 0x7fffffff ||
        !PNG_DEPTHS[color!]?.includes(depth!) ||
        compression ||
        filter ||
        interlace! > 1
      )
        return false
    } else if (type === 'IHDR') {
      return false
    }
    if (type === 'IDAT') sawData = true
    if (type === 'IEND') return length === 0 && end === png.length && sawData
    at = end
  }
  return false
}

const isFrameMarker = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc

/** Segments whole from the start marker to the first scan, a frame header with a size, then data up to the end marker. */
function soundJpeg(jpeg: Buffer): boolean {
  let frame = false
  for (let at = 2; at + 4 <= jpeg.length; ) {
    if (jpeg[at] !== 0xff) return false
    const marker = jpeg[at + 1]!
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    if (marker === 0x01 || marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7)) return false
    const length = jpeg.readUInt16BE(at + 2)
    const end = at + 2 + length
    if (length < 2 || end > jpeg.length) return false
    if (isFrameMarker(marker)) {
      const components = jpeg[at + 9] ?? 0
      if (frame || length !== 8 + 3 * components || components < 1 || components > 4 || ![8, 12, 16].includes(jpeg[at + 4]!)) return false
      if (!jpeg.readUInt16BE(at + 5) || !jpeg.readUInt16BE(at + 7)) return false
      frame = true
    }
    if (marker === 0xda) return frame && end < jpeg.length - 2 && jpeg[jpeg.length - 2] === 0xff && jpeg[jpeg.length - 1] === 0xd9
    at = end
  }
  return false
}
