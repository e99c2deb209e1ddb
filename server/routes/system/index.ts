import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError } from '../../http/errors.ts'
import { ping } from '../../db/connect.ts'
import { storageCheckRoutes } from './storage-check.ts'

export function systemRoutes(define: DefineRoute, deps: AppDeps, databaseKind: 'pglite' | 'postgres') {
  const { db, payments } = deps
  storageCheckRoutes(define, deps)
  define('health', async ({ reply, req }) => {
    try {
      await ping(db)
    } catch (error) {
      // An outage, not a bug: one warning with the error's code and message, no stack, and no second « erreur interne »
      // line from the error handler (the balancer asks every few seconds while it lasts).
      req.log.warn({ code: (error as { code?: string }).code, message: (error as Error).message }, 'la base de données ne répond pas')
      throw new HttpError(503, 'La base de données ne répond pas.', 'DATABASE_DOWN', { logged: true })
    }
    reply.header('Cache-Control', 'no-store')
    return { status: 'ok' as const, database: databaseKind, paymentProvider: payments.kind }
  })
}
