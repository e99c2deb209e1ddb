// Hostile PDFs, written byte by byte (pdf-lib would decode or rewrite what matters): a page with a huge picture, a
// page whose drawing commands inflate to gigabytes, thousands of pages, a broken cross-reference table. Each is small
// enough for an upload (≤ 10 MB) and is a valid PDF otherwise; the tests of the upload check and of the letters'
// rendering send them.
import { constants, deflateRawSync } from 'node:zlib'

/**
 * `megabytes` MB of `byte`, zlib-compressed (about 1 KB per MB): one compressed block of 1 MB repeated, each ending on
 * a byte boundary (a sync flush), then the end and the checksum, computed rather than inflated.
 */
export function zlibOfRepeated(byte: number, megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20, byte), { level: 9, finishFlush: constants.Z_SYNC_FLUSH })
  const length = BigInt(megabytes) << 20n
  const b = BigInt(byte)
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(Number((((length + (b * length * (length + 1n)) / 2n) % 65521n) << 16n) | ((1n + b * length) % 65521n)))
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(megabytes).fill(block), Buffer.from([0x03, 0x00]), adler])
}

export type PdfObject = string | { dict: string; stream: Buffer }

/** A PDF of `objects` (numbered from 1; object 1 is the catalog) with a correct cross-reference table. */
export function pdfOf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let at = parts[0]!.length
  const offsets: number[] = []
  objects.forEach((object, i) => {
    offsets.push(at)
    const body =
      typeof object === 'string'
        ? Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, 'latin1')
        : Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.stream.length} >>\nstream\n`, 'latin1'),
            object.stream,
            Buffer.from('\nendstream\nendobj\n', 'latin1'),
          ])
    parts.push(body)
    at += body.length
  })
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'))
  return Buffer.concat(parts)
}

const A4 = '/MediaBox [0 0 595 842]'
const helvetica = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
/** A content stream writing `text` at the top of an A4 page in Helvetica (font /F1). */
const textContent = (text: string) => Buffer.from(`BT /F1 14 Tf 56 780 Td (${text}) Tj ET\n`, 'latin1')

/**
 * One A4 page showing a picture of `width` × `height` pixels (8-bit grey, all white, Flate: a 30000 × 30000 picture,
 * 900 MB decoded, is a 0.9 MB file), and a line of text above it.
 */
export function bigImagePdf(width: number, height: number): Buffer {
  const megabytes = Math.ceil((width * height) / (1 << 20))
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 6 0 R >> /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`,
    { dict: '', stream: Buffer.concat([Buffer.from('q 595 0 0 700 0 0 cm /Im1 Do Q\n'), textContent('Une image immense')]) },
    {
      dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      stream: zlibOfRepeated(0xff, megabytes),
    },
    helvetica,
  ])
}

/** One A4 page whose content stream inflates to `megabytes` MB of spaces after a line of text (1 GB: a 1 MB file). */
export function contentBombPdf(megabytes: number): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 5 0 R >> >> /Contents [6 0 R 4 0 R] >>`,
    { dict: '/Filter /FlateDecode', stream: zlibOfRepeated(0x20, megabytes) },
    helvetica,
    { dict: '', stream: textContent('Une page qui gonfle') },
  ])
}

/** `count` A4 pages sharing one content stream and one font: about 100 bytes a page. */
export function manyPagesPdf(count: number): Buffer {
  const first = 5
  const kids = Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(' ')
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    { dict: '', stream: textContent('Une page parmi des milliers') },
    helvetica,
    ...Array.from({ length: count }, () => `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>`),
  ])
}

/** A one-page letter whose cross-reference table points nowhere (offsets past the end, startxref wrong). */
export function badXrefPdf(text = 'Lettre au sommaire casse'): Buffer {
  const pdf = pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    { dict: '', stream: textContent(text) },
    helvetica,
  ]).toString('latin1')
  return Buffer.from(
    pdf.replace(/^\d{10}( 00000 n)/gm, (_, rest: string) => `9999999999${rest}`).replace(/startxref\n\d+/, 'startxref\n123456789'),
    'latin1',
  )
}

/**
 * One A4 page painted by an axial shading whose colour is a PostScript calculator function (type 4, `{ 1 exch sub }`),
 * and a line of text: what pdf.js would compile to JavaScript (`new Function`) unless told isEvalSupported false.
 */
export function postScriptFunctionPdf(): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 6 0 R >> /Shading << /Sh1 5 0 R >> >> /Contents 4 0 R >>`,
    { dict: '', stream: Buffer.concat([Buffer.from('q 0 0 595 700 re W n /Sh1 sh Q\n'), textContent('Un degrade calcule')]) },
    '<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 595 0] /Function 7 0 R /Extend [true true] >>',
    helvetica,
    { dict: '/FunctionType 4 /Domain [0 1] /Range [0 1]', stream: Buffer.from('{ 1 exch sub }') },
  ])
}

