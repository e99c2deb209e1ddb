// The app taking over a page drawn ahead at build time (src/prerender.tsx: /login). createRoot's
// first commit replaces that markup with the same markup, live: what was typed into the drawn fields
// meanwhile is read by the form's first render (prerenderedValue), and the focus (with the caret) is
// put back on the element of the same id, so that a visitor typing through the takeover loses nothing.
import { type ReactNode, startTransition } from 'react'
import { flushSync } from 'react-dom'
import type { Root } from 'react-dom/client'

/** The value typed into the drawn field `id` before the app took over ('' once it has). */
export function prerenderedValue(id: string): string {
  if (typeof document === 'undefined') return ''
  const field = document.getElementById(id)
  return field instanceof HTMLInputElement && field.closest('[data-prerendered]') ? field.value : ''
}

/** Runs the first commit (synchronously) and puts the focus back where it was inside `container`. */
export function takeOver(container: HTMLElement, commit: () => void): void {
  const focused = document.activeElement
  const id = focused instanceof HTMLElement && container.contains(focused) ? focused.id : ''
  const caret = focused instanceof HTMLInputElement ? selectionOf(focused) : null
  commit()
  container.removeAttribute('data-prerendered')
  const again = id ? document.getElementById(id) : null
  if (!again || again === focused) return
  again.focus()
  if (caret && again instanceof HTMLInputElement) {
    try {
      again.setSelectionRange(caret[0], caret[1])
    } catch {
      // e-mail fields have no selection API
    }
  }
}

function selectionOf(input: HTMLInputElement): [number, number] | null {
  try {
    return input.selectionStart === null || input.selectionEnd === null ? null : [input.selectionStart, input.selectionEnd]
  } catch {
    return null
  }
}

/**
 * The app's first render into `container`. Over a page drawn ahead, one synchronous commit (takeOver). Into an empty
 * page (a signed-in route), at transition priority: React renders the app in slices of a few milliseconds with the
 * browser free in between, instead of one long task on a phone (Lighthouse's blocking time).
 */
export function firstRender(container: HTMLElement, root: Root, app: ReactNode): void {
  if (container.hasAttribute('data-prerendered')) takeOver(container, () => flushSync(() => root.render(app)))
  else startTransition(() => root.render(app))
}
