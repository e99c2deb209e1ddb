// The worker thread of pdf-check-thread.ts: pdf-lib and readPdf (pdf-check.ts) load here, never on the thread that
// answers HTTP. It says 'ready' once loaded, then answers each PDF it is sent with readPdf's result, one at a time.
import { readPdf } from './pdf-check.ts'
import { answerTasks } from './worker-thread.ts'

answerTasks(readPdf)
