// npm run retention: one run of the mail retention (server/services/retention.ts), as the server does at start and
// daily: the notices due are e-mailed, the letters whose day has come are deleted with their files. For operations
// (after a long stop) and tests; running it twice does nothing more.
import pino from 'pino'
import { loadConfig } from '../server/config.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { configuredMailer } from '../server/services/mailer-configured.ts'
import { runMailRetention } from '../server/services/retention.ts'
import { openStorage } from '../server/services/open-storage.ts'

/** Runs once; answers the exit code (0 done, 1 failed or a notice not sent). */
export async function main(env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  const config = loadConfig(env)
  const logger = pino({ level: 'warn' })
  let handle: Awaited<ReturnType<typeof connect>>
  try {
    handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  } catch (error) {
    if (error instanceof DataDirBusyError)
      out.error(
        `${error.message}\nLe serveur fait déjà ce travail au démarrage puis chaque jour ; sinon, arrêtez-le le temps de la commande (la base embarquée n’accepte qu’un processus).`,
      )
    else out.error(`Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  try {
    await handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
    const result = await runMailRetention(
      {
        db: handle.db,
        storage: openStorage(config, handle.db),
        mailer: await configuredMailer(config, handle.db, logger),
        config,
        clock: { now: () => new Date() },
      },
      logger,
    )
    const letters = result.purged.reduce((sum, p) => sum + p.letters, 0)
    out.log(
      `Conservation du courrier (${config.mailRetentionMonths} mois) : ${result.noticed.length} avis envoyé(s), ` +
        `${letters} courrier(s) supprimé(s) pour ${result.purged.length} domiciliation(s).`,
    )
    if (result.failures.length) {
      out.error(`Avis non envoyé(s) pour les commandes ${result.failures.join(', ')} : nouvel essai au prochain passage.`)
      return 1
    }
    return 0
  } finally {
    await handle.close()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main()
