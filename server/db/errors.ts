// What the database says when a write breaks a rule, read the same on PGlite and PostgreSQL.

/** A unique index refused the row (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505'
/** A row referred to is gone (SQLSTATE 23503): deleted by a concurrent request between the check and the write. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23503'
