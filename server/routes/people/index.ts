// The people around an order: collaborators (shares, invited by e-mail, with access only once they
// accept the link), the invitation link itself, representatives (mandataires), and the referral
// e-mail ("Recommander").
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'
import { limitPerUser, takeFromUserLimit, type UserLimit } from '../../http/user-rate-limit.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { reservedByRevert } from '../../db/repositories/people-email-reverts.ts'
import { requireOrder } from '../../db/repositories/company-orders.ts'
import {
  acceptInvitation,
  createMandataire,
  deleteMandataire,
  deleteShare,
  findInvitation,
  inviteToOrder,
  listMandataires,
  listShares,
  sharesByEmail,
  undoInvitation,
  type InvitationRefusal,
} from '../../db/repositories/people.ts'
import { createApiToken, createUser, findUserByEmail, toUser } from '../../db/repositories/session.ts'
import { hashPassword, randomToken, sha256 } from '../../lib/crypto.ts'
import { userAgentOf } from '../../services/devices.ts'
import { normaliseFrenchPhone } from '../../contract/rules/phone.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { addDays, parisTime } from '../../lib/time.ts'
import { checkNewPassword } from '../session/index.ts'
import { accountRoutes } from './account.ts'
import { closingRoutes } from './closing.ts'
import { dataExportRoutes } from './exports.ts'

export const INVITATION_DAYS = 7
/** A pending invitation typed again gets a new link, but not more than once a minute (a double click, ten tabs). */
export const RESEND_AFTER_MS = 60_000
/** Invitation e-mails (one per address sent), not calls: 20 calls of 20 addresses were 400 e-mails an hour. */
export const INVITE_LIMIT: UserLimit = {
  name: 'invite',
  max: 20,
  windowMs: 3_600_000,
  message: 'Trop d’invitations envoyées en peu de temps : réessayez dans une heure.',
  // Several addresses that do not all fit in the hour's window: how many still do, so that the owner can send those
  // (more than 20 in one call is refused by the body's schema).
  fewLeft: (remaining, resetAt) =>
    `Vous pouvez encore envoyer ${remaining} invitation${remaining > 1 ? 's' : ''} d’ici ${parisTime(resetAt)} : retirez des adresses, ou réessayez plus tard.`,
}
export const REFERRAL_LIMIT = {
  name: 'sendInvite',
  max: 5,
  windowMs: 3_600_000,
  message: 'Vous avez déjà envoyé plusieurs recommandations : réessayez dans une heure.',
}

/** Addresses as a French list: « a, b et c ». */
const addressList = (emails: string[]) => (emails.length > 1 ? `${emails.slice(0, -1).join(', ')} et ${emails.at(-1)}` : (emails[0] ?? ''))

/** An invitation e-mail that could not leave: that address and the ones after it were not invited (nothing kept), those before were. */
export function invitationsNotSent(notSent: string[], sent: string[]): string {
  const plural = notSent.length > 1
  return (
    `L’e-mail d’invitation n’a pas pu être envoyé à ${addressList(notSent)} : rien n’a été enregistré pour ${plural ? 'ces adresses' : 'cette adresse'}. Réessayez dans quelques instants.` +
    (sent.length
      ? ` ${sent.length > 1 ? 'Les invitations' : 'L’invitation'} à ${addressList(sent)} ${sent.length > 1 ? 'sont parties' : 'est partie'}.`
      : '')
  )
}

export const invitationMessages = {
  unknown: 'Invitation introuvable : ce lien est incomplet ou l’invitation a été retirée. Demandez une nouvelle invitation.',
  used: (company: string) => `Cette invitation a déjà été acceptée : connectez-vous pour retrouver le courrier de ${company}.`,
  expired: (inviter: string) => `Cette invitation a expiré. Demandez à ${inviter} de vous inviter à nouveau.`,
  otherAccount: (email: string) => `Cette invitation a été envoyée à ${email} : connectez-vous avec cette adresse pour l’accepter.`,
  hasAccount: (email: string) => `Un compte existe déjà pour ${email} : connectez-vous pour accepter l’invitation.`,
  reserved: (email: string) =>
    `L’adresse ${email} vient de quitter un autre compte, qui peut encore la reprendre : aucun compte ne peut être créé à cette adresse pour l’instant. Demandez une invitation à une autre adresse, ou réessayez dans quelques semaines.`,
} as const

export const mandataireMessages = {
  duplicate:
    'Ce représentant est déjà enregistré : pour changer son adresse e-mail ou son téléphone, retirez-le puis ajoutez-le à nouveau.',
} as const

