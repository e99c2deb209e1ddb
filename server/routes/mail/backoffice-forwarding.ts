// The back office's Réexpéditions (roles Courrier and Administrateur): every customer's pending forwarding requests,
// oldest first, with their letters and the forwarding address; « Expédié » (carrier and tracking number, which the
// customer sees with the carrier's tracking link; each letter's history says « Réexpédié à … ») or « Impossible » with
// the reason the customer reads.
import type { ForwardingDone, ForwardingRequest } from '../../contract/mail-backoffice.ts'
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import {
  findForwardingRequestForUpdate,
  forwardingAddressLines,
  lettersOfRequests,
  pendingForwardingRequests,
  processForwardingRequest,
} from '../../db/repositories/mail-room.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { isBlank } from '../../contract/rules/text.ts'
import { longDate } from '../../lib/time.ts'
import { recordLetterHistory } from '../../services/events.ts'
import { cleanText } from '../../services/ingest.ts'
import { isTerminated } from '../../services/mail-room.ts'
import type { Database } from '../../db/schema.ts'
import type { Transaction } from 'kysely'

export const forwardingMessages = {
  notForwarding: 'Cette demande est une demande de numérisation, pas de réexpédition.',
  alreadyProcessed: (at: Date | null) => `Cette demande a déjà été traitée${at ? ` le ${longDate.format(at)}` : ''} : rien n’a été changé.`,
  noAddress:
    'Cette domiciliation n’a pas d’adresse de réexpédition : le courrier ne peut pas être expédié. Indiquez « Impossible » avec la raison, le client la lira.',
  terminated: (raisonSociale: string, day: string) =>
    `La domiciliation ${raisonSociale} est résiliée depuis le ${longDate.format(new Date(`${day}T12:00:00Z`))} : son courrier n’est plus réexpédié. Indiquez « Impossible » avec la raison, le client la lira.`,
}

export function mailRoomForwardingRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock } = deps

  define('mailRoomForwardingRequests', async () => {
    const rows = await pendingForwardingRequests(db)
    const letters = await lettersOfRequests(
      db,
      rows.map((r) => r.id),
    )
    return rows.map(
      (r): ForwardingRequest => ({
        id: r.id,
        orderId: r.order_id,
        raisonSociale: r.raison_sociale,
        createdAt: r.created_at.toISOString(),
        letterCount: r.letter_count,
        letters: letters.get(r.id) ?? [],
        forwardingAddress: forwardingAddressLines(r),
      }),
    )
  })

  /** The request locked and still pending, a forwarding one; a French 404 or 409 otherwise. */
  const pending = async (trx: Transaction<Database>, id: number) => {
    const request = await findForwardingRequestForUpdate(trx, id)
    if (!request) throw notFound('Demande')
    if (request.kind !== 'réexpédition') throw conflict(forwardingMessages.notForwarding)
    if (request.status !== 'en attente') throw conflict(forwardingMessages.alreadyProcessed(request.processed_at))
    return request
  }

  define('mailRoomForwardingShipped', async ({ params, body, operator }) => {
    const carrier = cleanText(body.carrier, 'carrier', 100)
    const trackingNumber = body.trackingNumber.trim().toUpperCase()
    const now = clock.now()
    return db.transaction().execute(async (trx): Promise<ForwardingDone> => {
      const request = await pending(trx, params.id)
      if (isTerminated(request, now))
        throw new HttpError(409, forwardingMessages.terminated(request.raison_sociale, request.termination_date), 'TERMINATED')
      const address = forwardingAddressLines(request)
      if (!address) throw new HttpError(409, forwardingMessages.noAddress, 'NO_FORWARDING_ADDRESS')
      const done = (await processForwardingRequest(trx, request.id, {
        at: now,
        operatorId: operator.id,
        outcome: 'expédiée',
        carrier,
        trackingNumber,
      }))!
      const letters = (await lettersOfRequests(trx, [request.id])).get(request.id) ?? []
      for (const letter of letters)
        await recordLetterHistory(trx, { documentId: letter.id, kind: 'forwarded', detail: address.join(', '), at: now })
      await recordJournal(trx, {
        actor: { operatorId: operator.id },
        action: 'forwarding.shipped',
        orderId: request.order_id,
        summary: `Réexpédition de ${request.raison_sociale} expédiée par ${carrier} (suivi ${trackingNumber})`,
        before: { status: 'en attente' },
        after: { status: 'traitée', carrier, trackingNumber, letters: letters.map((l) => l.id) },
        at: now,
      })
      return { id: done.id, orderId: done.orderId, status: 'traitée', outcome: done.outcome }
    })
  })

  define('mailRoomForwardingImpossible', async ({ params, body, operator }) => {
    if (isBlank(body.reason)) throw badRequest('Le champ « reason » ne peut pas être vide.', 'VALIDATION')
    const reason = body.reason.trim()
    const now = clock.now()
    return db.transaction().execute(async (trx): Promise<ForwardingDone> => {
      const request = await pending(trx, params.id)
      const done = (await processForwardingRequest(trx, request.id, { at: now, operatorId: operator.id, outcome: 'impossible', reason }))!
      await recordJournal(trx, {
        actor: { operatorId: operator.id },
        action: 'forwarding.impossible',
        orderId: request.order_id,
        summary: `Réexpédition de ${request.raison_sociale} impossible : ${reason}`,
        before: { status: 'en attente' },
        after: { status: 'traitée', reason },
        at: now,
      })
      return { id: done.id, orderId: done.orderId, status: 'traitée', outcome: done.outcome }
    })
  })
}
