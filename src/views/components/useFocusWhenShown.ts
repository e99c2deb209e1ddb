// An action that replaces its own control (a request sent, a form saved) takes the focus away with it: the browser
// puts it on <body>, and a keyboard or screen-reader user starts again from the top of the page.
import { type RefObject, useCallback, useEffect, useRef } from 'react'

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

/**
 * An action whose control goes away while it runs: 'Réessayer' gives way to a spinner, then to what it asked for (or to
 * the error again); on a phone, a letter opened gives way to its viewer and back. Call the returned function when the
 * action is taken; once `settled` turns true, the focus, if it was lost on the way, goes to `target()`. Without the
 * action (a list loading on arrival, a link followed), nothing moves.
 */
export function useFocusAfter(settled: boolean, target: () => HTMLElement | null | undefined): () => void {
  const expected = useRef(false)
  const latest = useRef(target)
  latest.current = target
  useEffect(() => {
    if (!settled || !expected.current) return
    expected.current = false
    if (focusLost()) latest.current()?.focus()
  }, [settled])
  return useCallback(() => {
    expected.current = true
  }, [])
}

/**
 * The heading that names the section holding `element` (a page's card: aria-labelledby), made focusable by script
 * only (tabindex -1, never in the Tab order) if it was not: where a list's 'Réessayer' leaves the focus once the list
 * is back, whichever page it is on.
 */
export function headingOf(element: Element | null | undefined): HTMLElement | null {
  const id = element?.closest('[aria-labelledby]')?.getAttribute('aria-labelledby')?.split(' ')[0]
  const heading = id ? document.getElementById(id) : null
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1
  return heading
}

/** Where an action that leaves its page puts the focus meanwhile: the page's content (Shell's <main>, kept between pages). */
export const PAGE_CONTENT_ID = 'contenu'

/** The page's title: the header's (the dashboard layout) or the bare layout's, focusable by script only (tabindex -1). */
export const PAGE_TITLE_ID = 'titre'

// An action that went through and leads to another page, said by useArrivalAfter, until that page arrives.
let arrivalExpected = false

/**
 * A page reached after an action on another one takes the focus on `target` (its heading) when it mounts, if the
 * action left it on the page's content (PAGE_CONTENT_ID, e.g. a formality ordered: a dialog's fallbackFocus, then
 * /formalites), or said so (useArrivalAfter) and the focus was lost on the way: a layout that changes (/login for the
 * portal, the portal for /missing-document) takes with it whatever held the focus. A page opened otherwise (the menu,
 * an address, a reload) leaves the focus where it is. Read once, on mount.
 */
export function useFocusOnArrival(target: RefObject<HTMLElement | null> | (() => HTMLElement | null | undefined)) {
  const latest = useRef(target)
  useEffect(() => {
    const expected = arrivalExpected
    arrivalExpected = false
    const element = typeof latest.current === 'function' ? latest.current() : latest.current.current
    if (document.activeElement?.id === PAGE_CONTENT_ID || (expected && focusLost())) element?.focus()
  }, [])
}

type Watched<S> = { getSnapshot: () => S; subscribe: (observer: (snapshot: S) => void) => { unsubscribe: () => void } }

/**
 * `actor`'s action went through and leads to another page (a sign-in, a new password, the documents sent): the moment
 * `leaves` says so, before that page renders, the focus is handed over to it (useFocusOnArrival).
 */
export function useArrivalAfter<S>(actor: Watched<S> | null | undefined, leaves: (next: S, previous: S) => boolean) {
  const latest = useRef(leaves)
  latest.current = leaves
  useEffect(() => {
    if (!actor) return
    let previous = actor.getSnapshot()
    const { unsubscribe } = actor.subscribe((next) => {
      if (next !== previous && latest.current(next, previous)) arrivalExpected = true
      previous = next
    })
    return unsubscribe
  }, [actor])
}
