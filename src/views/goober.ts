// goober's setup, imported first by main.tsx. The server puts a per-response CSP nonce in a meta
// tag; goober gives it to the one style element it writes into (window.__nonce__). With code
// splitting, other chunks are evaluated before this module: no other module may write styles at
// load time (no top-level glob, css or keyframes elsewhere), only when rendering.
import { glob, setup } from 'goober'
import { shouldForwardProp } from 'goober/should-forward-prop'
import { createElement } from 'react'
import { color, DESKTOP_MIN_WIDTH } from './theme.ts'

const nonce = typeof document !== 'undefined' ? document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') : null
if (nonce && nonce !== '__CSP_NONCE__') (window as unknown as { __nonce__: string }).__nonce__ = nonce

/**
 * goober's sheet, written once per task. goober appends each new rule to the text of its one style element, and Blink
 * parses the whole sheet again at each write: a dashboard load wrote it 44 times as it grew to 7 kB, about 10 ms of
 * parsing on the main thread, each write also restyling the whole page. goober finds its sheet as
 * `window._goober` (named access to the element of that id) and reads and writes its first child's `data`: given this
 * stand-in instead, the rules written during one task (a render) reach the element together, from a microtask, so
 * before the browser styles, lays out or paints anything. Reads see the pending text, so goober's dedupe still holds.
 * The element is looked up at each use: the prerendered /login page brings its own, and a test may replace the document.
 */
function batchedSheet() {
  const text = (): Text => {
    let style = document.getElementById('_goober')
    if (!style) {
      // The nonce before the element is in the document: the CSP checks it there.
      style = Object.assign(document.createElement('style'), {
        id: '_goober',
        nonce: (window as unknown as { __nonce__?: string }).__nonce__ ?? '',
      })
      document.head.append(style)
    }
    return (style.firstChild as Text | null) ?? style.appendChild(document.createTextNode(' '))
  }
  let pending: string | null = null
  const flush = () => {
    if (pending === null) return
    text().data = pending
    pending = null
  }
  return {
    parentNode: true,
    firstChild: {
      get data() {
        return pending ?? text().data
      },
      set data(css: string) {
        if (pending === null) queueMicrotask(flush)
        pending = css
      },
    },
  }
}
if (typeof window === 'object' && typeof document !== 'undefined') (window as unknown as { _goober: unknown })._goober = batchedSheet()

/** Props starting with $ are for styles only and never reach the DOM. Run again after any library
 * that calls goober's setup itself (react-hot-toast does, when it loads). */
export function setupGoober() {
  setup(
    createElement,
    undefined,
    undefined,
    shouldForwardProp((prop) => !prop.startsWith('$')),
  )
}
setupGoober()

glob`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 16px;
    line-height: 1.5;
    color: ${color.text};
    background: ${color.background};
  }
  h1, h2, h3 { line-height: 1.25; margin: 0 0 0.5em; }
  a { color: ${color.primary}; }
  button, input, select, textarea { font: inherit; }
  :focus-visible { outline: 3px solid ${color.focus}; outline-offset: 2px; }
  /* A form whose button bar stays at the bottom of a phone's screen: what Tab reaches is scrolled above the bar. */
  @media (max-width: ${DESKTOP_MIN_WIDTH - 1}px) { html:has([data-sticky-bar]) { scroll-padding-bottom: 7rem; } }
  @keyframes portal-spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { animation-duration: 0.01ms !important; transition-duration: 0.01ms !important; }
  }
`
