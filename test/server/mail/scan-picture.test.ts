// A bare scan's page (one picture laid on it, nothing else) is drawn from its picture as the PDF stores it, decoded
// natively, and looks as pdf.js draws it; every page this reader does not take exactly is left to pdf.js.
import { deflateSync } from 'node:zlib'
import { type Canvas, createCanvas, loadImage } from '@napi-rs/canvas'
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { drawScanPicture, greyPgm, openLetter, pageScale } from '../../../server/services/letter-render.ts'
import { jpegFrame, SCAN_PICTURE_MAX_PIXELS, scanPicture } from '../../../server/services/scan-picture.ts'
import { imageOnlyPdf, scannedPage } from '../../util/letters.ts'

const LINES = ['URSSAF Ile-de-France', 'BOULANGERIE DES LILAS SAS', 'SIREN 823 456 785']
const A4: [number, number] = [595, 842]

/** The scan's picture as a JPEG of `width` × `height` pixels. */
async function scanJpeg(width = 1240, height = 1754) {
  const canvas = createCanvas(width, height)
  canvas.getContext('2d').drawImage(await loadImage(await scannedPage(LINES)), 0, 0, width, height)
  return canvas.encode('jpeg', 85)
}

/** A one-page PDF whose page holds `content` and, as /Im0, an image XObject of `dict` and `bytes`. */
async function rawPage(dict: Record<string, unknown>, bytes: Uint8Array, content: string, page: Record<string, unknown> = {}) {
  const doc = await PDFDocument.create()
  const leaf = doc.addPage(A4)
  const image = doc.context.register(
    PDFRawStream.of(doc.context.obj({ Type: 'XObject', Subtype: 'Image', ...dict } as unknown as Record<string, string>), bytes),
  )
  leaf.node.setXObject(PDFName.of('Im0'), image)
  leaf.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)))
  for (const [key, value] of Object.entries(page)) leaf.node.set(PDFName.of(key), doc.context.obj(value as never))
  return Buffer.from(await doc.save())
}

const jpegDict = (width: number, height: number) => ({
  Width: width,
  Height: height,
  BitsPerComponent: 8,
  ColorSpace: 'DeviceRGB',
  Filter: 'DCTDecode',
})
const FULL_PAGE = 'q 595 0 0 842 0 0 cm /Im0 Do Q'

const read = async (pdf: Uint8Array, index = 0) => scanPicture(await PDFDocument.load(pdf), index)

/** The page as pdf.js draws it, at the size the renderer draws pages. */
async function drawnByPdfjs(pdf: Uint8Array): Promise<Canvas> {
  const { getDocumentProxy, createIsomorphicCanvasFactory } = await import('unpdf')
  await createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'))
  const proxy = await getDocumentProxy(new Uint8Array(pdf))
  const page = await proxy.getPage(1)
  const { width, height } = page.getViewport({ scale: 1 })
  const viewport = page.getViewport({ scale: pageScale(width, height) })
  const canvas = createCanvas(Math.floor(viewport.width), Math.floor(viewport.height))
  await page.render({ canvas: canvas as never, canvasContext: canvas.getContext('2d') as never, viewport }).promise
  await proxy.destroy()
  return canvas
}

/** The page drawn from its bare scan, at the size pdf.js draws it. */
async function drawnBare(pdf: Uint8Array): Promise<Canvas> {
  const scan = await read(pdf)
  assert.ok(scan, 'the page is read as a bare scan')
  const scale = pageScale(scan!.box.width, scan!.box.height)
  const canvas = await drawScanPicture(scan!, Math.floor(scan!.box.width * scale), Math.floor(scan!.box.height * scale), scale)
  assert.ok(canvas, 'its picture decodes')
  return canvas!
}

/** The mean absolute difference of two drawings' grey, from 0 to 255. */
function greyDifference(a: Canvas, b: Canvas) {
  assert.equal([a.width, a.height], [b.width, b.height])
  const [x, y] = [greyPgm(a), greyPgm(b)]
  let sum = 0
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!)
  return sum / x.length
}

const reading = suite('scan-picture: what is read as a bare scan')

reading('a scanner-like page, a JPEG laid over the whole A4, is read with its box, its place and its bytes', async () => {
  const jpeg = await scanJpeg()
  const scan = await read(await rawPage(jpegDict(1240, 1754), jpeg, FULL_PAGE))
  assert.ok(scan)
  assert.equal(scan!.box, { x: 0, y: 0, width: 595, height: 842 })
  assert.equal(scan!.at, { left: 0, top: 0, width: 595, height: 842 })
  assert.is(scan!.picture.type, 'jpeg')
  assert.equal(Buffer.from((scan!.picture as { bytes: Uint8Array }).bytes), jpeg)
})

