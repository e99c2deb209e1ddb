// npm run restore -- <dir>: a backup (npm run backup) into an empty instance, then checked against its manifest (docs/BACKUPS.md).
import { resolve } from 'node:path'
import { DataDirBusyError } from '../server/db/connect.ts'
import { BackupError, restore } from '../server/services/backup.ts'
import { openObjectStore } from '../server/services/open-storage.ts'
import { commandConfig } from './command-config.ts'

export const USAGE = `Restaurer une sauvegarde dans une instance vide (base et fichiers) :
  npm run restore -- <dossier de la sauvegarde>
Base : DATABASE_URL, sinon la base embarquée de DATA_DIR (./data), serveur arrêté. Fichiers : STORAGE_URL ou STORAGE_DIR.`

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
    out.error(`Indiquez le dossier de la sauvegarde à restaurer.\n\n${USAGE}`)
    return 2
  }
  const config = commandConfig(env, out)
  if (!config) return 1
  try {
    const report = await restore(
      resolve(argv[0]!),
      openObjectStore(config),
      config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
      (line) => out.log(line),
    )
    const rows = Object.values(report.tables).reduce((a, b) => a + b, 0)
    out.log(
      `Restauration vérifiée : ${Object.keys(report.tables).length} tables (${rows} lignes) et ${report.files} fichiers identiques au manifeste` +
        `${report.moved ? ' (base embarquée recopiée dans PostgreSQL)' : ''}. Le serveur peut démarrer.`,
    )
    return 0
  } catch (error) {
    if (error instanceof DataDirBusyError) out.error(`${error.message}\nArrêtez le serveur avant de restaurer.`)
    else
      out.error(
        error instanceof BackupError
          ? error.message
          : `Échec de la restauration : ${error instanceof Error ? error.message : String(error)}`,
      )
    return 1
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
