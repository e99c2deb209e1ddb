// The operators' passkeys: a second factor instead of the authenticator app's code. At sign-in, after the password's
// ticket, the operator's own keys answer a challenge made for them; once signed in, « Mes clés d’accès » adds, lists and
// removes them (each journaled). The ceremonies are the customers' (session/passkeys.ts: challenges, checks, counter).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError, invalidSessionError, notFound } from '../../http/errors.ts'
import { takeAttempt } from '../../http/user-rate-limit.ts'
import { findSignInTicket, openOperatorSession } from '../../db/repositories/operators.ts'
import {
  addOperatorPasskey,
  deleteOperatorPasskey,
  findOperatorPasskey,
  listOperatorPasskeys,
  operatorCredentials,
} from '../../db/repositories/operators-passkeys.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { describeDevice, userAgentOf } from '../../services/devices.ts'
import { ceremony } from '../session/passkeys.ts'
import { OPERATOR_CODE_LIMIT, operatorCodeKey, signedIn, signInMessages } from './sign-in.ts'

export const operatorPasskeyMessages = {
  refused: 'La clé d’accès n’a pas pu être vérifiée. Recommencez, ou saisissez le code de votre application d’authentification.',
  expired: 'La demande a expiré ou a déjà servi : recommencez.',
  unknown: 'Cette clé d’accès n’est pas enregistrée pour ce compte opérateur : saisissez le code de votre application d’authentification.',
  none: 'Aucune clé d’accès n’est enregistrée pour ce compte opérateur : saisissez le code de votre application d’authentification.',
  already: 'Cette clé d’accès est déjà enregistrée.',
  removed: 'La clé d’accès a été supprimée. Le code de votre application d’authentification reste valable.',
} as const

export function operatorPasskeyRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps
  const { authenticationOptions, verifyAuthentication, registrationOptions, verifyRegistration } = ceremony(deps)

  // --- Sign-in, second step

  define('operatorPasskeyOptions', async ({ body }) => {
    const found = await findSignInTicket(db, body.ticket, clock.now())
    if (!found) throw new HttpError(401, signInMessages.ticketExpired, 'SIGN_IN_EXPIRED')
    const held = await operatorCredentials(db, found.id)
    if (held.length === 0) throw new HttpError(409, operatorPasskeyMessages.none, 'NO_PASSKEY')
    // The challenge is the operator's: it serves neither a customer's sign-in nor another operator's.
    return authenticationOptions({ operatorId: found.id }, held)
  })

  define('operatorPasskey', async ({ body }) => {
    const now = clock.now()
    const found = await findSignInTicket(db, body.ticket, now)
    if (!found) throw new HttpError(401, signInMessages.ticketExpired, 'SIGN_IN_EXPIRED')
    const attempt = await takeAttempt(deps, operatorCodeKey(found.id), OPERATOR_CODE_LIMIT)
    // Only this operator's keys: a customer's key, or another operator's, is unknown here.
    const passkey = await findOperatorPasskey(db, found.id, body.credential.id)
    if (!passkey) {
      await attempt.failed()
      throw new HttpError(401, operatorPasskeyMessages.unknown, 'UNKNOWN_PASSKEY')
    }
    const counter = await verifyAuthentication({ operatorId: found.id }, body.credential, passkey, operatorPasskeyMessages).catch(
      async (error: unknown) => {
        await attempt.failed()
        throw error
      },
    )
    await attempt.succeeded()
    const opened = await openOperatorSession(db, {
      ticket: body.ticket,
      operatorId: found.id,
      factor: { passkeyId: passkey.id, counter },
      now,
    })
    if ('refused' in opened) {
      // Another sign-in with this key wrote a counter as high since it was read: this signature is older, refused.
      if (opened.refused === 'replay') throw new HttpError(401, operatorPasskeyMessages.refused, 'PASSKEY_REFUSED')
      throw new HttpError(401, signInMessages.ticketExpired, 'SIGN_IN_EXPIRED')
    }
    return signedIn(deps, found.id, opened.token)
  })

  // --- « Mes clés d’accès »: the signed-in operator's own keys, whatever their roles

  define('operatorMyPasskeys', async ({ operator }) => listOperatorPasskeys(db, operator.id))

  define('operatorPasskeyRegistrationOptions', async ({ operator }) =>
    registrationOptions(
      { operatorId: operator.id },
      {
        userName: operator.email,
        displayName: operator.name,
        // Never a customer's handle (`user-…`): an operator's key is made for the back office's account.
        userID: `operator-${operator.id}`,
        held: await operatorCredentials(db, operator.id),
      },
    ),
  )

  define('operatorRegisterPasskey', async ({ operator, body, req }) => {
    const credential = await verifyRegistration({ operatorId: operator.id }, body.credential, operatorPasskeyMessages)
    const given = body.name?.trim() ?? ''
    const name = isBlank(given) ? describeDevice(userAgentOf(req.headers)) : given
    const now = clock.now()
    const added = await db
      .transaction()
      .execute(async (tx) => {
        const passkey = await addOperatorPasskey(tx, { operatorId: operator.id, ...credential, name })
        if (passkey !== 'inactive')
          await recordJournal(tx, {
            actor: { operatorId: operator.id },
            action: 'operatorPasskey.added',
            summary: `Ajout de la clé d’accès « ${passkey.name} » de ${operator.name}`,
            after: { id: passkey.id, name: passkey.name },
            at: now,
          })
        return passkey
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? new HttpError(409, operatorPasskeyMessages.already, 'CONFLICT') : error
      })
    // Deactivated since the session was checked: no key is kept.
    if (added === 'inactive') throw invalidSessionError()
    return added
  })

  define('operatorDeletePasskey', async ({ operator, params }) => {
    const now = clock.now()
    const removed = await db.transaction().execute(async (tx) => {
      const name = await deleteOperatorPasskey(tx, operator.id, params.id)
      if (name !== undefined)
        await recordJournal(tx, {
          actor: { operatorId: operator.id },
          action: 'operatorPasskey.removed',
          summary: `Suppression de la clé d’accès « ${name} » de ${operator.name}`,
          before: { id: params.id, name },
          at: now,
        })
      return name
    })
    if (removed === undefined) throw notFound('Clé d’accès')
    return { message: operatorPasskeyMessages.removed }
  })
}
