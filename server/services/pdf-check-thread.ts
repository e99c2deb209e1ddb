// checkFile's PDF half (pdf-check.ts) runs on a worker thread. pdf-lib parses a PDF all at once, about 20 µs an object:
// a 10 MB PDF of small objects held the event loop for 10 s, compressed or not (found while fixing the PDF bomb of the
// review). On the worker the server goes on answering; a check that runs past its time (PDF_CHECK_TIMEOUT_MS) or past
// the worker's heap ends the worker, and the file is refused as too heavy to read. One worker per process, started
// with the first PDF to check and kept (pdf-lib compiled once), one check at a time (worker-thread.ts).
import { ThreadOutOfMemoryError, ThreadTimeoutError, workerThread } from './worker-thread.ts'

export type PdfReading = { pages: number } | { problem: 'unreadable' | 'active' | 'heavy' | 'long' }

export const PDF_CHECK_TIMEOUT_MS = 5_000

declare const __PDF_CHECK_WORKER__: string | undefined

const thread = workerThread<Uint8Array, PdfReading>({
  name: 'de vérification des PDF',
  entry:
    typeof __PDF_CHECK_WORKER__ === 'string'
      ? // The built server (esbuild.server.mjs): the worker is an entry of its own beside server.mjs.
        { built: new URL(__PDF_CHECK_WORKER__, import.meta.url) }
      : { source: new URL('./pdf-check-worker.ts', import.meta.url) },
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
})

/** readPdf's answer for `bytes`, from the worker; 'heavy' when it takes longer than `timeoutMs` or more memory than the worker has. */
export async function readPdfOffThread(bytes: Uint8Array, timeoutMs = PDF_CHECK_TIMEOUT_MS): Promise<PdfReading> {
  try {
    return await thread.run(bytes, { timeoutMs })
  } catch (error) {
    if (error instanceof ThreadTimeoutError || error instanceof ThreadOutOfMemoryError) return { problem: 'heavy' }
    throw error
  }
}
