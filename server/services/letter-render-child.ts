// The render process of letter-render-process.ts: pdf.js and the canvas load here, never in the process that answers
// HTTP. A thread of its own watches the whole process's memory (pdf.js's decoded pictures and the canvas live outside
// the JavaScript heap, which no heap limit bounds) and kills the process past its ceiling, whatever its main thread is
// doing; the API then draws that page again without its large pictures, or leaves it out. It says 'ready' once pdf.js
// and the canvas are compiled, then answers the API's requests one at a time, and ends when the API goes.
import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { Worker } from 'node:worker_threads'
import { loadRenderer, openLetter, skippedPageImage, type OpenLetter } from './letter-render.ts'
import type { RenderReply, RenderRequest } from './letter-render-process.ts'

/** Where the watch writes the memory it saw before killing the process: a pipe the API reads (its stdio[4]). */
const REPORT_FD = 4
/** Its scheduling priority (nice): the API's requests first when the processor is busy. */
const RENDER_NICENESS = 10
const ceilingBytes = Number(process.argv[2])
if (!(ceilingBytes > 0)) throw new Error('plafond de mémoire du rendu manquant')
/** What the API lets it keep between letters (KEPT_RSS_BYTES): past it, its garbage is collected before it reports. */
const keptBytes = Number(process.argv[3]) || Number.POSITIVE_INFINITY

/** The process's peak resident memory so far (Linux: VmHWM, the kernel's own count), else its resident memory now. */
function peakRss(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) return Number(hwm[1]) * 1024
  } catch {
    /* not Linux */
  }
  return process.memoryUsage.rss()
}

// Every 10 ms, on a thread of its own: a page's pictures decode at up to ~1 GB/s, so the process passes its ceiling by
// a few tens of megabytes at most before it is killed.
// It reports the process's peak (VmHWM) before the kill, which the API counts as the render process's peak.
new Worker(
  `
  const { workerData: { ceilingBytes, fd } } = require('node:worker_threads')
  const { readFileSync, writeSync } = require('node:fs')
  setInterval(() => {
    const rss = process.memoryUsage.rss()
    if (rss <= ceilingBytes) return
    let peak = rss
    try { peak = Math.max(rss, Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024) } catch {}
    try { writeSync(fd, peak + '\\n') } catch {}
    process.kill(process.pid, 'SIGKILL')
  }, 10)
`,
  { eval: true, workerData: { ceilingBytes, fd: REPORT_FD } },
).unref()

await loadRenderer()
lowerPriority()

/**
 * Below the API for the processor (nice), every thread of it: on Linux a nice value belongs to a thread, and threads started later inherit
 * it.
 */
function lowerPriority() {
  let tasks: string[] = []
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    /* not Linux */
  }
  for (const task of tasks.length ? tasks.map(Number) : [0]) {
    try {
      setPriority(task, RENDER_NICENESS)
    } catch {
      /* a system that refuses: drawn at the API's priority */
    }
  }
}

let letter: OpenLetter | null = null

/**
 * Its resident memory between letters. Over what it may keep, it is measured again after a collection
 * (--expose-gc, given by letter-render-process.ts): what it keeps, not garbage. A collection only then: one per letter
 * cost the drawing about 6 % of its time.
 */
function keptRss(): number {
  const rss = process.memoryUsage.rss()
  if (rss <= keptBytes) return rss
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage.rss()
}
const reply = (message: RenderReply) => process.send!(message)

async function answer(request: RenderRequest): Promise<RenderReply> {
  switch (request.type) {
    case 'open':
      await letter?.close()
      letter = null
      letter = await openLetter(request.pdf)
      return { type: 'opened', pages: letter.pages, peakRss: peakRss() }
    case 'layer':
      return { type: 'layer', layer: await letter!.layer(request.number), peakRss: peakRss() }
    case 'draw':
      // A page left out needs no PDF open: a new render process after a kill draws its notice without opening the letter again.
      if (request.mode === 'skip')
        return {
          type: 'drawn',
          page: { ...(await skippedPageImage(request.number)), layer: request.layer, scan: null },
          peakRss: peakRss(),
        }
      return { type: 'drawn', page: await letter!.draw(request.number, request.mode, request.layer), peakRss: peakRss() }
    case 'close':
      await letter?.close()
      letter = null
      return { type: 'closed', rss: keptRss(), peakRss: peakRss() }
  }
}

process.on('message', (request: RenderRequest) => {
  answer(request).then(reply, (error: unknown) =>
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error), peakRss: peakRss() }),
  )
})
// The API gone (closed, or killed itself): nothing left to draw for.
process.on('disconnect', () => process.exit(0))
reply({ type: 'ready', peakRss: peakRss() })