export function peopleRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, mailer, config, clock, oneAtATime } = deps

  /** The invitation behind a link, still waiting: 404 when unknown, 410 once used or expired. */
  async function pendingInvitation(token: string) {
    const tokenHash = sha256(token)
    const found = await findInvitation(db, tokenHash)
    if (!found) throw new HttpError(404, invitationMessages.unknown, 'INVITATION_UNKNOWN')
    const invitedBy = [found.inviter_firstname, found.inviter_lastname].filter(Boolean).join(' ') || 'le titulaire de la domiciliation'
    if (found.user_id !== null) throw new HttpError(410, invitationMessages.used(found.raison_sociale), 'INVITATION_USED')
    if (!found.invitation_expires_at || new Date(found.invitation_expires_at) <= clock.now())
      throw new HttpError(410, invitationMessages.expired(invitedBy), 'INVITATION_EXPIRED')
    return { ...found, tokenHash, invitedBy }
  }

  /** A link that could not be accepted after all (another tab accepted it, the owner removed it): what it is now. */
  function refusal(refused: InvitationRefusal, invitation: { raison_sociale: string; invitedBy: string }): HttpError {
    if (refused === 'unknown') return new HttpError(404, invitationMessages.unknown, 'INVITATION_UNKNOWN')
    if (refused === 'used') return new HttpError(410, invitationMessages.used(invitation.raison_sociale), 'INVITATION_USED')
    return new HttpError(410, invitationMessages.expired(invitation.invitedBy), 'INVITATION_EXPIRED')
  }

  define('shares', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    return listShares(db, params.id)
  })

  define('deleteShare', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    if (!(await deleteShare(db, params.id, params.shareId))) throw notFound('Collaborateur')
    return { message: 'Le collaborateur n’a plus accès à cette domiciliation.' }
  })

  define('invite', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    const emails = [...new Map(body.emails.map((e) => [e.trim().toLowerCase(), e.trim()])).values()]
    if (emails.some((e) => e.toLowerCase() === user.email.toLowerCase())) throw badRequest('Vous ne pouvez pas vous inviter vous-même.')
    // One hit per address, taken before anything is sent; those not sent after all are given back below.
    const taken = await takeFromUserLimit(deps, user.id, INVITE_LIMIT, emails.length)
    // No account is looked up here: whether an address has one is none of the owner's business, and
    // access only starts when the invitee accepts the link.
    const now = clock.now()
    const sentTo: string[] = []
    try {
      for (const [i, email] of emails.entries()) {
        // Under the key of the order and the address: an invitation met here (sent within the minute, not sent again)
        // has its e-mail gone, not one about to be taken back.
        const sentNow = await oneSendAtATime(oneAtATime, `invitation:${order.id}:${email.toLowerCase()}`, async () => {
          const token = randomToken()
          const sent = await inviteToOrder(
            db,
            order.id,
            email,
            user.id,
            { tokenHash: sha256(token), expiresAt: addDays(now, INVITATION_DAYS), now },
            RESEND_AFTER_MS,
          )
          if (!sent) return false
          const link = `${config.publicUrl}/invitation/${token}`
          // An e-mail that cannot leave takes its invitation back and stops here (a French 503 naming the addresses left):
          // the retry sends them, while those sent before stay (within a minute, not sent twice).
          await sendOrUndo(
            mailer,
            {
              to: email,
              subject: `${user.firstname} ${user.lastname} vous invite à consulter le courrier de ${order.raison_sociale}`,
              text: `Bonjour,\n\n${user.firstname} ${user.lastname} vous invite à consulter le courrier et les colis de ${order.raison_sociale} sur ${config.brandName}.\n\nPour accepter, ouvrez ce lien (valable ${INVITATION_DAYS} jours, une seule fois) :\n${link}\n\nVous avez déjà un compte ${config.brandName} à cette adresse ? Connectez-vous depuis ce lien. Sinon, il vous suffira de choisir votre mot de passe.\n\n${config.brandName}`,
              link,
            },
            () => undoInvitation(db, sent),
            invitationsNotSent(emails.slice(i), sentTo),
          )
          return true
        })
        if (sentNow) sentTo.push(email)
      }
    } finally {
      await taken.giveBack(emails.length - sentTo.length)
    }
    // Only what the owner typed: the addresses, as invitations (a name shows once the person accepted).
    return sharesByEmail(db, order.id, emails)
  })

  define('invitation', async ({ params }) => {
    const invitation = await pendingInvitation(params.token)
    return {
      email: invitation.email,
      raisonSociale: invitation.raison_sociale,
      invitedBy: invitation.invitedBy,
      hasAccount: (await findUserByEmail(db, invitation.email)) !== undefined,
    }
  })

  define('createInvitationAccount', async ({ params, body, req }) => {
    const invitation = await pendingInvitation(params.token)
    const [firstname, lastname] = [body.firstname.trim(), body.lastname.trim()]
    if (isBlank(firstname) || isBlank(lastname)) throw badRequest('Indiquez votre prénom et votre nom.')
    checkNewPassword(body.password)
    if (await findUserByEmail(db, invitation.email)) throw conflict(invitationMessages.hasAccount(invitation.email))
    const passwordHash = await hashPassword(body.password)
    const now = clock.now()
    const created = await db
      .transaction()
      .execute(async (tx) => {
        const user = await createUser(tx, { email: invitation.email, firstname, lastname, passwordHash })
        // Left by another account whose « Ce n’était pas vous ? » link still holds: its owner may take it back (found in
        // review: the revert would then find it taken). After the insert, as for an address change (people-email-reverts.ts).
        if (await reservedByRevert(tx, invitation.email, null, now)) throw conflict(invitationMessages.reserved(invitation.email))
        const accepted = await acceptInvitation(tx, invitation.tokenHash, user.id, now)
        // Used or removed meanwhile: no account made from a link that no longer holds, and the answer says which.
        if ('refused' in accepted) throw refusal(accepted.refused, invitation)
        return { user, orderId: accepted.orderId }
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? conflict(invitationMessages.hasAccount(invitation.email)) : error
      })
    const expiresAt = addDays(now, config.tokenTtlDays)
    const apiToken = await createApiToken(db, created.user.id, expiresAt, userAgentOf(req.headers), now)
    return {
      user: { ...toUser(created.user), apiToken, apiTokenExpiresAt: expiresAt.toISOString() },
      orderId: created.orderId,
      raisonSociale: invitation.raison_sociale,
    }
  })

  define('acceptInvitation', async ({ user, params }) => {
    const invitation = await pendingInvitation(params.token)
    if (invitation.email.toLowerCase() !== user.email.toLowerCase())
      throw new HttpError(403, invitationMessages.otherAccount(invitation.email), 'OTHER_ACCOUNT')
    const accepted = await acceptInvitation(db, invitation.tokenHash, user.id, clock.now())
    // Another tab accepted it first (410 « déjà été acceptée »), the owner removed it meanwhile (404): not "expired".
    if ('refused' in accepted) throw refusal(accepted.refused, invitation)
    return {
      orderId: accepted.orderId,
      raisonSociale: invitation.raison_sociale,
      message: `Vous avez maintenant accès au courrier de ${invitation.raison_sociale}.`,
    }
  })

  define('sendInvite', async ({ user, body }) => {
    await limitPerUser(deps, user.id, REFERRAL_LIMIT)
    await mailer.send({
      to: body.email,
      subject: `${user.firstname} vous recommande ${config.brandName}`,
      text: `Bonjour,\n\n${user.firstname} ${user.lastname} utilise ${config.brandName} pour domicilier son entreprise et gérer son courrier, et pense que ce service peut vous intéresser.\n\n${config.publicUrl}\n`,
      link: config.publicUrl,
    })
    return { message: `Votre recommandation a été envoyée à ${body.email}.` }
  })

  define('mandataires', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    return listMandataires(db, params.id)
  })

  define('deleteMandataire', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    if (!(await deleteMandataire(db, params.id, params.mandataireId))) throw notFound('Représentant')
    return { message: 'Le représentant a été retiré.' }
  })

  define('addMandataire', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    const [firstname, lastname] = [body.firstname.trim(), body.lastname.trim()]
    if (isBlank(firstname) || isBlank(lastname)) throw badRequest('Indiquez le prénom et le nom du représentant.')
    const phone = normaliseFrenchPhone(body.phone)
    if (!phone)
      throw badRequest(
        'Le numéro de téléphone n’est pas un numéro français : par exemple 06 12 34 56 78 ou +33 6 12 34 56 78.',
        'BAD_PHONE',
      )
    const added = await createMandataire(db, { order_id: params.id, firstname, lastname, email: body.email.trim(), phone })
    // One row per person and order (a double click, a retry): the one already there stays as it is.
    if (!added) throw conflict(mandataireMessages.duplicate)
    return added
  })

  accountRoutes(define, deps)
  closingRoutes(define, deps)
  dataExportRoutes(define, deps)
}