reading('pdf-lib’s own page (four cm, a PNG stored as raw RGB samples) is read, its samples inflated', async () => {
  const scan = await read(await imageOnlyPdf(LINES))
  assert.ok(scan)
  assert.equal(scan!.at, { left: 0, top: 0, width: 595, height: 842 })
  const picture = scan!.picture as { type: string; width: number; height: number; channels: number; samples: Uint8Array }
  assert.equal([picture.type, picture.width, picture.height, picture.channels], ['samples', 1240, 1754, 3])
  assert.is(picture.samples.length, 1240 * 1754 * 3)
})

reading('a picture on part of a page: its place from the top left corner of a box that does not start at 0', async () => {
  const jpeg = await scanJpeg(300, 400)
  const pdf = await rawPage(jpegDict(300, 400), jpeg, 'q 1 0 0 1 60 100 cm 150 0 0 200 0 0 cm /Im0 Do Q', { MediaBox: [10, 20, 605, 862] })
  const scan = await read(pdf)
  assert.equal(scan!.box, { x: 10, y: 20, width: 595, height: 842 })
  // From x 60 to 210, y 100 to 300 in user space; the box's top is at 862.
  assert.equal(scan!.at, { left: 50, top: 562, width: 150, height: 200 })
})

reading('a crop box that is the media box, corners in any order, is no crop at all', async () => {
  const pdf = await rawPage(jpegDict(1240, 1754), await scanJpeg(), FULL_PAGE, { CropBox: [595, 842, 0, 0] })
  assert.equal((await read(pdf))!.box, { x: 0, y: 0, width: 595, height: 842 })
})

reading('grey samples (DeviceGray) and an ICC-based RGB JPEG are read', async () => {
  const grey = new Uint8Array(40 * 50).fill(200)
  const scan = await read(
    await rawPage(
      { Width: 40, Height: 50, BitsPerComponent: 8, ColorSpace: 'DeviceGray', Filter: 'FlateDecode' },
      deflateSync(grey),
      FULL_PAGE,
    ),
  )
  assert.is((scan!.picture as { channels: number }).channels, 1)
  const doc = await PDFDocument.create()
  const profile = doc.context.register(PDFRawStream.of(doc.context.obj({ N: 3 }), new Uint8Array(8)))
  const leaf = doc.addPage(A4)
  leaf.node.setXObject(
    PDFName.of('Im0'),
    doc.context.register(
      PDFRawStream.of(
        doc.context.obj({
          Type: 'XObject',
          Subtype: 'Image',
          ...jpegDict(1240, 1754),
          ColorSpace: [PDFName.of('ICCBased'), profile],
        } as unknown as Record<string, string>),
        await scanJpeg(),
      ),
    ),
  )
  leaf.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(FULL_PAGE)))
  assert.ok(await read(await doc.save()))
})

