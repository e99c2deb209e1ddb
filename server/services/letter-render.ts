// A letter's pages drawn and their text layer read (mail pipeline), in the render process
// (letter-render-child.ts, started by letter-render-process.ts), never in the process that answers HTTP: pdf.js (unpdf) on
// @napi-rs/canvas, each page to a WebP image within a pixel bound, and its text layer; a page whose layer is too thin
// (a scan) comes back with its picture too, for OCR. A page the render process could not draw within its limits is
// drawn again without its large pictures ('light'), or replaced by a notice ('skip'): the letter stays whole as its PDF.

import type { Canvas } from '@napi-rs/canvas'
import { wrapWords } from '../lib/wrap.ts'
import type { ScanPicture } from './scan-picture.ts'

// unpdf (pdf.js) and the canvas are loaded by the render process at its start (loadRenderer), not when the server starts.
const canvasModule = () => import('@napi-rs/canvas')
const unpdfModule = () => {
  supplyTransferToFixedLength()
  return import('unpdf')
}
// The bare scan reader (scan-picture.ts, with pdf-lib): a scan's picture read as the PDF stores it. Loaded with the
// first page OCR reads, not at the render process's start (8 MB and 60–80 ms a letter without scans never needs).
const scanModule = () => import('./scan-picture.ts')

// pdf.js 5 moves font data with ArrayBuffer.prototype.transferToFixedLength, which Node 20 lacks: without
// it the text of a page is silently left out of its image and the next page of the document never renders.
// structuredClone with a transfer detaches the buffer just as the real method does.
function supplyTransferToFixedLength() {
  const buffers = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (length?: number) => ArrayBuffer }
  buffers.transferToFixedLength ??= function transferToFixedLength(this: ArrayBuffer, length?: number) {
    const moved = structuredClone(this, { transfer: [this] })
    if (length === undefined || length === moved.byteLength) return moved
    const resized = new ArrayBuffer(length)
    new Uint8Array(resized).set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)))
    return resized
  }
}

export const PAGE_IMAGE_WIDTH = 1240
/** WebP's largest side: the encoder fails beyond it ("Get webp data from surface failed"). */
export const MAX_PAGE_IMAGE_SIDE = 16383
export const MAX_PAGE_IMAGE_BYTES = 200 * 1024
/** Pages rendered at most per letter (a scan of more pages keeps its PDF; the viewer shows these). */
export const MAX_PAGE_IMAGES = 50
/** A picture inside a page that pdf.js decodes at most, in pixels (a 600 dpi A4 scan has 35 million); a larger one is left out. */
export const MAX_EMBEDDED_IMAGE_PIXELS = 50_000_000
/** The same bound when a page is drawn again without its large pictures ('light'): a logo, a signature, a stamp stay. */
export const LIGHT_EMBEDDED_IMAGE_PIXELS = 1_000_000
/**
 * How every customer PDF is opened with pdf.js (openLetter; renderPageAsImage draws from that same document).
 * isEvalSupported false: pdf.js then never builds JavaScript functions (`new Function`) from a PDF's PostScript
 * calculator functions (type 4, in shadings and colour spaces) and interprets them instead, a little slower: code made
 * from what a customer's file says runs in no case. unpdf 1.7 passes it by default too; said here so that no update of
 * unpdf's defaults, nor a direct call to pdf.js, takes it back. maxImageSize: pictures over it (by their declared size)
 * are left out. pdf.js 5.6's canvasMaxAreaInBytes is not given: it only sizes its ImageResizer, used with an
 * OffscreenCanvas, which Node lacks; the page's own canvas is bounded by pageScale.
 */
export const PDFJS_DOCUMENT_OPTIONS = { verbosity: 0, maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS, isEvalSupported: false } as const
/** A page drawn again without its large pictures. */
export const PDFJS_LIGHT_OPTIONS = { ...PDFJS_DOCUMENT_OPTIONS, maxImageSize: LIGHT_EMBEDDED_IMAGE_PIXELS } as const
/** The text kept per letter: far beyond a letter, far below PostgreSQL's 1 MB tsvector limit. */
const MAX_TEXT_CHARS = 200_000
/** Pages whose text layer holds fewer letters than this are read by OCR (a scan with a stray stamp). */
const MIN_LAYER_LETTERS = 12

