// Composition root: real dependencies from the configuration (server.ts listens, tests use test/util/server.ts).
import pino from 'pino'
import { buildApp } from './app.ts'
import { documentProvider, type Config } from './config.ts'
import { connect } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { seedDemo } from './demo/seed.ts'
import type { AppDeps } from './deps.ts'
import { startDigestTimer } from './services/digest.ts'
import { startRetentionTimer } from './services/retention.ts'
import { configuredMailer } from './services/mailer-configured.ts'
import { testPaymentProvider } from './services/payment.ts'
import { checkObjectStore, openStorage } from './services/open-storage.ts'
import { pruneExpiredRows } from './services/prune.ts'
import { SWEEP_EVERY_MS, sweepStorage } from './services/storage-sweep.ts'
// mail pipeline
import { startJobWorker, type JobWorker } from './services/jobs.ts'
import { LETTER_JOB, letterPipelineJob } from './services/mail-pipeline.ts'
import { SECURITY_NOTICE_JOB, securityNoticeJob } from './services/security-notice.ts'
import { tesseractOcr } from './services/ocr.ts'
// « Mes données »
import { DATA_EXPORT_JOB, dataExportJob, expireDataExports } from './services/data-export.ts'

/** The kinds of background job a worker can run (JOB_KINDS picks among them). */
export const JOB_KINDS = [LETTER_JOB, SECURITY_NOTICE_JOB, DATA_EXPORT_JOB] as const

export async function createServer(config: Config) {
  const unknownKinds = (config.jobKinds ?? []).filter((kind) => !(JOB_KINDS as readonly string[]).includes(kind))
  if (unknownKinds.length)
    throw new Error(`JOB_KINDS invalide : ${unknownKinds.join(', ')} ; les sortes de tâches sont ${JOB_KINDS.join(', ')}.`)
  const logger = pino({ level: config.logLevel })
  const handle = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    // Its code and message only: node-postgres hangs the whole client (and its prepared statements) on the error.
    onConnectionLost: (error) =>
      logger.warn(
        { code: (error as { code?: string }).code, message: error.message },
        'connexion à la base perdue : une autre sera ouverte à la prochaine requête',
      ),
  })
  // The routes are built while the database opens and migrates: PGlite's WebAssembly compiles off the main thread.
  // Without the statements' bound: a migration may take minutes on a large database (connect.ts, QUERY_TIMEOUT_MS).
  const migrated = handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
  migrated.catch(() => {}) // awaited below; not an unhandled rejection meanwhile
  try {
    const clock = { now: () => new Date() }
    const storage = openStorage(config, handle.db, {
      onDamaged: (error) => logger.error({ fileKey: error.key, detail: error.detail }, 'fichier endommagé : lecture refusée'),
    })
    const deps: AppDeps = {
      db: handle.db,
      storage,
      // Stripe's SDK and nodemailer are loaded only when configured (their own modules, their own chunks once built).
      payments: config.stripeSecretKey
        ? (await import('./services/payment-stripe.ts')).stripePaymentProvider(config.stripeSecretKey)
        : testPaymentProvider(handle.db, clock.now),
      // Every e-mail ends with the provider's particulars and the legal pages' links.
      mailer: await configuredMailer(config, handle.db, logger),
      config,
      clock,
      listen: handle.listen,
      oneAtATime: handle.oneAtATime,
      ...(handle.dump ? { dumpDatabase: handle.dump } : {}),
    }
    const app = await buildApp(deps, { databaseKind: handle.kind, logger, trustProxy: config.trustProxy })
    await checkObjectStore(config)
    await migrated
    if (
      config.seedDemo &&
      (await seedDemo(handle.db, storage, { now: clock.now(), brandName: config.brandName, seller: documentProvider(config) }))
    ) {
      logger.info('données de démonstration créées')
    }
    // What a crash left in storage (files without a row, half-written temp files): swept once the server is up, then periodically,
    // with the rows that have run out (rate-limit windows, expired sessions, reset and revert links: services/prune.ts).
    const sweep = async () => {
      // « Mes données »: a ZIP past its 7 days, removed first (its row stays, so that its link answers 410).
      const expired = await expireDataExports({ db: handle.db, storage, now: clock.now() })
      if (expired) logger.info({ expired }, 'archives « Mes données » expirées supprimées')
      const { orphans, temporary } = await sweepStorage({ db: handle.db, storage, now: clock.now() })
      if (orphans.length || temporary) logger.warn({ orphans, temporary }, 'fichiers abandonnés supprimés du stockage')
      const pruned = await pruneExpiredRows(handle.db, clock.now())
      if (Object.values(pruned).some((count) => count > 0)) logger.info(pruned, 'lignes expirées supprimées')
    }
    const sweepLogged = () => sweep().catch((error: unknown) => logger.error({ err: error }, 'nettoyage du stockage impossible'))
    let sweeping: Promise<void> = Promise.resolve()
    let timer: NodeJS.Timeout | undefined
    // mail pipeline: the background jobs (page images, text, deadlines) run beside the API.
    const ocr = tesseractOcr()
    let worker: JobWorker | null = null
    let retention: { stop(): Promise<void> } | null = null
    let closed = false
    /**
     * The work beside the API (the job worker, the storage sweep), started once the server listens and has said so:
     * neither a letter's rendering (pdf.js compiled, pages drawn) nor the sweep's file reads slow a start.
     */
    const startBackground = () => {
      if (closed || timer) return
      sweeping = sweepLogged()
      timer = setInterval(() => {
        sweeping = sweepLogged()
      }, SWEEP_EVERY_MS)
      timer.unref()
      // The mail retention of terminated orders: now, then daily (services/retention.ts).
      retention = startRetentionTimer(deps, logger)
      if (config.jobWorker) {
        const handlers = {
          [LETTER_JOB]: letterPipelineJob({ db: handle.db, storage, ocr, log: logger }),
          [SECURITY_NOTICE_JOB]: securityNoticeJob(deps),
          [DATA_EXPORT_JOB]: dataExportJob(deps, logger),
        }
        const kinds: readonly string[] = config.jobKinds ?? JOB_KINDS
        worker = startJobWorker({
          db: handle.db,
          handlers: Object.fromEntries(Object.entries(handlers).filter(([kind]) => kinds.includes(kind))),
          log: logger,
          concurrency: config.jobConcurrency,
        })
        deps.jobs = worker
      }
    }
    // notifications: the daily digest
    const digests = startDigestTimer(deps, logger)
    return {
      app,
      deps,
      startBackground,
      /** Fastify first (in-flight requests finish), then the job in hand and the OCR worker, then a sweep under way, then the database. */
      async close() {
        closed = true
        clearInterval(timer)
        await digests.stop()
        await retention?.stop()
        await app.close()
        await worker?.stop()
        await ocr.close()
        await sweeping
        await handle.close()
      },
    }
  } catch (error) {
    await migrated.catch(() => {})
    await handle.close()
    throw error
  }
}
