import '../util/dom.ts'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_FOOTER_LABEL, Modal, type ModalProps } from '../../src/views/components/Modal.tsx'
import { color } from '../../src/views/theme.ts'

function Harness(props: Partial<ModalProps>) {
  const [open, setOpen] = useState(false)
  const [confirmed, setConfirmed] = useState(0)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Ouvrir
      </button>
      <p>confirmations: {confirmed}</p>
      {open && (
        <Modal title="Titre" onClose={() => setOpen(false)} onConfirm={() => setConfirmed(confirmed + 1)} {...props}>
          <label htmlFor="champ">Champ</label>
          <input id="champ" />
        </Modal>
      )}
    </>
  )
}

const GenericModal = suite('generic modal (spec §2)')
GenericModal.after.each(() => cleanup())

GenericModal("default footer button 'Nous faire parvenir', a named close button, focus inside", () => {
  render(<Harness />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  const dialog = screen.getByRole('dialog', { name: 'Titre' })
  assert.is(dialog.getAttribute('aria-modal'), 'true')
  assert.is(DEFAULT_FOOTER_LABEL, 'Nous faire parvenir')
  fireEvent.click(screen.getByRole('button', { name: 'Nous faire parvenir' }))
  screen.getByText('confirmations: 1')
  screen.getByRole('button', { name: 'Fermer' })
  assert.ok(dialog.contains(document.activeElement), 'the focus moved into the modal')
})

GenericModal('its header is not a second banner landmark of the page (axe: landmark-no-duplicate-banner)', () => {
  render(<Harness />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  assert.is(screen.getByRole('dialog', { name: 'Titre' }).querySelector('header'), null)
  assert.is(screen.queryByRole('banner'), null)
})

GenericModal('Escape closes and gives the focus back to what opened it', () => {
  render(<Harness />)
  const opener = screen.getByRole('button', { name: 'Ouvrir' })
  opener.focus()
  fireEvent.click(opener)
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
  assert.is(screen.queryByRole('dialog'), null)
  assert.is(document.activeElement, opener)
})

GenericModal('Tab and Shift+Tab stay inside the modal', () => {
  render(<Harness />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  const dialog = screen.getByRole('dialog')
  const close = screen.getByRole('button', { name: 'Fermer' })
  const last = screen.getByRole('button', { name: 'Nous faire parvenir' })
  last.focus()
  fireEvent.keyDown(dialog, { key: 'Tab' })
  assert.is(document.activeElement, close)
  fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true })
  assert.is(document.activeElement, last)
})

// goober's rules of a render reach the sheet in a microtask (src/views/goober.ts), before anything is painted: the
// computed style is read after it, whether or not an earlier test file already wrote the same rule.
const rulesWritten = () => new Promise<void>((resolve) => queueMicrotask(resolve))

GenericModal('the close button closes; the two header styles and the large size apply', async () => {
  const { container } = render(<Harness large headerStyle="accent" footer={null} />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  assert.is(screen.queryByRole('button', { name: 'Nous faire parvenir' }), null, 'footer={null}: no footer')
  await rulesWritten()
  const header = screen.getByRole('dialog').querySelector('h2')!.parentElement!
  assert.is(getComputedStyle(header).backgroundColor, color.primary, "'accent': the coloured header")
  fireEvent.click(screen.getByRole('button', { name: 'Fermer' }))
  assert.is(screen.queryByRole('dialog'), null)
  void container
})

GenericModal('the plain header style is the default', async () => {
  render(<Harness />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  await rulesWritten()
  assert.is(getComputedStyle(screen.getByRole('dialog').querySelector('h2')!.parentElement!).backgroundColor, color.surface)
})

GenericModal('while locked (an upload running), Escape does not close it', () => {
  render(<Harness locked />)
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir' }))
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
  screen.getByRole('dialog')
})

GenericModal.run()
