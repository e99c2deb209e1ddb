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
import { cleanText, type PageImage } from './letter-render.ts'
import { letterRenderTimeoutMs, renderPagesOffThread } from './letter-render-thread.ts'
import type { Ocr } from './ocr.ts'
import { storeWithRecord, type Storage } from './storage.ts'

export const LETTER_JOB = 'letter-pipeline'

/** Queues the pipeline of a letter; called in the transaction that inserts it. */
export function enqueueLetterPipeline(db: Db, documentId: number) {
  return enqueueJob(db, LETTER_JOB, { documentId })
}

/** The same for several letters, in one statement. */
export function enqueueLetterPipelines(db: Db, documentIds: number[]) {
  return enqueueJobs(db, LETTER_JOB, documentIds.map((documentId) => ({ documentId })))
}

export interface RenderedLetter {
  pages: PageImage[]
  /** The letter's text (layer or OCR), null when nothing could be read. */
  text: string | null
  ocrPages: number
}

/**
 * The pages drawn and their layers read on the render thread; the scans read by OCR (tesseract's own thread). When
 * `signal` aborts (the server closing) the drawing is ended at once, and no further page is read.
 */
export async function renderLetter(pdf: Uint8Array, ocr: Ocr, timeoutMs: number, signal?: AbortSignal): Promise<RenderedLetter> {
  const rendered = await renderPagesOffThread(pdf, timeoutMs, signal)
  const texts: string[] = []
  let ocrPages = 0
  for (const page of rendered) {
    if (!page.scan) {
      texts.push(page.layer)
      continue
    }
    signal?.throwIfAborted()
    ocrPages++
    const read = await ocr.read(page.scan)
    if (read) texts.push(cleanText(read))
  }
  const text = cleanText(texts.join('\n\n'))
  return { pages: rendered.map(({ bytes, width, height }) => ({ bytes, width, height })), text: text || null, ocrPages }
}

export interface PipelineDeps {
  db: Db
  storage: Storage
  ocr: Ocr
  /** A letter's rendering at most, instead of letterRenderTimeoutMs of its pages (letter-render-thread.ts); past it the attempt fails. */
  renderTimeoutMs?: number
}

/** The job: render, read, find the deadline, then store the images and write everything at once. */
export function letterPipelineJob({ db, storage, ocr, renderTimeoutMs }: PipelineDeps): JobHandler {
  return async ({ job, finish, signal }) => {
    const { documentId } = job.payload as { documentId: number }
    const letter = await findLetterForPipeline(db, documentId)
    const pdf = letter ? await storage.get(letter.file_key) : null
    // The letter or its file is gone (a letter is never removed, but a row may be fixed by hand): nothing to do.
    if (!letter || !pdf) return void (await finish(async () => undefined))
    const rendered = await renderLetter(pdf, ocr, renderTimeoutMs ?? letterRenderTimeoutMs(letter.pages), signal)
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
