import '../util/dom.ts'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import toast from 'react-hot-toast'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Toasts, { MAX_TOASTS, showToast, TOAST_DURATION_MS } from '../../src/views/Toasts.tsx'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { setViewport } from '../util/dom.ts'

const Toaster = suite('toasts (spec §8, §9)')
Toaster.after.each(() => {
  act(() => toast.remove())
  cleanup()
})

Toaster('5000 ms each, at most 20 at once', async () => {
  assert.is(TOAST_DURATION_MS, 5000)
  assert.is(MAX_TOASTS, 20)
  render(<Toasts />)
  act(() => {
    for (let i = 1; i <= 25; i++) showToast({ kind: 'error', message: `Message ${i}` })
  })
  await waitFor(() => assert.is(screen.getAllByText(/^Message \d+$/).length, MAX_TOASTS))
  // The newest ones stay.
  screen.getByText('Message 25')
  assert.is(screen.queryByText('Message 5'), null)
})

Toaster('a toast goes away after 5 seconds', async () => {
  // Catch the timer the toaster sets for the toast, instead of waiting for it.
  const timers: { delay: number; run: () => void }[] = []
  const realSetTimeout = window.setTimeout
  window.setTimeout = ((run: () => void, delay = 0) => {
    // Only the toaster's own timer (about 5 s) is caught; waitFor's timers run as usual.
    if (delay < 4000 || delay > 6000) return realSetTimeout(run, delay)
    timers.push({ delay, run })
    return 0
  }) as typeof window.setTimeout
  try {
    render(<Toasts />)
    act(() => showToast({ kind: 'success', message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' }))
    await screen.findByText('Votre demande est envoyé, nous revenons vers vous au plus vite')
    await waitFor(() => assert.ok(timers.length > 0, 'the toaster set a timer'))
    assert.ok(
      timers.every((t) => t.delay > TOAST_DURATION_MS - 500 && t.delay <= TOAST_DURATION_MS),
      `timers of ${timers.map((t) => t.delay)} ms`,
    )
    act(() => timers.forEach((t) => t.run()))
    // Dismissed, then removed once its exit animation is over.
    await waitFor(() => assert.is(screen.queryByText('Votre demande est envoyé, nous revenons vers vous au plus vite'), null), {
      timeout: 3000,
    })
  } finally {
    window.setTimeout = realSetTimeout
  }
})

Toaster('an information is shown as it is: neither the success mark nor the error one', async () => {
  render(<Toasts />)
  act(() => showToast({ kind: 'info', message: 'Rien n’a été renvoyé.' }))
  const shown = await screen.findByText('Rien n’a été renvoyé.')
  // react-hot-toast draws the success or error mark beside the status, in the mark's colour.
  assert.is(shown.parentElement!.querySelectorAll('[primary]').length, 0, 'no success or error mark')
  act(() => showToast({ kind: 'error', message: 'Refusé.' }))
  assert.ok((await screen.findByText('Refusé.')).parentElement!.querySelectorAll('[primary]').length > 0, 'an error has its mark')
})

Toaster('each toast is announced, has a « Fermer » button that dismisses it, and Escape dismisses them all', async () => {
  render(<Toasts />)
  act(() => showToast({ kind: 'success', message: 'Adresse enregistrée.' }))
  act(() => showToast({ kind: 'error', message: 'Refusé.' }))
  const saved = await screen.findByText('Adresse enregistrée.')
  assert.is(saved.getAttribute('role'), 'status')
  assert.is(saved.getAttribute('aria-live'), 'polite')
  const bar = saved.parentElement!
  fireEvent.click(within(bar).getByRole('button', { name: 'Fermer' }))
  await waitFor(() => assert.is(screen.queryByText('Adresse enregistrée.'), null), { timeout: 3000 })
  screen.getByText('Refusé.')
  fireEvent.keyDown(document.body, { key: 'Escape' })
  await waitFor(() => assert.is(screen.queryByText('Refusé.'), null), { timeout: 3000 })
})

Toaster('a toast may offer a link (an export’s failures on its page): followed, it goes there and the toast goes', async () => {
  const location = memoryLocation({ path: '/tableau-de-bord', record: true })
  render(
    <Router hook={location.hook}>
      <Toasts />
    </Router>,
  )
  act(() =>
    showToast({
      kind: 'error',
      message: 'Export comptable terminé : 1 pièce envoyée, 1 n’a pas pu l’être.',
      link: { to: '/mes-courriers/export-comptable', label: 'Voir le détail' },
    }),
  )
  const link = await screen.findByRole('link', { name: 'Voir le détail' })
  screen.getByText(/^Export comptable terminé : 1 pièce envoyée, 1 n’a pas pu l’être\./)
  fireEvent.click(link)
  assert.is(location.history.at(-1), '/mes-courriers/export-comptable')
  await waitFor(() => assert.is(screen.queryByRole('link', { name: 'Voir le détail' }), null), { timeout: 3000 })
})

/** Where the toaster puts a toast: 'top' or 'bottom' of the screen. */
const placeOf = (text: string) => {
  const wrapper = screen.getByText(text).closest<HTMLElement>('[data-rht-toaster] > div')!
  return wrapper.style.bottom === '0px' ? 'bottom' : wrapper.style.top === '0px' ? 'top' : `? ${wrapper.getAttribute('style')}`
}

Toaster(
  'on a phone, at the bottom, away from the bars; over an open dialog (at the bottom on a phone), at the top; on a desktop, at the top',
  async () => {
    const desktop = render(<Toasts />)
    act(() => showToast({ kind: 'success', message: 'Enregistré.' }))
    await screen.findByText('Enregistré.')
    assert.is(placeOf('Enregistré.'), 'top')
    desktop.unmount()
    try {
      setViewport(360)
      render(<Toasts />)
      act(() => showToast({ kind: 'success', message: 'Envoyé.' }))
      await screen.findByText('Envoyé.')
      assert.is(placeOf('Envoyé.'), 'bottom')
      const dialog = document.createElement('div')
      dialog.setAttribute('role', 'dialog')
      dialog.setAttribute('aria-modal', 'true')
      act(() => document.body.append(dialog))
      await waitFor(() => assert.is(placeOf('Envoyé.'), 'top'))
      act(() => dialog.remove())
      await waitFor(() => assert.is(placeOf('Envoyé.'), 'bottom'))
    } finally {
      setViewport(1280)
    }
  },
)

Toaster('on a phone a tap anywhere on a toast dismisses it; on a desktop its text can be selected and it stays', async () => {
  const desktop = render(<Toasts />)
  act(() => showToast({ kind: 'error', message: 'Refusé sur ordinateur.' }))
  fireEvent.click(await screen.findByText('Refusé sur ordinateur.'))
  await new Promise((resolve) => setTimeout(resolve, 1500))
  screen.getByText('Refusé sur ordinateur.')
  desktop.unmount()
  act(() => toast.remove())
  try {
    setViewport(360)
    render(<Toasts />)
    act(() => showToast({ kind: 'error', message: 'Refusé sur téléphone.' }))
    act(() => showToast({ kind: 'success', message: 'Enregistré sur téléphone.' }))
    fireEvent.click(await screen.findByText('Refusé sur téléphone.'))
    await waitFor(() => assert.is(screen.queryByText('Refusé sur téléphone.'), null), { timeout: 3000 })
    // Only the one tapped.
    screen.getByText('Enregistré sur téléphone.')
  } finally {
    setViewport(1280)
  }
})

Toaster.run()
