// Small pure helpers shared by the statecharts.
import type { Order } from '../../server/contract/session.ts'
import { isSingleLine } from '../../server/contract/rules/text.ts'

/** A message for a toast (success or error), shown by the composition root. */
export interface Notice {
  /** 'info': neither done nor failed (e.g. an invitation not sent again because one left a moment ago). */
  kind: 'success' | 'error' | 'info'
  message: string
  /** Where to see more, offered as a link in the toast (e.g. an export's failures, on its page). */
  link?: { to: string; label: string }
}

/** The French message of a failure: ApiError messages are French already. */
export function messageOf(error: unknown, fallback = 'Une erreur est survenue. Réessayez.'): string {
  return error instanceof Error && error.message ? error.message : fallback
}

/**
 * What did not happen, then the server's reason: "Le courrier numérisé n’a pas pu être chargé. Le service est
 * momentanément indisponible. …". The reason alone does not say which of several calls failed (a letter's scan and
 * its read mark fail together when the service is down); without one, what failed alone.
 */
export function failureOf(what: string, error: unknown): string {
  const reason = messageOf(error, what)
  return reason === what ? what : `${what} ${reason}`
}

/** Statuses that ask for the Kbis (spec §9). */
export const KBIS_STATUSES = ['En attente de KBIS', 'En attente de procuration'] as const

/**
 * Spec §4: the banner shows while the default order waits for its Kbis; and, whatever its status, while the Kbis it
 * filed stands refused by the provider (back office, Justificatifs) and no other was filed.
 */
export function needsKbis(order: (Pick<Order, 'status' | 'hasKbis'> & Partial<Pick<Order, 'kbisRefusal'>>) | null | undefined): boolean {
  if (!order || order.hasKbis) return false
  return (KBIS_STATUSES as readonly string[]).includes(order.status) || !!order.kbisRefusal
}

/** Spec §4: missingDocuments present and missingDocumentsValidatedAt empty. */
export function hasMissingDocuments(order: Pick<Order, 'missingDocuments' | 'missingDocumentsValidatedAt'> | null | undefined): boolean {
  return !!order && !!order.missingDocuments && order.missingDocuments.length > 0 && !order.missingDocumentsValidatedAt
}

/** A plausible e-mail address (the server checks it again). */
export const isEmail = (value: string) =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) && value.trim().length <= 254 && isSingleLine(value.trim())

// --- billing
/** The HTTP status of a failed call (an ApiError carries it), or 0 when there is none. */
export const statusOf = (error: unknown): number => {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : 0
}

/**
 * The service failed, not the request: the server unreachable (0), overloaded (429) or unavailable (5xx: a database
 * restarting, a server shutting down). The same request can go through later; a 4xx refusal (a link used or expired,
 * a value refused) never will as it is.
 */
export const isServiceFailure = (error: unknown): boolean => {
  const status = statusOf(error)
  return status === 0 || status === 429 || status >= 500
}

/** A change refused because the list shown is out of date: 409 (changed meanwhile) or 404 (gone). */
export const isOutdatedList = (error: unknown): boolean => statusOf(error) === 409 || statusOf(error) === 404

/** The server's error code of a failed call (e.g. NO_CARD), if any. */
export const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}
