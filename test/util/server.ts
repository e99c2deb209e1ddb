// Builds the API on a fresh database per test file: PGlite in memory (from the run's migrated template,
// pglite-template.ts), or a throwaway schema of DATABASE_URL's PostgreSQL.
import { SECURITY_NOTICE_JOB, securityNoticeJob } from '../../server/services/security-notice.ts'
import { DATA_EXPORT_JOB, dataExportJob } from '../../server/services/data-export.ts'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { documentProvider, loadConfig, type Config } from '../../server/config.ts'
import { connect, dropSchema, type DbHandle } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { pgliteTemplate } from './pglite-template.ts'
import { DEMO_PASSWORD, demoOperators, seedDemo } from '../../server/demo/seed.ts'
import { totpCode } from '../../server/lib/totp.ts'
import type { AppDeps, Clock } from '../../server/deps.ts'
import { type Mail, type Mailer, withLegalFooter } from '../../server/services/mailer.ts'
import { testPaymentProvider, type PaymentProvider } from '../../server/services/payment.ts'
import { checkedStorage } from '../../server/services/checked-storage.ts'
import type { Storage } from '../../server/services/storage.ts'
import { directoryStore, s3Store, type TestStore, testS3Url, withTestPrefix } from './storage.ts'
// mail pipeline
import { findJobFor } from '../../server/db/repositories/jobs.ts'
import { runOneJob, startJobWorker, workerName, type JobHandler, type JobWorker, type WorkerOptions } from '../../server/services/jobs.ts'
import { LETTER_JOB, letterPipelineJob } from '../../server/services/mail-pipeline.ts'
import { tesseractOcr, type Ocr } from '../../server/services/ocr.ts'

export { DEMO_PASSWORD }

/** OPERATOR_TOKEN of every test app (the operator API of server/routes/operator). */
export const TEST_OPERATOR_TOKEN = 'jeton-operateur-de-test-0123456789abcdef'

export interface TestApp {
  app: FastifyInstance
  deps: AppDeps
  /** Every e-mail the app sent, newest last. */
  mails: Mail[]
  /** The temp dir of the app (STORAGE_DIR); its files only on the directory store (see storedKeys). */
  storageDir: string
  /**
   * Every stored key, sorted, on either store (with-s3.sh's STORAGE_URL: a prefix of the bucket of this app's own);
   * writes under way or abandoned as `.tmp/…`.
   */
  storedKeys(area?: string): Promise<string[]>
  /** PostgreSQL: the app's schema, also its connections' application_name; PGlite: undefined. */
  schema: string | undefined
  /** mail pipeline: the app's OCR (one tesseract worker, started on first use) and the letter job's handler. */
  ocr: Ocr
  handlers: Record<string, JobHandler>
  /** Runs the letter's queued pipeline job here and now (a letter's page images and text without a worker). */
  runLetterJob(documentId: number): Promise<void>
  /**
   * Starts a job worker on this app's database, woken by ingestion, stopped by close(); the demo letters' jobs are left aside unless
   * asked.
   */
  startWorker(options?: Partial<WorkerOptions> & { demoJobs?: boolean }): Promise<JobWorker>
  /** A second connection to the same database (PostgreSQL: the same schema; PGlite: the same instance), as a second API instance has. */
  connectAgain(): Promise<DbHandle>
  /** Moves the test clock (reset-token expiry, option confirmation…). */
  clock: Clock & { set(date: Date): void; advance(ms: number): void }
  close(): Promise<void>
}

