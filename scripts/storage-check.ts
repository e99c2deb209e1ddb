// npm run storage:check [-- --enregistrer]: compares every row that points at a file with its object (missing, size,
// SHA-256) and every object with a row (orphans), on the store the configuration names (STORAGE_DIR or STORAGE_URL).
// Prints a French report; exits 1 on any loss (a file missing or damaged), 2 when it cannot run.
// --enregistrer records the size and checksum of files written before they were recorded (migration 110).
import { loadConfig } from '../server/config.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { openObjectStore } from '../server/services/open-storage.ts'
import { checkStorage, formatStorageReport, storageLost } from '../server/services/storage-check.ts'

export async function main(args = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--enregistrer')
  if (unknown.length) {
    out.error(`Option inconnue : ${unknown.join(' ')}. Usage : npm run storage:check [-- --enregistrer]`)
    return 2
  }
  const config = loadConfig(env)
  let handle: Awaited<ReturnType<typeof connect>>
  try {
    handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  } catch (error) {
    if (error instanceof DataDirBusyError)
      out.error(
        `${error.message}\nLa base embarquée n’accepte qu’un processus : arrêtez le serveur le temps de la vérification, ` +
          'ou passez à PostgreSQL (npm run db:move), qui se vérifie serveur en marche.',
      )
    else out.error(`Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 2
  }
  try {
    await handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
    const objects = openObjectStore(config)
    out.log(`Vérification des fichiers de ${config.storageUrl ? config.storageUrl.replace(/\?.*$/, '') : config.storageDir}…`)
    const report = await handle.withoutQueryTimeout(() =>
      checkStorage({ db: handle.db, objects, recordMissing: args.includes('--enregistrer') }),
    )
    const lines = formatStorageReport(report)
    for (const line of lines) (storageLost(report) && /^(MANQUANT|ENDOMMAGÉ|PERTE)/.test(line) ? out.error : out.log)(line)
    return storageLost(report) ? 1 : 0
  } catch (error) {
    out.error(`Vérification impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 2
  } finally {
    await handle.close()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main()
