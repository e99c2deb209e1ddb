// Toasts (spec §8, §9): 5 seconds each, at most 20 at once. react-hot-toast keeps at most 20
// toasts by construction (its TOAST_LIMIT); the view test checks it.
import { Toaster } from 'react-hot-toast'
import { color } from './theme.ts'

export const TOAST_DURATION_MS = 5000
export const MAX_TOASTS = 20

export default function Toasts() {
  return (
    <Toaster
      position="top-center"
      toastOptions={{
        duration: TOAST_DURATION_MS,
        style: { maxWidth: '32rem', color: color.text },
        success: { iconTheme: { primary: color.success, secondary: '#fff' } },
        error: { iconTheme: { primary: color.danger, secondary: '#fff' } },
      }}
    />
  )
}
