// Every error leaves the API as { message (French), statusCode, code? } — ApiErrorBody in the contract.
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PaymentError } from '../lib/money.ts'
import { HIDDEN_CONTROL, MULTI_LINE_PATTERN, NOT_SINGLE_LINE, SINGLE_LINE_PATTERN } from '../contract/rules/text.ts'
import { FILE_TOO_LARGE, MAX_PDF_PAGES } from '../contract/rules/uploads.ts'
import { ROLE_LABELS } from '../contract/rules/backoffice.ts'
import { securityHeaders } from './security-headers.ts'
import { DocumentsCompleteError, InvalidSessionError, NotFoundError, OwnerOnlyError } from '../db/errors.ts'
import { DamagedFileError } from '../lib/damaged-file.ts'

export class HttpError extends Error {
  /** Already logged where it was raised, as it deserves: the error handler writes no « erreur interne » line for it. */
  readonly logged: boolean
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    options?: ErrorOptions & { logged?: boolean },
  ) {
    super(message, options)
    this.logged = options?.logged ?? false
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} introuvable.`, 'NOT_FOUND')
/** No unexpired session behind the token: the 401 of every signed-in route. */
export const invalidSessionError = () => new HttpError(401, messages.badToken, 'INVALID_TOKEN')
/** The answer to identity documents sent once the order's file is complete (POST /step-upload-identity). */
export const documentsComplete = () =>
  new HttpError(
    409,
    'Vos documents ont déjà tous été reçus : le dossier de cette domiciliation est complet, aucun autre envoi n’est nécessaire.',
    'DOCUMENTS_COMPLETE',
  )
export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code)
export const conflict = (message: string) => new HttpError(409, message, 'CONFLICT')
export const fileTooLarge = () => new HttpError(413, FILE_TOO_LARGE, 'FILE_TOO_LARGE')
/** A PDF whose compressed structure inflates beyond what the upload check reads (checkFile's 'heavy'). */
export const pdfTooHeavy = (what: string) =>
  new HttpError(
    422,
    `${what} est un PDF trop lourd à analyser : enregistrez le document à nouveau en PDF (par exemple avec « Imprimer » puis « Enregistrer au format PDF ») avant de l’envoyer.`,
    'PDF_TOO_HEAVY',
  )
/** A PDF of more pages than the upload check takes (checkFile's 'long'). */
export const pdfTooLong = (what: string) =>
  new HttpError(
    422,
    `${what} compte plus de ${MAX_PDF_PAGES.toLocaleString('fr-FR')} pages : envoyez-le en plusieurs fichiers.`,
    'PDF_TOO_LONG',
  )

/** The roles' names as the back office shows them. */
export const roleLabels: Record<string, string> = ROLE_LABELS

export const messages = {
  damagedFile:
    'Ce fichier ne peut pas être envoyé : sa copie sur nos serveurs est endommagée. L’incident est enregistré ; contactez le support pour en obtenir une copie intacte.',
  noToken: 'Veuillez vous connecter.',
  badToken: 'Session expirée ou invalide, veuillez vous reconnecter.',
  badCredentials: 'Identifiants incorrects',
  ownerOnly: 'Cette action est réservée au titulaire de la domiciliation.',
  rateLimited: 'Trop de tentatives : veuillez patienter une minute avant de réessayer.',
  /** A write limited per user in the route table (perUserHourly). */
  tooManyWrites: 'Trop de demandes de ce type en peu de temps : réessayez dans une heure.',
  internal: 'Une erreur interne est survenue, veuillez réessayer dans quelques instants.',
  unknownRoute: 'Adresse inconnue : cette ressource de l’API est introuvable.',
  operatorNoToken: 'Jeton opérateur manquant : envoyez l’en-tête Authorization: Bearer <clé d’API>.',
  operatorBadToken: 'Jeton opérateur invalide : cette clé d’API est inconnue ou révoquée.',
  operatorLocked: (minutes: number) =>
    `Trop de jetons opérateur invalides depuis cette adresse : réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`,
  operatorSessionNone: 'Veuillez vous connecter au back-office.',
  operatorSessionInvalid: 'Session du back-office expirée ou invalide : veuillez vous reconnecter.',
  /** A back-office route that none of the operator's roles opens. */
  operatorRoleRequired: (roles: readonly string[]) =>
    `Cette action est réservée aux opérateurs ayant le rôle ${roles.map((role) => `« ${roleLabels[role] ?? role} »`).join(' ou ')}.`,
  closing: 'Le serveur redémarre : veuillez réessayer dans quelques instants.',
  databaseUnavailable: 'Le service est momentanément indisponible : veuillez réessayer dans quelques instants.',
} as const

/** SQLSTATEs of a database that cannot serve: connection exceptions (class 08), shutting down or starting, out of connections. */
const UNAVAILABLE_SQLSTATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300'])
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/**
 * The database did not answer, not the request that was wrong: PostgreSQL down, restarting or failing over, a connection
 * cut mid-query, no connection free within db/connect.ts's CONNECT_TIMEOUT_MS, no answer within its QUERY_TIMEOUT_MS (a
 * host gone without closing the connection; node-postgres says these in words only).
 * A transaction cut before its COMMIT is rolled back by PostgreSQL. (A socket error of another dependency, such as an
 * SMTP server that refuses, is answered the same way: the service is unavailable for now, not broken.)
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true
  return /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout$)|is not queryable$/.test(error.message)
}

interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

const typeNames: Record<string, string> = {
  string: 'une chaîne de caractères',
  integer: 'un nombre entier',
  number: 'un nombre',
  boolean: 'un booléen (true ou false)',
  object: 'un objet',
  array: 'une liste',
  null: 'null',
}
const formatNames: Record<string, string> = {
  email: 'une adresse e-mail valide',
  date: 'une date au format AAAA-MM-JJ',
  'date-time': 'une date et heure ISO 8601',
}
const partNames: Record<string, string> = { body: 'corps de la requête', querystring: 'paramètres de l’adresse', params: 'adresse' }

function fieldLabel(path: string, part: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (segments.length === 0) return `Le ${partNames[part] ?? part}`
  const name = segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('')
  return `Le champ « ${name} »`
}

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`

