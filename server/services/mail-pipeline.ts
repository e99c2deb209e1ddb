// What happens to a letter after it arrives, as a durable background job queued in the
// transaction that inserts the letter (services/ingest.ts, the seed): each page rendered to a WebP image
// ~1240 px wide (≤ 200 KB) stored beside the PDF, the text read from the PDF's text layer or, for a page
// without one, by French OCR, the deadline found in that text. The images are written first, then their
// rows and the letter's text in one transaction with the job's completion: a failure leaves no row and
// removes the files, and the letter stays readable as it was (pageImages 0, not searchable).
import { findDeadline } from '../contract/rules/deadlines.ts'
import { enqueueJob, enqueueJobs } from '../db/repositories/jobs.ts'
import { findLetterForPipeline, saveLetterPipelineResult } from '../db/repositories/mail-pipeline.ts'
import { findScanForReading, listSuggestionCandidates, saveScanReading } from '../db/repositories/mail-scans.ts'
import type { Db } from '../db/schema.ts'
import { PermanentJobError, type JobHandler } from './jobs.ts'
import { cleanText, type PageImage, type PageMode } from './letter-render.ts'
import { letterRenderTimeoutMs, renderLetterPages, UnreadableLetterError, type DrawnPage } from './letter-render-process.ts'
import type { Ocr } from './ocr.ts'
import { suggestOrder, suggestSender } from './order-suggestion.ts'
import { storeWithRecord, type Storage } from './storage.ts'

export const LETTER_JOB = 'letter-pipeline'

/**
 * A page's OCR at most: a clean page takes 1 to 3 s on two cores, a noisy one 17 s. Past it the page is left unread
 * (its image is kept) and tesseract's worker is ended, the next scan getting a new one.
 */
export const OCR_PAGE_TIMEOUT_MS = 10_000

/** Queues the pipeline of a letter; called in the transaction that inserts it. */
export function enqueueLetterPipeline(db: Db, documentId: number) {
  return enqueueJob(db, LETTER_JOB, { documentId })
}

/**
 * Queues the reading of a mail room's scan (the same work as a letter's: pages, text; then the suggested order and
 * sender); called in the transaction that inserts the scan.
 */
export function enqueueScanReading(db: Db, scanId: number) {
  return enqueueJob(db, LETTER_JOB, { scanId })
}

/** The same for several letters, in one statement. */
export function enqueueLetterPipelines(db: Db, documentIds: number[]) {
  return enqueueJobs(
    db,
    LETTER_JOB,
    documentIds.map((documentId) => ({ documentId })),
  )
}

export interface RenderedLetter {
  pages: (PageImage & { mode: PageMode; reason?: string })[]
  /** The letter's text (layer or OCR), null when nothing could be read. */
  text: string | null
  /** Each page's text, page 1 first (null for a page left unread): what the mail room's suggestion cites by page. */
  pageTexts: (string | null)[]
  ocrPages: number
  /** Scans whose OCR passed its time limit (their text left out). */
  ocrTimeouts: number[]
}

export interface PipelineLog {
  warn(details: object, message: string): void
}

export interface RenderLimits {
  /** The scans drawn and not yet read, at most (MAX_UNREAD_SCAN_BYTES). */
  maxUnreadScanBytes?: number
  /** The letter's rendering at most (letterRenderTimeoutMs of its pages): past it the pages not yet drawn are left out. */
  timeoutMs: number
  /** A page's layer or drawing at most (PAGE_RENDER_TIMEOUT_MS). */
  pageTimeoutMs?: number
  /** A page's OCR at most (OCR_PAGE_TIMEOUT_MS). */
  ocrPageTimeoutMs?: number
  signal?: AbortSignal
}

class OcrTimeout extends Error {}

/**
 * The scans drawn and not yet read by OCR, at most, in bytes: past it the next page is drawn once they are read. A scan
 * goes to OCR as grey PGM (2.2 MB for an A4 page, 20 MB for a page 16383 px tall), and OCR may be slower than the
 * drawing (a noisy page takes seconds): without a bound a 50-page letter would hold every page's picture in the API.
 */
export const MAX_UNREAD_SCAN_BYTES = 16 * 2 ** 20

/**
 * The scans of one letter, read by OCR one after another in the order they are drawn. `add` queues one; it returns a
 * promise when the scans not yet read pass `maxBytes`, settled once every queued scan is read (the drawing waits for
 * it). `read` never rejects: its failure is kept for `done`, and the scans after it are not read.
 */
