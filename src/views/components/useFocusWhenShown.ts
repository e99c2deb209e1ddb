// An action that replaces its own control (a request sent, a form saved) takes the focus away with it: the browser
// puts it on <body>, and a keyboard or screen-reader user starts again from the top of the page.
import { type RefObject, useEffect, useRef } from 'react'

/** The focus was lost: the element that had it was removed or disabled, and the browser put it on <body>. */
export const focusLost = () => document.activeElement === null || document.activeElement === document.body

/**
 * When `shown` turns true during this mount (what replaces the control is on screen) and the focus was lost on the
 * way, it goes to `target`. Shown from the start (a page opened on it), nothing moves.
 */
export function useFocusWhenShown(shown: boolean, target: RefObject<HTMLElement | null>) {
  const before = useRef(shown)
  useEffect(() => {
    if (shown && !before.current && focusLost()) target.current?.focus()
    before.current = shown
  }, [shown, target])
}
