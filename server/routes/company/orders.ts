// An order's uploaded documents, its bank partners and the accountant offer.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import {
  listUploadedDocuments,
  markWantComptable,
  requireOrder,
  setQonto,
  setShine,
  unmarkWantComptable,
} from '../../db/repositories/company-orders.ts'
import { oneSendAtATime, sendOrUndo } from '../../http/send-or-undo.ts'

export function orderRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, mailer, config, clock, oneAtATime } = deps
  define('uploadedDocuments', async ({ user, params }) => {
    await requireOrder(db, user.id, params.id, 'owner')
    return listUploadedDocuments(db, params.id)
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
    // Not the date read with the order: it may be another call's, whose e-mail is leaving and may yet be taken back.
    // Under the order's key, the conditional write decides: only the call that recorded it e-mails the support.
    await oneSendAtATime(oneAtATime, `want-comptable:${order.id}`, async () => {
      const at = clock.now()
      if (!(await markWantComptable(db, order.id, at))) return
      // An e-mail that cannot leave takes the date back (a French 503): the retry records it and sends it again.
      await sendOrUndo(
        mailer,
        {
          to: config.supportEmail,
          subject: `Offre expert-comptable : ${order.raison_sociale}`,
          text: `${user.firstname} ${user.lastname} <${user.email}> souhaite être contacté par un expert-comptable pour ${order.raison_sociale} (commande ${order.id}).`,
        },
        () => unmarkWantComptable(db, order.id, at),
      )
    })
    return {
      wantComptable: true,
      message: 'Votre demande est enregistrée : un expert-comptable partenaire vous contactera sous 48 heures ouvrées.',
    }
  })
}
