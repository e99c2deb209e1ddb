// Answers written as JSON by the database (the hot lists). A subquery `x` whose columns are named and shaped
// as the contract's type becomes one compact JSON array text (row_to_json, joined by string_agg), sent as it is by
// the route (JsonText in http/define-route.ts): no rows parsed, no dates made, nothing serialized again in Node.
// Each such query has a test holding its text to the contract and to the same rows read the ordinary way.
// Dates in such rows: isoDay and isoDateTime (dates.ts).
import { sql, type RawBuilder } from 'kysely'

/** The rows of the subquery aliased `x` as one JSON array text, in this order ("[]" when none). */
export const jsonArrayOfX = (orderBy: RawBuilder<unknown>) =>
  sql<string>`'[' || coalesce(string_agg(row_to_json(x)::text, ',' order by ${orderBy}), '') || ']'`
