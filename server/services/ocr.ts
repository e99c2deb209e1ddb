// French OCR (mail pipeline): tesseract.js with the French data of @tesseract.js-data/fra, read
// from node_modules (nothing is downloaded at run time). One tesseract worker per process (a thread of tesseract.js's
// own, below the API's priority), created on the first scan without a text layer, terminated when the server closes, or
// when a page's reading is given up (its signal: the page's time limit, the server closing), since tesseract cannot stop
// a recognition: the next scan gets a new worker.
import { createRequire } from 'node:module'
import type { Worker } from 'tesseract.js'

export interface Ocr {
  /**
   * The text of a page image (PGM as the render process sends it, PNG, JPEG: what Leptonica reads), or null when OCR
   * could not read it (too unsure). Rejects at once with the signal's reason when `signal` aborts, the recognition ended.
   */
  read(image: Uint8Array, signal?: AbortSignal): Promise<string | null>
  close(): Promise<void>
}

/** Below this mean confidence (0–100) the page is taken as unreadable rather than indexed as noise. */
export const MIN_OCR_CONFIDENCE = 45
/** The OCR thread's scheduling priority (nice): customers' requests first when the processor is busy. */
const OCR_NICENESS = 10

/**
 * tesseract.js's own worker script, run by a module that first lowers its thread's priority (on Linux a nice value
 * belongs to a thread, so the API's threads keep theirs). A data: URL, which Node's Worker takes as tesseract passes it.
 */
function lowPriorityWorker(require: NodeJS.Require): URL {
  const script = JSON.stringify(require.resolve('tesseract.js/src/worker-script/node/index.js'))
  return new URL(
    `data:text/javascript,${encodeURIComponent(`import { setPriority } from 'node:os'
import { createRequire } from 'node:module'
try { setPriority(${OCR_NICENESS}) } catch {}
createRequire(${script})(${script})`)}`,
  )
}

export function tesseractOcr(): Ocr {
  let worker: Promise<Worker> | null = null
  const require = createRequire(import.meta.url)
  const start = () => {
    // tesseract.js itself is loaded then too, not at start.
    worker ??= import('tesseract.js').then(({ createWorker }) =>
      createWorker('fra', 1, {
        langPath: (require('@tesseract.js-data/fra') as { langPath: string }).langPath,
        gzip: true,
        cacheMethod: 'none',
        // Worker's own type: tesseract.js hands it to `new Worker` as it is.
        workerPath: lowPriorityWorker(require) as unknown as string,
      }),
    )
    // A failed start is not kept: the next letter tries again.
    worker.catch(() => {
      worker = null
    })
    return worker
  }
  const stop = async () => {
    const running = worker
    worker = null
    if (running) await (await running.catch(() => null))?.terminate()
  }
  return {
    async read(image, signal) {
      signal?.throwIfAborted()
      const running = start()
      /** Settles once the recognition is handed to the worker: tesseract.js must not be ended before (it then never answers). */
      let handed: Promise<void> = Promise.resolve()
      const recognized = running.then((w) => {
        signal?.throwIfAborted()
        const job = w.recognize(Buffer.from(image))
        handed = new Promise((resolve) => setImmediate(resolve))
        return job
      })
      let onAbort!: () => void
      const given = new Promise<never>((_, reject) => {
        onAbort = () => {
          // Only the worker this reading uses: a later one may already be reading the next page.
          if (worker === running) worker = null
          void running.then(
            async (w) => {
              await handed
              await w.terminate()
            },
            () => undefined,
          )
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      })
      try {
        const { data } = await Promise.race([recognized, given])
        const text = data.text.trim()
        if (!text || data.confidence < MIN_OCR_CONFIDENCE || !/\p{L}{3}/u.test(text)) return null
        return text
      } finally {
        signal?.removeEventListener('abort', onAbort)
      }
    },
    close: stop,
  }
}
