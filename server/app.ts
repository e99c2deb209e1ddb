// The provider API as one Fastify instance built from injected dependencies (tests use PGlite in memory and app.inject()).
import compress from '@fastify/compress'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { AppDeps } from './deps.ts'
import { routeRegistrar } from './http/define-route.ts'
import { clientErrorHandler, errorHandler, frameworkErrorHandler, HttpError, messages } from './http/errors.ts'
import { registerJsonBodyParser } from './http/json-body.ts'
import { openApiDocument } from './http/openapi.ts'
import { databaseRateLimitStore } from './http/rate-limit-store.ts'
import { securityHeaders, swaggerUiCsp } from './http/security-headers.ts'
import { spaRoutes } from './http/spa.ts'
import { validatorCompiler } from './http/validation.ts'
import { sessionRoutes } from './routes/session/index.ts'
import { billingRoutes } from './routes/billing/index.ts'
import { companyRoutes } from './routes/company/index.ts'
import { testProviderRoutes } from './routes/billing/test-provider.ts'
import { mailRoutes } from './routes/mail/index.ts'
import { notificationRoutes } from './routes/notifications/index.ts'
import type { StreamLimitOptions } from './services/notification-stream-limit.ts'
import { peopleRoutes } from './routes/people/index.ts'
import { systemRoutes } from './routes/system/index.ts'
import { operatorsRoutes } from './routes/operators/index.ts'
import { MAX_UPLOAD_BYTES } from './contract/rules/uploads.ts'
import type { TrustProxy } from './config.ts'

export interface AppOptions {
  databaseKind: 'pglite' | 'postgres'
  /** A pino logger; none in tests. */
  logger?: FastifyBaseLogger
  /** Behind a load balancer: which proxies' X-Forwarded-For gives the client IP (rate limits); see TRUST_PROXY. */
  trustProxy?: TrustProxy
  /** notifications: the live stream's heartbeat (25 s; tests shorten it). */
  notificationHeartbeatMs?: number
  /** notifications: the live streams' limit per user (its refresh and staleness; tests shorten them). */
  streamLimit?: StreamLimitOptions
}

// A Kbis of 10 MB is about 13.4 MB once base64-encoded in its data URL.
const JSON_BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024

/**
 * Fastify's own serializers (fast-json-stringify), each compiled at its route's first answer instead of all at
 * start-up: a third of a second of a start on this machine went into compiling a hundred routes' responses.
 */
const lazySerializers: NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer'] = (
  externalSchemas,
  options,
) => {
  const compile = SerializerSelector()(externalSchemas, options as never)
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => (serialize ??= compile(route as never))(data)
  }
}

/** How long a kept-alive connection whose response ends while the server closes waits for a next request. */
export const CLOSING_KEEP_ALIVE_MS = 500

/**
 * A URL as the log may keep it: the secret of a link (an invitation's token, a password link's token, an address
 * change's revert link) masked. Found in
 * review: whoever read the logs could take an invitation (create the account, reach the order's mail) from its line.
 */
