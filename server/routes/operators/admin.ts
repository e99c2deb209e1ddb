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
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { newTotpSecret } from '../../lib/totp.ts'
import { enrolmentPath, rolesText } from '../../contract/rules/backoffice.ts'

/** The page of the back office that an enrolment link opens. */
export const enrolmentUrl = (publicUrl: string, token: string) => `${publicUrl}${enrolmentPath(token)}`

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

  define('operatorInvite', async ({ body, operator }) => {
    const now = clock.now()
    const made = await db
      .transaction()
      .execute(async (tx) => {
        const invited = await createOperator(tx, { ...body, totpSecret: newTotpSecret(), now })
        await recordJournal(tx, {
          actor: { operatorId: operator.id },
          action: 'operator.invited',
          summary: `Invitation de l’opérateur ${invited.row.email} (${rolesText(invited.row.roles)})`,
          after: { id: invited.row.id, email: invited.row.email, name: invited.row.name, roles: invited.row.roles },
          at: now,
        })
        return invited
      })
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
    const now = clock.now()
    const row = await db.transaction().execute(async (tx) => {
      const before = await findOperator(tx, params.id, { forUpdate: true })
      if (!before) return undefined
      const after = (await setOperatorRoles(tx, params.id, body.roles))!
      await recordJournal(tx, {
        actor: { operatorId: operator.id },
        action: 'operator.roles',
        summary: `Rôles de ${after.email} : ${rolesText(before.roles)} → ${rolesText(after.roles)}`,
        before: { roles: before.roles },
        after: { roles: after.roles },
        at: now,
      })
      return after
    })
    if (!row) throw notFound('Opérateur')
    return toOperatorSummary(row)
  })

  define('operatorDeactivate', async ({ params, operator }) => {
    if (params.id === operator.id) throw new HttpError(409, adminMessages.selfDeactivate, 'CONFLICT')
    const now = clock.now()
    const row = await db.transaction().execute(async (tx) => {
      const done = await deactivateOperator(tx, params.id, now)
      if (done)
        await recordJournal(tx, {
          actor: { operatorId: operator.id },
          action: 'operator.deactivated',
          summary: `Désactivation de l’opérateur ${done.email} : ses sessions sont fermées`,
          before: { active: true },
          after: { active: false },
          at: now,
        })
      return done
    })
    if (row) return toOperatorSummary(row)
    if (await findOperator(db, params.id)) throw conflict(adminMessages.alreadyInactive)
    throw notFound('Opérateur')
  })
}
