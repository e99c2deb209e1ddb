// Builds the API on a fresh database per test file: PGlite in memory, or a throwaway schema of DATABASE_URL's PostgreSQL.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { loadConfig, type Config } from '../../server/config.ts'
import { connect, dropSchema } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { DEMO_PASSWORD, seedDemo } from '../../server/db/seed.ts'
import type { AppDeps, Clock } from '../../server/deps.ts'
import type { Mail, Mailer } from '../../server/services/mailer.ts'
import { testPaymentProvider, type PaymentProvider } from '../../server/services/payment.ts'
import { fsStorage, type Storage } from '../../server/services/storage.ts'

export { DEMO_PASSWORD }

/** OPERATOR_TOKEN of every test app (the operator API of server/routes/operator). */
export const TEST_OPERATOR_TOKEN = 'jeton-operateur-de-test-0123456789abcdef'

export interface TestApp {
  app: FastifyInstance
  deps: AppDeps
  /** Every e-mail the app sent, newest last. */
  mails: Mail[]
  storageDir: string
  /** Moves the test clock (reset-token expiry, option confirmation…). */
  clock: Clock & { set(date: Date): void; advance(ms: number): void }
  close(): Promise<void>
}

export interface TestAppOptions {
  seed?: boolean
  config?: Partial<Config>
  storage?: (dir: string) => Storage
  payments?: (deps: Pick<AppDeps, 'db' | 'clock'>) => PaymentProvider
  /** A pino logger (e.g. to check what the logs hold); none by default. */
  logger?: FastifyBaseLogger
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = process.env.DATABASE_URL || undefined
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined
  const handle = await connect({ databaseUrl, schema, poolSize: 4 })
  const storageDir = await mkdtemp(join(tmpdir(), 'portail-storage-'))
  let now = new Date()
  const clock = { now: () => new Date(now), set: (date: Date) => { now = date }, advance: (ms: number) => { now = new Date(now.getTime() + ms) } }
  const mails: Mail[] = []
  const mailer: Mailer = { send: async (mail) => { mails.push(mail) } }
  const config: Config = {
    ...loadConfig({}),
    distDir: join(storageDir, 'no-dist'),
    storageDir,
    authRateLimit: 1000,
    operatorToken: TEST_OPERATOR_TOKEN,
    ...options.config,
  }
  await migrateToLatest(handle.db)
  const storage = (options.storage ?? fsStorage)(storageDir)
  const deps: AppDeps = {
    db: handle.db,
    storage,
    payments: options.payments?.({ db: handle.db, clock }) ?? testPaymentProvider(handle.db, clock.now),
    mailer,
    config,
    clock,
  }
  if (options.seed !== false) await seedDemo(handle.db, storage, { now: clock.now(), brandName: config.brandName })
  const app = await buildApp(deps, { databaseKind: handle.kind, ...(options.logger ? { logger: options.logger } : {}) })
  await app.ready()
  return {
    app, deps, mails, storageDir, clock,
    async close() {
      await app.close()
      await handle.close()
      if (databaseUrl && schema) await dropSchema(databaseUrl, schema)
      await rm(storageDir, { recursive: true, force: true })
    },
  }
}

export async function login(app: FastifyInstance, email = 'demo@example.com', password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username: email, password } })
  if (res.statusCode !== 200) throw new Error(`connexion de ${email} impossible : ${res.statusCode} ${res.body}`)
  return res.json().apiToken as string
}

/** A JSON call with the apiToken header. */
export function call(app: FastifyInstance, token: string | null, method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: token ? { apitoken: token } : {}, ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}) })
}

/** A JSON call with `Authorization: Bearer` (contract routes). */
export function callBearer(app: FastifyInstance, token: string, method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}) })
}

/** The orders of a user, by company name. */
export async function ordersByName(app: FastifyInstance, token: string): Promise<Record<string, { id: number; contractId: number | null; subscriptionId: string | null; isShareOrder: boolean }>> {
  const res = await call(app, token, 'GET', '/api-protected/my-domiciliation-orders')
  return Object.fromEntries(res.json().map((o: { raisonSociale: string }) => [o.raisonSociale, o]))
}

/** Waits until `probe` answers something truthy (work the server does after answering, such as a reset e-mail). */
export async function eventually<T>(probe: () => T, timeoutMs = 5000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > until) throw new Error('eventually: still nothing after ' + timeoutMs + ' ms')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
