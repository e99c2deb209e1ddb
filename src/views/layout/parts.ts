// The dashboard layout's parts that its first screen does not draw at once, each its own chunk: the bell (its place
// kept meanwhile, Header.tsx), the dialogs (the problem report, the Kbis upload) and the order choice. Fetched once
// that screen has painted, or by the first render that needs one.
import { preloadable } from '../components/preloadable.ts'

export const NotificationBell = preloadable(() =>
  import('../pages/notifications/NotificationBell.tsx').then((m) => ({ default: m.NotificationBell })),
)
export const ProblemModal = preloadable(() => import('../pages/notifications/ProblemModal.tsx').then((m) => ({ default: m.ProblemModal })))
export const KbisDialog = preloadable(() => import('../pages/company/KbisDialog.tsx').then((m) => ({ default: m.KbisDialog })))
export const OrderSelection = preloadable(() => import('../pages/session/OrderSelection.tsx').then((m) => ({ default: m.OrderSelection })))

/** Fetches them all, once the first signed-in screen has painted and the page is idle (DashboardLayout.tsx). */
export function preloadLayoutParts() {
  for (const part of [NotificationBell, ProblemModal, KbisDialog, OrderSelection]) void part.preload().catch(() => {})
}
