// The operators area: the back office's sign-in (sign-in.ts), its administration (admin.ts), the journal (journal.ts),
// the machines' API keys (api-keys.ts), the embedded database's dump for backups (backups.ts), the Clients (clients.ts),
// the dashboard's queues (dashboard.ts) and the operators' passkeys (passkeys.ts).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { adminRoutes } from './admin.ts'
import { apiKeyRoutes } from './api-keys.ts'
import { backupRoutes } from './backups.ts'
import { clientRoutes } from './clients.ts'
import { dashboardRoutes } from './dashboard.ts'
import { journalRoutes } from './journal.ts'
import { operatorPasskeyRoutes } from './passkeys.ts'
import { signInRoutes } from './sign-in.ts'

export function operatorsRoutes(define: DefineRoute, deps: AppDeps) {
  signInRoutes(define, deps)
  adminRoutes(define, deps)
  journalRoutes(define, deps)
  apiKeyRoutes(define, deps)
  backupRoutes(define, deps)
  clientRoutes(define, deps)
  dashboardRoutes(define, deps)
  operatorPasskeyRoutes(define, deps)
}
