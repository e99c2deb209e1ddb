// A letter's pages are drawn in a child process (letter-render-child.ts), never in the process that answers HTTP. pdf.js
// decodes a page's pictures, and the canvas draws, outside the JavaScript heap, which is all a worker thread's limits
// bound: a 1.2 MB PDF of eight 49-million-pixel pictures on one page takes 3.8 GB, a 1 KB JBIG2 picture declaring
// 60000² pixels 5 GB. A process can be bounded as a whole: the child kills itself past RENDER_MEMORY_CEILING_BYTES of
// resident memory (its own watch thread), and the API ends it past a page's time.
//
// The API asks for one page at a time (its text layer, then its drawing), so it knows which page passed a limit: that
// page is drawn again, in a new process, without its large pictures ('light'), and if that passes a limit too, an A4
// notice takes its place ('skip'). The letter is published either way, whole as its PDF. Only a letter pdf.js cannot
// open at all fails, for good (UnreadableLetterError: no retry would open it). One process per API process, started
// with the first letter, kept for the next ones (pdf.js compiled once), one letter at a time; ended after a minute idle.
import { fork, type ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import { MAX_PAGE_IMAGES, type PageMode, type RenderedPage } from './letter-render.ts'

export type RenderRequest =
  | { type: 'open'; pdf: Uint8Array }
  | { type: 'layer'; number: number }
  | { type: 'draw'; number: number; mode: PageMode; layer: string }
  | { type: 'close' }

export type RenderReply = (
  | { type: 'ready' }
  | { type: 'opened'; pages: number }
  | { type: 'layer'; layer: string }
  | { type: 'drawn'; page: RenderedPage }
  | { type: 'closed' /** Its resident memory now, in bytes. */; rss: number }
  | { type: 'failed'; message: string }
) & { /** The render process's peak resident memory so far, in bytes. */ peakRss: number }

/**
 * The render process's resident memory at most. pdf.js, the canvas and Node take about 110 MB; a page with a 600 dpi
 * A4 colour scan (35 million pixels) peaks at about 370 MB; two such pictures on one page at 570 MB.
 */
export const RENDER_MEMORY_CEILING_BYTES = 450 * 2 ** 20
/** Its JavaScript heap (pdf.js's objects; the pictures and the canvas are outside it). */
const HEAP_MB = 256
/** A page's text layer, or its drawing, at most; a page past it is left out. */
export const PAGE_RENDER_TIMEOUT_MS = 20_000
/**
 * A letter's rendering at most: 20 s, and 2 s more per page drawn (a 50-page scan takes about 15 s on two cores, 25 s
 * when the machine is busy; it has 120 s); past it the pages not yet drawn are left out. Well within a job's lease
 * (jobs.ts, 5 min), with room for OCR.
 */
export const letterRenderTimeoutMs = (pages: number) => 20_000 + 2_000 * Math.min(Math.max(1, pages), MAX_PAGE_IMAGES)
/** Node, pdf.js and the canvas loaded: about half a second; much more only on a machine in trouble. */
const START_TIMEOUT_MS = 30_000
/** A left-out page's notice (an A4 sheet of text): milliseconds. */
const NOTICE_TIMEOUT_MS = 10_000
/** A render process idle this long is ended (its memory given back); the next letter starts another. */
const IDLE_MS = 60_000
/** A render process that keeps more than this once a letter is closed is ended rather than kept for the next one. */
const KEPT_RSS_BYTES = 200 * 2 ** 20
/**
 * glibc's allocator in the render process: every block of 128 KB or more mapped on its own and given back to the system
 * when freed, and the heap's free top trimmed past 128 KB. By default glibc raises that bound up to 32 MB as large
 * blocks are freed, so a page's canvas and pictures (8 to 80 MB) stayed in the process once freed: after four
 * one-page scans it kept more than KEPT_RSS_BYTES, and was ended and started again (half a second each, a quarter of a
 * batch's time, bench:intake). With these it keeps about 140 MB from letter to letter.
 * The blocks so mapped afresh for each page are asked for as huge pages (glibc.malloc.hugetlb=1: madvise, taken where
 * the system's transparent huge pages allow it, ignored by a glibc older than 2.35). Faulted in 4 KB at a time, they
 * cost a scan's page about 100 ms of the system's time; with them the render process draws about as fast as the API's
 * own process would with glibc's defaults (docs/MAIL.md).
 */
const RENDER_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' }
/** The glibc tunables the API was started with, if any, and the huge pages. */
export const renderGlibcTunables = (own?: string) => [own, 'glibc.malloc.hugetlb=1'].filter(Boolean).join(':')

/** pdf.js cannot open the letter's PDF at all: it never will, so its job fails once, without retry. */
export class UnreadableLetterError extends Error {}
/** The render process could not start (a transient trouble of the machine): the job is retried. */
export class RenderStartError extends Error {}
/** The letter was given up (its signal: the server closing); its process was ended. */
export class RenderAbortedError extends Error {}
/** One request passed a limit, or pdf.js failed on it: the page is drawn again with less, or left out. */
class PageLimitError extends Error {
  constructor(
    readonly kind: 'memory' | 'time' | 'crash' | 'failed',
    message: string,
  ) {
    super(message)
  }
}

declare const __LETTER_RENDER_CHILD__: string | undefined

interface RenderProcess {
  child: ChildProcess
  ready: Promise<void>
  /** Why the API ended it, when it did. */
  endedFor?: 'time' | 'abort' | 'idle' | 'lost'
  /** Its end (the 'close' event: its memory report read): never rejects. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; reportedRss: number | null }>
  peakRss: number
}

let current: RenderProcess | undefined
let idleTimer: NodeJS.Timeout | undefined
let turn: Promise<unknown> = Promise.resolve()
/** The highest resident memory a render process of this API reached (tests and benchmarks read it). */
let peakSeen = 0

export const renderProcessPeakRss = () => peakSeen
/** How many render processes this API started (tests and benchmarks read it). */
let started = 0
export const renderProcessStarts = () => started

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} Mo`

function startProcess(): RenderProcess {
  const built = typeof __LETTER_RENDER_CHILD__ === 'string'
  // The built server (esbuild.server.mjs): an entry of its own beside server.mjs; from the sources, run through tsx.
  const entry = built ? new URL(__LETTER_RENDER_CHILD__!, import.meta.url) : new URL('./letter-render-child.ts', import.meta.url)
  started++
  const child = fork(entry, [String(RENDER_MEMORY_CEILING_BYTES), String(KEPT_RSS_BYTES)], {
    // --expose-gc: the child collects its garbage before it reports keeping more than KEPT_RSS_BYTES (its 'closed' reply).
    execArgv: [...(built ? [] : [`--import=${import.meta.resolve('tsx')}`]), `--max-old-space-size=${HEAP_MB}`, '--expose-gc'],
    // fd 4: the memory the child's watch saw before it killed the process.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'],
    serialization: 'advanced',
    env: { ...process.env, ...RENDER_MALLOC_ENV, GLIBC_TUNABLES: renderGlibcTunables(process.env.GLIBC_TUNABLES) },
  })
  // Never what keeps the API's process alive.
  child.unref()
  child.channel?.unref()
  const report = child.stdio[4] as Readable & { unref?: () => void }
  report.unref?.()
  let reported = ''
  report.setEncoding('utf8').on('data', (text: string) => {
    reported += text
  })
  const renderer: RenderProcess = {
    child,
    peakRss: 0,
    closed: new Promise((resolve) =>
      child.once('close', (code, signal) => {
        const rss = Number(reported.trim().split('\n').pop())
        resolve({ code, signal, reportedRss: rss > 0 ? rss : null })
      }),
    ),
    ready: new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(new RenderStartError(`le processus de rendu n’a pas démarré en ${START_TIMEOUT_MS / 1000} s`))
      }, START_TIMEOUT_MS)
      child.once('message', () => {
        clearTimeout(timer)
        resolve()
      })
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(new RenderStartError(`le processus de rendu n’a pas démarré : ${error.message}`))
      })
      child.once('close', (code, signal) => {
        clearTimeout(timer)
        reject(new RenderStartError(`le processus de rendu s’est arrêté au démarrage (${signal ?? `code ${code}`})`))
      })
    }),
  }
  renderer.ready.catch(() => undefined)
  void renderer.closed.then(({ reportedRss }) => {
    if (reportedRss) {
      renderer.peakRss = Math.max(renderer.peakRss, reportedRss)
      peakSeen = Math.max(peakSeen, reportedRss)
    }
    if (current === renderer) current = undefined
  })
  return renderer
}

async function end(renderer: RenderProcess, why: RenderProcess['endedFor']) {
  renderer.endedFor ??= why
  if (current === renderer) current = undefined
  renderer.child.kill('SIGKILL')
  // The child is unref'd: until its close is seen, this timer keeps the process alive for whoever awaits the answer (a
  // test or a worker with nothing else running would otherwise exit with the render's promise still pending).
  const hold = setInterval(() => undefined, 1000)
  try {
    await renderer.closed
  } finally {
    clearInterval(hold)
  }
}

/** One request, answered; a PageLimitError when the process passes a limit (it is then ended) or pdf.js fails on it. */
function ask(renderer: RenderProcess, request: RenderRequest, timeoutMs: number, signal?: AbortSignal): Promise<RenderReply> {
  return new Promise((resolve, reject) => {
    const { child } = renderer
    const timer = setTimeout(() => void end(renderer, 'time'), Math.max(1, timeoutMs))
    const onAbort = () => void end(renderer, 'abort')
    const settle = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      child.off('message', onMessage).off('close', onClose)
    }
    const onMessage = (reply: RenderReply) => {
      settle()
      renderer.peakRss = Math.max(renderer.peakRss, reply.peakRss)
      peakSeen = Math.max(peakSeen, reply.peakRss)
      if (reply.type === 'failed') reject(new PageLimitError('failed', reply.message))
      else resolve(reply)
    }
    // After startProcess's own listener: `closed` is settled by then, with the memory the child's watch reported.
    const onClose = () =>
      void renderer.closed.then(({ code, signal: killedBy, reportedRss }) => {
        settle()
        if (renderer.endedFor === 'abort') return reject(new RenderAbortedError('rendu du courrier abandonné : processus de rendu arrêté'))
        if (renderer.endedFor === 'time')
          return reject(new PageLimitError('time', `durée de rendu dépassée (${(timeoutMs / 1000).toLocaleString('fr-FR')} s)`))
        // Killed by its own watch (or by the system, for want of memory).
        if (killedBy === 'SIGKILL' && !renderer.endedFor)
          return reject(
            new PageLimitError(
              'memory',
              `mémoire du processus de rendu dépassée (${mb(reportedRss ?? RENDER_MEMORY_CEILING_BYTES)} pour ${mb(RENDER_MEMORY_CEILING_BYTES)})`,
            ),
          )
        reject(new PageLimitError('crash', `processus de rendu arrêté (${killedBy ?? `code ${code}`})`))
      })
    if (!child.connected) return reject(new PageLimitError('crash', 'processus de rendu déjà arrêté'))
    child.on('message', onMessage).once('close', onClose)
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    // A request that cannot reach it (its channel closing): the process is ended, and its close answers.
    child.send(request, (error) => error && void end(renderer, 'lost'))
  })
}

/** The kept render process, or a new one once it says it is ready. */
async function ready(signal?: AbortSignal): Promise<RenderProcess> {
  clearTimeout(idleTimer)
  const renderer = (current ??= startProcess())
  const onAbort = () => void end(renderer, 'abort')
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    await renderer.ready
  } catch (error) {
    if (current === renderer) current = undefined
    if (signal?.aborted) throw new RenderAbortedError('rendu du courrier abandonné : processus de rendu arrêté')
    throw error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  return renderer
}

/** What a page that passed a limit is drawn as next. */
const LESS = { full: 'light', light: 'skip' } as const satisfies Record<Exclude<PageMode, 'skip'>, PageMode>

export interface DrawnPage extends RenderedPage {
  /** 1-based, in the PDF. */
  number: number
  /** Whole, without its large pictures, or left out (a notice in its place). */
  mode: PageMode
  /** Why it was not drawn whole: the limit it passed. */
  reason?: string
}

export interface RenderOptions {
  /** The whole letter at most (letterRenderTimeoutMs); past it, the pages not yet drawn are left out. */
  timeoutMs: number
  /** A page's layer or drawing at most (PAGE_RENDER_TIMEOUT_MS). */
  pageTimeoutMs?: number
  /** The letter given up (the server closing): its process ended at once. */
  signal?: AbortSignal
  /**
   * Each page once drawn, in order (its OCR may start while the next one is drawn). When it returns a promise, the next
   * page is drawn once it settles (the scans waiting for OCR held within their bound), and that wait does not count in
   * the letter's time: it is not drawing.
   */
  onPage?: (page: DrawnPage) => void | Promise<void>
}

/**
 * The first MAX_PAGE_IMAGES pages of `pdf`, each drawn within the render process's limits: whole, or without its large
 * pictures, or left out. UnreadableLetterError when pdf.js cannot open it; RenderAbortedError when `signal` aborts.
 */
export function renderLetterPages(pdf: Uint8Array, options: RenderOptions): Promise<DrawnPage[]> {
  const run = turn.then(() => renderInTurn(pdf, options))
  turn = run.catch(() => undefined)
  return run
}

async function renderInTurn(
  pdf: Uint8Array,
  { timeoutMs, pageTimeoutMs = PAGE_RENDER_TIMEOUT_MS, signal, onPage }: RenderOptions,
): Promise<DrawnPage[]> {
  if (signal?.aborted) throw new RenderAbortedError('rendu du courrier abandonné avant son début')
  let deadline = performance.now() + timeoutMs
  const left = () => deadline - performance.now()
  const pageTime = () => Math.min(pageTimeoutMs, left())
  /** The process the letter is open in, if it still is. */
  let openIn: RenderProcess | undefined
  let count = 0
  const open = async () => {
    const renderer = await ready(signal)
    if (openIn === renderer) return renderer
    try {
      const reply = await ask(renderer, { type: 'open', pdf }, pageTime(), signal)
      if (reply.type === 'opened') count = Math.min(reply.pages, MAX_PAGE_IMAGES)
    } catch (error) {
      if (error instanceof PageLimitError) throw new UnreadableLetterError(`pdf.js ne peut pas ouvrir ce courrier : ${error.message}`)
      throw error
    }
    openIn = renderer
    return renderer
  }
  const pages: DrawnPage[] = []
  try {
    await open()
    for (let number = 1; number <= count; number++) {
      let mode: PageMode = 'full'
      let layer: string | null = null
      let reason: string | undefined
      for (;;) {
        if (mode !== 'skip' && left() <= 0) {
          mode = 'skip'
          reason ??= `durée de rendu du courrier dépassée (${(timeoutMs / 1000).toLocaleString('fr-FR')} s)`
        }
        try {
          const renderer = mode === 'skip' ? await ready(signal) : await open()
          if (mode !== 'skip' && layer === null) {
            const reply = await ask(renderer, { type: 'layer', number }, pageTime(), signal)
            layer = reply.type === 'layer' ? reply.layer : ''
          }
          const reply = await ask(
            renderer,
            { type: 'draw', number, mode, layer: layer ?? '' },
            mode === 'skip' ? NOTICE_TIMEOUT_MS : pageTime(),
            signal,
          )
          if (reply.type !== 'drawn') throw new Error(`réponse inattendue du processus de rendu : ${reply.type}`)
          const page: DrawnPage = { ...reply.page, number, mode, ...(reason ? { reason } : {}) }
          pages.push(page)
          const waiting = onPage?.(page)
          if (waiting) {
            const since = performance.now()
            await waiting
            deadline += performance.now() - since
          }
          break
        } catch (error) {
          // Not a limit of this page (the letter given up, no process), or not even its notice could be drawn: the attempt fails.
          if (!(error instanceof PageLimitError) || mode === 'skip') throw error
          reason = error.message
          // Its layer alone passed a limit (fonts): nothing of it is drawn. Past the time, drawing it with less would not help.
          mode = layer === null || error.kind === 'time' ? 'skip' : LESS[mode]
          layer ??= ''
        }
      }
    }
    return pages
  } finally {
    const renderer = current
    if (renderer && openIn === renderer && !signal?.aborted) {
      // The documents closed (pdf.js's caches with them); a process that keeps much memory is not kept.
      const closed = await ask(renderer, { type: 'close' }, NOTICE_TIMEOUT_MS).catch(() => null)
      if (closed?.type === 'closed' && closed.rss > KEPT_RSS_BYTES) await end(renderer, 'idle')
    }
    if (current) {
      const idle = current
      idleTimer = setTimeout(() => void end(idle, 'idle'), IDLE_MS)
      idleTimer.unref()
    }
  }
}
