// npm run ingest: the operators' command to add mail to an order, on DATABASE_URL or on the embedded
// database (DATA_DIR); while a server holds the embedded database, through that server's operator API.
//   npm run ingest -- --order <id> --sender "<name>" [--kind recommandé] [--received 2026-01-31T09:00:00Z] <file.pdf>
//   npm run ingest -- --order <id> --package --carrier <name> --sender <name>
//   npm run ingest -- --list
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import type { DocumentKind, MailDocument, Package } from '../server/contract/mail.ts'
import { loadConfig } from '../server/config.ts'
import { connect, DataDirBusyError } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { listOrdersForOperators } from '../server/db/repositories/company-orders.ts'
import { HttpError } from '../server/http/errors.ts'
import { DOCUMENT_KINDS, ingestLetter, ingestPackage } from '../server/services/ingest.ts'

/** The journal's actor of a letter or package added on the database by this command: neither an operator nor a key. */
const COMMAND = {}
import { configuredMailer } from '../server/services/mailer-configured.ts'
import { openStorage } from '../server/services/open-storage.ts'
// mail pipeline: the running server's address
import { serverHolding } from '../server/services/server-file.ts'

export const USAGE = `Ajouter du courrier à une domiciliation :
  npm run ingest -- --order <id> --sender "<expéditeur>" [--kind courrier|recommandé|administratif] [--received <date ISO>] <fichier.pdf>
  npm run ingest -- --order <id> --package --carrier <transporteur> --sender <expéditeur> [--received <date ISO>]
  npm run ingest -- --list      (les domiciliations et leurs numéros)
Base : DATABASE_URL, sinon la base embarquée de DATA_DIR (./data). Fichiers : le bucket de STORAGE_URL, sinon STORAGE_DIR (./storage).
Si le serveur tourne sur la base embarquée, la commande passe par son API opérateur : une clé d’API (OPERATOR_API_KEY, créée
par un administrateur du back-office) ou, à défaut, le jeton d’amorçage OPERATOR_TOKEN.`

class UsageError extends Error {}

/** Sends of one call to the running server, the first included, when no answer comes (after 2 s, then 4 s). */
export const SEND_ATTEMPTS = 3

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
  if (!values.order || !/^[1-9]\d{0,9}$/.test(values.order) || orderId > 2147483647)
    throw new UsageError('--order doit être le numéro de la domiciliation (voir --list).')
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
  return {
    command: 'letter' as const,
    letter: { orderId, sender: values.sender, kind, receivedAt: values.received, file: positionals[0]! },
  }
}

/** Runs the command; answers the exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out = console, retryDelayMs = 2000): Promise<number> {
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
    // mail pipeline: the running server holds the embedded database; it does the work.
    if (error instanceof DataDirBusyError) return throughServer(command, bytes, config, error, out, retryDelayMs, env)
    out.error(`Connexion à la base impossible : ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  try {
    // Without the statements' bound, as the server's start (connect.ts, QUERY_TIMEOUT_MS).
    await handle.withoutQueryTimeout(() => migrateToLatest(handle.db))
    const logger = pino({ level: env.LOG_LEVEL || 'warn' })
    const deps = {
      db: handle.db,
      storage: openStorage(config, handle.db),
      mailer: await configuredMailer(config, handle.db, logger),
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
      const { parcel, notified, notificationFailures } = await ingestPackage(deps, { ...command.parcel, actor: COMMAND })
      out.log(`Colis n° ${parcel.id} (${parcel.carrier}, de ${parcel.sender}) ajouté à ${parcel.raisonSociale} : « À retirer ».`)
      if (notified.length)
        out.log(`Notification « Nouveau colis » envoyée à : ${notified.join(', ')}${config.smtpUrl ? '' : ' (table outbox)'}.`)
      if (notificationFailures.length) out.error(`La notification n’a pas pu être envoyée à : ${notificationFailures.join(', ')}.`)
      return 0
    }
    const { document, link, notified, notificationFailures } = await ingestLetter(deps, {
      ...command.letter,
      bytes: bytes!,
      actor: COMMAND,
    })
    out.log(
      `Courrier n° ${document.id} de ${document.sender} (${document.kind}, ${document.pages} page${document.pages > 1 ? 's' : ''}) ajouté à ${document.raisonSociale}.`,
    )
    out.log(
      notified.length
        ? `Notification « Nouveau courrier de ${document.sender} » envoyée à : ${notified.join(', ')}${config.smtpUrl ? '' : ' (table outbox)'}.`
        : 'Personne à prévenir par e-mail.',
    )
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

type Command = Exclude<ReturnType<typeof parse>, { command: 'help' }>

/**
 * The embedded database is the running server's: the same work through its operator API, found by
 * the file it writes in DATA_DIR (services/server-file.ts), with an API key (OPERATOR_API_KEY) or OPERATOR_TOKEN from the
 * environment.
 */
