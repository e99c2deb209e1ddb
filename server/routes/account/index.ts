// Login, password reset, the signed-in user's profile, password and devices (passkeys: passkeys.ts).
import { addDays, addHours } from '../../lib/time.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, invalidSessionError, messages } from '../../http/errors.ts'
import { limitPerUser, takeAttempt, withinUserLimit, type AttemptLimit } from '../../http/user-rate-limit.ts'
import { clearRateLimits } from '../../db/repositories/rate-limits.ts'
import {
  changePassword,
  createPasswordResetLink,
  findCurrentUser,
  findPasswordHash,
  findUserByEmail,
  listSessions,
  openPasswordSession,
  resetPasswordWithToken,
  revokeOtherSessions,
  revokeSession,
  toUser,
} from '../../db/repositories/users.ts'
import { changeEmailWithRevertLink } from '../../db/repositories/email-reverts.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { hashPassword, legacySchemeDecoy, needsRehash, verifyPassword } from '../../lib/crypto.ts'
import { describeDevice, userAgentOf } from '../../services/devices.ts'
import { passkeyRoutes } from './passkeys.ts'
import { EMAIL_REVERT_DAYS, emailRevertRoutes } from './email-revert.ts'
import { resetLinkMail } from './reset-mail.ts'
import { passwordProblem } from '../../services/password-policy.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'

// Verifying against this when the account does not exist keeps failed logins equally slow either way.
const decoyHash = hashPassword('mot de passe factice')
// And a failure also checks against the other scheme's decoy: argon2id and scrypt (accounts not signed in since
// argon2id came) then cost the same, so a failure's time tells neither whether the account exists nor its scheme.
const legacyDecoyHash = legacySchemeDecoy()

export const resetRequestReply =
  'Si un compte existe pour cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe.'

/** A changed address is told at once to whoever asks; so few tries an hour tell nothing worth having. */
export const EMAIL_CHANGE_LIMIT = {
  name: 'updateEmail',
  max: 5,
  windowMs: 3_600_000,
  message: 'Trop de changements d’adresse en peu de temps : réessayez dans une heure.',
}

/**
 * Reset links e-mailed to one account: the per-IP limit let a few addresses send it 40 links a minute (and leave 40 live
 * reset rows). Past it nothing is sent, and the answer is the same as ever: it left before the address was looked up.
 */
export const RESET_MAIL_LIMIT = { name: 'resetPasswordMail', max: 3, windowMs: 3_600_000 }

const minutesText = (minutes: number) => (minutes === 1 ? '1 minute' : `${minutes} minutes`)

/**
 * Wrong passwords per account, whichever IPs send them: the per-IP limit alone let 60 addresses of one /48 try 60
 * passwords a minute on one account. Counted for the address typed (trimmed, case ignored), so an unknown address is
 * held exactly as a known one and the 429 tells nothing of who has an account.
 */
export const LOGIN_PASSWORD_LIMIT: AttemptLimit = {
  max: 10,
  windowMs: 15 * 60_000,
  message: (minutes) =>
    `Trop d’essais de mot de passe pour ce compte : réessayez dans ${minutesText(minutes)}, ou choisissez « Mot de passe oublié ? ».`,
}
/** Wrong current passwords per signed-in user on a password change (a stolen session must not test passwords there). */
export const CHANGE_PASSWORD_LIMIT: AttemptLimit = {
  max: 10,
  windowMs: 15 * 60_000,
  message: (minutes) =>
    `Trop d’essais de mot de passe pour ce compte : réessayez dans ${minutesText(minutes)}. Si vous l’avez oublié, déconnectez-vous puis choisissez « Mot de passe oublié ? ».`,
}
/** The counters' keys: one for the address typed on /login, one for the user on a password change. */
export const loginAttemptsKey = (email: string) => `password:${email.trim().toLowerCase()}`
export const changeAttemptsKey = (userId: number) => `user:${userId}:passwordChecks`

export const passwordResetReply = 'Votre mot de passe a été modifié, vous pouvez vous connecter.'
/** Said after a reset that removed the account's passkeys (resetPasswordWithToken). */
export const passkeysRemovedReply = (count: number) =>
  count === 1
    ? 'Votre clé d’accès a été supprimée : vous pourrez en ajouter une depuis « Informations personnelles ».'
    : 'Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».'

export const emailTaken = 'Cette adresse e-mail est déjà utilisée par un autre compte.'

/** A chosen password against the rule (12 characters at least, not a common one): a French 400 otherwise. */
export function checkNewPassword(password: string, field = 'BAD_PASSWORD') {
  const problem = passwordProblem(password)
  if (problem) throw badRequest(problem, field)
}

