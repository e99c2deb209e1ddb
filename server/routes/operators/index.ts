// The operators area: the back office's sign-in (sign-in.ts), its administration (admin.ts), the journal (journal.ts) and
// the machines' API keys (api-keys.ts).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { adminRoutes } from './admin.ts'
import { apiKeyRoutes } from './api-keys.ts'
import { journalRoutes } from './journal.ts'
import { signInRoutes } from './sign-in.ts'

export function operatorsRoutes(define: DefineRoute, deps: AppDeps) {
  signInRoutes(define, deps)
  adminRoutes(define, deps)
  journalRoutes(define, deps)
  apiKeyRoutes(define, deps)
}
