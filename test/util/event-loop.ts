// How long the event loop stops: a 10 ms timer, and the longest it waited beyond its period. For the tests that prove
// heavy work runs off the thread that answers HTTP (a PDF read or drawn on a worker thread).

export interface StallWatch {
  /** Stops watching; the longest stop seen, in ms (the time since the last tick counted too). */
  stop(): number
}

export function watchStalls(): StallWatch {
  let last = performance.now()
  let stall = 0
  const ticks = setInterval(() => {
    stall = Math.max(stall, performance.now() - last - 10)
    last = performance.now()
  }, 10)
  return {
    stop() {
      clearInterval(ticks)
      return Math.max(stall, performance.now() - last - 10)
    },
  }
}
