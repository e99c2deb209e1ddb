// Signing in and out, a forgotten password, the current user (spec §4, §7). Signing in with a passkey: passkeys.ts.
import { addDays, addHours } from '../../lib/time.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, invalidSessionError, messages } from '../../http/errors.ts'
import { takeAttempt, withinUserLimit, type AttemptLimit } from '../../http/user-rate-limit.ts'
import { clearRateLimits } from '../../db/repositories/rate-limits.ts'
import {
  createPasswordResetLink,
  findCurrentUser,
  findUserByEmail,
  openPasswordSession,
  resetPasswordWithToken,
  revokeSession,
  toUser,
} from '../../db/repositories/session.ts'
import { hashPassword, legacySchemeDecoy, needsRehash, verifyPassword } from '../../lib/crypto.ts'
import { userAgentOf } from '../../services/devices.ts'
import { passkeyLoginRoutes } from './passkeys.ts'
import { resetLinkMail } from './reset-mail.ts'
import { passwordProblem } from '../../services/password-policy.ts'
import { sendSecurityNotice } from '../../services/security-notice.ts'
import { startupRoutes } from './orders.ts'

// Verifying against this when the account does not exist keeps failed logins equally slow either way (the back
// office's sign-in uses it too: one hash made at start, not one per sign-in form).
export const decoyHash = hashPassword('mot de passe factice')
// And a failure also checks against the other scheme's decoy: argon2id and scrypt (accounts not signed in since
// argon2id came) then cost the same, so a failure's time tells neither whether the account exists nor its scheme.
const legacyDecoyHash = legacySchemeDecoy()

export const resetRequestReply =
  'Si un compte existe pour cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe.'

/**
 * Reset links e-mailed to one account: the per-IP limit let a few addresses send it 40 links a minute (and leave 40 live
 * reset rows). Past it nothing is sent, and the answer is the same as ever: it left before the address was looked up.
 */
export const RESET_MAIL_LIMIT = { name: 'resetPasswordMail', max: 3, windowMs: 3_600_000 }

export const minutesText = (minutes: number) => (minutes === 1 ? '1 minute' : `${minutes} minutes`)

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
/** The counters' keys: one for the address typed on /login, one for the user on a password change (people/account.ts). */
export const loginAttemptsKey = (email: string) => `password:${email.trim().toLowerCase()}`
export const changeAttemptsKey = (userId: number) => `user:${userId}:passwordChecks`

export const passwordResetReply = 'Votre mot de passe a été modifié, vous pouvez vous connecter.'
/** Said after a reset that removed the account's passkeys (resetPasswordWithToken). */
export const passkeysRemovedReply = (count: number) =>
  count === 1
    ? 'Votre clé d’accès a été supprimée : vous pourrez en ajouter une depuis « Informations personnelles ».'
    : 'Vos clés d’accès ont été supprimées : vous pourrez en ajouter une depuis « Informations personnelles ».'

/** A chosen password against the rule (12 characters at least, not a common one): a French 400 otherwise. */
export function checkNewPassword(password: string, field = 'BAD_PASSWORD') {
  const problem = passwordProblem(password)
  if (problem) throw badRequest(problem, field)
}

export function sessionRoutes(define: DefineRoute, deps: AppDeps) {
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
        // the lookup gets no link; one changing now closes it (session.ts, the lock order).
        const made = await createPasswordResetLink(db, user.id, body.email, addHours(clock.now(), 1))
        if (!made) return reply as never
        await mailer.send(resetLinkMail(made, portalOrigin(body.domain, config.allowedOrigins, config.publicUrl), config.brandName))
      }
    } catch (error) {
      req.log.error({ err: error }, 'envoi de l’e-mail de réinitialisation impossible')
    }
    return reply as never
  })

  define('resetPassword', async ({ body, req }) => {
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
    const notice = { to: user.email, firstname: user.firstname, passkeysRemoved: user.passkeysRemoved, at: clock.now().toISOString() }
    await sendSecurityNotice(deps, { kind: 'password-reset', ...notice }, null, req.log)
    return { message: `${passwordResetReply}${user.passkeysRemoved === 0 ? '' : ` ${passkeysRemovedReply(user.passkeysRemoved)}`}` }
  })

  // Hot: one statement, the session is the answer.
  define.joined('currentUser', async ({ session }) => (await findCurrentUser(db, session)) ?? Promise.reject(invalidSessionError()))

  // « Se déconnecter »: the session ends in the database, not only in the browser's storage (a token
  // kept by a shared computer or a script stayed valid for its 30 days after the sign-out).
  define('signOut', async ({ user }) => {
    await revokeSession(db, user.id, user.tokenHash)
    return { message: 'Vous êtes déconnecté.' }
  })

  passkeyLoginRoutes(define, deps)

  startupRoutes(define, deps)
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