/**
 * The scale a page of `width` × `height` points is drawn at: 1240 px wide, or less so that it is at most 16383 px tall
 * (a till receipt). A page is thus never more than 1240 × 16383 pixels (81 MB of canvas), however its box is drawn.
 */
export function pageScale(width: number, height: number): number {
  const scale = Math.min(PAGE_IMAGE_WIDTH / width, MAX_PAGE_IMAGE_SIDE / height)
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`page de dimensions impossibles (${width} × ${height} pt)`)
  return scale
}

export interface PageImage {
  bytes: Uint8Array<ArrayBuffer>
  width: number
  height: number
}

/** How a page was drawn: whole, without its large pictures, or not at all (a notice in its place). */
export type PageMode = 'full' | 'light' | 'skip'

/** What the customer reads on a page drawn without its large pictures, and on a page left out. */
export const LIGHT_PAGE_NOTICE =
  'Aperçu allégé : les images trop lourdes de cette page ne sont pas affichées. Le courrier complet est dans son PDF (« Télécharger »).'
export const skippedPageNotice = (page: number) =>
  `Page ${page} : trop lourde pour être affichée en aperçu. Elle se trouve, intacte, dans le PDF du courrier (« Télécharger »).`

type Context = ReturnType<ReturnType<Awaited<ReturnType<typeof canvasModule>>['createCanvas']>['getContext']>

/** `text` cut into lines of at most `width` pixels in the context's font. */
function linesOf(context: Context, text: string, width: number): string[] {
  return wrapWords(text, (line) => context.measureText(line).width <= width)
}

/**
 * A drawn page as WebP of at most MAX_PAGE_IMAGE_BYTES, neither side over WebP's limit: lower quality first, then
 * smaller. A notice goes in a band at its top (drawn on `page`). Encoded from the page's own canvas: no PNG is made and
 * read again on the way (that round trip was half of a page's time).
 */
export async function toWebp(page: Canvas, notice?: string): Promise<PageImage> {
  const { createCanvas } = await canvasModule()
  if (notice) {
    const context = page.getContext('2d')
    const size = Math.max(10, Math.round(page.width / 48))
    context.font = `${size}px sans-serif`
    const lines = linesOf(context, notice, page.width - 2 * size)
    context.fillStyle = '#fff3cd'
    context.fillRect(0, 0, page.width, (lines.length + 1) * size * 1.3)
    context.fillStyle = '#5c4400'
    lines.forEach((line, i) => context.fillText(line, size, (i + 1) * size * 1.3))
  }
  const fit = Math.min(1, MAX_PAGE_IMAGE_SIDE / page.width, MAX_PAGE_IMAGE_SIDE / page.height)
  let width = Math.max(1, Math.floor(page.width * fit))
  let height = Math.max(1, Math.floor(page.height * fit))
  let canvas = page
  for (;;) {
    if (canvas.width !== width || canvas.height !== height) {
      canvas = createCanvas(width, height) as Canvas
      const context = canvas.getContext('2d')
      context.fillStyle = '#ffffff'
      context.fillRect(0, 0, width, height)
      context.drawImage(page, 0, 0, width, height)
    }
    for (const quality of [80, 60, 40]) {
      const bytes = await canvas.encode('webp', quality)
      // A copy of its own: a Buffer may be a slice of a larger shared one.
      if (bytes.length <= MAX_PAGE_IMAGE_BYTES) return { bytes: new Uint8Array(bytes), width, height }
    }
    width = Math.max(1, Math.round(width * 0.8))
    height = Math.max(1, Math.round(height * 0.8))
  }
}

/**
 * A drawn page as OCR reads it: 8-bit grey, lossless, as a PGM (Netpbm P5) file, laid on white. Leptonica (in
 * tesseract.js) reads it as it is, where a PNG of the same page took 70–120 ms to encode here and about 50 ms to decode
 * there, with the same text read (bench:intake, docs/BENCHMARKS.md « Numérisation »). Grey is what tesseract reads in
 * any case. The canvas's pixels are premultiplied RGBA: a pixel short of opaque is thus laid on white exactly.
 */
