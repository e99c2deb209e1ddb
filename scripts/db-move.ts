// npm run db:move -- --to postgres://…: the embedded database (DATA_DIR) copied onto an empty PostgreSQL (docs/BACKUPS.md).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { moveDatabase, MoveRefused } from '../server/db/move.ts'
import { commandConfig } from './command-config.ts'

export const USAGE = `Déplacer la base embarquée (DATA_DIR) vers une base PostgreSQL vide, serveur arrêté :
  npm run db:move -- --to postgres://utilisateur:motdepasse@hôte:5432/base
Les fichiers ne bougent pas (STORAGE_DIR ou STORAGE_URL). Ensuite, démarrez le serveur avec DATABASE_URL.`

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: Pick<Console, 'log' | 'error'> = console,
): Promise<number> {
  let to: string | undefined
  try {
    const { values } = parseArgs({ args: argv, options: { to: { type: 'string' }, help: { type: 'boolean', short: 'h' } } })
    if (values.help) {
      out.log(USAGE)
      return 0
    }
    to = values.to
  } catch (error) {
    out.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return 2
  }
  if (!to || !/^postgres(ql)?:\/\//.test(to)) {
    out.error(`--to doit être l’adresse de la base PostgreSQL cible (postgres://…).\n\n${USAGE}`)
    return 2
  }
  const config = commandConfig(env, out)
  if (!config) return 1
  if (!existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) {
    out.error(`Aucune base embarquée dans ${config.dataDir} (DATA_DIR) : rien à déplacer.`)
    return 1
  }
  let source: Awaited<ReturnType<typeof connect>>
  try {
    source = await connect({ dataDir: config.dataDir })
  } catch (error) {
    out.error(
      error instanceof DataDirBusyError
        ? `${error.message}\nArrêtez le serveur avant de déplacer la base : ce qu’il écrirait après la copie serait perdu.`
        : `Ouverture de la base embarquée impossible : ${error instanceof Error ? error.message : String(error)}`,
    )
    return 1
  }
  try {
    const target = await connect({ databaseUrl: to, poolSize: 1 })
    try {
      out.log(`Copie de ${config.dataDir} vers PostgreSQL…`)
      const report = await target.withoutQueryTimeout(() => moveDatabase(source.db, target.db, (line) => out.log(`  ${line}`)))
      const rows = Object.values(report.tables).reduce((a, b) => a + b, 0)
      out.log(
        `Base déplacée : ${Object.keys(report.tables).length} tables, ${rows} lignes, les mêmes comptes des deux côtés ; ` +
          `${Object.keys(report.sequences).length} séquences placées après le plus grand numéro. ` +
          'Démarrez maintenant le serveur avec DATABASE_URL égale à cette adresse (la base embarquée reste intacte dans DATA_DIR).',
      )
      return 0
    } finally {
      await target.close()
    }
  } catch (error) {
    out.error(
      error instanceof MoveRefused ? error.message : `Échec du déplacement : ${error instanceof Error ? error.message : String(error)}`,
    )
    return 1
  } finally {
    await source.close()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
