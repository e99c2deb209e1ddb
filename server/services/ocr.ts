// French OCR (mail pipeline, issue 14): tesseract.js with the French data of @tesseract.js-data/fra, read
// from node_modules (nothing is downloaded at run time). One tesseract worker per process, created on
// the first scan without a text layer, terminated when the server closes.
import { createRequire } from 'node:module'
import type { Worker } from 'tesseract.js'

export interface Ocr {
  /** The text of a page image (PNG), or null when OCR could not read it (too unsure). */
  read(image: Uint8Array): Promise<string | null>
  close(): Promise<void>
}

/** Below this mean confidence (0–100) the page is taken as unreadable rather than indexed as noise. */
export const MIN_OCR_CONFIDENCE = 45

export function tesseractOcr(): Ocr {
  let worker: Promise<Worker> | null = null
  const require = createRequire(import.meta.url)
  const start = () => {
    // tesseract.js itself is loaded then too, not at start.
    worker ??= import('tesseract.js').then(({ createWorker }) => createWorker('fra', 1, { langPath: (require('@tesseract.js-data/fra') as { langPath: string }).langPath, gzip: true, cacheMethod: 'none' }))
    // A failed start is not kept: the next letter tries again.
    worker.catch(() => { worker = null })
    return worker
  }
  return {
    async read(image) {
      const { data } = await (await start()).recognize(Buffer.from(image))
      const text = data.text.trim()
      if (!text || data.confidence < MIN_OCR_CONFIDENCE || !/\p{L}{3}/u.test(text)) return null
      return text
    },
    async close() {
      const running = worker
      worker = null
      if (running) await (await running.catch(() => null))?.terminate()
    },
  }
}
