// A person leaving: closing their account (RGPD art. 17) once every domiciliation they own is over, and a collaborator
// leaving an order shared with them. What goes and what the law keeps: docs/LEGAL.md.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, HttpError, invalidSessionError } from '../../http/errors.ts'
import { takeAttempt } from '../../http/user-rate-limit.ts'
import { requireOrder } from '../../db/repositories/company-orders.ts'
import { closeAccount, leaveSharedOrder, openOwnedOrders, type OpenOrder } from '../../db/repositories/people-closing.ts'
import { findPasswordHash } from '../../db/repositories/session.ts'
import { verifyPassword } from '../../lib/crypto.ts'
import { longDate, parisDay } from '../../lib/time.ts'
import { changeAttemptsKey } from '../session/index.ts'
import { CHANGE_PASSWORD_LIMIT } from './account.ts'

const frenchDay = (day: string) => longDate.format(new Date(`${day}T12:00:00Z`))

export const closingMessages = {
  badPassword: 'Le mot de passe est incorrect : votre compte n’a pas été fermé.',
  openOrder: (order: OpenOrder) =>
    order.terminationDate === null
      ? `Votre domiciliation ${order.raisonSociale} est active : demandez d’abord sa résiliation dans « Mes abonnements » ; vous pourrez fermer votre compte une fois la date de résiliation passée.`
      : `Votre domiciliation ${order.raisonSociale} est active jusqu’au ${frenchDay(order.terminationDate)} : vous pourrez fermer votre compte après sa résiliation.`,
  mailNotSent: 'L’e-mail de confirmation n’a pas pu être envoyé : votre compte n’a pas été fermé. Réessayez dans quelques instants.',
  closed: 'Votre compte est fermé. Un e-mail de confirmation vous a été envoyé.',
  owner: 'Vous êtes titulaire de cette domiciliation : vous ne pouvez pas la quitter. Pour y mettre fin, demandez sa résiliation.',
  left: (company: string) => `Vous n’avez plus accès au courrier de ${company}.`,
} as const

/** Every open order in one answer, each in its own sentence. */
const openOrdersError = (open: OpenOrder[]) => new HttpError(409, open.map(closingMessages.openOrder).join(' '), 'ORDERS_ACTIVE')

export function closingRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, config, mailer } = deps

  define('closeAccount', async ({ user, body }) => {
    // The password change's limit and counter: a stolen session tests no more passwords here than there.
    const attempt = await takeAttempt(deps, changeAttemptsKey(user.id), CHANGE_PASSWORD_LIMIT)
    if (!(await verifyPassword(body.password, await findPasswordHash(db, user.id)))) {
      await attempt.failed()
      throw badRequest(closingMessages.badPassword, 'BAD_PASSWORD')
    }
    await attempt.succeeded()
    const now = clock.now()
    const open = await openOwnedOrders(db, user.id, parisDay(now))
    if (open.length) throw openOrdersError(open)
    // Sent while the address is still the account's; an e-mail that cannot leave closes nothing.
    try {
      await mailer.send({
        to: user.email,
        subject: `${config.brandName} : votre compte est fermé`,
        text: `Bonjour ${user.firstname},\n\nÀ votre demande, votre compte ${config.brandName} (${user.email}) est fermé depuis le ${longDate.format(now)}. Vos connexions et vos clés d’accès sont supprimées ; vos nom, téléphone et adresse e-mail sont effacés. Vous pourrez créer un nouveau compte avec cette adresse.\n\nCe que la loi nous oblige à garder l’est pour la durée prévue, détaché de votre compte : les factures et avoirs dix ans (article L123-22 du Code de commerce), et le dossier d’identification de chaque domiciliation cinq ans après sa fin (article L561-12 du Code monétaire et financier). Le courrier numérisé d’une domiciliation terminée est supprimé ${config.mailRetentionMonths} mois après sa fin.\n\nSi vous n’êtes pas à l’origine de cette fermeture, écrivez-nous sans attendre à ${config.supportEmail}.\n\n${config.brandName}`,
      })
    } catch (error) {
      throw new HttpError(503, closingMessages.mailNotSent, 'MAIL_NOT_SENT', { cause: error })
    }
    // Checked again under the account's lock: an order made or reopened meanwhile keeps it open.
    const closed = await closeAccount(db, user.id, now, (tx) => openOwnedOrders(tx, user.id, parisDay(now)))
    if (!closed.closed) {
      if (closed.open.length) throw openOrdersError(closed.open)
      throw invalidSessionError()
    }
    return { message: closingMessages.closed }
  })

  define('leaveSharedOrder', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    if (order.owner_id === user.id) throw new HttpError(409, closingMessages.owner, 'OWNER_CANNOT_LEAVE')
    // Removed by the owner meanwhile: it is left all the same.
    await leaveSharedOrder(db, user.id, order.id)
    return { message: closingMessages.left(order.raison_sociale) }
  })
}
