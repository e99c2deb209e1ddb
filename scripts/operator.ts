// npm run operator -- add --email … --role admin [--role courrier] [--name …]: makes an operator of the back office (the
// first administrator, before anyone can invite) and prints their single-use enrolment link.
import { parseArgs } from 'node:util'
import { loadConfig } from '../server/config.ts'
import { OPERATOR_ROLES, type OperatorRole } from '../server/contract/route-def.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { createOperator, OperatorExistsError } from '../server/db/repositories/operators.ts'
import { recordJournal } from '../server/db/repositories/operators-journal.ts'
import { roleLabels } from '../server/http/errors.ts'
import { newTotpSecret } from '../server/lib/totp.ts'
import { enrolmentUrl } from '../server/routes/operators/admin.ts'

export const USAGE = `Créer un opérateur du back-office et afficher son lien d’inscription (à usage unique, valable 7 jours) :
  npm run operator -- add --email <adresse> --role admin|courrier|conformite [--role …] [--name "<prénom nom>"]
Base : DATABASE_URL, sinon la base embarquée de DATA_DIR (./data). Lien : PUBLIC_URL.`

class UsageError extends Error {}

/** An address as the invitation route takes it: one line, a local part, an @ and a domain with a dot. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

export function parse(argv: string[]): { email: string; name: string; roles: OperatorRole[] } {
  const [command, ...rest] = argv
  if (command !== 'add') throw new UsageError(command ? `Commande inconnue : « ${command} ».` : 'Commande manquante.')
  let values: { email?: string; name?: string; role?: string[] }
  try {
    ;({ values } = parseArgs({
      args: rest,
      options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', multiple: true } },
      strict: true,
    }))
  } catch (error) {
    throw new UsageError(`Option non reconnue : ${error instanceof Error ? error.message : String(error)}`)
  }
  const email = values.email?.trim() ?? ''
  if (!email) throw new UsageError('L’adresse e-mail manque : --email <adresse>.')
  if (email.length > 254 || !EMAIL.test(email)) throw new UsageError(`« ${email} » n’est pas une adresse e-mail valide.`)
  const asked = (values.role ?? []).flatMap((role) => role.split(',')).map((role) => role.trim().toLowerCase())
  if (!asked.length) throw new UsageError('Le rôle manque : --role admin, courrier ou conformite.')
  const unknown = asked.filter((role) => !(OPERATOR_ROLES as readonly string[]).includes(role))
  if (unknown.length) throw new UsageError(`Rôle inconnu : « ${unknown.join(' », « ')} » (rôles : ${OPERATOR_ROLES.join(', ')}).`)
  const name = values.name?.trim() || email.split('@')[0]!
  if (name.length > 120 || /[\p{Cc}]/u.test(name)) throw new UsageError('Le nom doit tenir sur une ligne de 120 caractères au plus.')
  return { email, name, roles: [...new Set(asked)] as OperatorRole[] }
}

/** Runs the command; answers the exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  let operator: ReturnType<typeof parse>
  try {
    operator = parse(argv)
  } catch (error) {
    out.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return 2
  }
  const config = loadConfig(env)
  let handle: Awaited<ReturnType<typeof connect>>
  try {
    handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  } catch (error) {
    if (error instanceof DataDirBusyError)
      out.error(
        `${error.message}\nArrêtez le serveur le temps de la commande (la base embarquée n’accepte qu’un processus), puis relancez-la.`,
      )
    else out.error(`Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  try {
    await handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
    const now = new Date()
    const made = await handle.db.transaction().execute(async (tx) => {
      const invited = await createOperator(tx, { ...operator, totpSecret: newTotpSecret(), now })
      await recordJournal(tx, {
        actor: {},
        action: 'operator.invited',
        summary: `Création de l’opérateur ${invited.row.email} (${invited.row.roles.map((r) => roleLabels[r]).join(', ')}) par la commande npm run operator`,
        after: { id: invited.row.id, email: invited.row.email, name: invited.row.name, roles: invited.row.roles },
        at: now,
      })
      return invited
    })
    out.log(
      `Opérateur ${made.row.email} créé (${made.row.roles.map((r) => roleLabels[r]).join(', ')}).\n` +
        `Lien d’inscription, à usage unique, valable jusqu’au ${made.enrolmentExpiresAt.toISOString()} :\n` +
        `${enrolmentUrl(config.publicUrl, made.enrolmentToken)}`,
    )
    return 0
  } catch (error) {
    if (error instanceof OperatorExistsError) {
      out.error(`Un opérateur a déjà l’adresse ${operator.email}.`)
      return 1
    }
    throw error
  } finally {
    await handle.close()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
