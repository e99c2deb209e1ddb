// A worker thread that runs one task at a time off the event loop, within resource limits and a time limit: the upload
// check's PDF reading (pdf-check-thread.ts; a letter's rendering needs a bound on native memory too, which no thread has:
// it runs in a child process, letter-render-process.ts). Started with the first
// task and kept (its modules compiled once); a task that runs past its time or past the thread's heap ends the thread
// (terminate()), and the next task gets a new one, as does a task its caller gives up on (its `signal`: the server
// closing). It never keeps a process alive.
//
// Its entry (a *-worker.ts) loads what it needs, then calls answerTasks.
import { parentPort, Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads'

/** The task ran past its time: the thread was ended. */
export class ThreadTimeoutError extends Error {}
/** The task took more memory than the thread's heap: the thread ended. */
export class ThreadOutOfMemoryError extends Error {}
/** The caller gave the task up (its signal): the thread was ended, or the task never started. */
export class ThreadAbortedError extends Error {}

export type ThreadAnswer<Out> = { result: Out } | { error: string }

export interface ThreadOptions {
  /** What the thread does, for the errors: 'de vérification des PDF'. */
  name: string
  /** The built server's entry (an .mjs beside the bundle, esbuild.server.mjs), or the TypeScript source run through tsx. */
  entry: { built: URL } | { source: URL }
  resourceLimits: ResourceLimits
}

interface Task {
  input: unknown
  transfer: TransferListItem[]
  timeoutMs: number
  signal?: AbortSignal
  resolve(result: unknown): void
  reject(error: unknown): void
}

export interface WorkerThread<In, Out> {
  /**
   * The entry's answer to `input`; ThreadTimeoutError past `timeoutMs` (counted once the thread is up), ThreadOutOfMemoryError
   * past its heap, ThreadAbortedError at once when `signal` aborts (a running task's thread is ended).
   */
  run(input: In, options: { timeoutMs: number; transfer?: TransferListItem[]; signal?: AbortSignal }): Promise<Out>
}

export function workerThread<In, Out>({ name, entry, resourceLimits }: ThreadOptions): WorkerThread<In, Out> {
  const queue: Task[] = []
  let running = false
  let current: { worker: Worker; ready: Promise<void> } | undefined

  function startWorker(): { worker: Worker; ready: Promise<void> } {
    const worker =
      'built' in entry
        ? new Worker(entry.built, { resourceLimits })
        : // From the sources (tsx): Node 20 does not apply --import hooks to a worker's entry, so the worker registers tsx first.
          new Worker(
            `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register();
          return import(${JSON.stringify(entry.source.href)}) })`,
            { eval: true, resourceLimits },
          )
    worker.unref()
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve())
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`le fil ${name} s’est arrêté au démarrage (code ${code})`)))
    })
    ready.catch(() => undefined)
    return { worker, ready }
  }

  async function next(): Promise<void> {
    if (running) return
    const task = queue.shift()
    if (!task) return
    if (task.signal?.aborted) {
      task.reject(aborted())
      return void next()
    }
    running = true
    const thread = (current ??= startWorker())
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
      task.reject(error)
      return ended(true)
    }
    const { worker } = thread
    const finish = (drop: boolean, settle: () => void) => {
      clearTimeout(timer)
      task.signal?.removeEventListener('abort', onAbort)
      worker.off('message', onMessage).off('error', onError).off('exit', onExit)
      settle()
      ended(drop)
    }
    const onMessage = (answer: ThreadAnswer<unknown>) =>
      finish(false, () => ('result' in answer ? task.resolve(answer.result) : task.reject(new Error(answer.error))))
    const onError = (error: Error & { code?: string }) =>
      finish(true, () =>
        task.reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ThreadOutOfMemoryError(`le fil ${name} a dépassé sa mémoire (${resourceLimits.maxOldGenerationSizeMb} Mo)`)
            : error,
        ),
      )
    const onExit = (code: number) => finish(true, () => task.reject(new Error(`le fil ${name} s’est arrêté (code ${code})`)))
    const timer = setTimeout(
      () => finish(true, () => task.reject(new ThreadTimeoutError(`le fil ${name} a dépassé ${task.timeoutMs} ms`))),
      task.timeoutMs,
    )
    // terminate() stops the thread's JavaScript at once, and its native work (a canvas drawing) as soon as that returns.
    const onAbort = () => finish(true, () => task.reject(aborted()))
    if (task.signal?.aborted) return onAbort()
    task.signal?.addEventListener('abort', onAbort, { once: true })
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    worker.postMessage(task.input, task.transfer)
  }

  const aborted = () => new ThreadAbortedError(`le fil ${name} a été arrêté : tâche abandonnée`)

  return {
    run(input, { timeoutMs, transfer = [], signal }) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ input, transfer, timeoutMs, signal, resolve: resolve as (result: unknown) => void, reject })
        void next()
      })
    },
  }
}

/** The entry's side: says 'ready', then answers each task with `handle`'s result (moving what `transferOf` lists) or its error. */
export function answerTasks<In, Out>(handle: (input: In) => Promise<Out>, transferOf: (result: Out) => TransferListItem[] = () => []) {
  const port = parentPort!
  port.on('message', async (input: In) => {
    let result: Out
    try {
      result = await handle(input)
    } catch (error) {
      return port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ThreadAnswer<Out>)
    }
    port.postMessage({ result } satisfies ThreadAnswer<Out>, transferOf(result))
  })
  port.postMessage('ready')
}
