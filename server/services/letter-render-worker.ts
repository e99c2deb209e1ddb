// The render thread of letter-render-thread.ts: pdf.js and the canvas load here, never on the thread that answers HTTP.
// It says 'ready' once they are compiled (a letter's time limit counts its drawing only), then renders each letter it is
// sent, one at a time, moving the images back rather than copying them.
import { loadRenderer, renderPages } from './letter-render.ts'
import { answerTasks } from './worker-thread.ts'

await loadRenderer()
answerTasks(renderPages, (pages) => pages.flatMap((page) => (page.scan ? [page.bytes.buffer, page.scan.buffer] : [page.bytes.buffer])))
