// The operators' side of the company area (Authorization: Bearer <an API key or OPERATOR_TOKEN>): the orders, and the Kbis a customer
// filed, read then validated (the ETag of the one read must match: a Kbis replaced meanwhile is never validated unseen).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { conflict, HttpError, notFound } from '../../http/errors.ts'
import { sendPdf } from '../files.ts'
import { sha256 } from '../../lib/crypto.ts'
import { listOrdersForOperators } from '../../db/repositories/company-orders.ts'
import { kbisEvent, recordEvent } from '../../services/events.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { machineOf } from '../operator-input.ts'

/** A filed Kbis's ETag: a digest of its storage key, which each upload makes new (the key itself stays internal). */
export const kbisTag = (fileKey: string) => `"${sha256(fileKey).slice(0, 32)}"`

export function companyOperatorRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps

  define('operatorOrders', async () => listOrdersForOperators(db))

  define('operatorKbis', async ({ params, reply }) => {
    const contract = await db.selectFrom('contracts').select(['id', 'kbis_file_key']).where('id', '=', params.id).executeTakeFirst()
    if (!contract) throw notFound('Contrat')
    if (!contract.kbis_file_key) throw notFound('Kbis')
    reply.header('ETag', kbisTag(contract.kbis_file_key))
    return sendPdf(reply, deps.storage, contract.kbis_file_key, `kbis-${contract.id}.pdf`)
  })

  define('operatorKbisStatus', async ({ params, req }) => {
    const now = clock.now()
    const read = req.headers['if-match']
    if (!read || read.trim() === '*')
      throw new HttpError(
        428,
        'Indiquez dans l’en-tête If-Match l’ETag du Kbis que vous avez vérifié (GET /api/operator/contracts/{id}/kbis).',
        'KBIS_NOT_READ',
      )
    return db.transaction().execute(async (trx) => {
      const contract = await trx
        .selectFrom('contracts')
        .innerJoin('orders', 'orders.id', 'contracts.order_id')
        .select(['contracts.id', 'contracts.order_id', 'contracts.kbis_file_key', 'contracts.kbis_validated_at', 'orders.raison_sociale'])
        .where('contracts.id', '=', params.id)
        // The contract's row only: the order's would make recordEvent's lock and another action's event (whose row
        // needs a key-share lock on that order) wait on each other, a deadlock.
        .forUpdate('contracts')
        .executeTakeFirst()
      if (!contract) throw notFound('Contrat')
      if (!contract.kbis_file_key) throw conflict('Aucun Kbis n’a été déposé pour ce contrat : il n’y a rien à valider.')
      if (contract.kbis_validated_at) throw conflict('Le Kbis de ce contrat est déjà validé.')
      if (!read.split(',').some((tag) => tag.trim() === kbisTag(contract.kbis_file_key!))) {
        throw new HttpError(
          412,
          'Le client a déposé un autre Kbis depuis celui que vous avez vérifié : vérifiez le nouveau avant de le valider.',
          'KBIS_REPLACED',
        )
      }
      await trx.updateTable('contracts').set({ kbis_validated_at: now }).where('id', '=', contract.id).execute()
      await recordJournal(trx, {
        actor: machineOf(req),
        action: 'kbis.validated',
        orderId: contract.order_id,
        summary: `Kbis de ${contract.raison_sociale} validé (contrat ${contract.id})`,
        before: { validated: false },
        after: { validated: true },
        at: now,
      })
      await recordEvent(trx, {
        kind: 'kbis',
        orderId: contract.order_id,
        ...kbisEvent(contract.raison_sociale),
        at: now,
      })
      return { contractId: contract.id, orderId: contract.order_id, validatedAt: now.toISOString() }
    })
  })
}
