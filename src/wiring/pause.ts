// A wait the flows can call off: the statecharts' pause actors (the search's debounce, the bell's wait before
// following its stream again) end with the state that invoked them, which aborts their signal.

/** Waits `ms`, unless the wait is called off. */
export const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  })
