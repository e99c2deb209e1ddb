// What the startup reads (spec §4): the user's contracts, their orders, and each order's checks.
import type { AppDeps } from '../../deps.ts'
import { JsonText, type DefineRoute } from '../../http/define-route.ts'
import { listContracts, ordersOfSessionJson, requireOrder } from '../../db/repositories/company-orders.ts'
import { isAttenteCourrierOrFinalise, isCompleteKbis, isWaitingContract } from '../../services/order-checks.ts'

export function startupRoutes(define: DefineRoute, { db }: AppDeps) {
  define('contracts', async ({ user }) => listContracts(db, user.id))

  // Hot: the token check joined into the list's statement.
  define.joined('myOrders', async ({ session }) => new JsonText(await ordersOfSessionJson(db, session)))

  define('isAttenteCourrierOrFinalise', async ({ user, params }) => {
    return { result: isAttenteCourrierOrFinalise(await requireOrder(db, user.id, params.id, 'member')) }
  })

  define('isCompleteKbis', async ({ user, params }) => {
    return { result: isCompleteKbis(await requireOrder(db, user.id, params.id, 'member')) }
  })

  define('isWaitingContract', async ({ user, params }) => {
    return { result: isWaitingContract(await requireOrder(db, user.id, params.id, 'member')) }
  })
}
