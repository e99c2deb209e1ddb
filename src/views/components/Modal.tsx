// The generic modal (spec §2): optional large size, two header styles, a close button, and the
// default footer button 'Nous faire parvenir'. It traps the focus (also when a control under it is disabled or
// removed), closes on Escape and gives the focus back to what opened it (or, when that is gone or inert, to
// `fallbackFocus`).
import { styled } from 'goober'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { Icon } from '../icons.tsx'
import { color, mq, radius, shadow } from '../theme.ts'
import { Button, IconButton } from './ui.tsx'
import { focusLost } from './useFocusWhenShown.ts'

export const DEFAULT_FOOTER_LABEL = 'Nous faire parvenir'

const Backdrop = styled('div')`
  position: fixed;
  inset: 0;
  z-index: 100;
  display: flex;
  align-items: flex-end;
  justify-content: center;
  background: rgba(15, 23, 42, 0.55);
  ${mq.desktop} { align-items: center; padding: 1.5rem; }
`

const Dialog = styled('div')<{ $large: boolean }>`
  width: 100%;
  max-height: 92vh;
  overflow: auto;
  background: ${color.surface};
  border-radius: ${radius} ${radius} 0 0;
  box-shadow: ${shadow};
  ${mq.desktop} {
    max-width: ${(p) => (p.$large ? '860px' : '520px')};
    border-radius: ${radius};
  }
`

// A div, not a header: inside a dialog a <header> would be a second banner landmark of the page.
const Head = styled('div')<{ $accent: boolean }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  padding: 0.75rem 0.75rem 0.75rem 1.25rem;
  background: ${(p) => (p.$accent ? color.primary : color.surface)};
  color: ${(p) => (p.$accent ? '#fff' : color.text)};
  border-bottom: 1px solid ${color.border};
  h2 { margin: 0; font-size: 1.2rem; min-width: 0; overflow-wrap: anywhere; }
`

const Body = styled('div')`
  padding: 1.25rem;
`

const Foot = styled('footer')`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.75rem;
  padding: 0 1.25rem 1.25rem;
`

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface ModalProps {
  title: string
  onClose: () => void
  children: ReactNode
  large?: boolean
  /** 'accent': a coloured header; 'plain' (default): a white one. */
  headerStyle?: 'plain' | 'accent'
  /** undefined: the default footer (its button calls onConfirm); null: no footer. */
  footer?: ReactNode | null
  onConfirm?: () => void
  confirmLabel?: string
  /** While true, Escape and the close button do nothing (e.g. during an upload). */
  locked?: boolean
  /**
   * On close, where the focus goes when what opened the modal is gone (e.g. a "Payer" whose invoice is now paid) or
   * inert (e.g. in the phone's drawer, closed meanwhile): an inert element takes no focus.
   */
  fallbackFocus?: () => HTMLElement | null
}

export function Modal({
  title,
  onClose,
  children,
  large = false,
  headerStyle = 'plain',
  footer,
  onConfirm,
  confirmLabel = DEFAULT_FOOTER_LABEL,
  locked = false,
  fallbackFocus,
}: ModalProps) {
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  close.current = locked ? () => {} : onClose
  const fallback = useRef(fallbackFocus)
  fallback.current = fallbackFocus

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    const dialog = dialogRef.current!
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? dialog).focus()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = overflow
      const back =
        opener && opener !== document.body && document.contains(opener) && !opener.closest('[inert]') ? opener : fallback.current?.()
      back?.focus()
    }
  }, [])

  // The focus never falls out while the dialog is open: a control disabled or removed under it (a button while its
  // call runs) drops it to <body> in Chrome, where Escape and Tab no longer reach the dialog. It is put back on the
  // dialog itself; Tab then enters it again. (A dialog that manages its own focus, such as the payment's, moves it first.)
  useEffect(() => {
    const dialog = dialogRef.current!
    let timer: ReturnType<typeof setTimeout> | undefined
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return
      clearTimeout(timer)
      timer = setTimeout(() => {
        if (document.contains(dialog) && focusLost()) dialog.focus()
      }, 0)
    }
    dialog.addEventListener('focusout', onFocusOut)
    return () => {
      clearTimeout(timer)
      dialog.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      close.current()
      return
    }
    if (event.key !== 'Tab') return
    const focusable = [...dialogRef.current!.querySelectorAll<HTMLElement>(FOCUSABLE)]
    if (focusable.length === 0) {
      event.preventDefault()
      return
    }
    const first = focusable[0]!
    const last = focusable[focusable.length - 1]!
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <Backdrop onMouseDown={(e) => e.target === e.currentTarget && close.current()}>
      <Dialog ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKeyDown} $large={large}>
        <Head $accent={headerStyle === 'accent'}>
          <h2 id={titleId}>{title}</h2>
          <IconButton type="button" aria-label="Fermer" onClick={() => close.current()} disabled={locked}>
            <Icon name="close" />
          </IconButton>
        </Head>
        <Body>{children}</Body>
        {footer === undefined ? (
          <Foot>
            <Button type="button" onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </Foot>
        ) : footer === null ? null : (
          <Foot>{footer}</Foot>
        )}
      </Dialog>
    </Backdrop>,
    document.body,
  )
}
