// Each letter's history (beyond the spec): what the customer sees of it, and the operators' record of a letter sent on
// (Authorization: Bearer <an API key or OPERATOR_TOKEN>, journaled), the only place a forwarding is known per letter.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { findLiveDocument, requireDocument } from '../../db/repositories/mail.ts'
import { listLetterHistory } from '../../db/repositories/notifications.ts'
import { recordLetterHistory } from '../../services/events.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { machineOf } from '../operator-input.ts'

export function letterHistoryRoutes(define: DefineRoute, { db, clock }: AppDeps) {
  define('letterHistory', async ({ user, params }) => {
    const document = await requireDocument(db, user.id, params.id)
    return { events: await listLetterHistory(db, document.id, user.id) }
  })

  // The paper letter sent on by the provider: recorded in its history, the only place a forwarding is known per letter.
  define('operatorLetterForwarded', async ({ params, body, req }) => {
    if (isBlank(body.address)) throw badRequest('Le champ « address » ne peut pas être vide.', 'VALIDATION')
    const now = clock.now()
    return db.transaction().execute(async (trx) => {
      const letter = await findLiveDocument(trx, params.id)
      if (!letter) throw notFound('Courrier')
      await recordLetterHistory(trx, { documentId: params.id, kind: 'forwarded', detail: body.address.trim(), at: now })
      await recordJournal(trx, {
        actor: machineOf(req),
        action: 'letter.forwarded',
        orderId: letter.order_id,
        summary: `Courrier ${letter.id} réexpédié à ${body.address.trim()}`,
        at: now,
      })
      return { documentId: params.id, forwardedAt: now.toISOString() }
    })
  })
}
