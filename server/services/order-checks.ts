// The three order checks of spec §7 (is-attente-courrier-or-finalise, is-complete-kbis,
// is-waiting-contract), as the routes answer them and as the legal formalities are judged by them.
import type { OrderRow } from '../db/schema.ts'

const finalisedOrWaitingForMail = ['En attente de courrier', 'Finalisé']
const waitingForContract = 'En attente de contrat'

export type OrderCheckRow = Pick<OrderRow, 'status' | 'has_kbis' | 'missing_documents' | 'missing_documents_validated_at'>

export const isAttenteCourrierOrFinalise = (order: OrderCheckRow) => finalisedOrWaitingForMail.includes(order.status)

/** The Kbis is filed and the identity documents, if any were asked for, are in. */
export const isCompleteKbis = (order: OrderCheckRow) =>
  order.has_kbis && (!order.missing_documents?.length || order.missing_documents_validated_at !== null)

export const isWaitingContract = (order: OrderCheckRow) => order.status === waitingForContract

import type { OrderChecks } from '../contract/rules/formalities.ts'

export type { OrderChecks }

export const orderChecks = (order: OrderCheckRow): OrderChecks => ({
  completeKbis: isCompleteKbis(order),
  waitingContract: isWaitingContract(order),
  attenteCourrierOrFinalise: isAttenteCourrierOrFinalise(order),
})
