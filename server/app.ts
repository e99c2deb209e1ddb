// The provider API as one Fastify instance built from injected dependencies (tests use PGlite in memory and app.inject()).
import compress from '@fastify/compress'
import helmet from '@fastify/helmet'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { AppDeps } from './deps.ts'
import { routeRegistrar } from './http/define-route.ts'
import { clientErrorHandler, errorHandler, frameworkErrorHandler, HttpError, messages } from './http/errors.ts'
import { openApiDocument } from './http/openapi.ts'
import { databaseRateLimitStore } from './http/rate-limit-store.ts'
import { helmetOptions, swaggerUiCsp } from './http/security-headers.ts'
import { spaRoutes } from './http/spa.ts'
import { validatorCompiler } from './http/validation.ts'
import { accountRoutes } from './routes/account/index.ts'
import { billingRoutes } from './routes/billing/index.ts'
import { companyRoutes } from './routes/company/index.ts'
import { testProviderRoutes } from './routes/billing/test-provider.ts'
import { contractRoutes } from './routes/contracts/index.ts'
import { invoiceRoutes } from './routes/invoices/index.ts'
import { mailRoutes } from './routes/mail/index.ts'
import { operatorRoutes } from './routes/operator/index.ts'
import { orderRoutes } from './routes/orders/index.ts'
import { peopleRoutes } from './routes/people/index.ts'
import { systemRoutes } from './routes/system/index.ts'
import { MAX_UPLOAD_BYTES } from './services/file-types.ts'

export interface AppOptions {
  databaseKind: 'pglite' | 'postgres'
  /** A pino logger; none in tests. */
  logger?: FastifyBaseLogger
  /** Behind a load balancer: take the client IP (rate limits) from X-Forwarded-For. */
  trustProxy?: boolean
}

// A Kbis of 10 MB is about 13.4 MB once base64-encoded in its data URL.
const JSON_BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024

export async function buildApp(deps: AppDeps, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    // Malformed URL, id over 100 characters, unreadable request: French, with the security headers.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setErrorHandler(errorHandler)
  app.decorateRequest('user', null)

  await app.register(helmet, helmetOptions)
  await app.register(compress, { global: true, threshold: 1024 })
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 10 } })
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(deps.db, deps.clock),
    errorResponseBuilder: () => new HttpError(429, messages.rateLimited, 'RATE_LIMITED'),
  })

  const document = openApiDocument(deps.config.brandName)
  await app.register(swagger, { mode: 'static', specification: { document: document as never } })
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: swaggerUiCsp })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => document)

  const registrar = routeRegistrar(app, deps)
  accountRoutes(registrar.define, deps)
  orderRoutes(registrar.define, deps)
  peopleRoutes(registrar.define, deps)
  mailRoutes(registrar.define, deps)
  billingRoutes(registrar.define, deps)
  invoiceRoutes(registrar.define, deps)
  contractRoutes(registrar.define, deps)
  operatorRoutes(registrar.define, deps)
  companyRoutes(registrar.define, deps)
  systemRoutes(registrar.define, deps, options.databaseKind)
  registrar.assertComplete()
  // billing: the local test payment provider's own card form endpoint, outside our route table.
  testProviderRoutes(app, deps.payments)

  await spaRoutes(app, deps.config.distDir)
  return app
}
