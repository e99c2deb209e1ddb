// What every area's schemas use: the building blocks (ids, dates, single-line and free text, e-mail addresses,
// passwords), the error and message bodies, the id parameters.
import { Type, type Static } from 'typebox'
import { MIN_PASSWORD_LENGTH } from './rules/password.ts'
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN } from './rules/text.ts'

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

export const DateTime = Type.String({ format: 'date-time' })

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

/**
 * Every string a request sends is one of these (rules/text.ts), but passwords (never shown, only hashed), files (data
 * URLs) and fields held to a stricter pattern or format of their own: a single line, with no control character nor
 * bidi override; or free text, whose line breaks and tabs are kept.
 */
export const Line = (options: { minLength?: number; maxLength: number }) => Type.String({ ...options, pattern: SINGLE_LINE_PATTERN })

export const FreeText = (options: { minLength?: number; maxLength: number }) => Type.String({ ...options, pattern: MULTI_LINE_PATTERN })

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, pattern: SINGLE_LINE_PATTERN })

export const ShortText = (maxLength = 200) => Line({ minLength: 1, maxLength })

export const ApiErrorBody = Type.Object({
  message: Type.String(),
  statusCode: Type.Optional(Type.Integer()),
  code: Type.Optional(Type.String()),
})
export type ApiErrorBody = Static<typeof ApiErrorBody>

export const MessageReply = Type.Object({ message: Type.String() })
export type MessageReply = Static<typeof MessageReply>

export const BooleanResult = Type.Object({ result: Type.Boolean() })
export type BooleanResult = Static<typeof BooleanResult>

/** A password a person chooses: 12 characters at least (the common ones are refused by the handler). */
export const NewPassword = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 })

export const OrderIdQuery = Type.Object({ orderId: Type.Optional(Id) }, { additionalProperties: false })
export type OrderIdQuery = Static<typeof OrderIdQuery>

export const IsoDate = Type.String({ format: 'date' })

export const HealthReply = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  paymentProvider: Type.Union([Type.Literal('test'), Type.Literal('stripe')]),
})
export type HealthReply = Static<typeof HealthReply>

/** The secret of an invitation link (256 random bits, base64url). */
export const LinkToken = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' })

export const IdParams = Type.Object({ id: Id })

export const OrderIdParams = Type.Object({ orderId: Id })

/**
 * No query at all: the default of every route that declares none (server/http/define-route.ts); the stream's token travels in the apiToken
 * header, never in the URL.
 */
export const NoQuery = Type.Object({}, { additionalProperties: false })