export function loggableUrl(url: string): string {
  return url.replace(
    /(\/(?:api\/invitations|api-protected\/invitations|invitation|set-password|api\/email-change-reverts|retablir-adresse)\/)[^/?#]+/,
    '$1[masqué]',
  )
}

export async function buildApp(deps: AppDeps, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    // Malformed URL, id over 100 characters, unreadable request: French, with the security headers.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // One log line per request (below), not Fastify's two ("incoming request", "request completed").
    logController: new LogController({ disableRequestLogging: true }),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // Closing: the French 503 of the hook below, not Fastify's fixed English body.
    return503OnClosing: false,
  })
  const logger = options.logger
  if (logger) {
    app.addHook('onResponse', (req, reply, done) => {
      if ((logger as FastifyBaseLogger & { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')) {
        req.log.info(
          { method: req.method, url: loggableUrl(req.url), statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) },
          'requête traitée',
        )
      }
      done()
    })
  }
  app.setValidatorCompiler(validatorCompiler)
  app.setErrorHandler(errorHandler)
  // JSON nested past a few levels is refused before it is parsed (parsing it held the event loop for seconds).
  registerJsonBodyParser(app)
  app.decorateRequest('user', null)
  app.decorateRequest('operator', null)
  app.decorateRequest('apiKeyId', null)
  // cluster: which process answered, to see a balancer spread the requests (set on every reply, errors included).
  const instanceName = deps.config.instanceName
  if (instanceName)
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('X-Instance', instanceName)
    })

  // Closing (a deploy, a scale-in): a request that still arrives on an open keep-alive connection is refused with a
  // French 503 and `Connection: close` (set by Fastify), which the balancer retries on another instance
  // (deploy/haproxy.cfg), rather than run against a server that is shutting its database down.
  let closing = false
  // A connection with no request being answered holds Node's close: one that has sent nothing yet (a browser's
  // preconnect, a balancer's TCP check) or only part of its headers is not idle, so closeIdleConnections leaves it,
  // and Node stops timing connections out once closing: SIGTERM ran into the 10 s forced exit (server.ts) with the
  // database left open. Closing, those are ended at once. A request being answered finishes; its connection is then
  // kept CLOSING_KEEP_ALIVE_MS for a next request (which gets the 503 below), not Fastify's 72 s: ended by a timer of
  // ours, as Node's keep-alive timer did not always end it. A connection opened while closing (before the listening
  // socket is shut) gets the same CLOSING_KEEP_ALIVE_MS to send its request: one that sent nothing held the close 70 s.
  const connections = new Set<Socket>()
  const answering = new Set<Socket>()
  const endUnlessAnswering = (socket: Socket) =>
    setTimeout(() => {
      if (!answering.has(socket)) socket.destroy()
    }, CLOSING_KEEP_ALIVE_MS).unref()
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket)
    // The response's own 'close' (below) also comes when its connection closes.
    socket.once('close', () => connections.delete(socket))
    if (closing) endUnlessAnswering(socket)
  })
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    answering.add(socket)
    response.once('close', () => {
      answering.delete(socket)
      if (closing) endUnlessAnswering(socket)
    })
  })
  app.addHook('preClose', (done) => {
    closing = true
    for (const socket of connections) if (!answering.has(socket)) socket.destroy()
    app.server.keepAliveTimeout = CLOSING_KEEP_ALIVE_MS
    done()
  })
  // helmet's headers, computed once by running helmet itself (security-headers.ts), set by one hook: helmet's
  // plugin ran its dozen middlewares on every request to write the same constant list. The closing refusal rides on
  // the same hook, so that the 503 carries them.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(securityHeaders)
    done(closing ? new HttpError(503, messages.closing, 'SHUTTING_DOWN') : undefined)
  })
  await app.register(compress, { global: true, threshold: 1024 })
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 10 } })
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(deps.db, deps.clock),
    errorResponseBuilder: () => new HttpError(429, messages.rateLimited, 'RATE_LIMITED'),
  })

  const document = openApiDocument(deps.config.brandName, deps.config.publicUrl)
  await app.register(swagger, { mode: 'static', specification: { document: document as never } })
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: swaggerUiCsp })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => document)

  const registrar = routeRegistrar(app, deps)
  // One call per area (server/routes/<area>/index.ts registers the area's other files).
  sessionRoutes(registrar.define, deps)
  peopleRoutes(registrar.define, deps)
  mailRoutes(registrar.define, deps)
  billingRoutes(registrar.define, deps)
  companyRoutes(registrar.define, deps)
  // notifications: also ends its live streams when the app closes
  notificationRoutes(registrar.define, deps, app, options.notificationHeartbeatMs, options.streamLimit)
  operatorsRoutes(registrar.define, deps)
  systemRoutes(registrar.define, deps, options.databaseKind)
  registrar.assertComplete()
  // billing: the local test payment provider's own card form endpoint, outside our route table.
  testProviderRoutes(app, deps.payments)

  await spaRoutes(app, deps.config.distDir, { stripe: !!deps.config.stripeSecretKey, legal: deps.config.legal })
  return app
}
