// Letters the mail-pipeline tests make: a PDF with a text layer, and an image-only scan made
// by drawing text on a canvas and embedding the picture as the page, as a scanner would; and two a reviewer
// found (a page slow to draw, a page taller than WebP allows).
import { deflateSync } from 'node:zlib'
import { createCanvas } from '@napi-rs/canvas'
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib'

/** A PDF whose pages hold real text (one array of lines per page); WinAnsi only, as a letter generator writes it. */
export async function textLayerPdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const lines of pages) {
    const page = doc.addPage([595, 842])
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 780 - i * 22, size: 13, font }))
  }
  return Buffer.from(await doc.save())
}

/** A one-page scan without any text layer: the lines drawn into a picture (null lines: a page of noise). */
export async function imageOnlyPdf(lines: string[] | null): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  const image = await doc.embedPng(await scannedPage(lines))
  page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 })
  return Buffer.from(await doc.save())
}

/** The picture of imageOnlyPdf's page (PNG, 1240 × 1754): what OCR reads of it. */
export async function scannedPage(lines: string[] | null): Promise<Buffer> {
  const canvas = createCanvas(1240, 1754)
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, 1240, 1754)
  if (lines) {
    context.fillStyle = '#111111'
    context.font = '38px sans-serif'
    lines.forEach((line, i) => context.fillText(line, 110, 220 + i * 70))
  } else {
    // Speckles OCR cannot read: a bad scan.
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    for (let i = 0; i < 4000; i++) {
      context.fillStyle = random() > 0.5 ? '#222222' : '#999999'
      context.fillRect(random() * 1240, random() * 1754, 2 + random() * 6, 2 + random() * 6)
    }
  }
  return canvas.encode('png')
}

/**
 * A small PDF (about 20 KB for 10 MB) whose one A4 page's content stream inflates to `megabytes` MB of tiny filled
 * squares: it passes the upload check (its page opens), and pdf.js spends seconds and gigabytes drawing it.
 */
export async function slowToDrawPdf(megabytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([595, 842])
  const square = '0 0 1 1 re f\n'
  const content = Buffer.from(square.repeat(Math.ceil((megabytes * 1024 * 1024) / square.length)))
  const compressed = deflateSync(content, { level: 9 })
  page.node.set(
    PDFName.of('Contents'),
    doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: compressed.length }), compressed)),
  )
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

/** A till receipt: one page `width` × `height` points with text lines at its top and its bottom. */
export async function receiptPdf(lines: string[], [width, height]: [number, number]): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([width, height])
  lines.forEach((line, i) => page.drawText(line, { x: 8, y: height - 20 - i * 14, size: 10, font }))
  page.drawText('Merci de votre visite', { x: 8, y: 20, size: 10, font })
  return Buffer.from(await doc.save())
}
