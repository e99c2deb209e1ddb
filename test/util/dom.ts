// happy-dom as the browser for view tests (run in their own process: it replaces fetch, URL…).
// Import this module first in every view test.
import { GlobalRegistrator } from '@happy-dom/global-registrator'

if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: 'http://localhost:8080/', width: 1280, height: 800 })
  ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
}

/** Resizes the window (matchMedia follows): 360 for a phone, 1280 for a desktop. */
export function setViewport(width: number, height = 800) {
  ;(window as unknown as { happyDOM: { setViewport: (v: { width: number; height: number }) => void } }).happyDOM.setViewport({
    width,
    height,
  })
}

// goober's setup, as main.tsx does first.
await import('../../src/views/goober.ts')

// findBy…/waitFor wait up to 5 s instead of testing-library's 1 s: on a shared, loaded machine a lazy page can take
// longer than a second to come, and those tests failed now and then. Only a failing wait lasts longer.
const { configure } = await import('@testing-library/react')
configure({ asyncUtilTimeout: 5000 })