async function throughServer(
  command: Command,
  bytes: Buffer | undefined,
  config: ReturnType<typeof loadConfig>,
  busy: DataDirBusyError,
  out: Console,
  retryDelayMs: number,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { server, credential } = await serverHolding(config.dataDir, busy.pid, env, config.operatorToken)
  if (!credential) {
    out.error(
      `${busy.message}\nPour passer par le serveur en cours, définissez OPERATOR_TOKEN (le même que celui du serveur) ou OPERATOR_API_KEY (une clé d’API du back-office).`,
    )
    return 1
  }
  if (!server) {
    out.error(
      `${busy.message}\nAdresse du serveur introuvable (${join(config.dataDir, 'server.json')} absent) : est-ce bien le serveur qui l’a ouverte ?`,
    )
    return 1
  }
  // A POST carries an Idempotency-Key, one per letter or package, the same on each of its retries: when an answer is lost
  // (the connection cut, the server restarting: 502, 503, 504) it is sent again, and the server answers what the first
  // made instead of adding the letter twice and telling the customer twice.
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const key = method === 'POST' ? randomUUID() : undefined
    const headers = {
      authorization: `Bearer ${credential}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    }
    let res: Response
    for (let attempt = 1; ; attempt++) {
      try {
        res = await fetch(`${server.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) })
        if (![502, 503, 504].includes(res.status) || attempt === SEND_ATTEMPTS) break
      } catch (error) {
        if (attempt === SEND_ATTEMPTS) throw error
      }
      out.error(`Pas de réponse du serveur : nouvel essai (${attempt + 1}/${SEND_ATTEMPTS}) dans ${(retryDelayMs * attempt) / 1000} s.`)
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt))
    }
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>
    if (!res.ok)
      throw new HttpError(res.status, typeof answer.message === 'string' ? answer.message : `Le serveur a répondu ${res.status}.`, 'SERVER')
    return answer
  }
  try {
    out.log(`Le serveur (pid ${server.pid}) tient la base embarquée : envoi par son API opérateur, ${server.url}.`)
    if (command.command === 'list') {
      const orders = (await request('GET', '/api/operator/domiciliation-orders')) as unknown as {
        id: number
        raisonSociale: string
        status: string
        ownerEmail: string
      }[]
      if (!orders.length) out.log('Aucune domiciliation.')
      for (const o of orders) out.log(`${String(o.id).padStart(5)}  ${o.raisonSociale}  (${o.status}, ${o.ownerEmail})`)
      return 0
    }
    if (command.command === 'package') {
      const { orderId, ...parcel } = command.parcel
      const answer = (await request(
        'POST',
        `/api/operator/domiciliation-orders/${orderId}/packages`,
        Object.fromEntries(Object.entries(parcel).filter(([, v]) => v !== undefined)),
      )) as unknown as Package
      out.log(`Colis n° ${answer.id} (${answer.carrier}, de ${answer.sender}) ajouté à ${answer.raisonSociale} : « ${answer.status} ».`)
      return 0
    }
    const { orderId, sender, kind, receivedAt } = command.letter
    const answer = (await request('POST', `/api/operator/domiciliation-orders/${orderId}/documents`, {
      sender,
      kind,
      ...(receivedAt ? { receivedAt } : {}),
      file: `data:application/pdf;base64,${bytes!.toString('base64')}`,
    })) as unknown as { document: MailDocument; link: string; notified: string[] }
    const { document, link, notified } = answer
    out.log(
      `Courrier n° ${document.id} de ${document.sender} (${document.kind}, ${document.pages} page${document.pages > 1 ? 's' : ''}) ajouté à ${document.raisonSociale}.`,
    )
    out.log(
      notified.length
        ? `Notification « Nouveau courrier de ${document.sender} » envoyée à : ${notified.join(', ')}.`
        : 'Personne à prévenir par e-mail.',
    )
    out.log(`Lien : ${link}`)
    return 0
  } catch (error) {
    out.error(
      error instanceof HttpError
        ? error.message
        : `Le serveur ${server.url} ne répond pas : ${error instanceof Error ? error.message : String(error)}`,
    )
    return 1
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
