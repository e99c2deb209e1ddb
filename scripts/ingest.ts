// npm run ingest: the operators' command to add mail to an order, on the embedded database
// (DATA_DIR, when the server is not running) or on DATABASE_URL.
//   npm run ingest -- --order <id> --sender "<name>" [--kind recommandé] [--received 2026-01-31T09:00:00Z] <file.pdf>
//   npm run ingest -- --order <id> --package --carrier <name> --sender <name>
//   npm run ingest -- --list
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import pino from 'pino'
import type { DocumentKind } from '../server/contract/index.ts'
import { loadConfig } from '../server/config.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { listOrdersForOperators } from '../server/db/repositories/orders.ts'
import { HttpError } from '../server/http/errors.ts'
import { DOCUMENT_KINDS, ingestLetter, ingestPackage } from '../server/services/ingest.ts'
import { outboxMailer, smtpMailer } from '../server/services/mailer.ts'
import { fsStorage } from '../server/services/storage.ts'

export const USAGE = `Ajouter du courrier à une domiciliation :
  npm run ingest -- --order <id> --sender "<expéditeur>" [--kind courrier|recommandé|administratif] [--received <date ISO>] <fichier.pdf>
  npm run ingest -- --order <id> --package --carrier <transporteur> --sender <expéditeur> [--received <date ISO>]
  npm run ingest -- --list      (les domiciliations et leurs numéros)
Base : DATABASE_URL, sinon la base embarquée de DATA_DIR (./data), serveur arrêté. Fichiers : STORAGE_DIR (./storage).`

class UsageError extends Error {}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      order: { type: 'string' },
      sender: { type: 'string' },
      kind: { type: 'string' },
      received: { type: 'string' },
      package: { type: 'boolean', default: false },
      carrier: { type: 'string' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return { command: 'help' as const }
  if (values.list) return { command: 'list' as const }
  const orderId = Number(values.order)
  if (!values.order || !/^[1-9]\d{0,9}$/.test(values.order) || orderId > 2147483647) throw new UsageError('--order doit être le numéro de la domiciliation (voir --list).')
  if (!values.sender?.trim()) throw new UsageError('--sender (l’expéditeur) est obligatoire.')
  if (values.package) {
    if (!values.carrier?.trim()) throw new UsageError('--carrier (le transporteur) est obligatoire pour un colis.')
    if (positionals.length) throw new UsageError('Un colis ne prend pas de fichier.')
    return { command: 'package' as const, parcel: { orderId, carrier: values.carrier, sender: values.sender, receivedAt: values.received } }
  }
  if (values.carrier) throw new UsageError('--carrier ne vaut que pour un colis (--package).')
  const kind = (values.kind ?? 'courrier') as DocumentKind
  if (!DOCUMENT_KINDS.includes(kind)) throw new UsageError(`--kind doit valoir ${DOCUMENT_KINDS.join(', ')}.`)
  if (positionals.length !== 1) throw new UsageError('Indiquez un et un seul fichier PDF à ajouter.')
  return { command: 'letter' as const, letter: { orderId, sender: values.sender, kind, receivedAt: values.received, file: positionals[0]! } }
}

/** Runs the command; answers the exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out = console): Promise<number> {
  let command: ReturnType<typeof parse>
  try {
    command = parse(argv)
  } catch (error) {
    out.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return 2
  }
  if (command.command === 'help') {
    out.log(USAGE)
    return 0
  }
  const config = loadConfig(env)
  let bytes: Buffer | undefined
  if (command.command === 'letter') {
    try {
      bytes = await readFile(command.letter.file)
    } catch {
      out.error(`Le fichier ${command.letter.file} est introuvable ou illisible.`)
      return 1
    }
  }
  let handle: Awaited<ReturnType<typeof connect>>
  try {
    handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  } catch (error) {
    out.error(error instanceof DataDirBusyError ? error.message : `Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  try {
    await migrateToLatest(handle.db)
    const logger = pino({ level: env.LOG_LEVEL || 'warn' })
    const deps = {
      db: handle.db,
      storage: fsStorage(config.storageDir),
      mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(handle.db, logger),
      config,
      clock: { now: () => new Date() },
    }
    if (command.command === 'list') {
      const orders = await listOrdersForOperators(handle.db)
      if (!orders.length) out.log('Aucune domiciliation.')
      for (const o of orders) out.log(`${String(o.id).padStart(5)}  ${o.raisonSociale}  (${o.status}, ${o.ownerEmail})`)
      return 0
    }
    if (command.command === 'package') {
      const parcel = await ingestPackage(deps, command.parcel)
      out.log(`Colis n° ${parcel.id} (${parcel.carrier}, de ${parcel.sender}) ajouté à ${parcel.raisonSociale} : « À retirer ».`)
      return 0
    }
    const { document, link, notified, notificationFailures } = await ingestLetter(deps, { ...command.letter, bytes: bytes! })
    out.log(`Courrier n° ${document.id} de ${document.sender} (${document.kind}, ${document.pages} page${document.pages > 1 ? 's' : ''}) ajouté à ${document.raisonSociale}.`)
    out.log(notified.length ? `Notification « Nouveau courrier de ${document.sender} » envoyée à : ${notified.join(', ')}${config.smtpUrl ? '' : ' (table outbox)'}.` : 'Personne à prévenir par e-mail.')
    if (notificationFailures.length) out.error(`La notification n’a pas pu être envoyée à : ${notificationFailures.join(', ')}.`)
    out.log(`Lien : ${link}`)
    return 0
  } catch (error) {
    out.error(error instanceof HttpError ? error.message : `Échec : ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    await handle.close()
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
