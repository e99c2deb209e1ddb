// Toasts (spec §8, §9): 5 seconds each, at most 20 at once. react-hot-toast keeps at most 20
// toasts by construction (its TOAST_LIMIT); the view test checks it. Each is announced (a polite
// live region), has a « Fermer » button, and Escape dismisses them; on a phone a tap on one
// dismisses it. On a phone they show at the bottom, away from the bars' controls ('Ouvrir le menu',
// the Domiciliation choice, the bell), except while a dialog is open: a phone's dialog sits at the
// bottom, its buttons there. On a desktop they show at the top, below the header and its controls.
import { styled } from 'goober'
import { IconButton } from './components/icon-button.ts'
import { useEffect, useState } from 'react'
import { type Toast, toast, ToastBar, Toaster } from 'react-hot-toast'
import { Link } from 'wouter'
import type { Notice } from '../machines/shared.ts'
import { useMediaQuery } from './components/useMediaQuery.ts'
import { setupGoober } from './goober.ts'
import { Icon } from './icons.tsx'
import { color, DESKTOP_MIN_WIDTH, HEADER_HEIGHT_PX } from './theme.ts'

// react-hot-toast calls goober's setup when it loads, which drops ours: put it back.
setupGoober()

export function showToast({ kind, message, link }: Notice) {
  // A link to see more (an export's failures on its page): followed, the toast has done its job.
  const content = link
    ? (t: Toast) => (
        <span>
          {message}{' '}
          <Link href={link.to} onClick={() => toast.dismiss(t.id)}>
            {link.label}
          </Link>
        </span>
      )
    : message
  if (kind === 'success') toast.success(content)
  else if (kind === 'info') toast(content)
  else toast.error(content)
}

export const TOAST_DURATION_MS = 5000
export const MAX_TOASTS = 20

// IconButton from its own module, not ui.tsx: importing ui.tsx here would move it to a chunk evaluated before goober.ts,
// and its top-level css would then make goober's sheet without the CSP nonce (no style at all).
const Close = styled(IconButton)`
  margin: -0.5rem -0.5rem -0.5rem 0;
  color: ${color.muted};
`

/** A modal dialog is open (Modal puts it straight into <body>). */
function useDialogOpen(): boolean {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const check = () => setOpen(document.querySelector('[role="dialog"][aria-modal="true"]') !== null)
    const observer = new MutationObserver(check)
    observer.observe(document.body, { childList: true })
    check()
    return () => observer.disconnect()
  }, [])
  return open
}

export default function Toasts() {
  const phone = useMediaQuery(`(max-width: ${DESKTOP_MIN_WIDTH - 1}px)`)
  const dialogOpen = useDialogOpen()
  const position = phone && !dialogOpen ? 'bottom-center' : 'top-center'
  // On a desktop, below the header (64 px): not over the page's title, the Domiciliation choice and the bell.
  const containerStyle = !phone && !dialogOpen ? { top: HEADER_HEIGHT_PX + 8 } : undefined

  // Escape dismisses them, unless it closed something else first (a dialog, the bell's panel stop it on their way).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) toast.dismiss()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  return (
    <Toaster
      position={position}
      containerStyle={containerStyle}
      toastOptions={{
        duration: TOAST_DURATION_MS,
        style: { maxWidth: '32rem', color: color.text, overflowWrap: 'anywhere' },
        success: { iconTheme: { primary: color.success, secondary: '#fff' } },
        error: { iconTheme: { primary: color.danger, secondary: '#fff' } },
      }}
    >
      {(t) => (
        // On a phone a tap anywhere on a toast dismisses it: it covers the bottom of the page, and « Fermer » is a small
        // target at its end. Not on a desktop, where its text may be selected (to copy an error); the keyboard has
        // « Fermer » and Escape. A link in it still goes where it says (and dismisses it too).
        // A shortcut for a finger; the keyboard has « Fermer » and Escape.
        // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the reason above
        <div onClick={phone ? () => toast.dismiss(t.id) : undefined}>
          <ToastBar toast={t} position={position}>
            {({ icon, message }) => (
              <>
                {icon}
                {message}
                <Close type="button" aria-label="Fermer" onClick={() => toast.dismiss(t.id)}>
                  <Icon name="close" />
                </Close>
              </>
            )}
          </ToastBar>
        </div>
      )}
    </Toaster>
  )
}
