// « Ce n’était pas vous ? » (beyond the spec): the notice of an address change carries a link to the address left
// (/retablir-adresse/{token}); the portal's page sends it here. Why: a stolen session changed the address,
// asked a reset link at the new one and reset the password, and the account was gone for good, the old address only told.
import { addHours } from '../../lib/time.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { HttpError } from '../../http/errors.ts'
import { revertEmailChange, type RevertRefusal } from '../../db/repositories/people-email-reverts.ts'
import { createPasswordResetLink } from '../../db/repositories/session.ts'
import { hashPassword, randomToken } from '../../lib/crypto.ts'
import { resetLinkMail } from '../session/reset-mail.ts'

/** How long the link holds: the old owner may not read that mailbox every day. */
export const EMAIL_REVERT_DAYS = 30

export const emailRevertMessages = {
  unknown: 'Ce lien de rétablissement d’adresse est inconnu : vérifiez qu’il est complet, tel que reçu par e-mail.',
  used: 'Ce lien a déjà servi : l’adresse a déjà été rétablie. Pour vous connecter, choisissez un nouveau mot de passe avec « Mot de passe oublié ? ».',
  expired: (support: string) =>
    `Ce lien a expiré : il n’était valable que ${EMAIL_REVERT_DAYS} jours. Écrivez à ${support} pour retrouver l’accès à votre espace.`,
  superseded: (support: string) =>
    `Ce lien ne peut plus servir : un changement d’adresse antérieur décide, avec le lien envoyé alors à l’adresse d’avant. Écrivez à ${support} si vous avez besoin d’aide.`,
  taken: (email: string, support: string) =>
    `L’adresse ${email} est désormais celle d’un autre compte : elle ne peut pas être rétablie. Écrivez à ${support} pour retrouver l’accès à votre espace.`,
  done: (email: string) =>
    `Votre adresse ${email} est rétablie. Toutes les connexions à votre espace ont été fermées ; un lien pour choisir un nouveau mot de passe vous a été envoyé à cette adresse.`,
  doneWithoutMail: (email: string) =>
    `Votre adresse ${email} est rétablie. Toutes les connexions à votre espace ont été fermées. Le lien pour choisir un nouveau mot de passe n’a pas pu être envoyé : demandez-le avec « Mot de passe oublié ? ».`,
}

export function emailRevertRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, config, clock, mailer } = deps

  const refusal = (refused: RevertRefusal, email: string | undefined) => {
    switch (refused) {
      case 'unknown':
        return new HttpError(404, emailRevertMessages.unknown, 'NOT_FOUND')
      case 'used':
        return new HttpError(410, emailRevertMessages.used, 'REVERT_LINK_USED')
      case 'expired':
        return new HttpError(410, emailRevertMessages.expired(config.supportEmail), 'REVERT_LINK_EXPIRED')
      case 'superseded':
        return new HttpError(410, emailRevertMessages.superseded(config.supportEmail), 'REVERT_LINK_SUPERSEDED')
      case 'taken':
        return new HttpError(409, emailRevertMessages.taken(email ?? 'précédente', config.supportEmail), 'CONFLICT')
    }
  }

  define('revertEmailChange', async ({ params, req }) => {
    const now = clock.now()
    // The password the attacker may have set must not open the account restored: a random one nobody knows, until the
    // owner chooses one with the link below.
    const reverted = await revertEmailChange(db, { token: params.token, now, unknownPasswordHash: await hashPassword(randomToken()) })
    if ('refused' in reverted) throw refusal(reverted.refused, reverted.email)
    // A fresh reset link to the address restored, as « Mot de passe oublié ? » sends it (not counted in its hourly limit, which the
    // attacker may have used up).
    try {
      const made = await createPasswordResetLink(db, reverted.userId, reverted.email, addHours(now, 1))
      if (!made) throw new Error('adresse modifiée entre-temps')
      await mailer.send(resetLinkMail(made, config.publicUrl, config.brandName))
    } catch (error) {
      req.log.error({ err: error }, 'envoi du lien de réinitialisation après rétablissement d’adresse impossible')
      return { message: emailRevertMessages.doneWithoutMail(reverted.email) }
    }
    return { message: emailRevertMessages.done(reverted.email) }
  })
}
