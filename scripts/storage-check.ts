// npm run storage:check [-- --enregistrer]: compares every row that points at a file with its object (missing, size,
// SHA-256) and every object with a row (orphans), on the store the configuration names (STORAGE_DIR or STORAGE_URL).
// Prints a French report; exits 1 on any loss (a file missing or damaged), 2 when it cannot run.
// --enregistrer records the size and checksum of files written before they were recorded (migration 110).
import { type Config, loadConfig } from '../server/config.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { openObjectStore } from '../server/services/open-storage.ts'
import type { StorageReport } from '../server/contract/storage.ts'
import { checkStorage, formatStorageReport, storageLost } from '../server/services/storage-check.ts'
import { serverHolding } from '../server/services/server-file.ts'

export async function main(args = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--enregistrer')
  if (unknown.length) {
    out.error(`Option inconnue : ${unknown.join(' ')}. Usage : npm run storage:check [-- --enregistrer]`)
    return 2
  }
  const config = loadConfig(env)
  const recordMissing = args.includes('--enregistrer')
  let handle: Awaited<ReturnType<typeof connect>>
  try {
    handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  } catch (error) {
    if (error instanceof DataDirBusyError) return throughServer(config, error, env, recordMissing, out)
    out.error(`Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 2
  }
  try {
    await handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
    const objects = openObjectStore(config)
    out.log(`Vérification des fichiers de ${config.storageUrl ? config.storageUrl.replace(/\?.*$/, '') : config.storageDir}…`)
    const report = await handle.withoutQueryTimeout(() => checkStorage({ db: handle.db, objects, recordMissing }))
    return printed(report, out)
  } catch (error) {
    out.error(`Vérification impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 2
  } finally {
    await handle.close()
  }
}

function printed(report: StorageReport, out: Console): number {
  for (const line of formatStorageReport(report))
    (storageLost(report) && /^(MANQUANT|ENDOMMAGÉ|PERTE)/.test(line) ? out.error : out.log)(line)
  return storageLost(report) ? 1 : 0
}

/**
 * The embedded database is the running server's (PGlite admits one process): the check is done by the server, through
 * its operator API (POST /api/operator/storage-checks), found as npm run ingest finds it (server.json in DATA_DIR).
 */
async function throughServer(config: Config, busy: DataDirBusyError, env: NodeJS.ProcessEnv, recordMissing: boolean, out: Console) {
  const { server, credential } = await serverHolding(config.dataDir, busy.pid, env, config.operatorToken)
  if (!server || !credential) {
    out.error(
      `${busy.message}\nLa base embarquée n’accepte qu’un processus : ` +
        (server
          ? 'pour passer par le serveur en cours, définissez OPERATOR_API_KEY (une clé d’API du back-office) ou OPERATOR_TOKEN, '
          : '') +
        'ou arrêtez le serveur le temps de la vérification.',
    )
    return 2
  }
  out.log(`Le serveur (pid ${server.pid}) tient la base embarquée : vérification par son API opérateur, ${server.url}.`)
  try {
    const res = await fetch(`${server.url}/api/operator/storage-checks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ recordMissing }),
    })
    const answer = (await res.json().catch(() => ({}))) as StorageReport & { message?: string }
    if (!res.ok) {
      out.error(`Vérification refusée par le serveur : ${answer.message ?? `réponse ${res.status}`}`)
      return 2
    }
    return printed(answer, out)
  } catch (error) {
    out.error(`Le serveur ${server.url} ne répond pas : ${error instanceof Error ? error.message : String(error)}`)
    return 2
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main()