export interface TestAppOptions {
  seed?: boolean
  config?: Partial<Config>
  /** Instead of the run's store (a temp directory, or S3 when STORAGE_URL is set). */
  storage?: (dir: string) => Storage
  payments?: (deps: Pick<AppDeps, 'db' | 'clock'>) => PaymentProvider
  /** A pino logger (e.g. to check what the logs hold); none by default. */
  logger?: FastifyBaseLogger
  /** apispeed: called with the SQL of every statement the app runs (to count a request's statements). */
  onStatement?: (sql: string) => void
  /** How long an identical call waits for the one under way (send-or-undo's keys), on this app and its connectAgain() handles. */
  oneAtATimeWaitMs?: number
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = process.env.DATABASE_URL || undefined
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined
  const onStatement = options.onStatement
  const oneAtATimeWaitMs = options.oneAtATimeWaitMs
  const handle = await connect({
    databaseUrl,
    schema,
    ...(databaseUrl ? {} : { loadDataDir: await pgliteTemplate() }),
    poolSize: 4,
    oneAtATimeWaitMs,
    ...(onStatement
      ? {
          log: (event) => {
            onStatement(event.query.sql)
          },
        }
      : {}),
  })
  const storageDir = await mkdtemp(join(tmpdir(), 'portail-storage-'))
  // With STORAGE_URL (bash scripts/with-s3.sh …) every app writes to a prefix of its own in the S3 server's bucket.
  const s3Url = testS3Url()
  const store: TestStore = s3Url ? await s3Store(withTestPrefix(s3Url, 'app')) : await directoryStore(storageDir)
  let now = new Date()
  const clock = {
    now: () => new Date(now),
    set: (date: Date) => {
      now = date
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms)
    },
  }
  const mails: Mail[] = []
  const config: Config = {
    ...loadConfig({}),
    distDir: join(storageDir, 'no-dist'),
    storageDir,
    storageUrl: store.storageUrl,
    authRateLimit: 1000,
    operatorToken: TEST_OPERATOR_TOKEN,
    ...options.config,
  }
  // As server/main.ts: every e-mail with the legal footer, as it leaves.
  const mailer: Mailer = withLegalFooter(
    {
      send: async (mail) => {
        mails.push(mail)
      },
    },
    config.legal,
  )
  await migrateToLatest(handle.db)
  // As server/main.ts (services/open-storage.ts): every file's size and SHA-256 recorded, every read checked.
  const storage = checkedStorage(options.storage ? options.storage(storageDir) : store.storage, handle.db)
  const deps: AppDeps = {
    db: handle.db,
    storage,
    payments: options.payments?.({ db: handle.db, clock }) ?? testPaymentProvider(handle.db, clock.now),
    mailer,
    config,
    clock,
    listen: handle.listen,
    oneAtATime: handle.oneAtATime,
    ...(handle.dump ? { dumpDatabase: handle.dump } : {}),
  }
  if (options.seed !== false)
    await seedDemo(handle.db, storage, { now: clock.now(), brandName: config.brandName, seller: documentProvider(config) })
  // mail pipeline
  const ocr = tesseractOcr()
  const handlers = {
    [LETTER_JOB]: letterPipelineJob({ db: handle.db, storage, ocr }),
    [SECURITY_NOTICE_JOB]: securityNoticeJob(deps),
    [DATA_EXPORT_JOB]: dataExportJob(deps),
  }
  const runLetterJob = async (documentId: number) => {
    const job = await findJobFor(handle.db, LETTER_JOB, documentId)
    if (!job) throw new Error(`aucune tâche pour le courrier ${documentId}`)
    await runOneJob({ db: handle.db, handlers, name: workerName(), only: String(job.id) })
  }
  // The sample letter of the route tests (test/util/server-samples.ts: the Boulangerie's first) has its page images.
  if (options.seed !== false) {
    const order = await handle.db
      .selectFrom('orders')
      .select('id')
      .where('raison_sociale', '=', 'Boulangerie des Lilas SAS')
      .executeTakeFirst()
    const sample =
      order &&
      (await handle.db
        .selectFrom('documents')
        .select('id')
        .where('order_id', '=', order.id)
        .where('deleted', '=', false)
        .orderBy('id')
        .executeTakeFirst())
    if (sample) await runLetterJob(sample.id)
  }
  const workers: JobWorker[] = []
  const startWorker = async ({ demoJobs = false, ...workerOptions }: Partial<WorkerOptions> & { demoJobs?: boolean } = {}) => {
    if (!demoJobs)
      await handle.db.updateTable('jobs').set({ state: 'done', finished_at: new Date() }).where('state', '=', 'queued').execute()
    const worker = startJobWorker({ db: handle.db, handlers, pollMs: 100, ...workerOptions })
    workers.push(worker)
    deps.jobs = worker
    return worker
  }
  const others: DbHandle[] = []
  const connectAgain = async () => {
    if (!databaseUrl) return { ...handle, close: async () => {} }
    const again = await connect({ databaseUrl, schema, poolSize: 4, oneAtATimeWaitMs })
    others.push(again)
    return again
  }
  const app = await buildApp(deps, { databaseKind: handle.kind, ...(options.logger ? { logger: options.logger } : {}) })
  await app.ready()
  return {
    app,
    deps,
    mails,
    storageDir,
    storedKeys: (area) => store.keys(area),
    schema,
    clock,
    ocr,
    handlers,
    runLetterJob,
    startWorker,
    connectAgain,
    async close() {
      await app.close()
      await Promise.all(workers.map((w) => w.stop()))
      await ocr.close()
      await Promise.all(others.map((o) => o.close()))
      await handle.close()
      if (databaseUrl && schema) await dropSchema(databaseUrl, schema)
      await store.close()
      await rm(storageDir, { recursive: true, force: true })
    },
  }
}

