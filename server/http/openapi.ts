// The OpenAPI document, generated from the contract's route table (served at /api/openapi.json and /api/docs).
// OpenAPI 3.1, since the TypeBox schemas are JSON Schema 2020-12 (`type: 'null'`, `const`), which 3.0 does not read.
import { ApiErrorBody } from '../contract/common.ts'
import { routes, type Auth, type RouteDef } from '../contract/routes.ts'

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

/** Every tag a route of the table uses; typed from the table, so that a new tag without its description fails tsc. */
export type RouteTag = (typeof routes)[keyof typeof routes]['tags'][number]

export const tagDescriptions: Record<RouteTag, string> = {
  Compte: 'Connexion, mot de passe, adresse e-mail, appareils connectés et clés d’accès (passkeys) du compte.',
  Contrats: 'Les contrats de domiciliation, leur PDF, le Kbis déposé et les justificatifs d’identité.',
  Domiciliations: 'Les domiciliations (commandes) du compte et celles partagées avec lui, leur état, un problème signalé.',
  Collaborateurs: 'Le partage d’une domiciliation avec des collaborateurs, et les invitations.',
  Représentants: 'Les mandataires autorisés à retirer le courrier et les colis d’une domiciliation.',
  Courrier: 'Les courriers numérisés, leurs pages, la recherche, les échéances, les dossiers, les colis et les demandes.',
  Opérateurs: 'Les appels des machines du domiciliataire (clé d’API ou jeton d’amorçage) : courrier, colis, factures, Kbis, formalités.',
  'Back-office : connexion':
    'La connexion des opérateurs : mot de passe puis code à usage unique (TOTP) ou clé d’accès, l’inscription par lien, leurs clés d’accès.',
  'Back-office : administration': 'Les opérateurs, leurs rôles, les clés d’API et le journal de leurs actions (administrateurs).',
  'Back-office : clients':
    'La recherche des clients, la fiche d’une domiciliation et son historique, la création d’un client (« Nouveau client »).',
  'Back-office : tableau de bord': 'Les files d’attente des opérateurs : combien attendent, depuis quand, et lesquelles sont en retard.',
  'Back-office : courrier':
    'Le courrier des opérateurs (rôle Courrier) : numérisations à publier avec leur domiciliation suggérée, colis reçus et remis, réexpéditions.',
  'Back-office : conformité':
    'La conformité (rôle Conformité) : Kbis et pièces d’identité à valider ou refuser avec un motif, formalités juridiques à faire avancer, les conversations des clients (Messages) et les demandes de résiliation (Résiliations).',
  Factures: 'Les factures, les avoirs, les impayés et leur règlement, l’envoi à la comptabilité.',
  Abonnement: 'L’abonnement, ses options et la résiliation.',
  Paiement: 'La carte qui paie l’abonnement.',
  Attestations: 'Les attestations de domiciliation et leur vérification publique.',
  'Suivi comptable': 'Les offres partenaires : banques et expert-comptable.',
  Formalités: 'Les formalités juridiques demandées et leur avancement.',
  Notifications: 'La cloche, son flux en direct et les préférences d’e-mail.',
  Exploitation: 'La santé du service, pour les répartiteurs de charge.',
}

/** One security scheme per way in (route-def.ts's `auth`); 'none' routes say so with an empty requirement list. */
const security: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  apiToken: [{ apiToken: [] }],
  bearer: [{ bearer: [] }],
  operator: [{ operator: [] }],
  operatorSession: [{ operatorSession: [] }],
}

const securitySchemes = {
  apiToken: {
    type: 'apiKey',
    in: 'header',
    name: 'apiToken',
    description: 'Le jeton de session du client, rendu par POST /api/login, dans l’en-tête apiToken.',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'Le même jeton de session du client, dans l’en-tête Authorization: Bearer (appels des contrats).',
  },
  operator: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Une clé d’API des opérateurs (créée dans l’administration), ou le jeton d’amorçage OPERATOR_TOKEN ; jamais celui d’un client.',
  },
  operatorSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'La session d’un opérateur du back-office (POST /api/operator-auth/code), jamais celle d’un client.',
  },
} as const

/**
 * `publicUrl` (the configured PUBLIC_URL) names the server; without it the document points at its own origin ('/'),
 * which is right wherever the API is reached, since the document is served by the API itself.
 */
export function openApiDocument(brandName: string, publicUrl?: string) {
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
  const usedTags = [...new Set(Object.values(routes).flatMap((route): readonly string[] => route.tags))]
  return {
    openapi: '3.1.0',
    // OpenAPI 3.1's own dialect: JSON Schema 2020-12 and the OAS vocabulary (format binary, discriminator…).
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: `API de l’espace client ${brandName}`,
      version: '1.0.0',
      description: 'Toutes les erreurs ont la forme { message, statusCode, code? } avec un message en français.',
    },
    servers: [publicUrl ? { url: publicUrl, description: 'L’adresse publique du service' } : { url: '/', description: 'Ce serveur' }],
    tags: usedTags.map((name) => ({ name, description: tagDescriptions[name as RouteTag] })),
    components: { securitySchemes },
    paths,
  }
}
