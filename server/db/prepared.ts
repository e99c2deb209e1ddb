// Queries built once per database instead of on every call: the hot routes' statement is compiled by Kysely the
// first time, with stand-ins for its values, and later calls only swap the values in (same SQL text every time,
// which a PostgreSQL connection can keep as a named prepared statement, see connect.ts).
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely'
import type { Database } from './schema.ts'

/** A value's stand-in while the query is compiled: Kysely keeps it as a parameter, replaced at each execution. */
class Slot {
  constructor(readonly name: string) {}
}

/** SQL texts compiled here: connect.ts names them as prepared statements on PostgreSQL. */
export const preparedTexts = new Map<string, string>()

export function prepare<A extends object, R>(build: (db: Kysely<Database>, args: A) => Compilable<R>) {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<R>>()
  return (db: Kysely<Database>, args: A): Promise<QueryResult<R>> => {
    let query = compiled.get(db)
    if (!query) {
      const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as A
      query = build(db, slots).compile()
      if (!query.parameters.some((p) => p instanceof Slot) && Object.keys(args).length) throw new Error('requête préparée sans paramètre')
      if (!preparedTexts.has(query.sql)) preparedTexts.set(query.sql, `portail_${preparedTexts.size + 1}`)
      compiled.set(db, query)
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? (args as Record<string, unknown>)[p.name] : p))
    return db.executeQuery({ ...query, parameters })
  }
}
