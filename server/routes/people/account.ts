// The signed-in person's account: e-mail address (with its « Ce n’était pas vous ? » link, email-revert.ts), password and
// signed-in devices (passkeys: passkeys.ts).
import { addDays } from '../../lib/time.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, invalidSessionError } from '../../http/errors.ts'
import { limitPerUser, takeAttempt, type AttemptLimit } from '../../http/user-rate-limit.ts'
import {
  changePassword,
  findPasswordHash,
  findUserByEmail,
  listSessions,
  revokeOtherSessions,
  toUser,
} from '../../db/repositories/session.ts'
import { changeEmailWithRevertLink } from '../../db/repositories/people-email-reverts.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { hashPassword, verifyPassword } from '../../lib/crypto.ts'
import { describeDevice } from '../../services/devices.ts'
import { passkeyRoutes } from './passkeys.ts'
import { EMAIL_REVERT_DAYS, emailRevertRoutes } from './email-revert.ts'
import { changeAttemptsKey, checkNewPassword, minutesText } from '../session/index.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'

/** A changed address is told at once to whoever asks; so few tries an hour tell nothing worth having. */
export const EMAIL_CHANGE_LIMIT = {
  name: 'updateEmail',
  max: 5,
  windowMs: 3_600_000,
  message: 'Trop de changements d’adresse en peu de temps : réessayez dans une heure.',
}

/** Wrong current passwords per signed-in user on a password change (a stolen session must not test passwords there). */
export const CHANGE_PASSWORD_LIMIT: AttemptLimit = {
  max: 10,
  windowMs: 15 * 60_000,
  message: (minutes) =>
    `Trop d’essais de mot de passe pour ce compte : réessayez dans ${minutesText(minutes)}. Si vous l’avez oublié, déconnectez-vous puis choisissez « Mot de passe oublié ? ».`,
}

export const emailTaken = 'Cette adresse e-mail est déjà utilisée par un autre compte.'

export function accountRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps

  define('updateEmail', async ({ user, body, req }) => {
    await limitPerUser(deps, user.id, EMAIL_CHANGE_LIMIT)
    const newEmail = body.newEmail.trim()
    if (newEmail.toLowerCase() === user.email.toLowerCase()) return toUser(user)
    const taken = await findUserByEmail(db, newEmail)
    if (taken && taken.id !== user.id) throw conflict(emailTaken)
    const now = clock.now()
    // The change and the link that undoes it (« Ce n’était pas vous ? », email-revert.ts), in one transaction.
    const changed = await changeEmailWithRevertLink(db, {
      userId: user.id,
      newEmail,
      now,
      expiresAt: addDays(now, EMAIL_REVERT_DAYS),
      sessionTokenHash: user.tokenHash,
    }).catch((error: unknown) => {
      // Another account took the address meanwhile: the unique index says so.
      throw isUniqueViolation(error) ? conflict(emailTaken) : error
    })
    // Left by another account whose revert link still holds: told as taken, which it is until then.
    if (changed === 'reserved') throw conflict(emailTaken)
    // Ended meanwhile (a revert or a reset of the account): nothing changed.
    if (changed === 'ended') throw invalidSessionError()
    // An address only typed (never proven: a typo, maybe a stranger's) is told nothing. A proven one is told, with the link
    // that gives the account back when it is the one holding (a stolen session cannot move it away for good); without it
    // when an earlier change's link still holds (mailed to the address before that one).
    if (changed.oldVerified) {
      await sendSecurityNotice(
        deps,
        {
          kind: 'email-changed',
          to: changed.oldEmail,
          firstname: user.firstname,
          newEmail,
          days: EMAIL_REVERT_DAYS,
          revertLinkId: changed.linkId,
        },
        changed.token,
        req.log,
      )
    }
    return changed.user
  })

  define('updatePassword', async ({ user, body, req }) => {
    const attempt = await takeAttempt(deps, changeAttemptsKey(user.id), CHANGE_PASSWORD_LIMIT)
    const checkedHash = await findPasswordHash(db, user.id)
    if (!(await verifyPassword(body.currentPassword, checkedHash))) {
      await attempt.failed()
      throw badRequest('Le mot de passe actuel est incorrect.', 'BAD_PASSWORD')
    }
    await attempt.succeeded()
    checkNewPassword(body.newPassword)
    // Other sessions (another browser, a stolen token) and reset links end with the old password; this one goes on.
    const changed = await changePassword(db, {
      userId: user.id,
      checkedHash,
      newHash: await hashPassword(body.newPassword),
      keepTokenHash: user.tokenHash,
      now: clock.now(),
    })
    if (!changed) throw conflict('Votre mot de passe vient d’être modifié par ailleurs : saisissez le nouveau comme mot de passe actuel.')
    await sendSecurityNotice(
      deps,
      { kind: 'password-changed', to: user.email, firstname: user.firstname, at: clock.now().toISOString() },
      null,
      req.log,
    )
    return { message: 'Votre mot de passe a été modifié.' }
  })

  define('sessions', async ({ user }) => {
    const rows = await listSessions(db, user.id, clock.now())
    return rows.map((r) => ({
      id: r.id,
      device: describeDevice(r.user_agent),
      createdAt: r.created_at.toISOString(),
      lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
      current: r.token_hash === user.tokenHash,
    }))
  })

  define('signOutOtherSessions', async ({ user }) => {
    const signedOut = await revokeOtherSessions(db, user.id, user.tokenHash)
    return {
      signedOut,
      message:
        signedOut === 0
          ? 'Aucun autre appareil n’était connecté.'
          : signedOut === 1
            ? 'L’autre appareil a été déconnecté.'
            : `Les ${signedOut} autres appareils ont été déconnectés.`,
    }
  })

  passkeyRoutes(define, deps)
  emailRevertRoutes(define, deps)
}
