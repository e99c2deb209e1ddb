// The OpenAPI document, generated from the contract's route table (served at /api/openapi.json and /api/docs).
import { ApiErrorBody } from '../contract/common.ts'
import { routes, type RouteDef } from '../contract/routes.ts'

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] }

const plain = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema))

function parameters(schema: unknown, where: 'path' | 'query') {
  if (!schema) return []
  const { properties = {}, required = [] } = plain(schema)
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: s,
  }))
}

const security: Record<RouteDef['auth'], Record<string, string[]>[]> = {
  none: [],
  apiToken: [{ apiToken: [] }],
  bearer: [{ bearer: [] }],
  operator: [{ operator: [] }],
  operatorSession: [{ operatorSession: [] }],
}

export function openApiDocument(brandName: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
    const { params, querystring, body, response } = route.schema
    const responses: Record<string, unknown> = {}
    for (const [code, schema] of Object.entries(response)) {
      responses[code] =
        route.kind === 'file' && code === '200'
          ? { description: route.fileType ?? 'PDF', content: { [route.fileType ?? 'application/pdf']: { schema: plain(schema) } } }
          : // notifications: Server-Sent Events
            route.kind === 'stream' && code === '200'
            ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: plain(schema) } } }
            : { description: code === '200' ? 'Succès' : 'Erreur', content: { 'application/json': { schema: plain(schema) } } }
    }
    const errors = route.auth === 'none' ? ['400', '404', '429'] : ['400', '401', '403', '404']
    for (const code of errors)
      responses[code] ??= { description: 'Erreur (message en français)', content: { 'application/json': { schema: plain(ApiErrorBody) } } }
    const requestBody =
      route.kind === 'multipart'
        ? {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { orderId: { type: 'integer' } },
                  additionalProperties: { type: 'string', format: 'binary' },
                },
              },
            },
          }
        : body
          ? { required: true, content: { 'application/json': { schema: plain(body) } } }
          : undefined
    paths[route.path] ??= {}
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: name,
      summary: route.summary,
      tags: route.tags,
      security: security[route.auth],
      parameters: [...parameters(params, 'path'), ...parameters(querystring, 'query')],
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(route.access ? { 'x-access': route.access } : {}),
    }
  }
  return {
    openapi: '3.0.3',
    info: {
      title: `API de l’espace client ${brandName}`,
      version: '1.0.0',
      description: 'Toutes les erreurs ont la forme { message, statusCode, code? } avec un message en français.',
    },
    components: {
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'apiToken' },
        bearer: { type: 'http', scheme: 'bearer' },
        operator: {
          type: 'http',
          scheme: 'bearer',
          description: 'Le jeton des opérateurs (variable OPERATOR_TOKEN du serveur), jamais celui d’un client.',
        },
        operatorSession: {
          type: 'http',
          scheme: 'bearer',
          description: 'La session d’un opérateur du back-office (POST /api/operator-auth/code), jamais celle d’un client.',
        },
      },
    },
    paths,
  }
}
