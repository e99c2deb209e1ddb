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

/** Where an action that leaves its page puts the focus meanwhile: the page's content (Shell's <main>, kept between pages). */
export const PAGE_CONTENT_ID = 'contenu'

/**
 * A page reached after an action on another one (a formality ordered, then /formalites): that action left the focus on
 * the page's content (PAGE_CONTENT_ID, e.g. as a dialog's fallbackFocus), and the new page's `target` (its heading) takes
 * it when it mounts. A page opened otherwise (the menu, an address, a reload) leaves the focus where it is.
 */
export function useFocusOnArrival(target: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (document.activeElement?.id === PAGE_CONTENT_ID) target.current?.focus()
  }, [target])
}
