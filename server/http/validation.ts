// Validation with TypeBox: bodies strictly as sent (no coercion, unknown properties refused); path parameters
// and query strings are text, so an integer field takes only a plain decimal string ("1.5", " 1", "1e3" are refused).
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

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema)
  return (value: unknown) => {
    const candidate = httpPart === 'body' ? value : convertText(schema as ObjectSchema, value)
    return check.Check(candidate) ? { value: candidate } : { error: check.Errors(candidate) as never }
  }
}
