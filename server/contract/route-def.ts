// What an entry of the route table (routes.ts) is: method and path, authentication, access, kind, schemas. Each area's
// entries are in its own file (server/contract/<area>.ts).
import { Type, type TSchema } from 'typebox'

export type Auth =
  | 'none' // no token at all
  | 'apiToken' // header `apiToken: <token>`
  | 'bearer' // header `Authorization: Bearer <token>` (contract calls)
  | 'operator' // header `Authorization: Bearer <OPERATOR_TOKEN or an API key>` (the provider's machines)
  | 'operatorSession' // header `Authorization: Bearer <operator session token>` (a person of the back office)

/** What an operator of the back office may do, one or more each (docs/BACKOFFICE.md). */
export const OPERATOR_ROLES = ['admin', 'courrier', 'conformite'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

/** Who may use a route that names an order (directly or through a document, folder…). */
export type Access = 'owner' | 'member'

export interface RouteSchema {
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  response: Record<number, TSchema>
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** OpenAPI-style path: `{name}` is a parameter, every other character is literal (`:` included). */
  path: string
  auth: Auth
  /** owner: only the order's owner; member: the owner and the collaborators of a shared order. */
  access?: Access
  /** json (default), file (answers a PDF), multipart (form upload), stream (Server-Sent Events, notifications). */
  kind?: 'json' | 'file' | 'multipart' | 'stream'
  /** mail pipeline: what a file route answers when it is not a PDF. */
  fileType?: string
  summary: string
  tags: string[]
  schema: RouteSchema
  /**
   * A write that stores something, limited per signed-in user: past this many successful calls an hour, a French 429
   * and nothing done (server/http/define-route.ts counts a call once it has succeeded). The access tests check it.
   */
  perUserHourly?: number
  /** auth 'operatorSession': the roles that open the route (any one of them); absent, every active operator. */
  roles?: readonly OperatorRole[]
}

export const ok = <T extends TSchema>(schema: T) => ({ 200: schema })
export const PdfFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' })
