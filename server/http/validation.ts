// Validation with TypeBox: bodies strictly as sent (no coercion, unknown properties refused); path parameters
// and query strings are text, so an integer field takes only a plain decimal string ("1.5", " 1", "1e3" are refused).
// Before any schema, every string of every part is checked for what PostgreSQL cannot store as text.
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'

type ObjectSchema = { properties?: Record<string, { type?: string }> }

function convertText(schema: ObjectSchema, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const text = converted[key]
    if (typeof text !== 'string') continue
    if (property.type === 'integer' && /^-?\d{1,16}$/.test(text)) converted[key] = Number(text)
    if (property.type === 'boolean' && (text === 'true' || text === 'false')) converted[key] = text === 'true'
  }
  return converted
}

/** NUL (PostgreSQL: "invalid byte sequence for encoding UTF8: 0x00") and half of a surrogate pair (not UTF-8 at all). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const pointer = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`

/** The JSON pointer of the first string (value or key) holding unstorable text, or null. Iterative: a body may nest deeply. */
export function unstorableTextAt(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length) {
    const [current, path] = stack.pop()!
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return path
    } else if (current && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (UNSTORABLE.test(key)) return path + pointer(key)
        stack.push([child, path + pointer(key)])
      }
    }
  }
  return null
}

/** Each route's check is compiled at its first request, not at start-up (a hundred routes, two or three schemas each). */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let compiled: ReturnType<typeof Compile> | undefined
  return (value: unknown) => {
    const check = (compiled ??= Compile(schema))
    const unstorable = unstorableTextAt(value)
    if (unstorable !== null) return { error: [{ keyword: 'unstorableText', instancePath: unstorable, params: {} }] as never }
    const candidate = httpPart === 'body' ? value : convertText(schema as ObjectSchema, value)
    return check.Check(candidate) ? { value: candidate } : { error: check.Errors(candidate) as never }
  }
}
