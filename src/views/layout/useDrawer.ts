// The phone's menu drawer: open and closed, Escape closes it, and the focus goes back to the menu
// button when it closes without going anywhere (Escape, the close button, the backdrop).
import { useEffect, useRef, useState } from 'react'

export function useDrawer() {
  const [open, setOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const refocusMenu = useRef(false)
  const close = (refocus: boolean) => {
    refocusMenu.current = refocus
    setOpen(false)
  }

  useEffect(() => {
    if (!open && refocusMenu.current) {
      refocusMenu.current = false
      menuButton.current?.focus()
    }
  }, [open])

  // Close only sets state and a ref: the listener needs no renewal when it is made again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason above
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close(true)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  return { open, openDrawer: () => setOpen(true), close, menuButton }
}