/**
 * One A4 page showing `count` distinct RGB pictures of `side` × `side` pixels, all white (Flate): 8 pictures of 7000 ×
 * 7000, each under pdf.js's per-picture bound (49 of 50 million pixels), 1.1 GB once decoded, in a 1.2 MB file.
 */
export function manyBigImagesPdf(count = 8, side = 7000): Buffer {
  const megabytes = Math.ceil((side * side * 3) / (1 << 20))
  const stream = zlibOfRepeated(0xff, megabytes)
  const first = 5
  const names = Array.from({ length: count }, (_, i) => `/Im${i + 1} ${first + i} 0 R`).join(' ')
  const draws = Array.from(
    { length: count },
    (_, i) => `q 70 0 0 80 ${(i % 4) * 140 + 20} ${Math.floor(i / 4) * 100 + 500} cm /Im${i + 1} Do Q`,
  ).join('\n')
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 ${first + count} 0 R >> /XObject << ${names} >> >> /Contents 4 0 R >>`,
    { dict: '', stream: Buffer.concat([Buffer.from(`${draws}\n`), textContent('Huit images immenses')]) },
    ...Array.from({ length: count }, () => ({
      dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
      stream,
    })),
    helvetica,
  ])
}

/** A JBIG2 segment header (sequential organisation, as a PDF embeds it): no referred-to segment, page 1. */
function jbig2Segment(number: number, type: number, data: Buffer): Buffer {
  const header = Buffer.alloc(11)
  header.writeUInt32BE(number, 0)
  header[4] = type
  header[5] = 0
  header[6] = 1
  header.writeUInt32BE(data.length, 7)
  return Buffer.concat([header, data])
}

/**
 * One A4 page showing a JBIG2 picture whose dictionary says `declared` pixels (by default 2480 × 3508, an A4 at 300 dpi)
 * and whose data, a few dozen bytes, declares a page and a generic region of `side` × `side` (60000²: 3.6 billion
 * pixels, which pdf.js's JBIG2 decoder allocates a byte each), and a line of text above it: under a kilobyte. With
 * `between`, that page is the second of three, the others a line of text each.
 */
export function jbig2RegionPdf({
  side = 60_000,
  declared = [2480, 3508],
  between = false,
}: {
  side?: number
  declared?: [number, number]
  between?: boolean
} = {}): Buffer {
  const pageInfo = Buffer.alloc(19)
  pageInfo.writeUInt32BE(side, 0)
  pageInfo.writeUInt32BE(side, 4)
  pageInfo[16] = 0x01 // lossless, default pixel 0, OR
  const region = Buffer.alloc(17 + 1 + 8)
  region.writeUInt32BE(side, 0)
  region.writeUInt32BE(side, 4)
  // Generic template 0 (arithmetic), its four adaptive pixels where the standard puts them.
  region.set([0x00, 0x03, 0xff, 0xfd, 0xff, 0x02, 0xfe, 0xfe, 0xfe], 17)
  const coded = Buffer.concat([region, Buffer.from([0x00, 0x00, 0x00, 0x00, 0xff, 0xac])])
  const stream = Buffer.concat([jbig2Segment(0, 48, pageInfo), jbig2Segment(1, 38, coded), jbig2Segment(2, 49, Buffer.alloc(0))])
  const text = (line: string) => `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 6 0 R >> >> /Contents ${line} >>`
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    between ? '<< /Type /Pages /Kids [7 0 R 3 0 R 8 0 R] /Count 3 >>' : '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${A4} /Resources << /Font << /F1 6 0 R >> /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`,
    { dict: '', stream: Buffer.concat([Buffer.from('q 595 0 0 700 0 0 cm /Im1 Do Q\n'), textContent('Une region JBIG2 immense')]) },
    {
      dict: `/Type /XObject /Subtype /Image /Width ${declared[0]} /Height ${declared[1]} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode`,
      stream,
    },
    helvetica,
    ...(between
      ? [
          text('9 0 R'),
          text('10 0 R'),
          { dict: '', stream: textContent('Premiere page ordinaire') },
          { dict: '', stream: textContent('Derniere page ordinaire') },
        ]
      : []),
  ])
}
