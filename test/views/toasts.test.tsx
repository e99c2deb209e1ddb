import '../util/dom.ts'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import toast from 'react-hot-toast'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Toasts, { MAX_TOASTS, showToast, TOAST_DURATION_MS } from '../../src/views/Toasts.tsx'

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
    assert.ok(timers.every((t) => t.delay > TOAST_DURATION_MS - 500 && t.delay <= TOAST_DURATION_MS), `timers of ${timers.map((t) => t.delay)} ms`)
    act(() => timers.forEach((t) => t.run()))
    // Dismissed, then removed once its exit animation is over.
    await waitFor(() => assert.is(screen.queryByText('Votre demande est envoyé, nous revenons vers vous au plus vite'), null), { timeout: 3000 })
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

Toaster.run()