/** The text rule of rules/text.ts: its refusal says what to remove, rather than « n’a pas le format attendu ». */
const textRuleRefusals: Record<string, string> = { [SINGLE_LINE_PATTERN]: NOT_SINGLE_LINE, [MULTI_LINE_PATTERN]: HIDDEN_CONTROL }
const textRuleRefusal = (issue: ValidationIssue) =>
  issue.keyword === 'pattern' ? textRuleRefusals[String(issue.params.pattern)] : undefined

/**
 * One French sentence naming the field, from the validator's first meaningful issue (a broken text rule first: an e-mail address with a
 * line break is told so).
 */
export function validationMessage(issues: ValidationIssue[], part: string): string {
  const issue =
    issues.find((i) => textRuleRefusal(i) !== undefined) ??
    issues.find((i) => !['boolean', 'anyOf', 'oneOf', 'if', 'not'].includes(i.keyword)) ??
    issues[0]
  if (!issue) return 'La requête est invalide.'
  const field = fieldLabel(issue.instancePath, part)
  const p = issue.params
  switch (issue.keyword) {
    case 'required': {
      const missing = (p.requiredProperties as string[] | undefined)?.[0] ?? (p.missingProperty as string | undefined) ?? ''
      return `${fieldLabel(`${issue.instancePath}/${missing}`, part)} est obligatoire.`
    }
    case 'additionalProperties': {
      const extra = (p.additionalProperties as string[] | undefined)?.[0] ?? (p.additionalProperty as string | undefined) ?? ''
      return `${fieldLabel(`${issue.instancePath}/${extra}`, part)} n’est pas autorisé.`
    }
    case 'type':
      return `${field} doit être ${typeNames[String(p.type)] ?? String(p.type)}.`
    case 'minLength':
      return p.limit === 1 ? `${field} ne peut pas être vide.` : `${field} doit contenir au moins ${plural(Number(p.limit), 'caractère')}.`
    case 'maxLength':
      return `${field} ne peut pas dépasser ${plural(Number(p.limit), 'caractère')}.`
    case 'format':
      return `${field} doit être ${formatNames[String(p.format)] ?? `au format ${String(p.format)}`}.`
    case 'minimum':
      return `${field} doit être supérieur ou égal à ${String(p.limit)}.`
    case 'maximum':
      return `${field} doit être inférieur ou égal à ${String(p.limit)}.`
    case 'pattern':
      return `${field} ${textRuleRefusal(issue) ?? 'n’a pas le format attendu.'}`
    case 'minItems':
      return `${field} doit contenir au moins ${plural(Number(p.limit), 'élément')}.`
    case 'maxItems':
      return `${field} ne peut pas contenir plus de ${plural(Number(p.limit), 'élément')}.`
    case 'minProperties':
      return `${field} doit contenir au moins un champ.`
    case 'const':
    case 'enum': {
      // A choice (a union of literals) reports one issue per literal at the same place: all are listed.
      const allowed = issues
        .filter((i) => i.instancePath === issue.instancePath && (i.keyword === 'const' || i.keyword === 'enum'))
        .flatMap((i) => (i.keyword === 'const' ? [i.params.allowedValue] : ((i.params.allowedValues as unknown[] | undefined) ?? [])))
      if (!allowed.length || allowed.length > 12) return `${field} n’a pas une valeur autorisée.`
      const quoted = allowed.map((value) => `« ${String(value)} »`)
      return `${field} doit valoir ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} ou ${quoted.at(-1)}` : quoted[0]}.`
    }
    case 'unstorableText':
      return `${field} contient un caractère interdit (caractère nul ou caractère Unicode incomplet).`
    default:
      return `${field} n’a pas une valeur valide.`
  }
}

/** The body limit of a route whose body carries no file (server/http/define-route.ts). */
export const SMALL_BODY_LIMIT = 256 * 1024

/** Fastify's and its plugins' errors, each with the API's own code: a client reads no framework name in an answer. */
const frameworkErrors: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Le corps de la requête n’est pas un JSON valide.', 'INVALID_JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Le corps de la requête est vide alors que du JSON est attendu.', 'EMPTY_BODY'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'Type de contenu non pris en charge : envoyez du JSON (application/json).',
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'La longueur annoncée du corps de la requête est incorrecte.', 'BAD_CONTENT_LENGTH'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, FILE_TOO_LARGE, 'BODY_TOO_LARGE'],
  FST_REQ_FILE_TOO_LARGE: [413, FILE_TOO_LARGE, 'BODY_TOO_LARGE'],
  FST_PARTS_LIMIT: [413, 'Le formulaire contient trop de champs.', 'TOO_MANY_PARTS'],
  FST_FILES_LIMIT: [413, 'Le formulaire contient trop de fichiers.', 'TOO_MANY_FILES'],
  FST_FIELDS_LIMIT: [413, 'Le formulaire contient trop de champs.', 'TOO_MANY_PARTS'],
  FST_PROTO_VIOLATION: [400, 'Le formulaire contient un nom de champ interdit.', 'FORBIDDEN_FIELD_NAME'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'Le formulaire doit être envoyé en multipart/form-data.', 'NOT_MULTIPART'],
  FST_ERR_VALIDATION: [400, 'La requête est invalide.', 'VALIDATION'],
}

/** A repository's domain error (server/db/errors.ts) as the HTTP answer it means; any other error as it is. */
export function httpErrorOf(error: unknown): unknown {
  if (error instanceof NotFoundError) return notFound(error.what)
  if (error instanceof OwnerOnlyError) return new HttpError(403, messages.ownerOnly, 'OWNER_ONLY')
  if (error instanceof InvalidSessionError) return invalidSessionError()
  if (error instanceof DocumentsCompleteError) return documentsComplete()
  // Logged where it was found (checked-storage.ts's onDamaged), with the file's key.
  if (error instanceof DamagedFileError) return new HttpError(500, messages.damagedFile, 'FILE_DAMAGED', { cause: error, logged: true })
  return error
}

export function errorHandler(thrown: FastifyError & { validationContext?: string }, req: FastifyRequest, reply: FastifyReply) {
  const error = httpErrorOf(thrown) as typeof thrown
  let statusCode = 500
  let message: string = messages.internal
  let code: string | undefined
  if (error instanceof HttpError || error instanceof PaymentError) {
    statusCode = error.statusCode
    message = error.message
    code = error instanceof HttpError ? error.code : 'PAYMENT_FAILED'
  } else if (error.validation) {
    statusCode = 400
    message = validationMessage(error.validation as ValidationIssue[], error.validationContext ?? 'body')
    code = 'VALIDATION'
  } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && req.routeOptions.bodyLimit === SMALL_BODY_LIMIT) {
    ;[statusCode, message, code] = [413, 'Le corps de la requête est trop long (256 Ko au plus).', 'BODY_TOO_LARGE']
  } else if (error.code && frameworkErrors[error.code]) {
    ;[statusCode, message, code] = frameworkErrors[error.code]!
  } else if (isDatabaseUnavailable(error)) {
    statusCode = 503
    message = messages.databaseUnavailable
    code = 'DATABASE_UNAVAILABLE'
  } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Any other client error from the framework or a plugin (malformed multipart, bad header…).
    statusCode = error.statusCode
    ;[message, code] = statusCode === 413 ? [FILE_TOO_LARGE, 'BODY_TOO_LARGE'] : ['La requête est invalide.', 'BAD_REQUEST']
  }
  // A database away (a restart, a network cut) is no bug: a warning with the error's code and message, so that an
  // outage does not flood the error log (node-postgres's errors also hang its whole client on them, as main.ts says).
  if (code === 'DATABASE_UNAVAILABLE') req.log.warn({ code: error.code, message: error.message }, 'base de données indisponible')
  else if (statusCode >= 500 && !(error instanceof HttpError && error.logged)) req.log.error({ err: error }, 'erreur interne')
  return reply
    .status(statusCode)
    .type('application/json; charset=utf-8')
    .send({ message, statusCode, ...(code ? { code } : {}) })
}

/** Errors Fastify raises before routing, so before any hook: French, with the security headers all the same. */
const routingErrors: Record<string, [number, string, string]> = {
  FST_ERR_BAD_URL: [400, 'L’adresse demandée est mal formée (encodage « % » invalide).', 'BAD_URL'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'L’adresse est trop longue : un identifiant ne peut pas dépasser 100 caractères.', 'URI_TOO_LONG'],
}

export function frameworkErrorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const [statusCode, message, code] = routingErrors[error.code] ?? [500, messages.internal, 'INTERNAL']
  if (statusCode >= 500) req.log.error({ err: error }, 'erreur interne')
  return reply.status(statusCode).headers(securityHeaders).type('application/json; charset=utf-8').send({ message, statusCode, code })
}

/** What the Node HTTP parser refuses (Fastify's clientErrorHandler): written on the socket, as Fastify's default does. */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [statusCode, message, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'L’adresse ou les en-têtes de la requête sont trop longs (16 Ko au plus).', 'HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'La requête n’est pas arrivée à temps, veuillez réessayer.', 'REQUEST_TIMEOUT']
        : [400, 'La requête HTTP est mal formée.', 'BAD_REQUEST']
  this.log.debug({ err: error }, 'requête HTTP illisible')
  if (socket.writable) {
    const body = JSON.stringify({ message, statusCode, code })
    const headers = {
      ...securityHeaders,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    }
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n${body}`,
    )
  }
  socket.destroy(error)
}