reading('anything it does not read exactly is left to pdf.js', async () => {
  const jpeg = await scanJpeg()
  const refused: [string, Promise<Buffer>][] = [
    ['a turned page', rawPage(jpegDict(1240, 1754), jpeg, FULL_PAGE, { Rotate: 90 })],
    ['a crop box smaller than the page', rawPage(jpegDict(1240, 1754), jpeg, FULL_PAGE, { CropBox: [0, 0, 595, 800] })],
    ['a mirrored picture', rawPage(jpegDict(1240, 1754), jpeg, 'q -595 0 0 842 595 0 cm /Im0 Do Q')],
    ['a picture upside down', rawPage(jpegDict(1240, 1754), jpeg, 'q 595 0 0 -842 0 842 cm /Im0 Do Q')],
    ['a turned picture', rawPage(jpegDict(1240, 1754), jpeg, 'q 0 842 -595 0 595 0 cm /Im0 Do Q')],
    ['text drawn beside it', rawPage(jpegDict(1240, 1754), jpeg, `${FULL_PAGE} BT /F1 12 Tf (Bonjour) Tj ET`)],
    ['another operator', rawPage(jpegDict(1240, 1754), jpeg, 'q /GS0 gs 595 0 0 842 0 0 cm /Im0 Do Q')],
    ['two pictures', rawPage(jpegDict(1240, 1754), jpeg, `${FULL_PAGE} ${FULL_PAGE}`)],
    ['a name it has not', rawPage(jpegDict(1240, 1754), jpeg, 'q 595 0 0 842 0 0 cm /Im1 Do Q')],
    ['a soft mask', rawPage({ ...jpegDict(1240, 1754), SMask: 0 }, jpeg, FULL_PAGE)],
    ['a decode array', rawPage({ ...jpegDict(1240, 1754), Decode: [1, 0, 1, 0, 1, 0] }, jpeg, FULL_PAGE)],
    ['CMYK', rawPage({ ...jpegDict(1240, 1754), ColorSpace: 'DeviceCMYK' }, jpeg, FULL_PAGE)],
    ['16 bits a sample', rawPage({ ...jpegDict(1240, 1754), BitsPerComponent: 16 }, jpeg, FULL_PAGE)],
    ['a JPEG of another size than declared', rawPage(jpegDict(1240, 1750), jpeg, FULL_PAGE)],
    ['a JPEG with its colour transform given', rawPage({ ...jpegDict(1240, 1754), DecodeParms: { ColorTransform: 0 } }, jpeg, FULL_PAGE)],
    ['JBIG2', rawPage({ ...jpegDict(1240, 1754), Filter: 'JBIG2Decode' }, jpeg, FULL_PAGE)],
    ['two filters', rawPage({ ...jpegDict(1240, 1754), Filter: ['FlateDecode', 'DCTDecode'] }, jpeg, FULL_PAGE)],
    [
      'samples with a PNG predictor',
      rawPage(
        {
          Width: 4,
          Height: 4,
          BitsPerComponent: 8,
          ColorSpace: 'DeviceGray',
          Filter: 'FlateDecode',
          DecodeParms: { Predictor: 15, Columns: 4 },
        },
        deflateSync(new Uint8Array(20)),
        FULL_PAGE,
      ),
    ],
    [
      'samples fewer than declared',
      rawPage(
        { Width: 40, Height: 50, BitsPerComponent: 8, ColorSpace: 'DeviceRGB', Filter: 'FlateDecode' },
        deflateSync(new Uint8Array(40 * 49 * 3)),
        FULL_PAGE,
      ),
    ],
    [
      'samples more than declared',
      rawPage(
        { Width: 40, Height: 50, BitsPerComponent: 8, ColorSpace: 'DeviceRGB', Filter: 'FlateDecode' },
        deflateSync(new Uint8Array(40 * 51 * 3)),
        FULL_PAGE,
      ),
    ],
    [
      'a picture over the bound, never inflated',
      rawPage(
        { Width: 5000, Height: 5000, BitsPerComponent: 8, ColorSpace: 'DeviceGray', Filter: 'FlateDecode' },
        deflateSync(new Uint8Array(5000 * 5000)),
        FULL_PAGE,
      ),
    ],
  ]
  assert.ok(5000 * 5000 > SCAN_PICTURE_MAX_PIXELS)
  for (const [what, pdf] of refused) assert.is(await read(await pdf), null, what)
})

