// The signed-in operator (me, sign-out) and the administrators' management of operators: invite, roles, deactivation.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, HttpError, notFound } from '../../http/errors.ts'
import {
  createOperator,
  deactivateOperator,
  endOperatorSession,
  findOperator,
  listOperators,
  OperatorExistsError,
  setOperatorRoles,
  toOperatorSummary,
} from '../../db/repositories/operators.ts'
import { newTotpSecret } from '../../lib/totp.ts'

/** The page of the back office that an enrolment link opens. */
export const enrolmentUrl = (publicUrl: string, token: string) => `${publicUrl}/operateur/inscription/${token}`

export const adminMessages = {
  exists: 'Un opérateur a déjà cette adresse e-mail.',
  selfDeactivate: 'Vous ne pouvez pas désactiver votre propre compte : demandez-le à un autre administrateur.',
  selfAdmin: 'Vous ne pouvez pas retirer votre propre rôle « Administrateur » : demandez-le à un autre administrateur.',
  alreadyInactive: 'Cet opérateur est déjà désactivé.',
  signedOut: 'Vous êtes déconnecté du back-office.',
}

export function adminRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, config } = deps

  define('operatorMe', async ({ operator }) => ({ id: operator.id, email: operator.email, name: operator.name, roles: operator.roles }))

  define('operatorSignOut', async ({ operator }) => {
    await endOperatorSession(db, operator.sessionId, clock.now())
    return { message: adminMessages.signedOut }
  })

  define('operatorList', async () => (await listOperators(db)).map(toOperatorSummary))

  define('operatorInvite', async ({ body }) => {
    const made = await db
      .transaction()
      .execute((tx) => createOperator(tx, { ...body, totpSecret: newTotpSecret(), now: clock.now() }))
      .catch((error: unknown) => {
        if (error instanceof OperatorExistsError) throw conflict(adminMessages.exists)
        throw error
      })
    return {
      operator: toOperatorSummary(made.row),
      enrolmentUrl: enrolmentUrl(config.publicUrl, made.enrolmentToken),
      enrolmentExpiresAt: made.enrolmentExpiresAt.toISOString(),
    }
  })

  define('operatorSetRoles', async ({ params, body, operator }) => {
    if (params.id === operator.id && !body.roles.includes('admin')) throw new HttpError(409, adminMessages.selfAdmin, 'CONFLICT')
    const row = await setOperatorRoles(db, params.id, body.roles)
    if (!row) throw notFound('Opérateur')
    return toOperatorSummary(row)
  })

  define('operatorDeactivate', async ({ params, operator }) => {
    if (params.id === operator.id) throw new HttpError(409, adminMessages.selfDeactivate, 'CONFLICT')
    const row = await db.transaction().execute((tx) => deactivateOperator(tx, params.id, clock.now()))
    if (row) return toOperatorSummary(row)
    if (await findOperator(db, params.id)) throw conflict(adminMessages.alreadyInactive)
    throw notFound('Opérateur')
  })
}
