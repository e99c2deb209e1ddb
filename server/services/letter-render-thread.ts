// A letter's pages are drawn on a worker thread (letter-render-worker.ts, worker-thread.ts). pdf.js draws a page all at
// once: a 21 KB letter whose page inflates to 10 MB of drawing commands held the event loop for 21 s (82 KB: 103 s and
// 5.3 GB), and the API answered nothing meanwhile (found in review). On the thread the server goes on answering; a letter
// that takes longer than letterRenderTimeoutMs or more than the thread's heap ends the thread, and the job's attempt
// fails (retried, then given up: the letter stays readable as its PDF). One thread per process, started with the first
// letter and kept (pdf.js compiled once), one letter at a time.
import { MAX_PAGE_IMAGES, type RenderedPage } from './letter-render.ts'
import { ThreadOutOfMemoryError, ThreadTimeoutError, workerThread } from './worker-thread.ts'

/**
 * A letter's rendering at most: 20 s, and 2 s more per page drawn (a 50-page scan takes about 15 s on two cores, 25 s
 * when the machine is busy; it has 120 s). A one-page letter that takes pdf.js gigabytes is stopped after 22 s, a long
 * genuine letter is not given up on a busy machine; the whole stays well within a job's lease (jobs.ts, 5 min).
 */
export const letterRenderTimeoutMs = (pages: number) => 20_000 + 2_000 * Math.min(Math.max(1, pages), MAX_PAGE_IMAGES)
const HEAP_MB = 256

declare const __LETTER_RENDER_WORKER__: string | undefined

const thread = workerThread<Uint8Array, RenderedPage[]>({
  name: 'de rendu des courriers',
  entry: typeof __LETTER_RENDER_WORKER__ === 'string'
    // The built server (esbuild.server.mjs): the thread is an entry of its own beside server.mjs.
    ? { built: new URL(__LETTER_RENDER_WORKER__, import.meta.url) }
    : { source: new URL('./letter-render-worker.ts', import.meta.url) },
  resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 32 },
})

/**
 * renderPages's answer for `pdf`, from the render thread; an error past `timeoutMs` or the thread's heap, and at once
 * when `signal` aborts (the server closing: the thread is ended rather than waited for up to its time limit).
 */
export async function renderPagesOffThread(pdf: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<RenderedPage[]> {
  // A copy, moved to the thread.
  const bytes = new Uint8Array(pdf)
  try {
    return await thread.run(bytes, { timeoutMs, transfer: [bytes.buffer], signal })
  } catch (error) {
    if (error instanceof ThreadTimeoutError) throw new Error(`le rendu du courrier a dépassé ${(timeoutMs / 1000).toLocaleString('fr-FR')} s : fil de rendu arrêté`)
    if (error instanceof ThreadOutOfMemoryError) throw new Error(`le rendu du courrier a dépassé la mémoire de son fil (${HEAP_MB} Mo) : fil de rendu arrêté`)
    throw error
  }
}