/**
 * A second API instance on the test app's database (PostgreSQL: its own connections and locks), as behind a load balancer; the caller
 * closes it.
 */
export async function secondApp(t: TestApp): Promise<FastifyInstance> {
  const handle = await t.connectAgain()
  const app = await buildApp(
    { ...t.deps, db: handle.db, listen: handle.listen, oneAtATime: handle.oneAtATime },
    { databaseKind: handle.kind },
  )
  await app.ready()
  return app
}

export async function login(app: FastifyInstance, email = 'demo@example.com', password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username: email, password } })
  if (res.statusCode !== 200) throw new Error(`connexion de ${email} impossible : ${res.statusCode} ${res.body}`)
  return res.json().apiToken as string
}

/** A JSON call with the apiToken header. */
export function call(
  app: FastifyInstance,
  token: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: token ? { apitoken: token } : {},
    ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
  })
}

/** A JSON call with `Authorization: Bearer` (contract routes). */
export function callBearer(
  app: FastifyInstance,
  token: string,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
  })
}

/** The orders of a user, by company name. */
export async function ordersByName(
  app: FastifyInstance,
  token: string,
): Promise<Record<string, { id: number; contractId: number | null; subscriptionId: string | null; isShareOrder: boolean }>> {
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

/** The demo has no Conformité-only operator: Chloé Perrin is made here (the demo password, her own TOTP secret). */
export const CONFORMITE_EMAIL = 'conformite@example.com'
export async function addConformiteOperator(t: TestApp): Promise<void> {
  const { db } = t.deps
  const demo = await db
    .selectFrom('operators')
    .select('password_hash')
    .where('email', '=', 'operateur@example.com')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('operators')
    .values({
      email: CONFORMITE_EMAIL,
      name: 'Chloé Perrin',
      roles: ['conformite'],
      totp_secret: 'MFRGGZDFMZTWQ2LKMFRGGZDFMZTWQ2LK',
      password_hash: demo.password_hash,
      totp_enrolled_at: new Date(),
    })
    .execute()
}

/**
 * Signs a demo operator in to the back office (password, then the code of their fixed TOTP secret): the test clock moves
 * on one TOTP step first, since a code once used is refused and each sign-in needs a new one.
 */
export async function operatorLogin(t: TestApp, email = 'operateur@example.com', password = DEMO_PASSWORD): Promise<string> {
  const secret =
    demoOperators.find((o) => o.email === email)?.totpSecret ??
    (await t.deps.db.selectFrom('operators').select('totp_secret').where('email', '=', email).executeTakeFirstOrThrow()).totp_secret
  t.clock.advance(30_000)
  const first = await t.app.inject({ method: 'POST', url: '/api/operator-auth/password', payload: { email, password } })
  if (first.statusCode !== 200) throw new Error(`connexion opérateur de ${email} impossible : ${first.statusCode} ${first.body}`)
  const second = await t.app.inject({
    method: 'POST',
    url: '/api/operator-auth/code',
    payload: { ticket: first.json().ticket, code: totpCode(secret, t.clock.now()) },
  })
  if (second.statusCode !== 200) throw new Error(`code opérateur de ${email} refusé : ${second.statusCode} ${second.body}`)
  return second.json().token as string
}
