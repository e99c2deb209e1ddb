// Toasts (spec §8, §9): 5 seconds each, at most 20 at once. react-hot-toast keeps at most 20
// toasts by construction (its TOAST_LIMIT); the view test checks it.
import { toast, Toaster } from 'react-hot-toast'
import type { Notice } from '../machines/shared.ts'
import { setupGoober } from './goober.ts'
import { color } from './theme.ts'

// react-hot-toast calls goober's setup when it loads, which drops ours: put it back.
setupGoober()

export function showToast({ kind, message }: Notice) {
  if (kind === 'success') toast.success(message)
  else if (kind === 'info') toast(message)
  else toast.error(message)
}

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