export function greyPgm(canvas: Canvas): Uint8Array<ArrayBuffer> {
  const { width, height } = canvas
  const rgba = canvas.data()
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`)
  const pgm = new Uint8Array(header.length + width * height)
  pgm.set(header)
  // Rec. 601 luma in 8-bit fixed point (77 + 150 + 29 = 256): at most the alpha, so with the white left over at most 255.
  for (let i = 0, j = header.length; i < rgba.length; i += 4, j++)
    pgm[j] = ((rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8) + 255 - rgba[i + 3]!
  return pgm
}

/** An A4 sheet saying that page `number` is left out of the preview: it never touches the PDF. */
export async function skippedPageImage(number: number): Promise<PageImage> {
  const { createCanvas } = await canvasModule()
  const [width, height] = [PAGE_IMAGE_WIDTH, Math.round((PAGE_IMAGE_WIDTH * 842) / 595)]
  const canvas = createCanvas(width, height)
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  context.strokeStyle = '#b0b0b0'
  context.lineWidth = 4
  context.strokeRect(40, 40, width - 80, height - 80)
  context.fillStyle = '#333333'
  context.font = '40px sans-serif'
  const lines = linesOf(context, skippedPageNotice(number), width - 240)
  lines.forEach((line, i) => context.fillText(line, 120, height / 2 - (lines.length * 56) / 2 + i * 56))
  return { bytes: new Uint8Array(await canvas.encode('webp', 80)), width, height }
}

/** Control characters and the search's highlight markers never reach the index. */
export const cleanText = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\ue000\ue001]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
    .slice(0, MAX_TEXT_CHARS)

export interface RenderedPage extends PageImage {
  /** The page's text layer, cleaned. */
  layer: string
  /**
   * The page drawn as grey PGM (greyPgm) when its layer is too thin to index (a scan) and it was drawn whole: to be read
   * by OCR; null otherwise.
   */
  scan: Uint8Array<ArrayBuffer> | null
}

/** pdf.js and the canvas compiled: the render process calls it before it says it is ready. */
export async function loadRenderer() {
  await Promise.all([unpdfModule(), canvasModule()])
}

/**
 * A bare scan's page (scan-picture.ts) drawn as pdf.js would draw it, on a canvas of the same size: white, and the
 * picture at its place, decoded by the canvas's native decoders. Undefined when its JPEG does not decode: pdf.js then
 * draws the page.
 */
export async function drawScanPicture(scan: ScanPicture, width: number, height: number, scale: number): Promise<Canvas | undefined> {
  const { createCanvas, loadImage, ImageData } = await canvasModule()
  let source: Parameters<Context['drawImage']>[0]
  if (scan.picture.type === 'jpeg') {
    const image = await loadImage(Buffer.from(scan.picture.bytes.buffer, scan.picture.bytes.byteOffset, scan.picture.bytes.length)).catch(
      () => undefined,
    )
    if (!image || image.width === 0 || image.height === 0) return undefined
    source = image
  } else {
    const { width: w, height: h, channels, samples } = scan.picture
    const rgba = new Uint8ClampedArray(w * h * 4)
    if (channels === 3)
      for (let i = 0, j = 0; j < rgba.length; i += 3, j += 4) {
        rgba[j] = samples[i]!
        rgba[j + 1] = samples[i + 1]!
        rgba[j + 2] = samples[i + 2]!
        rgba[j + 3] = 255
      }
    else
      for (let i = 0, j = 0; j < rgba.length; i++, j += 4) {
        rgba[j] = rgba[j + 1] = rgba[j + 2] = samples[i]!
        rgba[j + 3] = 255
      }
    const picture = createCanvas(w, h)
    picture.getContext('2d').putImageData(new ImageData(rgba, w, h), 0, 0)
    source = picture
  }
  const canvas = createCanvas(width, height) as Canvas
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  context.imageSmoothingQuality = 'high'
  const { left, top, width: w, height: h } = scan.at
  context.drawImage(source, left * scale, top * scale, w * scale, h * scale)
  return canvas
}

export interface OpenLetter {
  /** Its pages, of which the first MAX_PAGE_IMAGES are drawn. */
  pages: number
  /** Page `number`'s text layer, cleaned (reading it decodes no picture). */
  layer(number: number): Promise<string>
  /** Page `number` drawn whole or without its large pictures; `layer` decides whether it goes to OCR. */
  draw(number: number, mode: 'full' | 'light', layer: string): Promise<RenderedPage>
  close(): Promise<void>
}

/** A letter opened with pdf.js; the document without large pictures is opened only when a page needs it. */
export async function openLetter(pdf: Uint8Array): Promise<OpenLetter> {
  const { getDocumentProxy, createIsomorphicCanvasFactory } = await unpdfModule()
  const { createCanvas } = await canvasModule()
  // Gives pdf.js the canvas's DOMMatrix, Path2D and ImageData (as unpdf's renderPageAsImage does before drawing).
  await createIsomorphicCanvasFactory(canvasModule)
  type Proxy = Awaited<ReturnType<typeof getDocumentProxy>>
  // A copy each time: pdf.js may take the buffer it is given.
  const open = (options: typeof PDFJS_DOCUMENT_OPTIONS | typeof PDFJS_LIGHT_OPTIONS) =>
    getDocumentProxy(new Uint8Array(pdf), { ...options })
  const whole = await open(PDFJS_DOCUMENT_OPTIONS)
  let light: Promise<Proxy> | undefined
  // The same PDF parsed by pdf-lib, only once a page to be read by OCR needs it (scanPage).
  let parsed: ReturnType<Awaited<ReturnType<typeof scanModule>>['parseScans']> | undefined
  /** Page `number` drawn on a canvas of its own, on white (as pdf.js draws a page), at pageScale. */
  const drawn = async (proxy: Proxy, number: number, scan = false) => {
    const page = await proxy.getPage(number)
    const { width, height } = page.getViewport({ scale: 1 })
    const viewport = page.getViewport({ scale: pageScale(width, height) })
    const [canvasWidth, canvasHeight] = [Math.floor(viewport.width), Math.floor(viewport.height)]
    // A bare scan drawn from its own picture; should that fail in any way, pdf.js draws the page whole as before.
    const picture = scan
      ? await scanPage(number)
          .then((bare) => bare && drawScanPicture(bare, canvasWidth, canvasHeight, viewport.scale))
          .catch(() => undefined)
      : undefined
    if (picture) return picture
    const canvas = createCanvas(canvasWidth, canvasHeight) as Canvas
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: canvas.getContext('2d') as never, viewport }).promise
    page.cleanup()
    return canvas
  }
  /** Page `number` as a bare scan (scan-picture.ts), or null: pdf.js draws it. */
  const scanPage = async (number: number) => {
    const { parseScans, scanPicture } = await scanModule()
    parsed ??= parseScans(pdf)
    const doc = await parsed
    return doc && scanPicture(doc, number - 1)
  }
  return {
    pages: whole.numPages,
    async layer(number) {
      const content = await (await whole.getPage(number)).getTextContent()
      return cleanText(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''))
    },
    async draw(number, mode, layer) {
      if (mode === 'light')
        return { ...(await toWebp(await drawn(await (light ??= open(PDFJS_LIGHT_OPTIONS)), number), LIGHT_PAGE_NOTICE)), layer, scan: null }
      const thin = (layer.match(/\p{L}/gu)?.length ?? 0) < MIN_LAYER_LETTERS
      const canvas = await drawn(whole, number, thin)
      // Only a scan is kept for OCR, before the WebP's notice could touch it.
      const scan = thin ? greyPgm(canvas) : null
      return { ...(await toWebp(canvas)), layer, scan }
    },
    async close() {
      await Promise.all([
        whole.destroy(),
        light?.then(
          (proxy) => proxy.destroy(),
          () => undefined,
        ),
      ])
    },
  }
}

/** The first MAX_PAGE_IMAGES pages of a letter, each drawn whole and its text layer read, in this process (no limit: tests). */
export async function renderPages(pdf: Uint8Array): Promise<RenderedPage[]> {
  const letter = await openLetter(pdf)
  try {
    const pages: RenderedPage[] = []
    for (let number = 1; number <= Math.min(letter.pages, MAX_PAGE_IMAGES); number++)
      pages.push(await letter.draw(number, 'full', await letter.layer(number)))
    return pages
  } finally {
    await letter.close()
  }
}