export function accountRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock, mailer } = deps

  define('login', async ({ body, req }) => {
    // Before anything is looked up or checked: the same statement, and the same 429, for a known and an unknown address.
    const attempt = await takeAttempt(deps, loginAttemptsKey(body.username), LOGIN_PASSWORD_LIMIT)
    const user = await findUserByEmail(db, body.username)
    const stored = user?.password_hash ?? (await decoyHash)
    const valid = await verifyPassword(body.password, stored)
    const badCredentials = () => new HttpError(401, messages.badCredentials, 'BAD_CREDENTIALS')
    if (!user || !valid) {
      await verifyPassword(body.password, stored.startsWith('scrypt$') ? await decoyHash : legacyDecoyHash)
      await attempt.failed()
      throw badCredentials()
    }
    await attempt.succeeded()
    const expiresAt = addDays(clock.now(), config.tokenTtlDays)
    // Opened only while the password is still the one checked: a reset or a change committed meanwhile wins (its
    // "every session ends" cannot miss this one, nor this rehash write the old password back).
    const apiToken = await openPasswordSession(db, {
      userId: user.id,
      checkedHash: user.password_hash,
      expiresAt,
      userAgent: userAgentOf(req.headers),
      now: clock.now(),
      // Hashes of an older scheme (scrypt) or weaker settings become argon2id now that the password is known.
      rehash: needsRehash(user.password_hash) ? await hashPassword(body.password) : null,
    })
    if (!apiToken) throw badCredentials()
    return { ...toUser(user), apiToken, apiTokenExpiresAt: expiresAt.toISOString() }
  })

  define('resetPasswordRequest', async ({ body, req, reply }) => {
    // The answer leaves before the address is even looked up: it costs the same whether or not an account exists.
    await reply.send({ message: resetRequestReply })
    try {
      const user = await findUserByEmail(db, body.email)
      if (user && !(await withinUserLimit(deps, user.id, RESET_MAIL_LIMIT))) {
        req.log.warn({ userId: user.id }, 'lien de réinitialisation non envoyé : limite de liens par compte atteinte')
      } else if (user) {
        // Made only while the account still has the address asked for (its row held meanwhile): an address changed since
        // the lookup gets no link; one changing now closes it (users.ts, the lock order).
        const made = await createPasswordResetLink(db, user.id, body.email, addHours(clock.now(), 1))
        if (!made) return reply as never
        await mailer.send(resetLinkMail(made, portalOrigin(body.domain, config.allowedOrigins, config.publicUrl), config.brandName))
      }
    } catch (error) {
      req.log.error({ err: error }, 'envoi de l’e-mail de réinitialisation impossible')
    }
    return reply as never
  })

  define('resetPassword', async ({ body }) => {
    checkNewPassword(body.password)
    const passwordHash = await hashPassword(body.password)
    const user = await resetPasswordWithToken(db, body.token, passwordHash, clock.now())
    if (user === null)
      throw badRequest(
        'Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.',
        'INVALID_RESET_TOKEN',
      )
    // The owner proved the mailbox and chose a new password: the wrong ones typed before (theirs, or a guesser's) no
    // longer hold the account.
    await clearRateLimits(db, [loginAttemptsKey(user.email), changeAttemptsKey(user.id)])
    return { message: `${passwordResetReply}${user.passkeysRemoved === 0 ? '' : ` ${passkeysRemovedReply(user.passkeysRemoved)}`}` }
  })

  // Hot: one statement, the session is the answer.
  define.joined('currentUser', async ({ session }) => (await findCurrentUser(db, session)) ?? Promise.reject(invalidSessionError()))

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

  define('updatePassword', async ({ user, body }) => {
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

  // « Se déconnecter »: the session ends in the database, not only in the browser's storage (a token
  // kept by a shared computer or a script stayed valid for its 30 days after the sign-out).
  define('signOut', async ({ user }) => {
    await revokeSession(db, user.id, user.tokenHash)
    return { message: 'Vous êtes déconnecté.' }
  })

  passkeyRoutes(define, deps)
  emailRevertRoutes(define, deps)
}

/** The portal origin the reset link points to: the `domain` sent by the SPA if it is one of ours, else PUBLIC_URL. */
export function portalOrigin(domain: string, allowedOrigins: string[], fallback: string): string {
  try {
    const origin = new URL(domain).origin
    return allowedOrigins.includes(origin) ? origin : fallback
  } catch {
    return fallback
  }
}
