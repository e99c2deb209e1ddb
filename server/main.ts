// Composition root: real dependencies from the configuration (server.ts listens, tests use test/util/server.ts).
import pino from 'pino'
import { buildApp } from './app.ts'
import type { Config } from './config.ts'
import { connect } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { seedDemo } from './db/seed.ts'
import type { AppDeps } from './deps.ts'
import { outboxMailer, smtpMailer } from './services/mailer.ts'
import { stripePaymentProvider, testPaymentProvider } from './services/payment.ts'
import { fsStorage } from './services/storage.ts'
import { SWEEP_EVERY_MS, sweepStorage } from './services/storage-sweep.ts'

export async function createServer(config: Config) {
  const logger = pino({ level: config.logLevel })
  const handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    await migrateToLatest(handle.db)
    const clock = { now: () => new Date() }
    const storage = fsStorage(config.storageDir)
    const deps: AppDeps = {
      db: handle.db,
      storage,
      payments: config.stripeSecretKey ? stripePaymentProvider(config.stripeSecretKey) : testPaymentProvider(handle.db, clock.now),
      mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(handle.db, logger),
      config,
      clock,
    }
    if (config.seedDemo && (await seedDemo(handle.db, storage, { now: clock.now(), brandName: config.brandName }))) {
      logger.info('données de démonstration créées')
    }
    // What a crash left in storage (files without a row, half-written temp files): swept at start, then periodically.
    const sweep = async () => {
      const { orphans, temporary } = await sweepStorage({ db: handle.db, storage, now: clock.now() })
      if (orphans.length || temporary) logger.warn({ orphans, temporary }, 'fichiers abandonnés supprimés du stockage')
    }
    const sweepLogged = () => sweep().catch((error: unknown) => logger.error({ err: error }, 'nettoyage du stockage impossible'))
    // The first sweep runs beside the start-up instead of delaying it; closing waits for it.
    let sweeping = sweepLogged()
    const app = await buildApp(deps, { databaseKind: handle.kind, logger, trustProxy: config.trustProxy })
    const timer = setInterval(() => {
      sweeping = sweepLogged()
    }, SWEEP_EVERY_MS)
    timer.unref()
    return {
      app,
      deps,
      /** Fastify first (in-flight requests finish), then a sweep under way, then the database. */
      async close() {
        clearInterval(timer)
        await app.close()
        await sweeping
        await handle.close()
      },
    }
  } catch (error) {
    await handle.close()
    throw error
  }
}
