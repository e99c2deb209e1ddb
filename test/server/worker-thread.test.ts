// The worker thread the upload check and the letters' rendering run on (server/services/worker-thread.ts): a task that
// holds its thread or fills its heap ends the thread, the event loop never waits for it, and the next task gets a new one.
// tests: the embedded database only (no database at all; left out of the PostgreSQL run)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ThreadAbortedError, ThreadOutOfMemoryError, ThreadTimeoutError, workerThread } from '../../server/services/worker-thread.ts'
import { watchStalls } from '../util/event-loop.ts'

const test = suite('a worker thread')

const thread = workerThread<string, string>({
  name: 'd’essai',
  entry: { source: new URL('../util/thread-task-worker.ts', import.meta.url) },
  resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
})

test('answers each task; an error of the task is its own, the thread stays', async () => {
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 1 of this thread')
  try {
    await thread.run('fail', { timeoutMs: 10_000 })
    assert.unreachable('the task failed')
  } catch (error) {
    assert.not.instance(error, ThreadTimeoutError)
    assert.is((error as Error).message, 'tâche en échec')
  }
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 3 of this thread')
})

test('a task past its time: ThreadTimeoutError at its time, the event loop free meanwhile, the next task on a new thread', async () => {
  const stalls = watchStalls()
  let stall = 0
  const started = performance.now()
  try {
    await thread.run('spin', { timeoutMs: 500 })
    assert.unreachable('the task never ends')
  } catch (error) {
    assert.instance(error, ThreadTimeoutError)
    assert.is((error as Error).message, 'le fil d’essai a dépassé 500 ms')
  } finally {
    stall = stalls.stop()
  }
  const elapsed = performance.now() - started
  // Node counts a timer from the event loop's cached time, which can lag the clock by the current turn's work: a timer of
  // 500 ms may fire a few ms short of 500 by performance.now() (CI saw 499.x).
  assert.ok(elapsed >= 450 && elapsed < 3000, `ended after ${elapsed.toFixed(1)} ms`)
  assert.ok(stall < 250, `the event loop stopped ${stall.toFixed(0)} ms`)
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 1 of this thread')
})

test('a task given up (its signal): ThreadAbortedError at once, the thread ended, the next task on a new thread', async () => {
  const giveUp = new AbortController()
  const started = performance.now()
  const spinning = thread.run('spin', { timeoutMs: 60_000, signal: giveUp.signal })
  setTimeout(() => giveUp.abort(), 300)
  try {
    await spinning
    assert.unreachable('the task never ends')
  } catch (error) {
    assert.instance(error, ThreadAbortedError)
    assert.is((error as Error).message, 'le fil d’essai a été arrêté : tâche abandonnée')
  }
  const elapsed = performance.now() - started
  assert.ok(elapsed < 3000, `ended after ${elapsed.toFixed(0)} ms, not at its 60 s`)
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 1 of this thread')
  // Given up before it starts: never sent to the thread.
  assert.is(
    await thread
      .run('echo', { timeoutMs: 10_000, signal: AbortSignal.abort() })
      .catch((error: unknown) => error instanceof ThreadAbortedError),
    true,
  )
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 2 of this thread')
})

test('a task past the thread’s heap: ThreadOutOfMemoryError, the next task on a new thread', async () => {
  try {
    await thread.run('fill', { timeoutMs: 30_000 })
    assert.unreachable('the heap is full')
  } catch (error) {
    assert.instance(error, ThreadOutOfMemoryError)
    assert.is((error as Error).message, 'le fil d’essai a dépassé sa mémoire (32 Mo)')
  }
  assert.is(await thread.run('echo', { timeoutMs: 10_000 }), 'echo, task 1 of this thread')
})

test.run()
