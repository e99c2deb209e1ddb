// A worker entry for worker-thread.test.ts: a task holds the thread, fills its heap, fails, or answers.
import { answerTasks } from '../../server/services/worker-thread.ts'

const kept: number[][] = []
let served = 0
answerTasks(async (task: 'spin' | 'fill' | 'fail' | 'echo') => {
  served++
  if (task === 'spin')
    for (;;) {
      /* held until terminated */
    }
  if (task === 'fill') for (;;) kept.push(new Array(100_000).fill(kept.length))
  if (task === 'fail') throw new Error('tâche en échec')
  return `${task}, task ${served} of this thread`
})