reading('JPEG frames: EXIF (an orientation the canvas would apply), Adobe markers, lossless or arithmetic frames are refused', async () => {
  const jpeg = new Uint8Array(await scanJpeg(200, 300))
  assert.equal(jpegFrame(jpeg), { width: 200, height: 300, components: 3 })
  const segment = (marker: number, body: string) => {
    const bytes = Buffer.from(body, 'latin1')
    return Buffer.from([0xff, marker, (bytes.length + 2) >> 8, (bytes.length + 2) & 255, ...bytes])
  }
  const withSegment = (part: Buffer) => Buffer.concat([jpeg.subarray(0, 2), part, jpeg.subarray(2)])
  assert.is(jpegFrame(withSegment(segment(0xe1, 'Exif\0\0MM\0*'))), undefined)
  assert.is(jpegFrame(withSegment(segment(0xee, 'Adobe\0d\0\0\0\0\x01'))), undefined)
  assert.ok(jpegFrame(withSegment(segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0'))), 'XMP is not EXIF')
  const sof = jpeg.findIndex((byte, i) => byte === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2))
  for (const frame of [0xc3, 0xc9]) {
    const other = Uint8Array.from(jpeg)
    other[sof + 1] = frame
    assert.is(jpegFrame(other), undefined, frame.toString(16))
  }
  assert.is(jpegFrame(jpeg.subarray(0, sof)), undefined, 'cut before its frame')
  assert.is(jpegFrame(new Uint8Array([0x89, 0x50, 0x4e, 0x47])), undefined, 'a PNG')
})

reading('a page of a longer letter is read by its own index; out of range is null', async () => {
  const doc = await PDFDocument.create()
  const source = await PDFDocument.load(await imageOnlyPdf(LINES))
  const [scanned] = await doc.copyPages(source, [0])
  doc.addPage(A4).drawText('Page de texte')
  doc.addPage(scanned!)
  const loaded = await PDFDocument.load(await doc.save())
  assert.is(scanPicture(loaded, 0), null)
  assert.ok(scanPicture(loaded, 1))
  assert.is(scanPicture(loaded, 2), null)
})

reading.run()

const drawing = suite('scan-picture: drawn as pdf.js draws it')

drawing(
  'a 150 dpi JPEG, pdf-lib’s raw samples, a 300 dpi JPEG and a picture on part of a page (its box at 0 or not) look as pdf.js draws them',
  async () => {
    const pages = {
      'JPEG 150 dpi': await rawPage(jpegDict(1240, 1754), await scanJpeg(), FULL_PAGE),
      'raw RGB samples': await imageOnlyPdf(LINES),
      'JPEG 300 dpi': await rawPage(jpegDict(2480, 3508), await scanJpeg(2480, 3508), FULL_PAGE),
      'part of the page': await rawPage(jpegDict(600, 800), await scanJpeg(600, 800), 'q 300 0 0 400 60 100 cm /Im0 Do Q'),
      'part of a page whose box starts at 10, 20': await rawPage(
        jpegDict(600, 800),
        await scanJpeg(600, 800),
        'q 300 0 0 400 60 100 cm /Im0 Do Q',
        {
          MediaBox: [10, 20, 605, 862],
        },
      ),
    }
    for (const [what, pdf] of Object.entries(pages)) {
      const [bare, pdfjs] = [await drawnBare(pdf), await drawnByPdfjs(pdf)]
      assert.equal([bare.width, bare.height], [1240, 1754], what)
      const difference = greyDifference(bare, pdfjs)
      assert.ok(difference < 0.15, `${what}: ${difference.toFixed(3)} of 255 on average`)
    }
    // The measure tells a misplaced picture: the same picture 20 points lower differs ten times more (about 0.5 against
    // 0.03–0.05 for the drawings above).
    const lower = await rawPage(jpegDict(600, 800), await scanJpeg(600, 800), 'q 300 0 0 400 60 80 cm /Im0 Do Q')
    const higher = await rawPage(jpegDict(600, 800), await scanJpeg(600, 800), 'q 300 0 0 400 60 100 cm /Im0 Do Q')
    assert.ok(greyDifference(await drawnBare(lower), await drawnByPdfjs(higher)) > 0.3)
  },
)

drawing('openLetter draws a bare scan from its picture: the page OCR reads is the bare drawing, not pdf.js’s', async () => {
  const pdf = await rawPage(jpegDict(2480, 3508), await scanJpeg(2480, 3508), FULL_PAGE)
  const letter = await openLetter(pdf)
  const page = await letter.draw(1, 'full', await letter.layer(1))
  await letter.close()
  assert.equal([page.width, page.height], [1240, 1754])
  assert.ok(page.scan)
  const bare = greyPgm(await drawnBare(pdf))
  assert.equal(Buffer.from(page.scan!), Buffer.from(bare))
  assert.not.equal(
    Buffer.from(page.scan!),
    Buffer.from(greyPgm(await drawnByPdfjs(pdf))),
    'the two drawings differ, so the test tells them apart',
  )
})

drawing('a JPEG whose data is damaged: the page is still drawn, by pdf.js when the canvas cannot decode it', async () => {
  const jpeg = await scanJpeg(400, 600)
  const damaged = Buffer.concat([jpeg.subarray(0, jpeg.length >> 3), Buffer.alloc(64, 0x17)])
  const pdf = await rawPage(jpegDict(400, 600), damaged, FULL_PAGE)
  const letter = await openLetter(pdf)
  const page = await letter.draw(1, 'full', await letter.layer(1))
  await letter.close()
  assert.equal([page.width, page.height], [1240, 1754])
  assert.ok(page.bytes.length > 0)
})

drawing('a page with a text layer is drawn by pdf.js, whatever its picture', async () => {
  const doc = await PDFDocument.load(await imageOnlyPdf(LINES))
  doc.getPage(0).drawText('Lettre recommandée avec accusé de réception', { x: 40, y: 40, size: 12 })
  const letter = await openLetter(await doc.save())
  const layer = await letter.layer(1)
  const page = await letter.draw(1, 'full', layer)
  await letter.close()
  assert.ok(layer.includes('Lettre recommand'))
  assert.is(page.scan, null)
})

drawing.run()
