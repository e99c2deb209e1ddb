// Domiciliation orders: the list, their checks, problems, collaborators (shares) and representatives (mandataires).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import {
  createProblemReport, listOrders, listUploadedDocuments, markWantComptable, requireOrder, setQonto, setShine,
} from '../../db/repositories/orders.ts'
import {
  activateShare, createMandataire, createShare, deleteMandataire, deleteShare, listMandataires, listShares,
} from '../../db/repositories/people.ts'
import { findUserByEmail } from '../../db/repositories/users.ts'
import { isAttenteCourrierOrFinalise, isCompleteKbis, isWaitingContract } from '../../services/order-checks.ts'

export function orderRoutes(define: DefineRoute, { db, mailer, config, clock }: AppDeps) {
  define('myOrders', async ({ user }) => listOrders(db, user.id))

  define('sendProblem', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    await createProblemReport(db, order.id, user.id, body.message)
    await mailer.send({
      to: config.supportEmail,
      subject: `Problème signalé : ${order.raison_sociale} (commande ${order.id})`,
      text: `${user.firstname} ${user.lastname} <${user.email}> signale :\n\n${body.message}`,
    })
    return { message: 'Votre demande est envoyé, nous revenons vers vous au plus vite' }
  })

  define('sendInvite', async ({ user, body }) => {
    await mailer.send({
      to: body.email,
      subject: `${user.firstname} vous recommande ${config.brandName}`,
      text: `Bonjour,\n\n${user.firstname} ${user.lastname} utilise ${config.brandName} pour domicilier son entreprise et gérer son courrier, et pense que ce service peut vous intéresser.\n\n${config.publicUrl}\n`,
      link: config.publicUrl,
    })
    return { message: `Votre invitation a été envoyée à ${body.email}.` }
  })

  define('isAttenteCourrierOrFinalise', async ({ user, params }) => {
    return { result: isAttenteCourrierOrFinalise(await requireOrder(db, user.id, params.id, 'member')) }
  })

  define('isCompleteKbis', async ({ user, params }) => {
    return { result: isCompleteKbis(await requireOrder(db, user.id, params.id, 'member')) }
  })

  define('isWaitingContract', async ({ user, params }) => {
    return { result: isWaitingContract(await requireOrder(db, user.id, params.id, 'member')) }
  })

  define('uploadedDocuments', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    return listUploadedDocuments(db, params.id)
  })

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
    const existing = new Map((await listShares(db, order.id)).map((s) => [s.email.toLowerCase(), s]))
    for (const email of emails) {
      // An existing account gets access at once; anyone else is 'invitée' until they have an account and are invited again.
      const invitee = await findUserByEmail(db, email)
      const share = existing.get(email.toLowerCase())
      if (share) {
        if (share.status === 'invitée' && invitee) await activateShare(db, share.id, invitee.id)
        continue
      }
      await createShare(db, order.id, email, invitee?.id ?? null)
      await mailer.send({
        to: email,
        subject: `${user.firstname} ${user.lastname} vous donne accès au courrier de ${order.raison_sociale}`,
        text: `Bonjour,\n\n${user.firstname} ${user.lastname} vous invite à consulter le courrier et les colis de ${order.raison_sociale} sur ${config.brandName}.\n\n${config.publicUrl}/login\n`,
        link: `${config.publicUrl}/login`,
      })
    }
    return listShares(db, order.id)
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
    return createMandataire(db, { order_id: params.id, firstname: body.firstname.trim(), lastname: body.lastname.trim(), email: body.email, phone: body.phone.trim() })
  })

  define('setQonto', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    await setQonto(db, params.id, body.qonto)
    return { qonto: body.qonto }
  })

  define('setShine', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    await setShine(db, params.id, body.shine)
    return { shine: body.shine }
  })

  define('wantComptable', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    if (!order.want_comptable_at) {
      await markWantComptable(db, order.id, clock.now())
      await mailer.send({
        to: config.supportEmail,
        subject: `Offre expert-comptable : ${order.raison_sociale}`,
        text: `${user.firstname} ${user.lastname} <${user.email}> souhaite être contacté par un expert-comptable pour ${order.raison_sociale} (commande ${order.id}).`,
      })
    }
    return { wantComptable: true, message: 'Votre demande est enregistrée : un expert-comptable partenaire vous contactera sous 48 heures ouvrées.' }
  })
}
