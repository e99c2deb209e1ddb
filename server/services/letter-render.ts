// A letter's pages drawn and their text layer read (mail pipeline, issue 14), on the render thread
// (letter-render-worker.ts, started by letter-render-thread.ts), never on the thread that answers HTTP: pdf.js (unpdf) on
// @napi-rs/canvas, each page to a WebP image within a pixel bound, and its text layer; a page whose layer is too thin
// (a scan) comes back with its picture too, for OCR.

// unpdf (pdf.js) and the canvas are loaded by the thread at its start (loadRenderer), not when the server starts (issue 13).
const canvasModule = () => import('@napi-rs/canvas')
const unpdfModule = () => {
  supplyTransferToFixedLength()
  return import('unpdf')
}

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
/**
 * How every customer PDF is opened with pdf.js (getDocumentProxy; renderPageAsImage draws from that same document).
 * isEvalSupported false: pdf.js then never builds JavaScript functions (`new Function`) from a PDF's PostScript
 * calculator functions (type 4, in shadings and colour spaces) and interprets them instead, a little slower: code made
 * from what a customer's file says runs in no case. unpdf 1.7 passes it by default too; said here so that no update of
 * unpdf's defaults, nor a direct call to pdf.js, takes it back.
 */
export const PDFJS_DOCUMENT_OPTIONS = { verbosity: 0, maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS, isEvalSupported: false } as const
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

/** A PNG page as WebP of at most MAX_PAGE_IMAGE_BYTES, neither side over WebP's limit: lower quality first, then smaller. */
export async function toWebp(png: Uint8Array): Promise<PageImage> {
  const { createCanvas, loadImage } = await canvasModule()
  const image = await loadImage(Buffer.from(png))
  const fit = Math.min(1, MAX_PAGE_IMAGE_SIDE / image.width, MAX_PAGE_IMAGE_SIDE / image.height)
  let width = Math.max(1, Math.floor(image.width * fit))
  let height = Math.max(1, Math.floor(image.height * fit))
  for (;;) {
    const canvas = createCanvas(width, height)
    const context = canvas.getContext('2d')
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, width, height)
    context.drawImage(image, 0, 0, width, height)
    for (const quality of [80, 60, 40]) {
      const bytes = await canvas.encode('webp', quality)
      // A copy of its own: the image is moved to the server's thread, which cannot take a slice of a shared buffer.
      if (bytes.length <= MAX_PAGE_IMAGE_BYTES) return { bytes: new Uint8Array(bytes), width, height }
    }
    width = Math.max(1, Math.round(width * 0.8))
    height = Math.max(1, Math.round(height * 0.8))
  }
}

/** Control characters and the search's highlight markers never reach the index. */
export const cleanText = (text: string) => text
  .replace(/[\u0000-\u0008\u000b-\u001f\u007f\ue000\ue001]/g, ' ')
  .replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim().slice(0, MAX_TEXT_CHARS)

export interface RenderedPage extends PageImage {
  /** The page's text layer, cleaned. */
  layer: string
  /** The page drawn as PNG when its layer is too thin to index (a scan): to be read by OCR; null otherwise. */
  scan: Uint8Array<ArrayBuffer> | null
}

/** pdf.js and the canvas compiled: the render thread calls it before it says it is ready. */
export async function loadRenderer() {
  await Promise.all([unpdfModule(), canvasModule()])
}

/** The first MAX_PAGE_IMAGES pages of a letter: each drawn and its text layer read (no other page is read). */
export async function renderPages(pdf: Uint8Array): Promise<RenderedPage[]> {
  const { getDocumentProxy, renderPageAsImage } = await unpdfModule()
  // A copy: pdf.js may take the buffer it is given.
  const proxy = await getDocumentProxy(new Uint8Array(pdf), { ...PDFJS_DOCUMENT_OPTIONS })
  try {
    const pages: RenderedPage[] = []
    const count = Math.min(proxy.numPages, MAX_PAGE_IMAGES)
    for (let number = 1; number <= count; number++) {
      const page = await proxy.getPage(number)
      const content = await page.getTextContent()
      const layer = cleanText(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''))
      const { width, height } = page.getViewport({ scale: 1 })
      const png = new Uint8Array(await renderPageAsImage(proxy, number, { scale: pageScale(width, height), canvasImport: canvasModule }))
      const thin = (layer.match(/\p{L}/gu)?.length ?? 0) < MIN_LAYER_LETTERS
      pages.push({ ...(await toWebp(png)), layer, scan: thin ? png : null })
    }
    return pages
  } finally {
    await proxy.destroy()
  }
}
