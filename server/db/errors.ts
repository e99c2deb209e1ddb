// What the database says when a write breaks a rule, read the same on PGlite and PostgreSQL; and what a repository
// tells its caller when a row is missing or not the user's to see: domain errors that the HTTP layer answers
// (server/http/errors.ts, httpErrorOf: a French 404 or 403), never an HTTP status written here.

/** A unique index refused the row (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505'
/** A row referred to is gone (SQLSTATE 23503): deleted by a concurrent request between the check and the write. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23503'

/** The row asked for does not exist, or is not one the user may see (a stranger learns nothing of it). */
export class NotFoundError extends Error {
  /** `what`, as the French message names it: 'Domiciliation', 'Courrier', 'Facture'… */
  constructor(readonly what: string) {
    super(`${what} introuvable.`)
    this.name = 'NotFoundError'
  }
}

/** The user sees the order but does not own it, and the action is the owner's. */
export class OwnerOnlyError extends Error {
  constructor() {
    super('réservé au titulaire de la domiciliation')
    this.name = 'OwnerOnlyError'
  }
}

/** No unexpired session behind the token a joined query checked (session.ts, withSession). */
export class InvalidSessionError extends Error {
  constructor() {
    super('session absente ou expirée')
    this.name = 'InvalidSessionError'
  }
}

/** Identity documents sent once the order's file is complete: nothing more is needed. */
export class DocumentsCompleteError extends Error {
  constructor() {
    super('dossier déjà complet')
    this.name = 'DocumentsCompleteError'
  }
}
