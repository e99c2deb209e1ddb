// What the back office keeps in the browser: the operator's session (token, who, roles) under a key of its own, never
// the customers' `user`. Storage can be unavailable (private browsing, quotas): nothing here throws, the session is
// then simply not kept past the page.
import type { OperatorSession } from '../machines/operators/operatorSession.machine.ts'

export const OPERATOR_SESSION_KEY = 'operatorSession'

function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn()
  } catch {
    return fallback
  }
}

export function readOperatorSession(): OperatorSession | null {
  return attempt(() => {
    const kept = JSON.parse(localStorage.getItem(OPERATOR_SESSION_KEY) ?? 'null') as Partial<OperatorSession> | null
    if (kept && typeof kept.token === 'string' && kept.token !== '' && kept.operator && Array.isArray(kept.operator.roles))
      return kept as OperatorSession
    localStorage.removeItem(OPERATOR_SESSION_KEY)
    return null
  }, null)
}

export const writeOperatorSession = (session: OperatorSession) =>
  attempt(() => localStorage.setItem(OPERATOR_SESSION_KEY, JSON.stringify(session)), undefined)

/** Removes the kept session, unless it is another one than `token` (another tab signed in since): that one stays. */
export function forgetOperatorSession(token: string | null): void {
  const kept = readOperatorSession()
  if (kept && kept.token !== token) return
  attempt(() => localStorage.removeItem(OPERATOR_SESSION_KEY), undefined)
}

/** Signed out in another tab (the kept session gone or replaced there): `listener` runs here. */
export function onSessionChangedElsewhere(listener: (kept: OperatorSession | null) => void): () => void {
  const follow = (event: StorageEvent) => event.key === OPERATOR_SESSION_KEY && listener(readOperatorSession())
  globalThis.window?.addEventListener('storage', follow)
  return () => globalThis.window?.removeEventListener('storage', follow)
}
