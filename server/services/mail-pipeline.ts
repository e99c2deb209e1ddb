// What happens to a letter after it arrives (issue 14), as a durable background job queued in the
// transaction that inserts the letter (services/ingest.ts, the seed): each page rendered to a WebP image
// ~1240 px wide (≤ 200 KB) stored beside the PDF, the text read from the PDF's text layer or, for a page
// without one, by French OCR, the deadline found in that text. The images are written first, then their
// rows and the letter's text in one transaction with the job's completion: a failure leaves no row and
// removes the files, and the letter stays readable as it was (pageImages 0, not searchable).
import { findDeadline } from '../contract/rules/deadlines.ts'
import { enqueueJob, enqueueJobs } from '../db/repositories/jobs.ts'
import { findLetterForPipeline, saveLetterPipelineResult } from '../db/repositories/mail-pipeline.ts'
import type { Db } from '../db/schema.ts'
import type { JobHandler } from './jobs.ts'
import type { Ocr } from './ocr.ts'
import { storeWithRecord, type Storage } from './storage.ts'

// unpdf (pdf.js) and the canvas are loaded at the first letter, not when the server starts (issue 13).
const canvasModule = () => import('@napi-rs/canvas')
const unpdfModule = () => import('unpdf')

// pdf.js 5 moves font data with ArrayBuffer.prototype.transferToFixedLength, which Node 20 lacks: without
// it the text of a page is silently left out of its image and the next page of the document never renders.
// structuredClone with a transfer detaches the buffer just as the real method does.
const buffers = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (length?: number) => ArrayBuffer }
buffers.transferToFixedLength ??= function transferToFixedLength(this: ArrayBuffer, length?: number) {
  const moved = structuredClone(this, { transfer: [this] })
  if (length === undefined || length === moved.byteLength) return moved
  const resized = new ArrayBuffer(length)
  new Uint8Array(resized).set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)))
  return resized
}

export const LETTER_JOB = 'letter-pipeline'
export const PAGE_IMAGE_WIDTH = 1240
export const MAX_PAGE_IMAGE_BYTES = 200 * 1024
/** Pages rendered at most per letter (a scan of more pages keeps its PDF; the viewer shows these). */
export const MAX_PAGE_IMAGES = 50
/** The text kept per letter: far beyond a letter, far below PostgreSQL's 1 MB tsvector limit. */
const MAX_TEXT_CHARS = 200_000

/** Queues the pipeline of a letter; called in the transaction that inserts it. */
export function enqueueLetterPipeline(db: Db, documentId: number) {
  return enqueueJob(db, LETTER_JOB, { documentId })
}

/** The same for several letters, in one statement. */
export function enqueueLetterPipelines(db: Db, documentIds: number[]) {
  return enqueueJobs(db, LETTER_JOB, documentIds.map((documentId) => ({ documentId })))
}

export interface PageImage {
  bytes: Uint8Array
  width: number
  height: number
}

/** A PNG page as WebP of at most MAX_PAGE_IMAGE_BYTES: lower quality first, then smaller. */
export async function toWebp(png: Uint8Array): Promise<PageImage> {
  const { createCanvas, loadImage } = await canvasModule()
  const image = await loadImage(Buffer.from(png))
  let width = image.width
  let height = image.height
  for (;;) {
    const canvas = createCanvas(width, height)
    const context = canvas.getContext('2d')
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, width, height)
    context.drawImage(image, 0, 0, width, height)
    for (const quality of [80, 60, 40]) {
      const bytes = await canvas.encode('webp', quality)
      if (bytes.length <= MAX_PAGE_IMAGE_BYTES) return { bytes, width, height }
    }
    width = Math.round(width * 0.8)
    height = Math.round(height * 0.8)
  }
}

/** Control characters and the search's highlight markers never reach the index. */
export const cleanText = (text: string) => text
  .replace(/[\u0000-\u0008\u000b-\u001f\u007f\ue000\ue001]/g, ' ')
  .replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim().slice(0, MAX_TEXT_CHARS)

/** Pages whose text layer holds fewer letters than this are read by OCR (a scan with a stray stamp). */
const MIN_LAYER_LETTERS = 12

export interface RenderedLetter {
  pages: PageImage[]
  /** The letter's text (layer or OCR), null when nothing could be read. */
  text: string | null
  ocrPages: number
}

export async function renderLetter(pdf: Uint8Array, ocr: Ocr): Promise<RenderedLetter> {
  const { extractText, getDocumentProxy, renderPageAsImage } = await unpdfModule()
  // A copy: pdf.js may take the buffer it is given.
  const proxy = await getDocumentProxy(new Uint8Array(pdf), { verbosity: 0 })
  try {
    const { text: layer } = await extractText(proxy, { mergePages: false })
    const pages: PageImage[] = []
    const texts: string[] = []
    let ocrPages = 0
    const count = Math.min(proxy.numPages, MAX_PAGE_IMAGES)
    for (let page = 1; page <= count; page++) {
      const png = new Uint8Array(await renderPageAsImage(proxy, page, { width: PAGE_IMAGE_WIDTH, canvasImport: canvasModule }))
      pages.push(await toWebp(png))
      const own = cleanText(layer[page - 1] ?? '')
      if ((own.match(/\p{L}/gu)?.length ?? 0) >= MIN_LAYER_LETTERS) {
        texts.push(own)
      } else {
        ocrPages++
        const read = await ocr.read(png)
        if (read) texts.push(cleanText(read))
      }
    }
    const text = cleanText(texts.join('\n\n'))
    return { pages, text: text || null, ocrPages }
  } finally {
    await proxy.destroy()
  }
}

export interface PipelineDeps {
  db: Db
  storage: Storage
  ocr: Ocr
}

/** The job: render, read, find the deadline, then store the images and write everything at once. */
export function letterPipelineJob({ db, storage, ocr }: PipelineDeps): JobHandler {
  return async ({ job, finish }) => {
    const { documentId } = job.payload as { documentId: number }
    const letter = await findLetterForPipeline(db, documentId)
    const pdf = letter ? await storage.get(letter.file_key) : null
    // The letter or its file is gone (a letter is never removed, but a row may be fixed by hand): nothing to do.
    if (!letter || !pdf) return void (await finish(async () => undefined))
    const rendered = await renderLetter(pdf, ocr)
    const deadline = rendered.text ? findDeadline(rendered.text, letter.received_at) : null
    const suffix = Math.random().toString(36).slice(2, 8)
    // Beside the PDF: documents/2026-11/<uuid>.pdf → documents/2026-11/<uuid>-p1-<suffix>.webp
    const files = rendered.pages.map((page, i) => ({ key: `${letter.file_key.replace(/\.pdf$/, '')}-p${i + 1}-${suffix}.webp`, bytes: page.bytes }))
    await storeWithRecord(storage, files, () => finish((trx) => saveLetterPipelineResult(trx, documentId, {
      pages: rendered.pages.map((page, i) => ({ fileKey: files[i]!.key, contentType: 'image/webp', width: page.width, height: page.height, bytes: page.bytes.length })),
      text: rendered.text,
      deadline,
    })))
  }
}