export function scanQueue(read: (page: DrawnPage, scan: Uint8Array) => Promise<void>, maxBytes = MAX_UNREAD_SCAN_BYTES) {
  let reading: Promise<void> = Promise.resolve()
  let unread = 0
  let failure: { error: unknown } | null = null
  return {
    add(page: DrawnPage, scan: Uint8Array): Promise<void> | undefined {
      unread += scan.length
      reading = reading
        .then(() => (failure ? undefined : read(page, scan)))
        .catch((error: unknown) => {
          failure ??= { error }
        })
        .finally(() => {
          unread -= scan.length
        })
      return unread > maxBytes ? reading : undefined
    },
    /** Settles once every queued scan is read; rejects with the first reading's failure. */
    async done() {
      await reading
      if (failure) throw failure.error
    },
  }
}

/** `scan` read by `ocr` within `timeoutMs`; null past it. Rejects when `signal` aborts. */
async function readWithin(ocr: Ocr, scan: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<string | null | OcrTimeout> {
  const stop = new AbortController()
  const timer = setTimeout(() => stop.abort(new OcrTimeout(`OCR arrêté après ${timeoutMs} ms`)), timeoutMs)
  const onAbort = () => stop.abort(signal!.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await ocr.read(scan, stop.signal)
  } catch (error) {
    if (error instanceof OcrTimeout) return error
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * The pages drawn and their layers read in the render process, each within its limits (a page that passes one is
 * drawn without its large pictures, or left out); the scans read by OCR (tesseract's own thread), each as soon as it
 * is drawn and within OCR_PAGE_TIMEOUT_MS, the drawing waiting while the scans not yet read pass MAX_UNREAD_SCAN_BYTES
 * (scanQueue). When `signal` aborts (the server closing) the drawing is ended at once, and no further page is read.
 */
export async function renderLetter(
  pdf: Uint8Array,
  ocr: Ocr,
  { timeoutMs, pageTimeoutMs, ocrPageTimeoutMs = OCR_PAGE_TIMEOUT_MS, signal, maxUnreadScanBytes }: RenderLimits,
): Promise<RenderedLetter> {
  const texts: (string | null)[] = []
  const ocrTimeouts: number[] = []
  let ocrPages = 0
  const scans = scanQueue(async (page, scan) => {
    signal?.throwIfAborted()
    ocrPages++
    const text = await readWithin(ocr, scan, ocrPageTimeoutMs, signal)
    if (text instanceof OcrTimeout) ocrTimeouts.push(page.number)
    else texts[page.number - 1] = text && cleanText(text)
  }, maxUnreadScanBytes)
  const pages = await renderLetterPages(pdf, {
    timeoutMs,
    pageTimeoutMs,
    signal,
    onPage: (page) => {
      const scan = page.scan
      if (!scan) return void (texts[page.number - 1] = page.layer)
      // Read while the next page is drawn; the picture is let go once read.
      page.scan = null
      return scans.add(page, scan)
    },
  }).finally(() => scans.done().catch(() => undefined))
  await scans.done()
  const text = cleanText(texts.filter((t) => t).join('\n\n'))
  return {
    pages: pages.map(({ bytes, width, height, mode, reason }) => ({ bytes, width, height, mode, ...(reason ? { reason } : {}) })),
    text: text || null,
    pageTexts: Array.from({ length: pages.length }, (_, i) => texts[i] || null),
    ocrPages,
    ocrTimeouts,
  }
}

export interface PipelineDeps {
  db: Db
  storage: Storage
  ocr: Ocr
  /** The operators' log: pages drawn with less or left out, OCR given up. */
  log?: PipelineLog
  /** A letter's rendering at most, instead of letterRenderTimeoutMs of its pages (letter-render-process.ts). */
  renderTimeoutMs?: number
  /** A page's drawing at most, instead of PAGE_RENDER_TIMEOUT_MS. */
  pageTimeoutMs?: number
  /** A page's OCR at most, instead of OCR_PAGE_TIMEOUT_MS. */
  ocrPageTimeoutMs?: number
}

const MODE_NAMES: Record<PageMode, string> = { full: 'entière', light: 'sans ses grandes images', skip: 'omise (avis à sa place)' }

/** The page images of a letter or scan, as files beside its PDF and as the rows that describe them. */
function pageFiles(fileKey: string, rendered: RenderedLetter) {
  const suffix = Math.random().toString(36).slice(2, 8)
  // Beside the PDF: documents/2026-11/<uuid>.pdf → documents/2026-11/<uuid>-p1-<suffix>.webp
  const files = rendered.pages.map((page, i) => ({ key: `${fileKey.replace(/\.pdf$/, '')}-p${i + 1}-${suffix}.webp`, bytes: page.bytes }))
  const rows = rendered.pages.map((page, i) => ({
    fileKey: files[i]!.key,
    contentType: 'image/webp',
    width: page.width,
    height: page.height,
    bytes: page.bytes.length,
  }))
  return { files, rows }
}

/** The job: render, read, find the deadline, then store the images and write everything at once. */
export function letterPipelineJob(deps: PipelineDeps): JobHandler {
  const { db, storage, ocr, log, renderTimeoutMs, pageTimeoutMs, ocrPageTimeoutMs } = deps
  const readScan = scanReadingJob(deps)
  return async (context) => {
    const { job, finish, signal } = context
    if ('scanId' in (job.payload as object)) return readScan(context)
    const { documentId } = job.payload as { documentId: number }
    const letter = await findLetterForPipeline(db, documentId)
    const pdf = letter ? await storage.get(letter.file_key) : null
    // The letter or its file is gone (a letter is never removed, but a row may be fixed by hand): nothing to do.
    if (!letter || !pdf) return void (await finish(async () => undefined))
    let rendered: RenderedLetter
    try {
      rendered = await renderLetter(pdf, ocr, {
        timeoutMs: renderTimeoutMs ?? letterRenderTimeoutMs(letter.pages),
        pageTimeoutMs,
        ocrPageTimeoutMs,
        signal,
      })
    } catch (error) {
      // The same file would fail the same way at every attempt.
      if (error instanceof UnreadableLetterError) throw new PermanentJobError(error.message, { cause: error })
      throw error
    }
    const lessened = rendered.pages.flatMap((page, i) =>
      page.mode === 'full' ? [] : [{ page: i + 1, rendu: MODE_NAMES[page.mode], cause: page.reason }],
    )
    if (lessened.length)
      log?.warn(
        { documentId, pages: lessened },
        'aperçu du courrier allégé : pages dessinées sans leurs grandes images ou omises (le PDF reste entier)',
      )
    if (rendered.ocrTimeouts.length)
      log?.warn(
        { documentId, pages: rendered.ocrTimeouts, limiteMs: ocrPageTimeoutMs ?? OCR_PAGE_TIMEOUT_MS },
        'OCR abandonné sur des pages trop longues à lire : leur texte manque à la recherche',
      )
    const deadline = rendered.text ? findDeadline(rendered.text, letter.received_at) : null
    const { files, rows } = pageFiles(letter.file_key, rendered)
    await storeWithRecord(storage, files, () =>
      finish((trx) => saveLetterPipelineResult(trx, documentId, { pages: rows, text: rendered.text, deadline })),
    )
  }
}

/**
 * A mail room's scan read as a letter is (renderLetter), then given its suggested order and sender from its pages'
 * texts, so that the reason names the page. A scan that cannot be read (a file pdf.js refuses, or a failure at the
 * last attempt) still ends its reading, as failed: it waits « À vérifier » rather than never. A scan deleted or
 * published meanwhile keeps nothing of it.
 */
function scanReadingJob({ db, storage, ocr, log, renderTimeoutMs, pageTimeoutMs, ocrPageTimeoutMs }: PipelineDeps): JobHandler {
  return async ({ job, finish, signal }) => {
    const { scanId } = job.payload as { scanId: number }
    const scan = await findScanForReading(db, scanId)
    const pdf = scan?.state === 'waiting' ? await storage.get(scan.file_key) : null
    if (!scan || !pdf) return void (await finish(async () => undefined))
    let rendered: RenderedLetter | null = null
    try {
      rendered = await renderLetter(pdf, ocr, {
        timeoutMs: renderTimeoutMs ?? letterRenderTimeoutMs(scan.pages),
        pageTimeoutMs,
        ocrPageTimeoutMs,
        signal,
      })
    } catch (error) {
      if (signal.aborted || (!(error instanceof UnreadableLetterError) && job.attempts < job.maxAttempts)) throw error
      log?.warn({ scanId, err: error }, 'numérisation illisible : elle attend « À vérifier », sans texte ni aperçu')
    }
    const texts = rendered ? rendered.pageTexts.map((text) => text ?? '') : ['']
    const suggestion = suggestOrder(texts, await listSuggestionCandidates(db))
    const { files, rows } = rendered ? pageFiles(scan.file_key, rendered) : { files: [], rows: [] }
    const saved = await storeWithRecord(storage, files, () =>
      finish((trx) =>
        saveScanReading(trx, scanId, {
          pages: rows,
          text: rendered?.text ?? null,
          failed: rendered === null,
          suggestion: { orderId: suggestion.orderId, confidence: suggestion.confidence, reason: suggestion.reason },
          sender: rendered ? suggestSender(texts) : null,
        }),
      ),
    )
    if (!saved) await Promise.all(files.map((file) => storage.delete(file.key).catch(() => undefined)))
  }
}
