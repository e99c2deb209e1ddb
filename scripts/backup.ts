// npm run backup -- <dir>: the database and every stored file into a new directory, with its manifest (docs/BACKUPS.md).
// PostgreSQL (DATABASE_URL): pg_dump; the embedded database: its own dump, asked of the running server when it holds it.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { backup, BackupError, type BackupSource } from '../server/services/backup.ts'
import { openObjectStore } from '../server/services/open-storage.ts'
import { serverHolding } from '../server/services/server-file.ts'
import { commandConfig } from './command-config.ts'

export const USAGE = `Sauvegarder la base et les fichiers :
  npm run backup -- <dossier neuf>
Base : DATABASE_URL (pg_dump), sinon la base embarquée de DATA_DIR (./data) ; si le serveur la tient, elle lui est demandée
par son API opérateur avec OPERATOR_API_KEY (une clé d’API du back-office) ou OPERATOR_TOKEN. Fichiers : STORAGE_URL ou STORAGE_DIR.`

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: Pick<Console, 'log' | 'error'> = console,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out.log(USAGE)
    return 0
  }
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    out.error(`Indiquez un et un seul dossier où écrire la sauvegarde.\n\n${USAGE}`)
    return 2
  }
  const dir = resolve(argv[0]!)
  const config = commandConfig(env, out)
  if (!config) return 1
  const storage = openObjectStore(config)
  let close = async () => {}
  try {
    let source: BackupSource
    if (config.databaseUrl) source = { kind: 'postgres', url: config.databaseUrl }
    else {
      if (!existsSync(join(config.dataDir, 'pglite', 'PG_VERSION')))
        throw new BackupError(`Aucune base embarquée dans ${config.dataDir} (DATA_DIR).`)
      try {
        const handle = await connect({ dataDir: config.dataDir })
        close = () => handle.close()
        source = { kind: 'pglite', dump: () => handle.dump!() }
      } catch (error) {
        if (!(error instanceof DataDirBusyError)) throw error
        source = {
          kind: 'pglite',
          dump: await dumpThroughServer(
            config.dataDir,
            error,
            await serverHolding(config.dataDir, error.pid, env, config.operatorToken),
            out,
          ),
        }
      }
    }
    const { manifest, late } = await backup(dir, storage, source, (line) => out.log(line))
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0)
    const bytes = manifest.files.reduce((a, f) => a + f.bytes, 0)
    out.log(
      `Sauvegarde terminée dans ${dir} : ${Object.keys(manifest.database.tables).length} tables (${rows} lignes), ` +
        `${manifest.files.length} fichiers (${(bytes / 1e6).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo` +
        `${late ? `, dont ${late} écrits pendant la sauvegarde` : ''}). Manifeste : ${join(dir, 'manifest.json')}.`,
    )
    return 0
  } catch (error) {
    out.error(
      error instanceof BackupError ? error.message : `Échec de la sauvegarde : ${error instanceof Error ? error.message : String(error)}`,
    )
    return 1
  } finally {
    await close()
  }
}

/** The running server holds the embedded database: its operator API dumps it (server/routes/operators/backups.ts). */
async function dumpThroughServer(
  dataDir: string,
  busy: DataDirBusyError,
  { server, credential }: Awaited<ReturnType<typeof serverHolding>>,
  out: Pick<Console, 'log'>,
): Promise<() => Promise<Blob>> {
  if (!credential)
    throw new BackupError(
      `${busy.message}\nPour sauvegarder par le serveur en cours, définissez OPERATOR_API_KEY (une clé d’API du back-office) ou OPERATOR_TOKEN.`,
    )
  if (!server)
    throw new BackupError(
      `${busy.message}\nAdresse du serveur introuvable (${join(dataDir, 'server.json')} absent) : est-ce bien le serveur qui l’a ouverte ?`,
    )
  return async () => {
    out.log(`Le serveur (pid ${server.pid}) tient la base embarquée : elle est demandée à son API opérateur, ${server.url}.`)
    const res = await fetch(`${server.url}/api/operator/backups/database`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}` },
    })
    if (!res.ok) {
      const answer = (await res.json().catch(() => ({}))) as { message?: unknown }
      throw new BackupError(typeof answer.message === 'string' ? answer.message : `Le serveur a répondu ${res.status}.`)
    }
    return res.blob()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
