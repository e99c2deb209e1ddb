// Login, password reset, the signed-in user's profile.
import { addDays, addHours } from '../../services/time.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, messages } from '../../http/errors.ts'
import {
  createApiToken, createPasswordResetToken, findPasswordHash, findUserByEmail, resetPasswordWithToken, revokeOtherTokens, setPasswordHash, toUser,
  updateUserEmail,
} from '../../db/repositories/users.ts'
import { hashPassword, verifyPassword } from '../../services/crypto.ts'

// Verifying against this when the account does not exist keeps failed logins equally slow either way.
const decoyHash = hashPassword('mot de passe factice')

export const resetRequestReply = 'Si un compte existe pour cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe.'

export function accountRoutes(define: DefineRoute, { db, config, clock, mailer }: AppDeps) {
  define('login', async ({ body }) => {
    const user = await findUserByEmail(db, body.username)
    const valid = await verifyPassword(body.password, user?.password_hash ?? (await decoyHash))
    if (!user || !valid) throw new HttpError(401, messages.badCredentials, 'BAD_CREDENTIALS')
    const expiresAt = addDays(clock.now(), config.tokenTtlDays)
    const apiToken = await createApiToken(db, user.id, expiresAt)
    return { ...toUser(user), apiToken, apiTokenExpiresAt: expiresAt.toISOString() }
  })

  define('resetPasswordRequest', async ({ body, req }) => {
    const user = await findUserByEmail(db, body.email)
    if (user) {
      const token = await createPasswordResetToken(db, user.id, addHours(clock.now(), 1))
      const link = `${portalOrigin(body.domain, config.allowedOrigins, config.publicUrl)}/set-password/${token}`
      await mailer.send({
        to: user.email,
        subject: `${config.brandName} : réinitialisation de votre mot de passe`,
        text: `Bonjour ${user.firstname},\n\nPour choisir un nouveau mot de passe, ouvrez ce lien (valable une heure, une seule fois) :\n${link}\n\nSi vous n’êtes pas à l’origine de cette demande, ignorez ce message.\n\n${config.brandName}`,
        link,
      }).catch((error: unknown) => req.log.error({ err: error }, 'envoi de l’e-mail de réinitialisation impossible'))
    }
    return { message: resetRequestReply }
  })

  define('resetPassword', async ({ body }) => {
    const passwordHash = await hashPassword(body.password)
    const userId = await resetPasswordWithToken(db, body.token, passwordHash, clock.now())
    if (userId === null) throw badRequest('Ce lien de réinitialisation est invalide, a déjà servi ou a expiré : demandez-en un nouveau.', 'INVALID_RESET_TOKEN')
    return { message: 'Votre mot de passe a été modifié, vous pouvez vous connecter.' }
  })

  define('currentUser', async ({ user }) => toUser(user))

  define('updateEmail', async ({ user, body }) => {
    const taken = await findUserByEmail(db, body.newEmail)
    if (taken && taken.id !== user.id) throw conflict('Cette adresse e-mail est déjà utilisée par un autre compte.')
    return updateUserEmail(db, user.id, body.newEmail.trim())
  })

  define('updatePassword', async ({ user, body }) => {
    if (!(await verifyPassword(body.currentPassword, await findPasswordHash(db, user.id)))) throw badRequest('Le mot de passe actuel est incorrect.', 'BAD_PASSWORD')
    await setPasswordHash(db, user.id, await hashPassword(body.newPassword))
    // Other sessions (another browser, a stolen token) end with the old password; this one goes on.
    await revokeOtherTokens(db, user.id, user.tokenHash)
    return { message: 'Votre mot de passe a été modifié.' }
  })
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
