// The entry (src/main.tsx) sets no timer while its module is evaluated: a browser that records where timers come
// from (DevTools, Lighthouse's trace) would collect the source positions of the whole bundle's top level, that is
// parse the entry file again in the middle of its evaluation (docs/BENCHMARKS.md). Its start runs from a
// microtask instead; this checks it on /login, whose start asks for the session's code once the browser is idle.
// Its own process (package.json's test:views): the entry mounts the real app, which stays, with its router on the page's history.
import '../util/dom.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const Entry = suite('the entry')

Entry('its timers and idle callbacks are set from its start, after its evaluation, never during it', async () => {
  // Outside act(): the entry renders on its own, as in a browser.
  const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
  act.IS_REACT_ACT_ENVIRONMENT = false
  history.replaceState(null, '', '/login')
  localStorage.clear()
  document.body.innerHTML = '<div id="root"></div>'
  const stacks: string[] = []
  const timers = window as unknown as Record<'setTimeout' | 'requestIdleCallback', (...args: unknown[]) => unknown>
  const originals = {
    setTimeout: timers.setTimeout,
    requestIdleCallback: timers.requestIdleCallback,
    globalSetTimeout: globalThis.setTimeout,
  }
  const spy =
    (original: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      stacks.push(new Error().stack ?? '')
      return original.apply(window, args)
    }
  timers.setTimeout = spy(originals.setTimeout)
  if (originals.requestIdleCallback) timers.requestIdleCallback = spy(originals.requestIdleCallback)
  ;(globalThis as { setTimeout: unknown }).setTimeout = timers.setTimeout
  try {
    await import('../../src/main.tsx')
    for (let i = 0; i < 50 && !document.querySelector('#root form'); i++)
      await new Promise((resolve) => originals.globalSetTimeout(resolve, 10))
  } finally {
    timers.setTimeout = originals.setTimeout
    ;(globalThis as { setTimeout: unknown }).setTimeout = originals.globalSetTimeout
    if (originals.requestIdleCallback) timers.requestIdleCallback = originals.requestIdleCallback
    act.IS_REACT_ACT_ENVIRONMENT = true
  }
  assert.ok(document.querySelector('#root form'), 'the login page was rendered')
  const fromEntry = stacks.filter((stack) => stack.includes('src/main.tsx'))
  assert.ok(
    fromEntry.some((stack) => /\bstart\b/.test(stack)),
    'the start asked for an idle callback (the session’s code)',
  )
  for (const stack of fromEntry) assert.not.match(stack, /ModuleJob/, `set during the module's evaluation:\n${stack}`)
})

Entry.run()
