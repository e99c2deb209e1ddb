// Domiciliation orders: the list, their checks, problems, collaborators (shares) and representatives (mandataires).
import type { Kysely } from 'kysely'
import type { Mandataire, Share } from '../../contract/index.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { listOrders, requireOrder } from '../../db/repositories/orders.ts'
import { findUserByEmail } from '../../db/repositories/users.ts'
import type { Database } from '../../db/schema.ts'

const finalisedOrWaitingForMail = ['En attente de courrier', 'Finalisé']
const waitingForContract = 'En attente de contrat'

async function listShares(db: Kysely<Database>, orderId: number): Promise<Share[]> {
  const rows = await db.selectFrom('shares').leftJoin('users', 'users.id', 'shares.user_id')
    .select(['shares.id', 'shares.email', 'shares.user_id', 'shares.created_at', 'users.firstname', 'users.lastname'])
    .where('shares.order_id', '=', orderId).orderBy('shares.id').execute()
  return rows.map((r) => ({
    id: r.id, email: r.email, firstname: r.firstname, lastname: r.lastname,
    status: r.user_id ? 'active' : 'invitée', createdAt: r.created_at.toISOString(),
  }))
}

const toMandataire = (r: { id: number; firstname: string; lastname: string; email: string; phone: string; created_at: Date }): Mandataire =>
  ({ id: r.id, firstname: r.firstname, lastname: r.lastname, email: r.email, phone: r.phone, createdAt: r.created_at.toISOString() })

export function orderRoutes(define: DefineRoute, { db, mailer, config, clock }: AppDeps) {
  define('myOrders', async ({ user }) => listOrders(db, user.id))

  define('sendProblem', async ({ user, params, body }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    await db.insertInto('problem_reports').values({ order_id: order.id, user_id: user.id, message: body.message }).execute()
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
    const order = await requireOrder(db, user.id, params.id, 'member')
    return { result: finalisedOrWaitingForMail.includes(order.status) }
  })

  define('isCompleteKbis', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    const documentsComplete = !order.missing_documents?.length || order.missing_documents_validated_at !== null
    return { result: order.has_kbis && documentsComplete }
  })

  define('isWaitingContract', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'member')
    return { result: order.status === waitingForContract }
  })

  define('uploadedDocuments', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    const rows = await db.selectFrom('uploaded_documents').selectAll().where('order_id', '=', params.id).orderBy('id').execute()
    return rows.map((r) => ({ id: r.id, type: r.type, label: r.label, fileName: r.file_name, uploadedAt: r.uploaded_at.toISOString() }))
  })

  define('shares', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    return listShares(db, params.id)
  })

  define('deleteShare', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    const deleted = await db.deleteFrom('shares').where('id', '=', params.shareId).where('order_id', '=', params.id).executeTakeFirst()
    if (!deleted.numDeletedRows) throw notFound('Collaborateur')
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
        if (share.status === 'invitée' && invitee) await db.updateTable('shares').set({ user_id: invitee.id }).where('id', '=', share.id).execute()
        continue
      }
      await db.insertInto('shares').values({ order_id: order.id, email, user_id: invitee?.id ?? null }).execute()
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
    const rows = await db.selectFrom('mandataires').selectAll().where('order_id', '=', params.id).orderBy('id').execute()
    return rows.map(toMandataire)
  })

  define('deleteMandataire', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    const deleted = await db.deleteFrom('mandataires').where('id', '=', params.mandataireId).where('order_id', '=', params.id).executeTakeFirst()
    if (!deleted.numDeletedRows) throw notFound('Représentant')
    return { message: 'Le représentant a été retiré.' }
  })

  define('addMandataire', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    const row = await db.insertInto('mandataires')
      .values({ order_id: params.id, firstname: body.firstname.trim(), lastname: body.lastname.trim(), email: body.email, phone: body.phone.trim() })
      .returningAll().executeTakeFirstOrThrow()
    return toMandataire(row)
  })

  define('setQonto', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    await db.updateTable('orders').set({ qonto: body.qonto }).where('id', '=', params.id).execute()
    return { qonto: body.qonto }
  })

  define('setShine', async ({ user, params, body }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    await db.updateTable('orders').set({ shine: body.shine }).where('id', '=', params.id).execute()
    return { shine: body.shine }
  })

  define('wantComptable', async ({ user, params }) => {
    const order = await requireOrder(db, user.id, params.id, 'owner')
    if (!order.want_comptable_at) {
      await db.updateTable('orders').set({ want_comptable_at: clock.now() }).where('id', '=', order.id).where('want_comptable_at', 'is', null).execute()
      await mailer.send({
        to: config.supportEmail,
        subject: `Offre expert-comptable : ${order.raison_sociale}`,
        text: `${user.firstname} ${user.lastname} <${user.email}> souhaite être contacté par un expert-comptable pour ${order.raison_sociale} (commande ${order.id}).`,
      })
    }
    return { wantComptable: true, message: 'Votre demande est enregistrée : un expert-comptable partenaire vous contactera sous 48 heures ouvrées.' }
  })
}
