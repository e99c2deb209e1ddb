// checkFile's PDF half (pdf-check.ts) runs on a worker thread. pdf-lib parses a PDF all at once, about 20 µs an object:
// a 10 MB PDF of small objects held the event loop for 10 s, compressed or not (found while fixing the PDF bomb of the
// review). On the worker the server goes on answering; a check that runs past its time (PDF_CHECK_TIMEOUT_MS) or past
// the worker's heap ends the worker, and the file is refused as too heavy to read. One worker per process, started
// with the first PDF to check and kept (pdf-lib compiled once), one check at a time; it never keeps a process alive.
import { Worker, type ResourceLimits } from 'node:worker_threads'

export type PdfReading = { pages: number } | { problem: 'unreadable' | 'active' | 'heavy' }

export const PDF_CHECK_TIMEOUT_MS = 5_000
const RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 }

interface Check { bytes: Uint8Array; timeoutMs: number; resolve(reading: PdfReading): void; reject(error: unknown): void }

const queue: Check[] = []
let running = false
let current: { worker: Worker; ready: Promise<void> } | undefined

/** readPdf's answer for `bytes`, from the worker; 'heavy' when it takes longer than `timeoutMs` or more memory than the worker has. */
export function readPdfOffThread(bytes: Uint8Array, timeoutMs = PDF_CHECK_TIMEOUT_MS): Promise<PdfReading> {
  return new Promise((resolve, reject) => {
    queue.push({ bytes, timeoutMs, resolve, reject })
    void next()
  })
}

declare const __PDF_CHECK_WORKER__: string | undefined

function startWorker(): { worker: Worker; ready: Promise<void> } {
  const worker = typeof __PDF_CHECK_WORKER__ === 'string'
    // The built server (esbuild.server.mjs): the worker is an entry of its own beside server.mjs.
    ? new Worker(new URL(__PDF_CHECK_WORKER__, import.meta.url), { resourceLimits: RESOURCE_LIMITS })
    // From the sources (tsx): Node 20 does not apply --import hooks to a worker's entry, so the worker registers tsx first.
    : new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register();
        return import(${JSON.stringify(new URL('./pdf-check-worker.ts', import.meta.url).href)}) })`, { eval: true, resourceLimits: RESOURCE_LIMITS })
  worker.unref()
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve())
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`le fil de vérification des PDF s’est arrêté au démarrage (code ${code})`)))
  })
  ready.catch(() => undefined)
  return { worker, ready }
}

async function next(): Promise<void> {
  if (running) return
  const check = queue.shift()
  if (!check) return
  running = true
  const thread = current ??= startWorker()
  const ended = (drop: boolean) => {
    if (drop) {
      if (current === thread) current = undefined
      void thread.worker.terminate()
    }
    running = false
    void next()
  }
  try {
    await thread.ready
  } catch (error) {
    check.reject(error)
    return ended(true)
  }
  const { worker } = thread
  const finish = (drop: boolean, settle: () => void) => {
    clearTimeout(timer)
    worker.off('message', onMessage).off('error', onError).off('exit', onExit)
    settle()
    ended(drop)
  }
  const onMessage = (reading: PdfReading) => finish(false, () => check.resolve(reading))
  const onError = (error: Error & { code?: string }) =>
    finish(true, () => (error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? check.resolve({ problem: 'heavy' }) : check.reject(error)))
  const onExit = (code: number) => finish(true, () => check.reject(new Error(`le fil de vérification des PDF s’est arrêté (code ${code})`)))
  const timer = setTimeout(() => finish(true, () => check.resolve({ problem: 'heavy' })), check.timeoutMs)
  worker.on('message', onMessage).on('error', onError).on('exit', onExit)
  worker.postMessage(check.bytes)
}
