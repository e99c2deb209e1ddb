// Dates formatted by the database, as the contract writes them.
import { sql } from 'kysely'

/** A `date` column as text (YYYY-MM-DD): node-pg would turn it into a local-midnight Date. */
export const isoDay = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`

/** A timestamptz column as Date.prototype.toISOString writes it (so such texts also sort as their dates). */
export const isoDateTime = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The day an order's domiciliation ends (YYYY-MM-DD), from its left-joined termination request: the day an operator
 *  accepted it for, else the day the customer asked for; null without a request. */
export const terminationDay = () => sql<string>`to_char(coalesce(termination_requests.end_date, termination_requests.date), 'YYYY-MM-DD')`
